/**
 * Writes to a CRD converted by webhook, end to end: kubectl against one real `serve` process and
 * a node:https conversion webhook written here (v1beta1's `spec.cronSpec` is v1's
 * `spec.schedule`; every converted object is labelled with the version it was converted to).
 * Admission policies and webhooks matching v1beta1 see a v1 request's object as the webhook
 * converts it, and a mutation made there comes back through it; server-side apply at v1 after an update at
 * v1beta1 computes ownership through the webhook; dry runs call the webhook, are refused with
 * its error, store nothing, and answer with the object converted back.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { kubectl, manifest, startServer, type ServerProcess } from './harness.ts';
import { makeTestCA, type TestCA } from '../lib/certs.ts';
import { jsonPatch, startWebhookServer, type WebhookServer } from '../lib/webhook-server.ts';
import { convertCronTab } from './crontab-conversion.ts';

let s: ServerProcess;
let ca: TestCA;
let hooks: WebhookServer;

type Obj = Record<string, any>;
const G = 'stable.example.com';

/** The desired versions the webhook refuses to convert to (the tests switch it). */
const refusing = new Set<string>();

/** The CronTab conversion, marking each object with the version it was converted to. */
function convertOne(o: Obj, desired: string): Obj {
  const out = convertCronTab(o, desired);
  out.metadata = { ...out.metadata, labels: { ...(out.metadata?.labels ?? {}), 'converted-to': desired.split('/')[1] } };
  return out;
}

function review(r: Obj): Obj {
  const req = r.request as Obj;
  const result = refusing.has(req.desiredAPIVersion) ? { status: 'Failure', message: `no conversion to ${req.desiredAPIVersion}` } : { status: 'Success' };
  const convertedObjects = result.status === 'Success' ? (req.objects as Obj[]).map((o) => convertOne(o, req.desiredAPIVersion)) : [];
  return { apiVersion: r.apiVersion, kind: 'ConversionReview', response: { uid: req.uid, result, convertedObjects } };
}

const crdYAML = () => `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: crontabs.${G}
spec:
  group: ${G}
  scope: Namespaced
  names: {plural: crontabs, singular: crontab, kind: CronTab}
  conversion:
    strategy: Webhook
    webhook:
      conversionReviewVersions: [v1]
      clientConfig:
        url: ${hooks.url}/convert
        caBundle: ${ca.caBundle}
  versions:
  - name: v1beta1
    served: true
    storage: false
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              cronSpec: {type: string}
              image: {type: string}
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              schedule: {type: string}
              image: {type: string}
`;

const crontab = (name: string, version: 'v1' | 'v1beta1', value: string, labels: Record<string, string> = {}) => `apiVersion: ${G}/${version}
kind: CronTab
metadata:
  name: ${name}
  namespace: default
  labels: {${Object.entries(labels).map(([k, v]) => `${k}: "${v}"`).join(', ')}}
spec:
  ${version === 'v1' ? 'schedule' : 'cronSpec'}: "${value}"
`;

async function run(args: string[], stdin?: string) {
  return kubectl(s, args, stdin);
}

async function ok(args: string[], stdin?: string) {
  const r = await run(args, stdin);
  assert.equal(r.code, 0, `kubectl ${args.join(' ')}: ${r.stderr}`);
  return r;
}

async function getJSON(args: string[]): Promise<Obj> {
  return JSON.parse((await ok(['get', ...args, '-o', 'json'])).stdout) as Obj;
}

/** Retries `f` while a just-written policy is not yet in force (the caches are watch-fed). */
async function eventually<T>(f: () => Promise<T>): Promise<T> {
  for (let i = 0; ; i++) {
    try {
      return await f();
    } catch (e) {
      if (i >= 50) throw e;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

const rules = (label: string) => `  matchConstraints:
    matchPolicy: Equivalent
    objectSelector: {matchLabels: {${label}: "on"}}
    resourceRules:
    - apiGroups: [${G}]
      apiVersions: [v1beta1]
      operations: [CREATE, UPDATE]
      resources: [crontabs]
`;

before(async () => {
  ca = makeTestCA();
  hooks = await startWebhookServer(ca.serving());
  hooks.on('/convert', (r) => ({ raw: { status: 200, body: JSON.stringify(review(r as unknown as Obj)) } }));
  s = await startServer();
  await ok(['apply', '-f', manifest(s, 'crd.yaml', crdYAML())]);
  await ok(['wait', '--for=condition=Established', `crd/crontabs.${G}`]);
});
after(async () => {
  await s?.stop();
  await hooks?.close();
  ca?.remove();
});

test('a ValidatingAdmissionPolicy matching v1beta1 sees a v1 request\'s object as the webhook converts it; a failed conversion refuses under Fail', async () => {
  await ok([
    'apply',
    '-f',
    manifest(
      s,
      'vap.yaml',
      `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {name: beta-shape}
spec:
  failurePolicy: Fail
${rules('vap')}  validations:
  - expression: "object.spec.cronSpec != 'bad'"
    messageExpression: "'saw ' + object.apiVersion + ' cronSpec=' + object.spec.cronSpec + ' converted-to=' + object.metadata.labels['converted-to']"
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata: {name: beta-shape}
spec:
  policyName: beta-shape
  validationActions: [Deny]
`,
    ),
  ]);
  const denied = await eventually(async () => {
    const r = await run(['create', '-f', '-'], crontab('vap-bad', 'v1', 'bad', { vap: 'on' }));
    assert.notEqual(r.code, 0, 'the policy is in force');
    return r;
  });
  assert.match(denied.stderr, /ValidatingAdmissionPolicy 'beta-shape' with binding 'beta-shape' denied request: saw stable.example.com\/v1beta1 cronSpec=bad converted-to=v1beta1/);
  // Set apiVersion alone, the policy would find no spec.cronSpec and fail on every object.
  await ok(['create', '-f', '-'], crontab('vap-good', 'v1', 'good', { vap: 'on' }));
  assert.equal((await getJSON(['crontabs.v1.stable.example.com', 'vap-good'])).spec.schedule, 'good');

  refusing.add(`${G}/v1beta1`);
  try {
    const r = await run(['create', '-f', '-'], crontab('vap-unconverted', 'v1', 'good', { vap: 'on' }));
    assert.notEqual(r.code, 0);
    assert.match(
      r.stderr,
      /ValidatingAdmissionPolicy 'beta-shape' with binding 'beta-shape' denied request: failed to configure binding: failed to convert object version: conversion webhook for stable.example.com\/v1, Kind=CronTab failed: no conversion to stable.example.com\/v1beta1/,
    );
  } finally {
    refusing.delete(`${G}/v1beta1`);
  }
  assert.notEqual((await run(['get', 'crontabs.v1.stable.example.com', 'vap-unconverted'])).code, 0);
});

test('a MutatingAdmissionPolicy matching v1beta1 mutates the converted object, and the change comes back to v1 through the webhook', async () => {
  await ok([
    'apply',
    '-f',
    manifest(
      s,
      'map.yaml',
      `apiVersion: admissionregistration.k8s.io/v1beta1
kind: MutatingAdmissionPolicy
metadata: {name: beta-suffix}
spec:
  failurePolicy: Fail
${rules('map')}  mutations:
  - patchType: ApplyConfiguration
    applyConfiguration:
      expression: "Object{spec: Object.spec{cronSpec: object.spec.cronSpec + '-seen-as-beta'}}"
---
apiVersion: admissionregistration.k8s.io/v1beta1
kind: MutatingAdmissionPolicyBinding
metadata: {name: beta-suffix}
spec:
  policyName: beta-suffix
`,
    ),
  ]);
  const got = await eventually(async () => {
    await run(['delete', 'crontabs.v1.stable.example.com', 'map-one', '--ignore-not-found']);
    await ok(['create', '-f', '-'], crontab('map-one', 'v1', '*/5', { map: 'on' }));
    const o = await getJSON(['crontabs.v1.stable.example.com', 'map-one']);
    assert.equal(o.spec.schedule, '*/5-seen-as-beta', 'the policy is in force');
    return o;
  });
  assert.deepEqual(got.spec, { schedule: '*/5-seen-as-beta' });
});

test('a mutating admission webhook matching v1beta1 gets a v1 request\'s object converted by the webhook; its patch comes back to v1', async () => {
  hooks.on('/beta-mutate', (r) => {
    const o = r.request.object as Obj;
    return { allowed: true, ...jsonPatch([{ op: 'replace', path: '/spec/cronSpec', value: `${String(o.spec.cronSpec)}-hooked` }]) };
  });
  await ok([
    'apply',
    '-f',
    manifest(
      s,
      'hook.yaml',
      `apiVersion: admissionregistration.k8s.io/v1
kind: MutatingWebhookConfiguration
metadata: {name: beta-hook}
webhooks:
- name: beta.hook.example.com
  admissionReviewVersions: [v1]
  sideEffects: None
  matchPolicy: Equivalent
  objectSelector: {matchLabels: {wh: "on"}}
  rules:
  - apiGroups: [${G}]
    apiVersions: [v1beta1]
    operations: [CREATE]
    resources: [crontabs]
  clientConfig:
    url: ${hooks.url}/beta-mutate
    caBundle: ${ca.caBundle}
`,
    ),
  ]);
  const got = await eventually(async () => {
    await run(['delete', 'crontabs.v1.stable.example.com', 'hooked', '--ignore-not-found']);
    await ok(['create', '-f', '-'], crontab('hooked', 'v1', '*/7', { wh: 'on' }));
    const o = await getJSON(['crontabs.v1.stable.example.com', 'hooked']);
    assert.equal(o.spec.schedule, '*/7-hooked', 'the webhook is in force');
    return o;
  });
  assert.deepEqual(got.spec, { schedule: '*/7-hooked' });
  const seen = (hooks.received.get('/beta-mutate') ?? []).at(-1)!.request;
  assert.deepEqual(seen.kind, { group: G, version: 'v1beta1', kind: 'CronTab' });
  assert.deepEqual(seen.requestKind, { group: G, version: 'v1', kind: 'CronTab' });
  const object = seen.object as Obj;
  assert.equal(object.apiVersion, `${G}/v1beta1`);
  assert.deepEqual(object.spec, { cronSpec: '*/7' });
  assert.equal(object.metadata.labels['converted-to'], 'v1beta1');
});

test('an apply at v1 after an update at v1beta1 conflicts on the converted field, and force takes it from the v1beta1 manager', async () => {
  await ok(['create', '-f', '-', '--field-manager=beta-editor'], crontab('owned', 'v1beta1', 'one'));
  await ok(['patch', 'crontabs.v1beta1.stable.example.com', 'owned', '--type=merge', '-p', '{"spec":{"cronSpec":"two","image":"img"}}', '--field-manager=beta-editor']);
  const applied = crontab('owned', 'v1', 'three').replace('  labels: {}\n', '');
  const conflict = await run(['apply', '--server-side', '--field-manager=v1-applier', '-f', '-'], applied);
  assert.notEqual(conflict.code, 0);
  assert.match(conflict.stderr, /Apply failed with 1 conflict: conflict with "beta-editor" using stable.example.com\/v1beta1: .spec.cronSpec/);
  await ok(['apply', '--server-side', '--force-conflicts', '--field-manager=v1-applier', '-f', '-'], applied);
  const o = await getJSON(['crontabs.v1.stable.example.com', 'owned', '--show-managed-fields']);
  assert.equal(o.spec.schedule, 'three');
  const entries = Object.fromEntries((o.metadata.managedFields as Obj[]).map((m) => [`${m.manager}/${m.operation}`, m]));
  assert.equal(entries['v1-applier/Apply'].apiVersion, `${G}/v1`);
  assert.deepEqual(entries['v1-applier/Apply'].fieldsV1, { 'f:spec': { 'f:schedule': {} } });
  // beta-editor keeps what it still owns, named at its own version.
  assert.equal(entries['beta-editor/Update'].apiVersion, `${G}/v1beta1`);
  assert.deepEqual(entries['beta-editor/Update'].fieldsV1['f:spec'], { '.': {}, 'f:image': {} });
});

test('a dry-run create whose conversion webhook refuses gets its error and stores nothing; one it accepts stores nothing and answers converted back', async () => {
  refusing.add(`${G}/v1`);
  try {
    const r = await run(['create', '--dry-run=server', '-f', '-', '-o', 'json'], crontab('dry', 'v1beta1', '*/1'));
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, /conversion webhook for stable.example.com\/v1beta1, Kind=CronTab failed: no conversion to stable.example.com\/v1/);
  } finally {
    refusing.delete(`${G}/v1`);
  }
  assert.match((await run(['get', 'crontabs.v1beta1.stable.example.com', 'dry'])).stderr, /NotFound/);

  const out = JSON.parse((await ok(['create', '--dry-run=server', '-f', '-', '-o', 'json'], crontab('dry', 'v1beta1', '*/1'))).stdout) as Obj;
  assert.equal(out.apiVersion, `${G}/v1beta1`);
  assert.deepEqual(out.spec, { cronSpec: '*/1' });
  // Converted to the storage version and back: the webhook's label says where it went last.
  assert.equal(out.metadata.labels['converted-to'], 'v1beta1');
  assert.match((await run(['get', 'crontabs.v1beta1.stable.example.com', 'dry'])).stderr, /NotFound/);
});
