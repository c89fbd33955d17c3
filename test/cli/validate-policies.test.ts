/**
 * `validate --policies` end to end: the real CLI process over ValidatingAdmissionPolicies, their
 * bindings and params (a ConfigMap, a custom resource of a CRD under --crds, a labelled Namespace)
 * mixed in one directory; every document's verdict held equal to a real `serve` process holding the
 * same objects, asked with `dryRun=All` (the Status of a denial, the `Warning` headers of an
 * admitted write), as a create and, with --old, as an update; audit annotations, exit codes, and a
 * MutatingAdmissionPolicies run first, as in the chain.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { kubectl, manifest, startServer, type ServerProcess } from '../e2e/harness.ts';
import { fetchRetry } from '../lib/fetch-retry.ts';
import { runCLI } from '../lib/cli.ts';

let s: ServerProcess;
let dir: string;

const validate = (...args: string[]) => runCLI('validate', ...args);

/** Documents as YAML in JSON's flow style, one file (the comment keeps readers from taking it for one JSON document). */
const docs = (...objects: object[]) => objects.map((o) => `# document\n${JSON.stringify(o, null, 1)}`).join('\n---\n') + '\n';

const crd = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'quotas.example.com' },
  spec: {
    group: 'example.com',
    scope: 'Namespaced',
    names: { plural: 'quotas', singular: 'quota', kind: 'Quota' },
    versions: [
      {
        name: 'v1',
        served: true,
        storage: true,
        schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { maxContainers: { type: 'integer' } } } } } },
      },
    ],
  },
};

const deployRule = { apiGroups: ['apps'], apiVersions: ['v1'], operations: ['CREATE', 'UPDATE'], resources: ['deployments'] };
const policies = [
  { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'prod', labels: { env: 'prod' } } },
  { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'limits', namespace: 'default' }, data: { maxReplicas: '5' } },
  { apiVersion: 'example.com/v1', kind: 'Quota', metadata: { name: 'containers', namespace: 'default' }, spec: { maxContainers: 1 } },
  {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'ValidatingAdmissionPolicy',
    metadata: { name: 'max-replicas' },
    spec: {
      paramKind: { apiVersion: 'v1', kind: 'ConfigMap' },
      matchConstraints: { resourceRules: [deployRule] },
      validations: [{ expression: 'object.spec.replicas <= int(params.data.maxReplicas)', messageExpression: "'replicas must be at most ' + params.data.maxReplicas", reason: 'Forbidden' }],
      auditAnnotations: [{ key: 'replicas', valueExpression: 'string(object.spec.replicas)' }],
    },
  },
  {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'ValidatingAdmissionPolicyBinding',
    metadata: { name: 'max-replicas' },
    spec: { policyName: 'max-replicas', validationActions: ['Deny'], paramRef: { name: 'limits', namespace: 'default', parameterNotFoundAction: 'Deny' } },
  },
  {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'ValidatingAdmissionPolicy',
    metadata: { name: 'container-count' },
    spec: {
      paramKind: { apiVersion: 'example.com/v1', kind: 'Quota' },
      matchConstraints: { resourceRules: [deployRule] },
      validations: [{ expression: 'object.spec.template.spec.containers.size() <= params.spec.maxContainers', message: 'too many containers' }],
    },
  },
  {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'ValidatingAdmissionPolicyBinding',
    metadata: { name: 'container-count-warn' },
    spec: { policyName: 'container-count', validationActions: ['Warn', 'Audit'], paramRef: { name: 'containers', namespace: 'default', parameterNotFoundAction: 'Allow' } },
  },
  {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'ValidatingAdmissionPolicy',
    metadata: { name: 'no-latest-in-prod' },
    spec: {
      matchConstraints: { resourceRules: [deployRule] },
      variables: [{ name: 'images', expression: 'object.spec.template.spec.containers.map(c, c.image)' }],
      validations: [{ expression: "variables.images.all(i, !i.endsWith(':latest'))", message: 'no :latest images in prod' }],
    },
  },
  {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'ValidatingAdmissionPolicyBinding',
    metadata: { name: 'no-latest-in-prod' },
    spec: { policyName: 'no-latest-in-prod', validationActions: ['Deny'], matchResources: { namespaceSelector: { matchLabels: { env: 'prod' } } } },
  },
  {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'ValidatingAdmissionPolicy',
    metadata: { name: 'no-scale-down' },
    spec: {
      matchConstraints: { resourceRules: [{ ...deployRule, operations: ['UPDATE'] }] },
      validations: [{ expression: 'object.spec.replicas >= oldObject.spec.replicas', message: 'replicas may not decrease' }],
    },
  },
  {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'ValidatingAdmissionPolicyBinding',
    metadata: { name: 'no-scale-down' },
    spec: { policyName: 'no-scale-down', validationActions: ['Deny'] },
  },
];

function deployment(name: string, replicas: number, opts: { ns?: string; images?: string[] } = {}) {
  const images = opts.images ?? ['nginx:1.25'];
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace: opts.ns ?? 'default' },
    spec: {
      replicas,
      selector: { matchLabels: { app: name } },
      template: { metadata: { labels: { app: name } }, spec: { containers: images.map((image, i) => ({ name: `c${i}`, image })) } },
    },
  };
}

const creates = [
  deployment('fits', 3),
  deployment('too-big', 9),
  deployment('two-containers', 2, { images: ['nginx:1.25', 'redis:7'] }),
  deployment('latest-in-default', 1, { images: ['nginx:latest'] }),
  deployment('latest-in-prod', 1, { ns: 'prod', images: ['nginx:latest'] }),
  { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'untouched', namespace: 'default' }, data: { a: 'b' } },
];
const olds = [deployment('scaled', 4)];
const updates = [deployment('scaled', 2)];

before(async () => {
  s = await startServer();
  dir = join(s.dir, 'inputs');
  mkdirSync(join(dir, 'policies', 'nested'), { recursive: true });
  writeFileSync(join(dir, 'crd.yaml'), docs(crd));
  // Policies, bindings and params split over files and directories, in no particular order.
  writeFileSync(join(dir, 'policies', 'a-bindings.yaml'), docs(...policies.filter((p) => p.kind.endsWith('Binding'))));
  writeFileSync(join(dir, 'policies', 'nested', 'policies.yaml'), docs(...policies.filter((p) => !p.kind.endsWith('Binding'))));
  writeFileSync(join(dir, 'creates.yaml'), docs(...creates));
  writeFileSync(join(dir, 'old.yaml'), docs(...olds));
  writeFileSync(join(dir, 'updates.yaml'), docs(...updates));

  for (const [name, text] of [['crd.yaml', docs(crd)]] as const) assert.equal((await kubectl(s, ['apply', '-f', manifest(s, name, text)])).code, 0);
  assert.equal((await kubectl(s, ['wait', '--for=condition=Established', 'crd/quotas.example.com'])).code, 0);
  const ns = await kubectl(s, ['apply', '-f', manifest(s, 'ns.yaml', docs(policies[0]!))]);
  assert.equal(ns.code, 0, ns.stderr);
  const r = await kubectl(s, ['apply', '-f', manifest(s, 'policies.yaml', docs(...policies.slice(1)))]);
  assert.equal(r.code, 0, r.stderr);
  assert.equal((await kubectl(s, ['apply', '-f', manifest(s, 'old.yaml', docs(...olds))])).code, 0);
  // The server's policy caches are watch-fed: wait until the denial is in force.
  for (let i = 0; i < 100; i++) {
    if ((await serverVerdict(creates[1]!)).code === 403) break;
    await new Promise((r) => setTimeout(r, 100));
  }
});
after(async () => {
  await s?.stop();
});

function collection(o: { apiVersion: string; kind: string; metadata: { namespace?: string } }): string {
  const ns = o.metadata.namespace ?? 'default';
  const plural = `${o.kind.toLowerCase()}s`;
  return o.apiVersion === 'v1' ? `/api/v1/namespaces/${ns}/${plural}` : `/apis/${o.apiVersion}/namespaces/${ns}/${plural}`;
}

/** What the server answers a dry-run create (or, with `update`, a dry-run update) of `o`. */
async function serverVerdict(o: (typeof creates)[number], update = false): Promise<{ code: number; status: unknown; warnings: string[] }> {
  let url = `${s.url}${collection(o as never)}`;
  let body: Record<string, unknown> = o;
  if (update) {
    url += `/${(o.metadata as { name: string }).name}`;
    const cur = (await (await fetchRetry(url, undefined, s.fetch)).json()) as { metadata: { resourceVersion: string } };
    body = { ...o, metadata: { ...o.metadata, resourceVersion: cur.metadata.resourceVersion } };
  }
  const res = await fetchRetry(`${url}?dryRun=All&fieldValidation=Strict`, { method: update ? 'PUT' : 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }, s.fetch);
  const warnings = (res.headers.get('warning') ?? '')
    .split(/,\s*(?=299 )/)
    .filter((w) => w !== '')
    .map((w) => JSON.parse(w.replace(/^299 - /, '')) as string);
  const json = (await res.json()) as Record<string, unknown>;
  return { code: res.status, status: res.status >= 400 ? json : { status: 'Success' }, warnings };
}

interface Line {
  document: number;
  status: { status: string; code?: number; message?: string };
  warnings?: string[];
  auditAnnotations?: Record<string, string>;
}

const parse = (stdout: string): Line[] => stdout.trim().split('\n').map((l) => JSON.parse(l) as Line);

test('each created document gets the verdict, Status and warnings of a server holding the same policies', async () => {
  const r = validate('--crds', join(dir, 'crd.yaml'), '--policies', join(dir, 'policies'), '-o', 'json', join(dir, 'creates.yaml'));
  assert.equal(r.code, 1, r.stdout + r.stderr);
  const lines = parse(r.stdout);
  assert.equal(lines.length, creates.length);
  const verdicts = lines.map((l) => l.status.status);
  assert.deepEqual(verdicts, ['Success', 'Failure', 'Success', 'Success', 'Failure', 'Success']);
  for (const [i, o] of creates.entries()) {
    const server = await serverVerdict(o);
    assert.deepEqual(lines[i]!.status, server.status, `document ${i + 1}`);
    assert.deepEqual(lines[i]!.warnings ?? [], server.warnings, `document ${i + 1} warnings`);
  }
  assert.equal(lines[1]!.status.message, `deployments.apps "too-big" is forbidden: ValidatingAdmissionPolicy 'max-replicas' with binding 'max-replicas' denied request: replicas must be at most 5`);
  assert.equal(lines[1]!.status.code, 403);
  assert.deepEqual(lines[2]!.warnings, [`Validation failed for ValidatingAdmissionPolicy 'container-count' with binding 'container-count-warn': too many containers`]);
  assert.match(lines[4]!.status.message!, /ValidatingAdmissionPolicy 'no-latest-in-prod' with binding 'no-latest-in-prod' denied request: no :latest images in prod$/);
});

test('audit annotations: auditAnnotations per policy and the validation_failure of an Audit action', () => {
  const r = validate('--crds', join(dir, 'crd.yaml'), '--policies', join(dir, 'policies'), '-o', 'json', join(dir, 'creates.yaml'));
  const lines = parse(r.stdout);
  assert.equal(lines[0]!.auditAnnotations?.['max-replicas/replicas'], '3');
  const failure = JSON.parse(lines[2]!.auditAnnotations?.['validation.policy.admission.k8s.io/validation_failure'] ?? 'null') as unknown;
  assert.deepEqual(failure, [{ message: 'too many containers', policy: 'container-count', binding: 'container-count-warn', expressionIndex: 0, validationActions: ['Warn', 'Audit'] }]);
  assert.equal(lines[5]!.auditAnnotations, undefined);
});

test('with --old, a document is judged as an UPDATE: oldObject is the old version, as on the server', async () => {
  const r = validate('--crds', join(dir, 'crd.yaml'), '--policies', join(dir, 'policies'), '--old', join(dir, 'old.yaml'), '-o', 'json', join(dir, 'updates.yaml'));
  assert.equal(r.code, 1, r.stdout + r.stderr);
  const [line] = parse(r.stdout);
  const server = await serverVerdict(updates[0]!, true);
  assert.equal(server.code, 422);
  assert.deepEqual(line!.status, server.status);
  assert.match(line!.status.message!, /ValidatingAdmissionPolicy 'no-scale-down' with binding 'no-scale-down' denied request: replicas may not decrease$/);
  // Without --old the same document is a CREATE, which that policy does not match.
  const c = validate('--crds', join(dir, 'crd.yaml'), '--policies', join(dir, 'policies'), '-o', 'json', join(dir, 'updates.yaml'));
  assert.equal(c.code, 0, c.stdout + c.stderr);
});

test('text output: the denial as kubectl prints it, warnings and annotations per document', () => {
  const r = validate('--crds', join(dir, 'crd.yaml'), '--policies', join(dir, 'policies'), join(dir, 'creates.yaml'));
  assert.equal(r.code, 1);
  assert.ok(r.stdout.includes(`Deployment/too-big: deployments.apps "too-big" is forbidden: ValidatingAdmissionPolicy 'max-replicas' with binding 'max-replicas' denied request: replicas must be at most 5\n`), r.stdout);
  assert.ok(r.stdout.includes(`Deployment/two-containers: Warning: Validation failed for ValidatingAdmissionPolicy 'container-count' with binding 'container-count-warn': too many containers\n`), r.stdout);
  assert.ok(r.stdout.includes('Deployment/fits: audit annotation max-replicas/replicas: 3\n'), r.stdout);
  assert.match(r.stdout, /6 documents: 4 valid, 2 invalid\n$/);
});

test('an invalid policy, a param of an unknown kind and a MutatingAdmissionPolicy are unusable input: exit 2', () => {
  const bad = join(dir, 'bad-policy.yaml');
  writeFileSync(bad, docs({ apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingAdmissionPolicy', metadata: { name: 'bad' }, spec: { validations: [{ expression: 'object.spec.replicas +' }] } }));
  let r = validate('--policies', bad, join(dir, 'creates.yaml'));
  assert.equal(r.code, 2);
  assert.match(r.stderr, /bad-policy\.yaml \(document 1\): ValidatingAdmissionPolicy\.admissionregistration\.k8s\.io "bad" is invalid: \[spec\.matchConstraints: Required value, spec\.validations\[0\]\.expression: Invalid value: "object\.spec\.replicas \+": compilation failed: ERROR: <input>:1:23: Syntax error: mismatched input '<EOF>'/);

  r = validate('--policies', join(dir, 'policies'), join(dir, 'creates.yaml'));
  assert.equal(r.code, 2);
  assert.match(r.stderr, /no CRD given with --crds serves kind "Quota" in version "example\.com\/v1"/);

  // A MutatingAdmissionPolicy is checked as the server checks it on create.
  const map = join(dir, 'map.yaml');
  writeFileSync(map, docs({ apiVersion: 'admissionregistration.k8s.io/v1beta1', kind: 'MutatingAdmissionPolicy', metadata: { name: 'm' }, spec: {} }));
  r = validate('--policies', map, join(dir, 'creates.yaml'));
  assert.equal(r.code, 2);
  assert.match(r.stderr, /map\.yaml \(document 1\): MutatingAdmissionPolicy\.admissionregistration\.k8s\.io "m" is invalid: /);
});

test('MutatingAdmissionPolicies run before the validating ones offline, as in the chain', () => {
  const d = join(dir, 'mutating');
  mkdirSync(d, { recursive: true });
  const rule = { apiGroups: ['apps'], apiVersions: ['v1'], operations: ['CREATE'], resources: ['deployments'] };
  writeFileSync(
    join(d, 'policies.yaml'),
    docs(
      {
        apiVersion: 'admissionregistration.k8s.io/v1beta1',
        kind: 'MutatingAdmissionPolicy',
        metadata: { name: 'add-team' },
        spec: {
          matchConstraints: { resourceRules: [rule] },
          failurePolicy: 'Fail',
          reinvocationPolicy: 'Never',
          mutations: [{ patchType: 'ApplyConfiguration', applyConfiguration: { expression: 'Object{metadata: Object.metadata{labels: {"team": "core"}}}' } }],
        },
      },
      { apiVersion: 'admissionregistration.k8s.io/v1beta1', kind: 'MutatingAdmissionPolicyBinding', metadata: { name: 'add-team' }, spec: { policyName: 'add-team' } },
      {
        apiVersion: 'admissionregistration.k8s.io/v1',
        kind: 'ValidatingAdmissionPolicy',
        metadata: { name: 'need-team' },
        spec: { matchConstraints: { resourceRules: [rule] }, validations: [{ expression: "has(object.metadata.labels) && object.metadata.labels['team'] == 'core'", message: 'team label required' }] },
      },
      { apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingAdmissionPolicyBinding', metadata: { name: 'need-team' }, spec: { policyName: 'need-team', validationActions: ['Deny'] } },
    ),
  );
  writeFileSync(join(d, 'deploy.yaml'), docs(deployment('labelled-later', 1)));
  const withMutation = validate('--policies', join(d, 'policies.yaml'), join(d, 'deploy.yaml'));
  assert.equal(withMutation.code, 0, withMutation.stdout + withMutation.stderr);
  // Without the mutating policy the same Deployment is denied.
  writeFileSync(join(d, 'only-validating.yaml'), readFileSync(join(d, 'policies.yaml'), 'utf8').split('\n---\n').slice(2).join('\n---\n'));
  const without = validate('--policies', join(d, 'only-validating.yaml'), join(d, 'deploy.yaml'));
  assert.equal(without.code, 1, without.stdout + without.stderr);
  assert.match(without.stdout, /team label required/);
});
