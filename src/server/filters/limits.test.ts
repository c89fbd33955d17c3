/**
 * The in-flight limits and the request deadline on a real server in this process. A request is
 * held in flight by sending its headers and not the whole body (the handler waits reading it).
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { request, type ClientRequest } from 'node:http';
import { call, startFixture, type Fixture } from '../testing/fixtures.ts';
import { defaultLimitOptions, setLimitFlag, validateLimitOptions } from './options.ts';
import { timeoutParameter } from './timeout.ts';

let fx: Fixture;
let base: string;

before(async () => {
  fx = await startFixture({ limits: { inflight: { readOnly: 1, mutating: 1 }, requestTimeoutMs: 1500 } });
  base = fx.base;
});

after(() => fx.close());

interface Reply {
  status: number;
  headers: Record<string, unknown>;
  body: string;
}

async function send(method: string, path: string, headers: Record<string, string> = {}, body?: string): Promise<Reply> {
  const r = await call(base, method, path, body, headers);
  return { status: r.status, headers: r.headers, body: r.text };
}

/** A POST whose body never completes: in flight until aborted (or timed out). */
function hold(path: string): { req: ClientRequest; reply: Promise<Reply> } {
  let req!: ClientRequest;
  const reply = new Promise<Reply>((resolve, reject) => {
    req = request(`${base}${path}`, { method: 'POST', headers: { 'Content-Type': 'application/json', 'Content-Length': '100' } }, (res) => {
      let text = '';
      res.on('data', (c: Buffer) => (text += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
    });
    req.on('error', reject);
    req.write('{"apiVersion":"v1",');
  });
  return { req, reply };
}

const settle = () => new Promise((r) => setTimeout(r, 200));
const jane = { 'Impersonate-User': 'jane' };

test('past the mutating limit: 429 with Retry-After 1 for others, system:masters still served; reads counted apart', async () => {
  const held = hold('/api/v1/namespaces/default/configmaps');
  await settle();
  const r = await send('POST', '/api/v1/namespaces/default/configmaps', { ...jane, 'Content-Type': 'application/json' }, '{}');
  assert.equal(r.status, 429);
  assert.equal(r.headers['retry-after'], '1');
  assert.equal(r.headers['content-type'], 'text/plain; charset=utf-8');
  assert.equal(r.body, 'Too many requests, please try again later.\n');
  // The admin (system:masters) is answered; a read is under the other limit (and is refused by RBAC).
  const admin = await send('POST', '/api/v1/namespaces/default/configmaps', { 'Content-Type': 'application/json' }, JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'past-limit' } }));
  assert.equal(admin.status, 201, admin.body);
  assert.equal((await send('GET', '/api/v1/namespaces/default/configmaps', jane)).status, 403);
  held.req.destroy();
  await held.reply.catch(() => undefined);
  await settle();
  // Released: jane is counted again (and refused by RBAC, not the limit).
  assert.equal((await send('POST', '/api/v1/namespaces/default/configmaps', { ...jane, 'Content-Type': 'application/json' }, '{}')).status, 403);
});

test('long-running requests are not counted', async () => {
  const held = hold('/api/v1/namespaces/default/configmaps');
  await settle();
  const watch = send('GET', '/api/v1/namespaces/default/configmaps?watch=1&timeoutSeconds=2');
  await settle();
  // One read in flight (the watch) does not take the read slot.
  assert.equal((await send('GET', '/api/v1/namespaces', jane)).status, 403);
  held.req.destroy();
  await held.reply.catch(() => undefined);
  assert.equal((await watch).status, 200, 'the watch outlives the request timeout');
});

test('a request still running at the deadline is answered 504 Timeout; a shorter ?timeout= applies', async () => {
  const started = Date.now();
  const held = hold('/api/v1/namespaces/default/configmaps');
  const r = await held.reply;
  assert.equal(r.status, 504);
  const st = JSON.parse(r.body);
  assert.equal(r.body, '{"metadata":{},"status":"Failure","message":"Timeout: request did not complete within the allotted timeout","reason":"Timeout","details":{},"code":504}\n');
  assert.equal(st.reason, 'Timeout');
  assert.ok(Date.now() - started >= 1400);
  held.req.destroy();
  const quick = hold('/api/v1/namespaces/default/configmaps?timeout=300ms');
  const t0 = Date.now();
  assert.equal((await quick.reply).status, 504);
  assert.ok(Date.now() - t0 < 1200);
  quick.req.destroy();
  const bad = await send('GET', '/api/v1/namespaces?timeout=soon');
  assert.equal(bad.status, 400);
  assert.equal(JSON.parse(bad.body).message, 'invalid timeout specified in the request URL - time: invalid duration "soon"');
  // The server goes on answering.
  assert.equal((await send('GET', '/api/v1/namespaces/default')).status, 200);
});

test('the flags: defaults 400, 200 and 1m0s; negative values refused with upstream messages', () => {
  const o = defaultLimitOptions();
  assert.deepEqual(o, { inflight: { readOnly: 400, mutating: 200 }, requestTimeoutMs: 60000 });
  setLimitFlag(o, '--max-requests-inflight', () => '-1');
  setLimitFlag(o, '--request-timeout', () => '-5s');
  assert.deepEqual(validateLimitOptions(o), ['--max-requests-inflight can not be negative value', '--request-timeout can not be negative value']);
  assert.throws(() => setLimitFlag(o, '--max-mutating-requests-inflight', () => 'x'), { message: 'invalid argument "x" for "--max-mutating-requests-inflight" flag: strconv.ParseInt: parsing "x": invalid syntax' });
  assert.throws(() => setLimitFlag(o, '--request-timeout', () => '5'), { message: 'invalid argument "5" for "--request-timeout" flag: time: missing unit in duration "5"' });
  assert.equal(setLimitFlag(o, '--other', () => ''), false);
  assert.equal(timeoutParameter('32s'), 32000);
  assert.equal(timeoutParameter(undefined), undefined);
});
