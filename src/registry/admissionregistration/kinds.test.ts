import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { StatusError, type Status } from '../../apimachinery/index.ts';
import { builtinRegistry } from '../kinds.ts';
import type { Obj } from '../rest.ts';
import { openTempStore } from '../testing.ts';
import { admissionPolicyDefaults } from './defaults.ts';
import { desiredPolicyStatus, startPolicyStatusController } from './status-controller.ts';

const defaults = JSON.parse(readFileSync(new URL('../../../testdata/k8s/admissionregistration/defaults.json', import.meta.url), 'utf8')) as {
  cases: { name: string; resource: string; versions: string[]; object: Obj; expected: Obj }[];
};

test('admission policy defaults (upstream defaults_test.go vectors)', () => {
  assert.ok(defaults.cases.length >= 10);
  for (const c of defaults.cases) {
    const d = admissionPolicyDefaults('admissionregistration.k8s.io', c.resource);
    assert.ok(d, c.resource);
    for (const _v of c.versions) {
      const o = structuredClone(c.object);
      d(o);
      assert.deepEqual(o, c.expected, c.name);
    }
  }
  assert.equal(admissionPolicyDefaults('apps', 'deployments'), undefined);
  console.log(`admissionregistration defaults: ${defaults.cases.length} passed`);
});

const rule = { apiGroups: ['apps'], apiVersions: ['v1'], operations: ['CREATE'], resources: ['deployments'] };
const policy = (name: string, expression: string): Obj => ({
  apiVersion: 'admissionregistration.k8s.io/v1',
  kind: 'ValidatingAdmissionPolicy',
  metadata: { name },
  spec: { matchConstraints: { resourceRules: [rule] }, validations: [{ expression }] },
});

async function withKinds(fn: (kind: (version: string, resource: string) => ReturnType<typeof builtinRegistry>['kinds'][number]) => Promise<void>): Promise<void> {
  const t = await openTempStore();
  try {
    const reg = builtinRegistry({ store: t.store });
    await fn((version, resource) => reg.kinds.find((k) => k.group === 'admissionregistration.k8s.io' && k.version === version && k.resource === resource)!);
  } finally {
    await t.close();
  }
}

test('a ValidatingAdmissionPolicy is stored defaulted at generation 1, counts spec changes, and keeps status to its subresource', () =>
  withKinds(async (kind) => {
    const vap = kind('v1', 'validatingadmissionpolicies');
    const { object } = await vap.store.create(undefined, policy('p', 'true'), {});
    const spec = object.spec as Record<string, unknown>;
    assert.equal(spec.failurePolicy, 'Fail');
    assert.deepEqual(spec.matchConstraints, { resourceRules: [{ ...rule, scope: '*' }], matchPolicy: 'Equivalent', namespaceSelector: {}, objectSelector: {} });
    assert.equal((object.metadata as Obj).generation, 1);
    // A metadata-only change keeps the generation; a spec change counts; status sent to the main resource is dropped.
    const labelled = await vap.store.update(undefined, 'p', (cur) => ({ ...cur!, metadata: { ...(cur!.metadata as Obj), labels: { a: 'b' } }, status: { observedGeneration: 9 } }), {});
    assert.equal((labelled.object.metadata as Obj).generation, 1);
    assert.equal(labelled.object.status, undefined);
    const changed = await vap.store.update(undefined, 'p', (cur) => ({ ...cur!, spec: { ...(cur!.spec as Obj), failurePolicy: 'Ignore' } }), {});
    assert.equal((changed.object.metadata as Obj).generation, 2);
    // The status subresource writes status only, validated by the status rules.
    const st = await vap.store.update(undefined, 'p', (cur) => ({ ...cur!, spec: {}, status: { observedGeneration: 2 } }), { subresource: 'status' });
    assert.deepEqual(st.object.status, { observedGeneration: 2 });
    assert.equal((st.object.spec as Obj).failurePolicy, 'Ignore');
    await assert.rejects(
      vap.store.update(undefined, 'p', (cur) => ({ ...cur!, status: { typeChecking: { expressionWarnings: [{ fieldRef: 'spec.validations[0].expression' }] } } }), { subresource: 'status' }),
      (e: unknown) => e instanceof StatusError && e.status.code === 422 && e.status.message!.endsWith('status.typeChecking.expressionWarnings[0].warning: Required value'),
    );
  }));

test('an invalid policy is refused with the cluster message, the schema leaving required fields to native validation', () =>
  withKinds(async (kind) => {
    const vap = kind('v1', 'validatingadmissionpolicies');
    const bad = policy('bad', 'true');
    (bad.spec as Obj).validations = [{ message: 'x' }];
    await assert.rejects(vap.store.create(undefined, bad, {}), (e: unknown) => {
      const s = (e as StatusError).status as Status;
      assert.equal(s.code, 422);
      assert.equal(s.reason, 'Invalid');
      assert.equal(s.message, 'ValidatingAdmissionPolicy.admissionregistration.k8s.io "bad" is invalid: spec.validations[0].expression: Required value: expression is not specified');
      return true;
    });
  }));

test('MutatingAdmissionPolicy is one storage for v1beta1 and v1', () =>
  withKinds(async (kind) => {
    const v1 = kind('v1', 'mutatingadmissionpolicies');
    const beta = kind('v1beta1', 'mutatingadmissionpolicies');
    assert.equal(beta.storageVersion, 'v1');
    const map: Obj = {
      apiVersion: 'admissionregistration.k8s.io/v1beta1',
      kind: 'MutatingAdmissionPolicy',
      metadata: { name: 'm' },
      spec: { matchConstraints: { resourceRules: [rule] }, mutations: [{ patchType: 'ApplyConfiguration', applyConfiguration: { expression: 'Object{}' } }] },
    };
    const created = await beta.store.create(undefined, map, {});
    assert.equal(created.object.apiVersion, 'admissionregistration.k8s.io/v1beta1');
    assert.equal((created.object.spec as Obj).reinvocationPolicy, 'Never');
    const read = await v1.store.get(undefined, 'm');
    assert.equal(read.apiVersion, 'admissionregistration.k8s.io/v1');
    assert.deepEqual(read.spec, created.object.spec);
    await assert.rejects(beta.store.create(undefined, { ...map, metadata: { name: 'm2' }, spec: { mutations: [] } }, {}), (e: unknown) => {
      const m = (e as StatusError).status.message!;
      return m.includes('spec.mutations: Required value: mutations must contain at least one item') && m.startsWith('MutatingAdmissionPolicy.admissionregistration.k8s.io "m2" is invalid');
    });
  }));

test('the status controller sets observedGeneration, and typeChecking once a type checker is given', () =>
  withKinds(async (kind) => {
    const vap = kind('v1', 'validatingadmissionpolicies');
    await vap.store.create(undefined, policy('p', 'true'), {});
    const c = startPolicyStatusController(vap.store);
    try {
      await c.idle();
      assert.deepEqual((await vap.store.get(undefined, 'p')).status, { observedGeneration: 1 });
      await vap.store.update(undefined, 'p', (cur) => ({ ...cur!, spec: { ...(cur!.spec as Obj), failurePolicy: 'Ignore' } }), {});
      const deadline = Date.now() + 5000;
      let status: unknown;
      while (Date.now() < deadline) {
        await c.idle();
        status = (await vap.store.get(undefined, 'p')).status;
        if ((status as Obj | undefined)?.observedGeneration === 2) break;
        await new Promise((r) => setTimeout(r, 20));
      }
      assert.deepEqual(status, { observedGeneration: 2 });
    } finally {
      c.stop();
    }
    const p = await vap.store.get(undefined, 'p');
    assert.deepEqual(await desiredPolicyStatus(p, { check: () => [] }), { observedGeneration: 2, typeChecking: {} });
    assert.deepEqual(await desiredPolicyStatus(p, { check: () => [{ fieldRef: 'spec.validations[0].expression', warning: 'w' }] }), {
      observedGeneration: 2,
      typeChecking: { expressionWarnings: [{ fieldRef: 'spec.validations[0].expression', warning: 'w' }] },
    });
  }));
