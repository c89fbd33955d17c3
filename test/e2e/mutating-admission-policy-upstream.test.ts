/**
 * Kubernetes' MutatingAdmissionPolicy integration tests
 * (test/integration/apiserver/cel/mutatingadmissionpolicy_test.go) against one real serve
 * process, driven by kubectl with dry-run requests: the tables as data
 * (testdata/k8s/admission-integration/mutating.json) — TestMutatingAdmissionPolicy's cases readied
 * with upstream's mutation marker and then checked exactly once, TestMutatingAdmissionPolicy_Slow's
 * retried until the expected object (as upstream does) — and
 * Test_MutatingAdmissionPolicy_CustomResources (a rule on a CRD's v1 matching its v2 requests,
 * matchPolicy Equivalent). Policies are written at v1 (upstream runs each suite at v1 and v1beta1;
 * here both versions are one storage, so one run covers them).
 *
 * Not converted: nothing of these suites needs webhooks or RBAC.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { kubectl, manifest, startServer, type ServerProcess } from './harness.ts';

type Obj = Record<string, any>;
interface MutatingCase {
  name: string;
  policies: { name: string; spec: Obj }[];
  bindings: Obj[];
  params?: Obj[];
  initial?: Obj;
  subresource?: string;
  request: Obj;
  expected: Obj;
}
const vectors = JSON.parse(readFileSync(new URL('../../testdata/k8s/admission-integration/mutating.json', import.meta.url), 'utf8')) as {
  TestMutatingAdmissionPolicy: MutatingCase[];
  TestMutatingAdmissionPolicy_Slow: MutatingCase[];
  skipped: unknown[];
};

let s: ServerProcess;
before(async () => {
  s = await startServer();
});
after(async () => {
  await s.stop();
});

const G = 'admissionregistration.k8s.io/v1';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
let fileCount = 0;

async function run(args: string[], doc?: Obj) {
  return kubectl(s, [...args, ...(doc === undefined ? [] : ['-f', manifest(s, `m-${++fileCount}.json`, JSON.stringify(doc))])]);
}
async function ok(args: string[], doc?: Obj) {
  const r = await run(args, doc);
  assert.equal(r.code, 0, `kubectl ${args.join(' ')}: ${r.stderr}`);
  return r;
}

/** withMutatingWaitReadyConstraintAndExpression. */
function withMarker(p: { name: string; spec: Obj }, id: string): Obj {
  const spec = structuredClone(p.spec);
  spec.matchConstraints.resourceRules.push({ resourceNames: ['test-marker'], operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['endpoints'] });
  spec.matchConditions = (spec.matchConditions ?? []).map((mc: Obj) => ({ ...mc, expression: `object.metadata.?labels["mutation-marker"].hasValue() || ${mc.expression}` }));
  for (const m of spec.mutations) {
    if (m.applyConfiguration) m.applyConfiguration.expression = `object.metadata.?labels["mutation-marker"].hasValue() ? Object{} : ${m.applyConfiguration.expression}`;
  }
  spec.mutations.unshift({
    patchType: 'ApplyConfiguration',
    applyConfiguration: { expression: `object.metadata.?labels["mutation-marker"] == optional.of("${id}") ? Object{ metadata: Object.metadata{ labels: {"mutated":"${id}"}}}: Object{}` },
  });
  return policyObject({ name: p.name, spec });
}
const policyObject = (p: { name: string; spec: Obj }): Obj => ({ apiVersion: G, kind: 'MutatingAdmissionPolicy', metadata: { name: p.name }, spec: p.spec });

/** createAndWaitReadyMutating: the binding, then marker dry-runs until the policy labels the marker. */
async function bindAndWait(name: string, spec: Obj, id: string): Promise<void> {
  await ok(['create'], { apiVersion: G, kind: 'MutatingAdmissionPolicyBinding', metadata: { name }, spec });
  const marker = { apiVersion: 'v1', kind: 'Endpoints', metadata: { name: 'test-marker', namespace: 'default', labels: { 'mutation-marker': id } } };
  for (let i = 0; ; i++) {
    const r = await run(['create', '--dry-run=server', '-o', 'json'], marker);
    if (r.code === 0 && (JSON.parse(r.stdout) as Obj).metadata?.labels?.mutated === id) return;
    assert.ok(i < 100, `binding ${name} never became ready: ${r.stdout}${r.stderr}`);
    await sleep(50);
  }
}

/** wipeUncheckedFields: what the cases compare. */
function checked(o: Obj): Obj {
  const m = o.metadata ?? {};
  const out: Obj = { name: m.name, labels: m.labels ?? {}, annotations: m.annotations ?? {} };
  if (o.spec !== undefined) out.spec = o.spec;
  if (o.status !== undefined) out.status = { ...o.status, conditions: (o.status.conditions ?? []).map((c: Obj) => ({ ...c, lastTransitionTime: undefined })) };
  return JSON.parse(JSON.stringify(out)) as Obj;
}

async function dryRun(c: MutatingCase): Promise<{ code: number; object?: Obj; stderr: string }> {
  const args = c.initial !== undefined ? ['replace', '--dry-run=server', '-o', 'json', ...(c.subresource ? ['--subresource', c.subresource] : [])] : ['create', '--dry-run=server', '-o', 'json'];
  const r = await run(args, c.request);
  return r.code === 0 ? { code: 0, object: JSON.parse(r.stdout) as Obj, stderr: r.stderr } : { code: r.code ?? 1, stderr: r.stderr };
}

async function setUp(c: MutatingCase, id: (policy: string) => string | undefined): Promise<string[]> {
  for (const p of c.params ?? []) await ok(['create'], p);
  for (const p of c.policies) await ok(['create'], id(p.name) === undefined ? policyObject(p) : withMarker(p, id(p.name)!));
  const names: string[] = [];
  for (const [n, b] of c.bindings.entries()) {
    const name = `${b.policyName}-binding-${n}`;
    names.push(name);
    const marker = id(b.policyName);
    if (marker === undefined) await ok(['create'], { apiVersion: G, kind: 'MutatingAdmissionPolicyBinding', metadata: { name }, spec: b });
    else await bindAndWait(name, b, marker);
  }
  if (c.initial !== undefined) await ok(['create'], c.initial);
  return names;
}

async function tearDown(c: MutatingCase, bindings: string[]): Promise<void> {
  for (const b of bindings) await ok(['delete', 'mutatingadmissionpolicybinding', b]);
  for (const p of c.policies) await ok(['delete', 'mutatingadmissionpolicy', p.name]);
  for (const p of c.params ?? []) await ok(['delete', 'configmap', p.metadata.name, '-n', p.metadata.namespace]);
  if (c.initial !== undefined) await ok(['delete', c.initial.kind.toLowerCase(), c.initial.metadata.name, '--timeout=60s']);
  // The policies' removal reaches admission before the next case: a bare dry-run is left alone.
  for (let i = 0; ; i++) {
    const r = await run(['create', '--dry-run=server', '-o', 'json'], { apiVersion: 'v1', kind: 'Endpoints', metadata: { name: 'probe', namespace: 'default', annotations: { foo: '0' } } });
    assert.equal(r.code, 0, r.stderr);
    const o = JSON.parse(r.stdout) as Obj;
    if (JSON.stringify(o.metadata.annotations) === '{"foo":"0"}' && o.metadata.labels === undefined) return;
    assert.ok(i < 100, `${c.name}: policies still in force`);
    await sleep(50);
  }
}

test('TestMutatingAdmissionPolicy: readied by the marker, then checked once', async () => {
  assert.ok(vectors.TestMutatingAdmissionPolicy.length >= 7);
  for (const [i, c] of vectors.TestMutatingAdmissionPolicy.entries()) {
    const bindings = await setUp(c, (p) => `${i}-${p}`);
    try {
      const r = await dryRun(c);
      assert.equal(r.code, 0, `${c.name}: ${r.stderr}`);
      assert.deepEqual(checked(r.object!), checked(c.expected), c.name);
    } finally {
      await tearDown(c, bindings);
    }
  }
});

test('TestMutatingAdmissionPolicy_Slow: retried until the expected object', async () => {
  assert.ok(vectors.TestMutatingAdmissionPolicy_Slow.length >= 7);
  for (const c of vectors.TestMutatingAdmissionPolicy_Slow) {
    const bindings = await setUp(c, () => undefined);
    try {
      let last: Obj | string = '';
      for (let i = 0; i < 60; i++) {
        const r = await dryRun(c);
        last = r.object ?? r.stderr;
        if (r.object !== undefined && JSON.stringify(checked(r.object)) === JSON.stringify(checked(c.expected))) break;
        await sleep(100);
      }
      assert.deepEqual(typeof last === 'string' ? last : checked(last), checked(c.expected), c.name);
    } finally {
      await tearDown(c, bindings);
    }
  }
  console.log(`mutating admission policy integration cases: ${vectors.TestMutatingAdmissionPolicy.length + vectors.TestMutatingAdmissionPolicy_Slow.length} run, ${vectors.skipped.length} skipped`);
});

test('Test_MutatingAdmissionPolicy_CustomResources: a v1 rule mutates v2 requests (matchPolicy Equivalent)', async () => {
  const crd = {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'pandas.awesome.bears.com' },
    spec: {
      group: 'awesome.bears.com',
      scope: 'Cluster',
      names: { plural: 'pandas', kind: 'Panda' },
      versions: ['v1', 'v2'].map((name) => ({
        name,
        served: true,
        storage: name === 'v1',
        schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
        subresources: { status: {}, scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas', labelSelectorPath: '.status.selector' } },
      })),
    },
  };
  await ok(['create'], crd);
  const policy = {
    name: 'match-by-match-policy-equivalent',
    spec: {
      failurePolicy: 'Fail',
      reinvocationPolicy: 'IfNeeded',
      matchConstraints: { resourceRules: [{ operations: ['*'], apiGroups: ['awesome.bears.com'], apiVersions: ['v1'], resources: ['pandas'] }] },
      mutations: [{ patchType: 'ApplyConfiguration', applyConfiguration: { expression: 'Object{ metadata: Object.metadata{ labels: {"mutated-panda": "true"} } }' } }],
    },
  };
  await ok(['create'], withMarker(policy, 'policy-equivalent'));
  await bindAndWait('match-by-match-policy-equivalent-binding', { policyName: policy.name }, 'policy-equivalent');
  for (const version of ['v1', 'v2']) {
    let labels: Obj | undefined;
    for (let i = 0; i < 100 && labels === undefined; i++) {
      const r = await run(['create', '-o', 'json'], { apiVersion: `awesome.bears.com/${version}`, kind: 'Panda', metadata: { name: `${version}-bears` } });
      if (r.code === 0) labels = (JSON.parse(r.stdout) as Obj).metadata.labels ?? {};
      else await sleep(100);
    }
    assert.deepEqual(labels, { 'mutated-panda': 'true' }, version);
  }
});
