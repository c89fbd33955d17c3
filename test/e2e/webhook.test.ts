/**
 * Admission webhooks end to end: kubectl against one real `serve` process whose webhooks are
 * node:https servers with certificates from a test CA (openssl). A validating webhook's denial
 * and warnings as kubectl prints them against a cluster, and the AdmissionReview it received; a
 * mutating webhook reached through `--webhook-service-address` whose patch is applied to a custom
 * resource and then validated by the CRD's schema; failurePolicy Fail and Ignore for a webhook
 * that is down or slower than its timeoutSeconds; a server-side dry run; the configurations'
 * defaults and validation messages.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crontabCRDYAML, kubectl, manifest, startServer, type ServerProcess } from './harness.ts';
import { metadataAuditPolicy } from './policy-server.ts';
import { makeTestCA, type TestCA } from '../lib/certs.ts';
import { jsonPatch, startWebhookServer, type WebhookServer } from '../lib/webhook-server.ts';

let s: ServerProcess;
let ca: TestCA;
let hooks: WebhookServer;
let auditDir: string;

before(async () => {
  ca = makeTestCA();
  hooks = await startWebhookServer(ca.serving(['hooks.webhooks.svc']));
  auditDir = mkdtempSync(join(tmpdir(), 'webhook-audit-'));
  writeFileSync(join(auditDir, 'policy.yaml'), metadataAuditPolicy);
  s = await startServer({
    args: ['--webhook-service-address', `webhooks/hooks=127.0.0.1:${hooks.port}`, '--audit-log-path', join(auditDir, 'audit.log'), '--audit-policy-file', join(auditDir, 'policy.yaml')],
  });
  await apply('crd.yaml', crontabCRDYAML);
  const w = await kubectl(s, ['wait', '--for=condition=Established', 'crd/crontabs.stable.example.com']);
  assert.equal(w.code, 0, w.stderr);
  for (const ns of ['wh-deny', 'wh-mutate', 'wh-fail', 'wh-dry']) {
    const r = await kubectl(s, ['create', 'namespace', ns]);
    assert.equal(r.code, 0, r.stderr);
  }
});
after(async () => {
  await s?.stop();
  await hooks?.close();
  ca?.remove();
  if (auditDir) rmSync(auditDir, { recursive: true, force: true });
});

/** The annotations of the audit events of creates of `name`. */
function auditAnnotations(name: string): Record<string, string>[] {
  const events = readFileSync(join(auditDir, 'audit.log'), 'utf8')
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as { verb: string; requestURI: string; annotations?: Record<string, string>; requestObject?: unknown });
  return events.filter((e) => e.verb === 'create' && e.requestURI.includes('/configmaps') && e.annotations && JSON.stringify(e.annotations).includes(name)).map((e) => e.annotations!);
}

async function apply(name: string, text: string) {
  const r = await kubectl(s, ['apply', '-f', manifest(s, name, text)]);
  assert.equal(r.code, 0, r.stderr);
  return r;
}

/** A webhook for `resources` of `group` in namespace `ns`, at `clientConfig`. */
const webhook = (name: string, ns: string, clientConfig: object, extra: object = {}, group = '', resources = ['configmaps']) => ({
  name,
  clientConfig: { caBundle: ca.caBundle, ...clientConfig },
  rules: [{ operations: ['CREATE', 'UPDATE'], apiGroups: [group], apiVersions: ['v1'], resources }],
  namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': ns } },
  sideEffects: 'None',
  admissionReviewVersions: ['v1'],
  ...extra,
});
const configuration = (kind: 'Validating' | 'Mutating', name: string, webhooks: object[]) =>
  JSON.stringify({ apiVersion: 'admissionregistration.k8s.io/v1', kind: `${kind}WebhookConfiguration`, metadata: { name }, webhooks });
const configMap = (name: string, ns: string) => JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: ns }, data: { a: '1' } });

test('a validating webhook denies with the message kubectl prints against a cluster, warns, and receives the whole AdmissionReview', async () => {
  hooks.on('/deny', (r) => {
    const name = String(r.request.name);
    return name.startsWith('bad-')
      ? { allowed: false, status: { code: 403, reason: 'Forbidden', message: `configmap ${name} is not allowed` } }
      : { allowed: true, warnings: [`configmap ${name} looks fine`], auditAnnotations: { checked: name } };
  });
  await apply('deny-config.json', configuration('Validating', 'deny', [webhook('deny.example.com', 'wh-deny', { url: `${hooks.url}/deny` })]));
  const bad = manifest(s, 'bad-cm.json', configMap('bad-cm', 'wh-deny'));
  const r = await kubectl(s, ['apply', '-f', bad]);
  assert.equal(r.code, 1);
  assert.equal(r.stderr.trim(), `Error from server (Forbidden): error when creating "${bad}": admission webhook "deny.example.com" denied the request: configmap bad-cm is not allowed`);
  const ok = await kubectl(s, ['apply', '-f', manifest(s, 'good-cm.json', configMap('good-cm', 'wh-deny'))]);
  assert.equal(ok.code, 0, ok.stderr);
  assert.match(ok.stderr, /Warning: configmap good-cm looks fine/);
  assert.deepEqual(auditAnnotations('good-cm').map((a) => a['deny.example.com/checked']), ['good-cm']);
  const review = hooks.received.get('/deny')!.at(-1)!;
  assert.equal(review.apiVersion, 'admission.k8s.io/v1');
  const q = review.request;
  assert.match(q.uid, /^[0-9a-f-]{36}$/);
  assert.deepEqual(q.kind, { group: '', version: 'v1', kind: 'ConfigMap' });
  assert.deepEqual(q.resource, { group: '', version: 'v1', resource: 'configmaps' });
  assert.deepEqual(q.requestKind, q.kind);
  assert.deepEqual(q.requestResource, q.resource);
  assert.equal(q.name, 'good-cm');
  assert.equal(q.namespace, 'wh-deny');
  assert.equal(q.operation, 'CREATE');
  // kubectl's kubeconfig authenticates with the admin's client certificate (its SHA-256 as the credential id).
  const { extra, ...who } = q.userInfo as { extra?: Record<string, string[]> };
  assert.deepEqual(who, { username: 'kubernetes-admin', groups: ['system:masters', 'system:authenticated'] });
  assert.match(extra?.['authentication.kubernetes.io/credential-id']?.[0] ?? '', /^X509SHA256=[0-9a-f]{64}$/);
  assert.deepEqual((q.object as { data: unknown }).data, { a: '1' });
  assert.equal(q.oldObject, null);
  assert.equal(q.dryRun, false);
  assert.deepEqual(q.options, { kind: 'CreateOptions', apiVersion: 'meta.k8s.io/v1', fieldManager: 'kubectl-client-side-apply' });
  // An update sends the stored object too.
  const label = await kubectl(s, ['label', 'configmap', 'good-cm', '-n', 'wh-deny', 'x=y']);
  assert.equal(label.code, 0, label.stderr);
  const update = hooks.received.get('/deny')!.at(-1)!.request;
  assert.equal(update.operation, 'UPDATE');
  assert.equal(((update.oldObject as { metadata: { labels?: object } }).metadata.labels ?? {}).hasOwnProperty('x'), false);
  assert.deepEqual((update.object as { metadata: { labels: object } }).metadata.labels, { x: 'y' });
});

test('a mutating webhook behind a service patches a custom resource, which is then validated by its schema', async () => {
  hooks.on('/mutate', (r) => {
    const bad = r.request.name === 'bad-type';
    return {
      allowed: true,
      ...jsonPatch([
        { op: 'add', path: '/metadata/labels', value: { mutated: 'yes' } },
        { op: 'add', path: '/spec/replicas', value: bad ? 'three' : 3 },
      ]),
    };
  });
  await apply(
    'mutate-config.json',
    configuration('Mutating', 'mutate', [webhook('mutate.example.com', 'wh-mutate', { service: { namespace: 'webhooks', name: 'hooks', path: '/mutate' } }, {}, 'stable.example.com', ['crontabs'])]),
  );
  const ct = (name: string) => JSON.stringify({ apiVersion: 'stable.example.com/v1', kind: 'CronTab', metadata: { name, namespace: 'wh-mutate' }, spec: { cronSpec: '* * * * */5', image: 'img' } });
  await apply('ct.json', ct('patched'));
  const got = await kubectl(s, ['get', 'crontab', 'patched', '-n', 'wh-mutate', '-o', 'json']);
  assert.equal(got.code, 0, got.stderr);
  const obj = JSON.parse(got.stdout) as { metadata: { labels: object }; spec: { replicas: number } };
  assert.deepEqual(obj.metadata.labels, { mutated: 'yes' });
  assert.equal(obj.spec.replicas, 3);
  const q = hooks.received.get('/mutate')!.at(-1)!.request;
  assert.deepEqual(q.kind, { group: 'stable.example.com', version: 'v1', kind: 'CronTab' });
  assert.deepEqual(q.resource, { group: 'stable.example.com', version: 'v1', resource: 'crontabs' });
  const bad = manifest(s, 'bad-ct.json', ct('bad-type'));
  const r = await kubectl(s, ['apply', '-f', bad]);
  assert.equal(r.code, 1);
  assert.equal(
    r.stderr,
    'The CronTab "bad-type" is invalid: \n' +
      '* spec.replicas: Invalid value: "string": spec.replicas in body must be of type integer: "string"\n' +
      '* .spec.replicas: Invalid value: 0: .spec.replicas accessor error: three is of the type string, expected int64\n',
  );
  // A service no --webhook-service-address names cannot be reached.
  await apply(
    'mutate-config.json',
    configuration('Mutating', 'mutate', [webhook('mutate.example.com', 'wh-mutate', { service: { namespace: 'webhooks', name: 'elsewhere', path: '/mutate' } }, {}, 'stable.example.com', ['crontabs'])]),
  );
  const missing = manifest(s, 'ct2.json', ct('unreachable'));
  const m = await kubectl(s, ['apply', '-f', missing]);
  assert.equal(m.code, 1);
  assert.equal(
    m.stderr.trim(),
    `Error from server (InternalError): error when creating "${missing}": Internal error occurred: failed calling webhook "mutate.example.com": failed to call webhook: Post "https://elsewhere.webhooks.svc:443/mutate?timeout=10s": service "elsewhere" not found`,
  );
  await kubectl(s, ['delete', 'mutatingwebhookconfiguration', 'mutate']);
});

test('failurePolicy Fail refuses when the webhook is down or slower than timeoutSeconds; Ignore admits', async () => {
  const down = (failurePolicy: string) => configuration('Validating', 'down', [webhook('down.example.com', 'wh-fail', { url: 'https://127.0.0.1:1/' }, { failurePolicy })]);
  await apply('down.json', down('Fail'));
  const cm = manifest(s, 'fail-cm.json', configMap('c1', 'wh-fail'));
  const r = await kubectl(s, ['apply', '-f', cm]);
  assert.equal(r.code, 1);
  assert.equal(
    r.stderr.trim(),
    `Error from server (InternalError): error when creating "${cm}": Internal error occurred: failed calling webhook "down.example.com": failed to call webhook: Post "https://127.0.0.1:1/?timeout=10s": dial tcp 127.0.0.1:1: connect: connection refused`,
  );
  await apply('down.json', down('Ignore'));
  const ok = await kubectl(s, ['apply', '-f', cm]);
  assert.equal(ok.code, 0, ok.stderr);

  hooks.on('/slow', () => ({ hang: true }));
  const slow = (failurePolicy: string) => configuration('Validating', 'down', [webhook('slow.example.com', 'wh-fail', { url: `${hooks.url}/slow` }, { failurePolicy, timeoutSeconds: 1 })]);
  await apply('down.json', slow('Fail'));
  const cm2 = manifest(s, 'fail-cm2.json', configMap('c2', 'wh-fail'));
  const started = Date.now();
  const t = await kubectl(s, ['apply', '-f', cm2]);
  assert.ok(Date.now() - started >= 1000);
  assert.equal(t.code, 1);
  assert.equal(
    t.stderr.trim(),
    `Error from server (InternalError): error when creating "${cm2}": Internal error occurred: failed calling webhook "slow.example.com": failed to call webhook: Post "${hooks.url}/slow?timeout=1s": context deadline exceeded`,
  );
  await apply('down.json', slow('Ignore'));
  const ok2 = await kubectl(s, ['apply', '-f', cm2]);
  assert.equal(ok2.code, 0, ok2.stderr);
  await kubectl(s, ['delete', 'validatingwebhookconfiguration', 'down']);
});

test('a server-side dry run reaches a webhook without side effects with dryRun true, and stores nothing', async () => {
  hooks.on('/dry', () => ({ allowed: true }));
  await apply('dry.json', configuration('Validating', 'dry', [webhook('dry.example.com', 'wh-dry', { url: `${hooks.url}/dry` }, { sideEffects: 'NoneOnDryRun' })]));
  const r = await kubectl(s, ['create', 'configmap', 'dry', '-n', 'wh-dry', '--from-literal=a=b', '--dry-run=server']);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout.trim(), 'configmap/dry created (server dry run)');
  assert.equal(hooks.received.get('/dry')!.at(-1)!.request.dryRun, true);
  const g = await kubectl(s, ['get', 'configmap', 'dry', '-n', 'wh-dry']);
  assert.equal(g.code, 1);
});

test('webhook configurations are stored with upstream defaults and refused with its messages', async () => {
  const g = await kubectl(s, ['get', 'validatingwebhookconfiguration', 'deny', '-o', 'json']);
  assert.equal(g.code, 0, g.stderr);
  const cfg = JSON.parse(g.stdout) as { metadata: { generation: number }; webhooks: Record<string, unknown>[] };
  const w = cfg.webhooks[0]!;
  assert.equal(w.failurePolicy, 'Fail');
  assert.equal(w.matchPolicy, 'Equivalent');
  assert.equal(w.timeoutSeconds, 10);
  assert.deepEqual(w.objectSelector, {});
  assert.equal((w.rules as { scope: string }[])[0]!.scope, '*');
  assert.equal(cfg.metadata.generation, 1);
  const bad = manifest(
    s,
    'invalid.json',
    configuration('Validating', 'invalid', [{ name: 'short.io', clientConfig: { url: 'http://example.com' }, admissionReviewVersions: ['v1'], timeoutSeconds: 31 }]),
  );
  const r = await kubectl(s, ['apply', '-f', bad]);
  assert.equal(r.code, 1);
  assert.equal(
    r.stderr.trim(),
    'The ValidatingWebhookConfiguration "invalid" is invalid: \n' +
      '* webhooks[0].name: Invalid value: "short.io": should be a domain with at least three segments separated by dots\n' +
      '* webhooks[0].sideEffects: Required value: must specify one of None, NoneOnDryRun\n' +
      '* webhooks[0].timeoutSeconds: Invalid value: 31: the timeout value must be between 1 and 30 seconds\n' +
      `* webhooks[0].clientConfig.url: Invalid value: "http": 'https' is the only allowed URL scheme; desired format: https://host[/path]`,
  );
});

test('a webhook for autoscaling/v1 sees an autoscaling/v2 HorizontalPodAutoscaler converted to v1, and its patch comes back converted', async () => {
  const ns = await kubectl(s, ['create', 'namespace', 'wh-hpa']);
  assert.equal(ns.code, 0, ns.stderr);
  hooks.on('/hpa', (r) => {
    const o = r.request.object as { spec: { targetCPUUtilizationPercentage?: number } };
    return o.spec.targetCPUUtilizationPercentage === 90 ? { allowed: true, ...jsonPatch([{ op: 'replace', path: '/spec/targetCPUUtilizationPercentage', value: 50 }]) } : { allowed: true };
  });
  await apply('hpa-hook.json', configuration('Mutating', 'hpa', [webhook('hpa.example.com', 'wh-hpa', { url: `${hooks.url}/hpa` }, {}, 'autoscaling', ['horizontalpodautoscalers'])]));
  const hpa = JSON.stringify({
    apiVersion: 'autoscaling/v2',
    kind: 'HorizontalPodAutoscaler',
    metadata: { name: 'web', namespace: 'wh-hpa' },
    spec: { scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }, maxReplicas: 5, metrics: [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 90 } } }] },
  });
  let created: { apiVersion: string; spec: { metrics: { resource: { target: { averageUtilization: number } } }[] } } | undefined;
  for (let i = 0; i < 50 && created?.spec.metrics[0]!.resource.target.averageUtilization !== 50; i++) {
    const r = await kubectl(s, ['create', '--dry-run=server', '-o', 'json', '-f', manifest(s, 'hpa-v2.json', hpa)]);
    assert.equal(r.code, 0, r.stderr);
    created = JSON.parse(r.stdout);
    await new Promise((res) => setTimeout(res, 100));
  }
  assert.equal(created!.apiVersion, 'autoscaling/v2');
  assert.equal(created!.spec.metrics[0]!.resource.target.averageUtilization, 50);
  const q = hooks.received.get('/hpa')!.at(-1)!.request;
  assert.deepEqual(q.kind, { group: 'autoscaling', version: 'v1', kind: 'HorizontalPodAutoscaler' });
  assert.deepEqual(q.requestKind, { group: 'autoscaling', version: 'v2', kind: 'HorizontalPodAutoscaler' });
  assert.deepEqual(q.requestResource, { group: 'autoscaling', version: 'v2', resource: 'horizontalpodautoscalers' });
  assert.equal((q.object as { apiVersion: string }).apiVersion, 'autoscaling/v1');
  const d = await kubectl(s, ['delete', 'mutatingwebhookconfiguration', 'hpa']);
  assert.equal(d.code, 0, d.stderr);
});
