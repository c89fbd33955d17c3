/**
 * The webhook plugins over a real store and real HTTPS webhook servers (certificates from the
 * openssl CLI): what a webhook receives, denials with their Status, failure policies for
 * unreachable, slow and misbehaving webhooks with upstream's messages, dry runs and side effects,
 * v1beta1-only webhooks, services, matchConditions, patches applied in order and reinvoked,
 * warnings and audit annotations, and configuration changes taking effect at once.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { StatusError } from '../../apimachinery/index.ts';
import { resourcePrefix, type AdmissionAttributes, type Obj } from '../../registry/index.ts';
import { openTempStore, type TempStore } from '../../registry/testing.ts';
import { createAttributes, settle, storedObjects } from '../testing.ts';
import { withAuditAnnotations } from '../policy/audit-annotations.ts';
import { makeTestCA, type TestCA } from '../../../test/lib/certs.ts';
import { jsonPatch, startWebhookServer, type WebhookServer } from '../../../test/lib/webhook-server.ts';
import { fixedServiceResolver } from './client.ts';
import { mutatingWebhooks } from './mutating.ts';
import { validatingWebhooks, type WebhookPlugin } from './validating.ts';

let t: TempStore;
let ca: TestCA;
let hooks: WebhookServer;
let validating: WebhookPlugin;
let mutating: WebhookPlugin;
const G = 'admissionregistration.k8s.io';

const { put, del } = storedObjects(() => t.store);

/** A webhook as stored (defaulted), calling `path` on the test server. */
function hook(name: string, path: string, extra: Obj = {}): Obj {
  return {
    name,
    clientConfig: { url: `${hooks.url}${path}`, caBundle: ca.caBundle },
    rules: [{ operations: ['CREATE', 'UPDATE', 'DELETE'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'], scope: '*' }],
    failurePolicy: 'Fail',
    matchPolicy: 'Equivalent',
    namespaceSelector: {},
    objectSelector: {},
    sideEffects: 'None',
    timeoutSeconds: 10,
    admissionReviewVersions: ['v1'],
    ...extra,
  };
}
async function configure(kind: 'validating' | 'mutating', webhooks: Obj[]): Promise<void> {
  const resource = `${kind}webhookconfigurations`;
  await put(resourcePrefix(G, resource) + 'test', { apiVersion: `${G}/v1`, kind: kind === 'validating' ? 'ValidatingWebhookConfiguration' : 'MutatingWebhookConfiguration', metadata: { name: 'test' }, webhooks });
  await settle();
}
async function unconfigure(): Promise<void> {
  await del(resourcePrefix(G, 'validatingwebhookconfigurations') + 'test');
  await del(resourcePrefix(G, 'mutatingwebhookconfigurations') + 'test');
  await settle();
}

function attrs(over: Partial<AdmissionAttributes> = {}): AdmissionAttributes {
  return createAttributes({
    resource: { group: '', version: 'v1', resource: 'configmaps' },
    kind: { group: '', version: 'v1', kind: 'ConfigMap' },
    name: 'cm1',
    object: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm1', namespace: 'default', labels: { app: 'x' } }, data: { a: '1' } },
    options: { kind: 'CreateOptions', apiVersion: 'meta.k8s.io/v1' },
    ...over,
  });
}

async function refusal(p: Promise<unknown>): Promise<StatusError> {
  try {
    await p;
  } catch (e) {
    assert.ok(e instanceof StatusError, String(e));
    return e;
  }
  assert.fail('expected a refusal');
}

before(async () => {
  t = await openTempStore();
  ca = makeTestCA();
  hooks = await startWebhookServer(ca.serving(['hooks.webhooks.svc']));
  const serviceResolver = fixedServiceResolver(new Map([['webhooks/hooks', `127.0.0.1:${hooks.port}`]]));
  validating = validatingWebhooks(t.store, { serviceResolver });
  mutating = mutatingWebhooks(t.store, { serviceResolver });
  await Promise.all([validating.synced, mutating.synced]);
});
after(async () => {
  validating.stop();
  mutating.stop();
  await hooks.close();
  ca.remove();
  await t.close();
});

test('a validating webhook receives every field of the AdmissionReview and its denial is the Status it answered', async () => {
  hooks.on('/deny', () => ({ allowed: false, status: { code: 403, reason: 'Forbidden', message: 'no cm1 here' } }));
  await configure('validating', [hook('deny.example.com', '/deny')]);
  const e = await refusal(validating.validate!(attrs()));
  assert.equal(e.status.code, 403);
  assert.equal(e.status.reason, 'Forbidden');
  assert.equal(e.message, 'admission webhook "deny.example.com" denied the request: no cm1 here');
  const review = hooks.received.get('/deny')!.at(-1)!;
  assert.equal(review.apiVersion, 'admission.k8s.io/v1');
  assert.equal(review.kind, 'AdmissionReview');
  const { uid, ...request } = review.request;
  assert.match(uid, /^[0-9a-f-]{36}$/);
  assert.deepEqual(request, {
    kind: { group: '', version: 'v1', kind: 'ConfigMap' },
    resource: { group: '', version: 'v1', resource: 'configmaps' },
    requestKind: { group: '', version: 'v1', kind: 'ConfigMap' },
    requestResource: { group: '', version: 'v1', resource: 'configmaps' },
    name: 'cm1',
    namespace: 'default',
    operation: 'CREATE',
    userInfo: { username: 'system:admin', groups: ['system:masters', 'system:authenticated'] },
    object: attrs().object,
    oldObject: null,
    dryRun: false,
    options: { kind: 'CreateOptions', apiVersion: 'meta.k8s.io/v1' },
  });
  // Denied without a message: the reason, else "without explanation"; codes below 400 become 400.
  hooks.on('/deny', () => ({ allowed: false, status: { code: 200, reason: 'NotMine' } }));
  const e2 = await refusal(validating.validate!(attrs()));
  assert.equal(e2.status.code, 400);
  assert.equal(e2.message, 'admission webhook "deny.example.com" denied the request: NotMine');
  hooks.on('/deny', () => ({ allowed: false }));
  assert.equal((await refusal(validating.validate!(attrs()))).message, 'admission webhook "deny.example.com" denied the request without explanation');
  // A DELETE sends the old object, no object, and the DeleteOptions.
  hooks.on('/deny', () => ({ allowed: true }));
  const old = attrs().object;
  await validating.validate!(attrs({ operation: 'DELETE', object: undefined, oldObject: old, options: { kind: 'DeleteOptions', apiVersion: 'meta.k8s.io/v1' } }));
  const del = hooks.received.get('/deny')!.at(-1)!.request;
  assert.equal(del.operation, 'DELETE');
  assert.equal(del.object, null);
  assert.deepEqual(del.oldObject, old);
  await unconfigure();
});

test('validating webhooks are called in parallel, the first refusal in webhook order wins', async () => {
  let inFlight = 0;
  let most = 0;
  const slow = (allowed: boolean, message: string) => async () => {
    inFlight++;
    most = Math.max(most, inFlight);
    await new Promise((r) => setTimeout(r, 200));
    inFlight--;
    return allowed ? { allowed } : { allowed, status: { message } };
  };
  hooks.on('/p1', slow(true, ''));
  hooks.on('/p2', slow(false, 'second'));
  hooks.on('/p3', slow(false, 'third'));
  await configure('validating', [hook('p1.example.com', '/p1'), hook('p2.example.com', '/p2'), hook('p3.example.com', '/p3')]);
  const started = Date.now();
  const e = await refusal(validating.validate!(attrs()));
  assert.equal(e.message, 'admission webhook "p2.example.com" denied the request: second');
  assert.equal(most, 3);
  assert.ok(Date.now() - started < 550, 'three 200ms webhooks answer together');
  await unconfigure();
});

test('failurePolicy: an unreachable webhook refuses under Fail (500) and is skipped under Ignore, with the failed-open annotation', async () => {
  const down = (failurePolicy: string) => hook('down.example.com', '', { clientConfig: { url: 'https://127.0.0.1:1/x', caBundle: ca.caBundle }, failurePolicy });
  await configure('validating', [down('Fail')]);
  const e = await refusal(validating.validate!(attrs()));
  assert.equal(e.status.code, 500);
  assert.equal(e.status.reason, 'InternalError');
  assert.equal(e.message, 'Internal error occurred: failed calling webhook "down.example.com": failed to call webhook: Post "https://127.0.0.1:1/x?timeout=10s": dial tcp 127.0.0.1:1: connect: connection refused');
  await configure('validating', [down('Ignore')]);
  const sink = new Map<string, string>();
  await withAuditAnnotations(sink, () => validating.validate!(attrs()));
  assert.equal(sink.get('failed-open.validating.webhook.admission.k8s.io/round_0_index_0'), 'down.example.com');
  await unconfigure();
});

test('timeoutSeconds: a webhook slower than its timeout fails the call with context deadline exceeded', async () => {
  hooks.on('/hang', () => ({ hang: true }));
  await configure('validating', [hook('slow.example.com', '/hang', { timeoutSeconds: 1 })]);
  const started = Date.now();
  const e = await refusal(validating.validate!(attrs()));
  const took = Date.now() - started;
  assert.ok(took >= 950 && took < 3000, `took ${took}ms`);
  assert.equal(e.message, `Internal error occurred: failed calling webhook "slow.example.com": failed to call webhook: Post "${hooks.url}/hang?timeout=1s": context deadline exceeded`);
  await configure('validating', [hook('slow.example.com', '/hang', { timeoutSeconds: 1, failurePolicy: 'Ignore' })]);
  await validating.validate!(attrs());
  await unconfigure();
});

test('misbehaving webhooks: a wrong uid, a missing response, a patch from a validating webhook, a non-JSON body, a 500, an unknown CA', async () => {
  const cases: [unknown, RegExp][] = [
    [{ raw: { status: 200, body: JSON.stringify({ apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', response: { uid: 'other', allowed: true } }) } }, /received invalid webhook response: expected response.uid="[0-9a-f-]+", got "other"$/],
    [{ raw: { status: 200, body: JSON.stringify({ apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview' }) } }, /received invalid webhook response: webhook response was absent$/],
    [jsonPatch([{ op: 'add', path: '/x', value: 1 }]), /received invalid webhook response: validating webhook may not return response.patch$/],
    [{ raw: { status: 200, body: 'hello', contentType: 'text/plain' } }, /failed to call webhook: couldn't get version\/kind; json parse error: invalid character 'h' looking for beginning of value$/],
    [{ raw: { status: 500, body: 'boom', contentType: 'text/plain' } }, /failed to call webhook: an error on the server \("boom"\) has prevented the request from succeeding$/],
  ];
  for (const [answer, message] of cases) {
    hooks.on('/bad', () => answer as never);
    await configure('validating', [hook('bad.example.com', '/bad')]);
    const e = await refusal(validating.validate!(attrs()));
    assert.equal(e.status.code, 500);
    assert.match(e.message, message);
  }
  const otherCA = makeTestCA('another CA');
  try {
    await configure('validating', [hook('bad.example.com', '/bad', { clientConfig: { url: `${hooks.url}/bad`, caBundle: otherCA.caBundle } })]);
    const e = await refusal(validating.validate!(attrs()));
    assert.equal(e.message, `Internal error occurred: failed calling webhook "bad.example.com": failed to call webhook: Post "${hooks.url}/bad?timeout=10s": tls: failed to verify certificate: x509: certificate signed by unknown authority`);
  } finally {
    otherCA.remove();
  }
  await unconfigure();
});

test('dry runs reach only webhooks without side effects; others refuse with 400', async () => {
  hooks.on('/dry', () => ({ allowed: true }));
  await configure('validating', [hook('dry.example.com', '/dry', { sideEffects: 'NoneOnDryRun' })]);
  await validating.validate!(attrs({ dryRun: true }));
  assert.equal(hooks.received.get('/dry')!.at(-1)!.request.dryRun, true);
  // Unknown and Some are only stored from older versions of the API; written here directly.
  for (const sideEffects of ['Unknown', 'Some']) {
    await configure('validating', [hook('dry.example.com', '/dry', { sideEffects })]);
    const e = await refusal(validating.validate!(attrs({ dryRun: true })));
    assert.equal(e.status.code, 400);
    assert.equal(e.status.reason, 'BadRequest');
    assert.equal(e.message, 'admission webhook "dry.example.com" does not support dry run');
    // Failure policy Ignore does not excuse it.
    await configure('validating', [hook('dry.example.com', '/dry', { sideEffects, failurePolicy: 'Ignore' })]);
    assert.equal((await refusal(validating.validate!(attrs({ dryRun: true })))).status.code, 400);
  }
  await unconfigure();
});

test('a webhook accepting only v1beta1 gets a v1beta1 review; matchConditions and selectors choose who is called', async () => {
  hooks.on('/beta', () => ({ allowed: true }));
  await configure('validating', [hook('beta.example.com', '/beta', { admissionReviewVersions: ['v1beta1'] })]);
  await validating.validate!(attrs());
  assert.equal(hooks.received.get('/beta')!.at(-1)!.apiVersion, 'admission.k8s.io/v1beta1');
  const before = hooks.received.get('/beta')!.length;
  await configure('validating', [
    hook('beta.example.com', '/beta', { matchConditions: [{ name: 'only-x', expression: "object.metadata.labels['app'] == 'y'" }] }),
    hook('sel.example.com', '/beta', { objectSelector: { matchLabels: { app: 'y' } } }),
  ]);
  await validating.validate!(attrs());
  assert.equal(hooks.received.get('/beta')!.length, before, 'neither webhook is called');
  await configure('validating', [hook('beta.example.com', '/beta', { matchConditions: [{ name: 'bad', expression: "object.metadata.labels['missing'] == 'y'" }] })]);
  const e = await refusal(validating.validate!(attrs()));
  assert.equal(e.status.code, 403);
  assert.match(e.message, /^configmaps "cm1" is forbidden: expression 'object.metadata.labels\['missing'\] == 'y'' resulted in error: no such key: missing$/);
  await unconfigure();
});

test('a service webhook is called at its --webhook-service-address, verified as <name>.<namespace>.svc; an unknown service fails', async () => {
  hooks.on('/svc', () => ({ allowed: true, warnings: ['from the service'], auditAnnotations: { seen: 'yes' } }));
  await configure('validating', [hook('svc.example.com', '', { clientConfig: { service: { namespace: 'webhooks', name: 'hooks', path: '/svc', port: 443 }, caBundle: ca.caBundle } })]);
  const a = attrs();
  const sink = new Map<string, string>();
  await withAuditAnnotations(sink, () => validating.validate!(a));
  assert.deepEqual(a.warnings, ['from the service']);
  assert.equal(sink.get('svc.example.com/seen'), 'yes');
  await configure('validating', [hook('svc.example.com', '', { clientConfig: { service: { namespace: 'webhooks', name: 'missing', path: '/svc', port: 443 }, caBundle: ca.caBundle } })]);
  const e = await refusal(validating.validate!(attrs()));
  assert.equal(e.message, 'Internal error occurred: failed calling webhook "svc.example.com": failed to call webhook: Post "https://missing.webhooks.svc:443/svc?timeout=10s": service "missing" not found');
  await unconfigure();
});

test('mutating webhooks run in order, each seeing the last one\'s patch; IfNeeded ones are reinvoked after a later change', async () => {
  const seen: string[] = [];
  hooks.on('/m1', (r) => {
    const labels = ((r.request.object as Obj).metadata as { labels: Record<string, string> }).labels;
    seen.push(`m1:${Object.keys(labels).sort().join(',')}`);
    return labels.first ? { allowed: true } : { allowed: true, ...jsonPatch([{ op: 'add', path: '/metadata/labels/first', value: '1' }]) };
  });
  hooks.on('/m2', (r) => {
    const labels = ((r.request.object as Obj).metadata as { labels: Record<string, string> }).labels;
    seen.push(`m2:${Object.keys(labels).sort().join(',')}`);
    return { allowed: true, ...jsonPatch([{ op: 'add', path: '/metadata/labels/second', value: '2' }]) };
  });
  await configure('mutating', [hook('m1.example.com', '/m1', { reinvocationPolicy: 'IfNeeded' }), hook('m2.example.com', '/m2', { reinvocationPolicy: 'Never' })]);
  const a = attrs();
  const sink = new Map<string, string>();
  await withAuditAnnotations(sink, () => mutating.admit!(a));
  assert.deepEqual((a.object!.metadata as Obj).labels, { app: 'x', first: '1', second: '2' });
  assert.deepEqual(seen, ['m1:app', 'm2:app,first', 'm1:app,first,second']);
  assert.equal(sink.get('mutation.webhook.admission.k8s.io/round_0_index_0'), '{"configuration":"test","webhook":"m1.example.com","mutated":true}');
  assert.equal(sink.get('mutation.webhook.admission.k8s.io/round_1_index_0'), '{"configuration":"test","webhook":"m1.example.com","mutated":false}');
  // Never: not called again.
  seen.length = 0;
  await configure('mutating', [hook('m1.example.com', '/m1', { reinvocationPolicy: 'Never' }), hook('m2.example.com', '/m2', { reinvocationPolicy: 'Never' })]);
  await mutating.admit!(attrs());
  assert.deepEqual(seen, ['m1:app', 'm2:app,first']);
  // A patch that does not apply is the 500 upstream returns, whatever the failure policy.
  hooks.on('/m1', () => ({ allowed: true, ...jsonPatch([{ op: 'replace', path: '/nothing/here', value: 1 }]) }));
  await configure('mutating', [hook('m1.example.com', '/m1', { failurePolicy: 'Ignore' })]);
  const e = await refusal(mutating.admit!(attrs()));
  assert.equal(e.status.code, 500);
  // A patch without its type, from a v1 webhook.
  hooks.on('/m1', () => ({ allowed: true, patch: Buffer.from('[]').toString('base64') }));
  await configure('mutating', [hook('m1.example.com', '/m1')]);
  assert.match((await refusal(mutating.admit!(attrs()))).message, /received invalid webhook response: webhook returned response.patch but not response.patchType$/);
  await unconfigure();
});

test('admission configuration is never sent to webhooks, and a changed configuration applies to the next request', async () => {
  hooks.on('/all', () => ({ allowed: false, status: { message: 'closed' } }));
  await configure('validating', [hook('all.example.com', '/all', { rules: [{ operations: ['*'], apiGroups: ['*'], apiVersions: ['*'], resources: ['*'], scope: '*' }] })]);
  await validating.validate!(
    attrs({
      resource: { group: G, version: 'v1', resource: 'validatingwebhookconfigurations' },
      kind: { group: G, version: 'v1', kind: 'ValidatingWebhookConfiguration' },
      namespace: '',
      object: { apiVersion: `${G}/v1`, kind: 'ValidatingWebhookConfiguration', metadata: { name: 'x' } },
    }),
  );
  assert.equal((await refusal(validating.validate!(attrs()))).message, 'admission webhook "all.example.com" denied the request: closed');
  await unconfigure();
  await validating.validate!(attrs());
});

test('a webhook matching another version of a custom resource gets it from the request\'s convertor; a failed conversion is an InternalError (twice over in the mutating dispatcher)', async () => {
  const SG = 'stable.example.com';
  const crdKey = resourcePrefix('apiextensions.k8s.io', 'customresourcedefinitions') + `crontabs.${SG}`;
  await put(crdKey, {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `crontabs.${SG}` },
    spec: { group: SG, names: { plural: 'crontabs', kind: 'CronTab' }, scope: 'Namespaced', versions: [{ name: 'v1beta1', served: true, storage: false }, { name: 'v1', served: true, storage: true }] },
  });
  let failing = false;
  const conversions: string[] = [];
  const convertor = {
    convert(o: Obj, to: string): Promise<Obj> {
      conversions.push(`${String(o.apiVersion)}->${to}`);
      if (failing) return Promise.reject(new StatusError({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: `conversion webhook for ${SG}/v1, Kind=CronTab failed: down`, code: 500 }));
      const spec = (o.spec ?? {}) as Obj;
      const out = to.endsWith('/v1beta1') ? { cronSpec: spec.schedule } : { schedule: spec.cronSpec };
      return Promise.resolve({ ...o, apiVersion: to, spec: out });
    },
  };
  const cr = (over: Partial<AdmissionAttributes> = {}) =>
    attrs({
      resource: { group: SG, version: 'v1', resource: 'crontabs' },
      kind: { group: SG, version: 'v1', kind: 'CronTab' },
      name: 'c1',
      object: { apiVersion: `${SG}/v1`, kind: 'CronTab', metadata: { name: 'c1', namespace: 'default' }, spec: { schedule: '*/5' } },
      convertor,
      ...over,
    });
  const betaRule = { rules: [{ operations: ['CREATE'], apiGroups: [SG], apiVersions: ['v1beta1'], resources: ['crontabs'], scope: '*' }] };
  const seen: Obj[] = [];
  try {
    await settle();
    await configure('validating', [hook('beta.example.com', '/beta', { ...betaRule })]);
    hooks.on('/beta', (r) => {
      seen.push(r.request.object as Obj);
      return { allowed: true };
    });
    await validating.validate!(cr());
    assert.deepEqual(seen.pop()?.spec, { cronSpec: '*/5' });
    failing = true;
    let e = await refusal(validating.validate!(cr()));
    assert.equal(e.status.code, 500);
    assert.equal(e.status.message, `Internal error occurred: conversion webhook for ${SG}/v1, Kind=CronTab failed: down`);
    await unconfigure();

    failing = false;
    hooks.on('/beta', (r) => {
      seen.push(r.request.object as Obj);
      return { allowed: true, ...jsonPatch([{ op: 'replace', path: '/spec/cronSpec', value: '*/6' }]) };
    });
    await configure('mutating', [hook('beta.example.com', '/beta', { ...betaRule, reinvocationPolicy: 'Never' })]);
    const a = cr();
    conversions.length = 0;
    await mutating.admit!(a);
    assert.deepEqual(seen.pop()?.spec, { cronSpec: '*/5' });
    assert.deepEqual(a.object, { apiVersion: `${SG}/v1`, kind: 'CronTab', metadata: { name: 'c1', namespace: 'default' }, spec: { schedule: '*/6' } });
    assert.deepEqual(conversions, [`${SG}/v1->${SG}/v1beta1`, `${SG}/v1beta1->${SG}/v1`]);
    failing = true;
    e = await refusal(mutating.admit!(cr()));
    assert.equal(e.status.code, 500);
    assert.equal(e.status.message, `Internal error occurred: Internal error occurred: conversion webhook for ${SG}/v1, Kind=CronTab failed: down`);
  } finally {
    await unconfigure();
    await del(crdKey);
  }
});
