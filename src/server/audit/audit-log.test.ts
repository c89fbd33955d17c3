/**
 * The audit filter around a real server in this process: levels per policy rule, stages and
 * omitStages, objectRef completed from the request object, users and impersonation, the
 * authorization annotations, objects at Request and RequestResponse (without managedFields when
 * the rule says so), nothing of a Secret at Metadata, and the legacy line.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { call, startFixture, type Fixture } from '../testing/fixtures.ts';
import { audited } from './audit-log.ts';
import { eventLegacy, type AuditEvent } from './event.ts';
import { parsePolicy } from './policy.ts';

const policy = parsePolicy(`apiVersion: audit.k8s.io/v1
kind: Policy
rules:
- level: None
  nonResourceURLs: ["/healthz*", "/version"]
- level: Metadata
  resources: [{group: "", resources: [secrets]}]
- level: RequestResponse
  omitManagedFields: true
  resources: [{group: "", resources: [configmaps]}]
- level: Metadata
  omitStages: [RequestReceived]
`);

let events: AuditEvent[] = [];
let fx: Fixture;

before(async () => {
  fx = await startFixture({ wrap: (h) => audited(h, policy, { processEvent: (ev) => events.push(JSON.parse(JSON.stringify(ev))) }) });
});

after(() => fx.close());

async function send(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  const r = await call(fx.base, method, path, body, { 'User-Agent': 'audit-test/1.0', ...headers });
  return { status: r.status, headers: r.headers, body: r.text };
}

test('a Secret at Metadata: both stages, objectRef completed from the body, no object and nothing of its data', async () => {
  events = [];
  const r = await send('POST', '/api/v1/namespaces/default/secrets', { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's1' }, stringData: { password: 'hunter2' } });
  assert.equal(r.status, 201, r.body);
  assert.deepEqual(
    events.map((e) => e.stage),
    ['RequestReceived', 'ResponseComplete'],
  );
  const [rr, done] = events as [AuditEvent, AuditEvent];
  assert.equal(r.headers['audit-id'], done.auditID);
  assert.equal(rr.auditID, done.auditID);
  assert.equal(rr.stageTimestamp, rr.requestReceivedTimestamp);
  assert.equal(rr.responseStatus, undefined);
  assert.deepEqual(done.objectRef, { resource: 'secrets', namespace: 'default', name: 's1', apiVersion: 'v1' });
  assert.deepEqual(done.user, { username: 'system:admin', groups: ['system:masters', 'system:authenticated'] });
  assert.deepEqual(done.sourceIPs, ['127.0.0.1']);
  assert.equal(done.userAgent, 'audit-test/1.0');
  assert.equal(done.verb, 'create');
  assert.equal(done.requestURI, '/api/v1/namespaces/default/secrets');
  assert.deepEqual(done.responseStatus, { metadata: {}, code: 201 });
  assert.deepEqual(done.annotations, { 'authorization.k8s.io/decision': 'allow', 'authorization.k8s.io/reason': '' });
  assert.equal(done.requestObject, undefined);
  assert.equal(done.responseObject, undefined);
  assert.doesNotMatch(JSON.stringify(events), /hunter2|aHVudGVyMg/);
  assert.match(done.stageTimestamp, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
});

test('a ConfigMap at RequestResponse: request and response objects, without managedFields', async () => {
  events = [];
  const r = await send('POST', '/api/v1/namespaces/default/configmaps?fieldManager=me', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c1' }, data: { k: 'v' } });
  assert.equal(r.status, 201, r.body);
  assert.ok((JSON.parse(r.body) as { metadata: { managedFields?: unknown } }).metadata.managedFields, 'the client gets managedFields');
  const done = events.find((e) => e.stage === 'ResponseComplete')!;
  assert.equal(done.level, 'RequestResponse');
  assert.deepEqual(done.requestObject, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c1' }, data: { k: 'v' } });
  const resp = done.responseObject as { metadata: Record<string, unknown>; data: unknown };
  assert.deepEqual(resp.data, { k: 'v' });
  assert.equal(resp.metadata.managedFields, undefined);
  assert.equal(typeof resp.metadata.uid, 'string');

  events = [];
  const g = await send('GET', '/api/v1/namespaces/default/configmaps/nope');
  assert.equal(g.status, 404);
  const miss = events.find((e) => e.stage === 'ResponseComplete')!;
  assert.deepEqual(miss.responseStatus, {
    metadata: {},
    status: 'Failure',
    message: 'configmaps "nope" not found',
    reason: 'NotFound',
    details: { name: 'nope', kind: 'configmaps' },
    code: 404,
  });
});

test('levels and omitStages follow the first matching rule; None logs nothing', async () => {
  events = [];
  assert.equal((await send('GET', '/healthz')).status, 200);
  assert.equal((await send('GET', '/version')).status, 200);
  assert.equal(events.length, 0);
  const r = await send('GET', '/api/v1/namespaces');
  assert.equal(r.status, 200);
  assert.deepEqual(
    events.map((e) => [e.stage, e.level, e.verb]),
    [['ResponseComplete', 'Metadata', 'list']],
  );
  assert.equal(events[0]!.responseObject, undefined);
});

test('impersonation: the requester is the user, the impersonated user is named, the denial annotated', async () => {
  events = [];
  const r = await send('GET', '/api/v1/namespaces/default/pods', undefined, { 'Impersonate-User': 'jane' });
  assert.equal(r.status, 403);
  const done = events.find((e) => e.stage === 'ResponseComplete')!;
  assert.equal(done.user.username, 'system:admin');
  assert.deepEqual(done.impersonatedUser, { username: 'jane', groups: ['system:authenticated'] });
  assert.deepEqual(done.annotations, { 'authorization.k8s.io/decision': 'forbid', 'authorization.k8s.io/reason': '' });
  assert.equal(done.responseStatus?.code, 403);
  assert.equal(done.responseStatus?.reason, 'Forbidden');
  assert.match(eventLegacy(done), /^\d{4}-\d\d-\d\dT[\d:.]+Z AUDIT: id="[0-9a-f-]+" stage="ResponseComplete" ip="127\.0\.0\.1" method="list" user="system:admin" groups="\\"system:masters\\",\\"system:authenticated\\"" as="jane" asgroups="\\"system:authenticated\\"" user-agent="audit-test\/1\.0" namespace="default" uri="\/api\/v1\/namespaces\/default\/pods" response="403"\n$/);
});

test('a watch is long-running: ResponseStarted when it starts, ResponseComplete when it ends', async () => {
  events = [];
  const r = await send('GET', '/api/v1/namespaces/default/configmaps?watch=1&timeoutSeconds=1');
  assert.equal(r.status, 200);
  assert.deepEqual(
    events.map((e) => e.stage),
    ['RequestReceived', 'ResponseStarted', 'ResponseComplete'],
  );
  assert.deepEqual(events[1]!.responseStatus, { metadata: {}, code: 200 });
  assert.equal(events[2]!.verb, 'watch');
  assert.equal(events[2]!.responseObject, undefined, 'a watch stream is not an object');
});
