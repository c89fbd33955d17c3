/**
 * CRDs with several versions end to end: kubectl against one real `serve` process, a CronTab CRD
 * served at v1beta1 (deprecated, `spec.cronSpec`) and v1 (storage, `spec.schedule`) whose
 * conversion webhook is a node:https server written here (certificates from a test CA). Objects
 * created at one version read at the other, lists converted in one review, watch events
 * converted, per-version printer columns, the deprecation warning kubectl prints, discovery's
 * preferred version, storedVersions, a webhook named by service, and the answers a cluster gives
 * when the webhook fails, misbehaves or is down.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { kubectl, manifest, startServer, type ServerProcess } from './harness.ts';
import { makeTestCA, type TestCA } from '../lib/certs.ts';
import { startWebhookServer, type Review, type WebhookServer } from '../lib/webhook-server.ts';
import { convertCronTab } from './crontab-conversion.ts';

let s: ServerProcess;
let ca: TestCA;
let hooks: WebhookServer;
/** A port nothing listens on. */
let deadPort: number;

type Obj = Record<string, any>;
const G = 'stable.example.com';

/** What the webhook does with a review; the tests switch it. */
let behaviour: (review: Obj) => Obj = convertAll;

const convertOne = convertCronTab;

function convertAll(review: Obj, edit: (o: Obj, i: number) => Obj = (o) => o): Obj {
  const req = review.request as Obj;
  return {
    apiVersion: review.apiVersion,
    kind: 'ConversionReview',
    response: { uid: req.uid, result: { status: 'Success' }, convertedObjects: (req.objects as Obj[]).map((o, i) => edit(convertOne(o, req.desiredAPIVersion), i)) },
  };
}

const crdYAML = (name: string, kind: string, url: string, storage = 'v1', clientConfig = `url: ${url}`) => `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: ${name}.${G}
spec:
  group: ${G}
  scope: Namespaced
  names: {plural: ${name}, singular: ${kind.toLowerCase()}, kind: ${kind}}
  conversion:
    strategy: Webhook
    webhook:
      conversionReviewVersions: [v1]
      clientConfig:
        ${clientConfig}
        caBundle: ${ca.caBundle}
  versions:
  - name: v1beta1
    served: true
    storage: ${storage === 'v1beta1'}
    deprecated: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              cronSpec: {type: string}
              image: {type: string}
    additionalPrinterColumns:
    - {name: Spec, type: string, jsonPath: .spec.cronSpec}
  - name: v1
    served: true
    storage: ${storage === 'v1'}
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              schedule: {type: string}
              image: {type: string}
    additionalPrinterColumns:
    - {name: Schedule, type: string, jsonPath: .spec.schedule}
`;

async function ok(args: string[], stdin?: string) {
  const r = await kubectl(s, args, stdin);
  assert.equal(r.code, 0, `kubectl ${args.join(' ')}: ${r.stderr}`);
  return r;
}

async function applyText(name: string, text: string) {
  return ok(['apply', '-f', manifest(s, name, text)]);
}

/** The reviews the webhook received since `from`. */
const reviews = (from = 0): Review[] => (hooks.received.get('/convert') ?? []).slice(from);
const reviewCount = () => reviews().length;

async function raw(path: string, init: RequestInit = {}): Promise<{ status: number; body: Obj }> {
  const r = await s.fetch(`${s.url}${path}`, { ...init, headers: { 'Content-Type': 'application/json', ...(init.headers ?? {}) } });
  return { status: r.status, body: (await r.json()) as Obj };
}

before(async () => {
  ca = makeTestCA();
  hooks = await startWebhookServer(ca.serving(['hooks.conv.svc']));
  hooks.on('/convert', (r) => ({ raw: { status: 200, body: JSON.stringify(behaviour(r as unknown as Obj)) } }));
  deadPort = await new Promise<number>((resolve) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const p = (srv.address() as { port: number }).port;
      srv.close(() => resolve(p));
    });
  });
  s = await startServer({ args: ['--webhook-service-address', `conv/hooks=127.0.0.1:${hooks.port}`] });
  await applyText('crontabs.yaml', crdYAML('crontabs', 'CronTab', `${hooks.url}/convert`));
  await applyText('downs.yaml', crdYAML('downs', 'Down', `https://127.0.0.1:${deadPort}/convert`));
  await applyText('svcs.yaml', crdYAML('svcs', 'Svc', '', 'v1', 'service: {namespace: conv, name: hooks, path: /convert}'));
  await ok(['wait', '--for=condition=Established', `crd/crontabs.${G}`, `crd/downs.${G}`, `crd/svcs.${G}`]);
});
after(async () => {
  await s?.stop();
  await hooks?.close();
  ca?.remove();
});

test('an object created at v1beta1 is stored at v1 through the webhook, read at either version, with the deprecation warning kubectl prints', async () => {
  const before = reviewCount();
  const created = await ok(
    ['apply', '-f', '-'],
    JSON.stringify({ apiVersion: `${G}/v1beta1`, kind: 'CronTab', metadata: { name: 'from-beta', namespace: 'default' }, spec: { cronSpec: '*/5 * * * *', image: 'img' } }),
  );
  assert.match(created.stderr, new RegExp(`Warning: ${G}/v1beta1 CronTab is deprecated; use ${G}/v1 CronTab`));
  // The write went to the storage version.
  assert.ok(reviews(before).some((r) => (r.request as Obj).desiredAPIVersion === `${G}/v1`), JSON.stringify(reviews(before)));
  const v1 = JSON.parse((await ok(['get', `crontabs.v1.${G}`, 'from-beta', '-o', 'json'])).stdout) as Obj;
  assert.equal(v1.apiVersion, `${G}/v1`);
  assert.deepEqual(v1.spec, { schedule: '*/5 * * * *', image: 'img' });
  const beta = JSON.parse((await ok(['get', `crontabs.v1beta1.${G}`, 'from-beta', '-o', 'json'])).stdout) as Obj;
  assert.equal(beta.apiVersion, `${G}/v1beta1`);
  assert.deepEqual(beta.spec, { cronSpec: '*/5 * * * *', image: 'img' });
  assert.equal(beta.metadata.uid, v1.metadata.uid);
  // Each version prints its own columns.
  const table = await ok(['get', `crontabs.v1beta1.${G}`, 'from-beta']);
  assert.match(table.stdout, /^NAME\s+SPEC\nfrom-beta\s+\*\/5 \* \* \* \*\n$/);
  assert.match(table.stderr, /Warning: stable.example.com\/v1beta1 CronTab is deprecated/);
  const v1table = await ok(['get', `crontabs.v1.${G}`, 'from-beta']);
  assert.match(v1table.stdout, /^NAME\s+SCHEDULE\nfrom-beta\s+\*\/5 \* \* \* \*\n$/);
  assert.doesNotMatch(v1table.stderr, /deprecated/);
});

test('an update at v1beta1 round-trips through the webhook and keeps the object', async () => {
  await ok(['create', '-f', '-'], JSON.stringify({ apiVersion: `${G}/v1`, kind: 'CronTab', metadata: { name: 'upd', namespace: 'default' }, spec: { schedule: '1 * * * *' } }));
  await ok(['patch', `crontabs.v1beta1.${G}`, 'upd', '--type=merge', '-p', '{"spec":{"cronSpec":"2 * * * *","image":"new"}}']);
  const v1 = JSON.parse((await ok(['get', `crontabs.v1.${G}`, 'upd', '-o', 'json'])).stdout) as Obj;
  assert.deepEqual(v1.spec, { schedule: '2 * * * *', image: 'new' });
  assert.equal(v1.metadata.generation, 2);
});

test('a list at the other version is converted in one review; objects already there are not sent', async () => {
  for (const n of ['l1', 'l2', 'l3']) {
    await ok(['create', '-f', '-'], JSON.stringify({ apiVersion: `${G}/v1`, kind: 'CronTab', metadata: { name: n, namespace: 'default' }, spec: { schedule: `${n} * * * *` } }));
  }
  const before = reviewCount();
  const list = JSON.parse((await ok(['get', `crontabs.v1beta1.${G}`, '-o', 'json'])).stdout) as Obj;
  const items = list.items as Obj[];
  assert.ok(items.length >= 4);
  for (const i of items) {
    assert.equal(i.apiVersion, `${G}/v1beta1`);
    assert.ok('cronSpec' in i.spec && !('schedule' in i.spec), JSON.stringify(i));
  }
  const sent = reviews(before);
  assert.equal(sent.length, 1, `${sent.length} reviews`);
  assert.equal(((sent[0]!.request as Obj).objects as Obj[]).length, items.length);
  // At the storage version nothing is converted.
  const at = reviewCount();
  await ok(['get', `crontabs.v1.${G}`, '-o', 'json']);
  assert.equal(reviewCount(), at);
});

test('watch events are converted to the watched version', async () => {
  const ac = new AbortController();
  const res = await s.fetch(`${s.url}/apis/${G}/v1beta1/namespaces/default/crontabs?watch=true&fieldSelector=metadata.name%3Dwatched`, { signal: ac.signal });
  const reader = res.body!.getReader();
  let text = '';
  const events: Obj[] = [];
  const next = async (): Promise<Obj> => {
    for (;;) {
      const nl = text.indexOf('\n');
      if (nl >= 0) {
        const line = text.slice(0, nl);
        text = text.slice(nl + 1);
        if (line.trim() !== '') return JSON.parse(line) as Obj;
        continue;
      }
      const { value, done } = await reader.read();
      if (done) throw new Error('watch ended');
      text += Buffer.from(value).toString('utf8');
    }
  };
  await ok(['create', '-f', '-'], JSON.stringify({ apiVersion: `${G}/v1`, kind: 'CronTab', metadata: { name: 'watched', namespace: 'default' }, spec: { schedule: 'w' } }));
  events.push(await next());
  await ok(['patch', `crontabs.v1.${G}`, 'watched', '--type=merge', '-p', '{"spec":{"schedule":"w2"}}']);
  events.push(await next());
  await ok(['delete', `crontabs.v1.${G}`, 'watched']);
  events.push(await next());
  ac.abort();
  assert.deepEqual(
    events.map((e) => [e.type, e.object.apiVersion, e.object.spec]),
    [
      ['ADDED', `${G}/v1beta1`, { cronSpec: 'w' }],
      ['MODIFIED', `${G}/v1beta1`, { cronSpec: 'w2' }],
      ['DELETED', `${G}/v1beta1`, { cronSpec: 'w2' }],
    ],
  );
});

/** Resolves once `out()` satisfies `pred`, or rejects after `ms`. */
function until(out: () => string, pred: (o: string) => boolean, ms: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const start = Date.now();
    const tick = () => {
      if (pred(out())) resolve();
      else if (Date.now() - start > ms) reject(new Error(`timed out; output so far:\n${out()}`));
      else setTimeout(tick, 50);
    };
    tick();
  });
}

test('kubectl get -w at v1beta1 prints rows converted from v1 with v1beta1\'s columns', async () => {
  const child = spawn('/usr/bin/kubectl', ['--kubeconfig', s.kubeconfig, '--cache-dir', join(s.dir, 'kube-cache'), 'get', `crontabs.v1beta1.${G}`, '-w', '--field-selector=metadata.name=kw'], {
    env: { ...process.env, HOME: s.dir },
  });
  let out = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr.on('data', (c: Buffer) => (out += c.toString()));
  try {
    await until(() => out, (o) => /deprecated/.test(o), 15000);
    await ok(['create', '-f', '-'], JSON.stringify({ apiVersion: `${G}/v1`, kind: 'CronTab', metadata: { name: 'kw', namespace: 'default' }, spec: { schedule: 'kw-1' } }));
    await until(() => out, (o) => /^kw\s+kw-1$/m.test(o), 15000);
    await ok(['patch', `crontabs.v1.${G}`, 'kw', '--type=merge', '-p', '{"spec":{"schedule":"kw-2"}}']);
    await until(() => out, (o) => /^kw\s+kw-2$/m.test(o), 15000);
    assert.match(out, /^NAME\s+SPEC\n/m);
  } finally {
    child.kill();
  }
});

test('a webhook that answers a failure fails reads with 500 and refuses writes, in upstream\'s words', async () => {
  behaviour = (r) => ({ apiVersion: r.apiVersion, kind: 'ConversionReview', response: { uid: (r.request as Obj).uid, result: { status: 'Failure', message: 'no conversion today' } } });
  try {
    const get = await kubectl(s, ['get', `crontabs.v1beta1.${G}`, 'from-beta']);
    assert.equal(get.code, 1);
    assert.match(get.stderr, /Error from server: conversion webhook for stable.example.com\/v1, Kind=CronTab failed: no conversion today/);
    const r = await raw(`/apis/${G}/v1beta1/namespaces/default/crontabs/from-beta`);
    assert.equal(r.status, 500);
    assert.deepEqual(r.body, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'conversion webhook for stable.example.com/v1, Kind=CronTab failed: no conversion today', code: 500 });
    const list = await raw(`/apis/${G}/v1beta1/crontabs`);
    assert.equal(list.status, 500);
    const create = await kubectl(s, ['create', '-f', '-'], JSON.stringify({ apiVersion: `${G}/v1beta1`, kind: 'CronTab', metadata: { name: 'refused', namespace: 'default' }, spec: { cronSpec: 'x' } }));
    assert.equal(create.code, 1);
    assert.match(create.stderr, /conversion webhook for stable.example.com\/v1beta1, Kind=CronTab failed: no conversion today/);
    const gone = await raw(`/apis/${G}/v1/namespaces/default/crontabs/refused`);
    assert.equal(gone.status, 404);
    // At the storage version the webhook is not needed.
    await ok(['get', `crontabs.v1.${G}`, 'from-beta']);
  } finally {
    behaviour = convertAll;
  }
});

test('a webhook\'s answer is checked as upstream checks it', async () => {
  const path = `/apis/${G}/v1beta1/namespaces/default/crontabs/from-beta`;
  const cases: Array<[string, (r: Obj) => Obj, string]> = [
    ['wrong uid', (r) => ({ ...convertAll(r), response: { ...convertAll(r).response, uid: 'other' } }), `conversion webhook for ${G}/v1, Kind=CronTab failed: expected response.uid="${'UID'}", got "other"`],
    ['no objects', (r) => ({ ...convertAll(r), response: { ...convertAll(r).response, convertedObjects: [] } }), `conversion webhook for ${G}/v1, Kind=CronTab returned 0 objects, expected 1`],
    ['wrong version', (r) => convertAll(r, (o) => ({ ...o, apiVersion: `${G}/v2` })), `conversion webhook for ${G}/v1, Kind=CronTab returned invalid object at index 0: invalid groupVersion (expected ${G}/v1beta1, received ${G}/v2)`],
    ['wrong kind', (r) => convertAll(r, (o) => ({ ...o, kind: 'Other' })), `conversion webhook for ${G}/v1, Kind=CronTab returned invalid object at index 0: invalid kind (expected CronTab, received Other)`],
    ['renamed', (r) => convertAll(r, (o) => ({ ...o, metadata: { ...o.metadata, name: 'x' } })), `conversion webhook for ${G}/v1, Kind=CronTab returned invalid object: must have the same name: from-beta != x`],
    ['bad label', (r) => convertAll(r, (o) => ({ ...o, metadata: { ...o.metadata, labels: { 'a/b/c': 'x' } } })), `conversion webhook for ${G}/v1, Kind=CronTab returned invalid metadata: metadata.labels: Invalid value: "a/b/c": a valid label key must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`],
    ['v1 review answered as v1beta1', (r) => ({ ...convertAll(r), apiVersion: 'apiextensions.k8s.io/v1beta1' }), `conversion webhook for ${G}/v1, Kind=CronTab failed: expected webhook response of apiextensions.k8s.io/v1, Kind=ConversionReview, got apiextensions.k8s.io/v1beta1, Kind=ConversionReview`],
  ];
  try {
    for (const [name, b, want] of cases) {
      let uid = '';
      behaviour = (r) => {
        uid = String((r.request as Obj).uid);
        return b(r);
      };
      const r = await raw(path);
      assert.equal(r.status, 500, name);
      assert.equal(r.body.message, want.replace('"UID"', JSON.stringify(uid)), name);
    }
    // Labels and annotations may change; the rest of metadata is the stored one.
    behaviour = (r) => convertAll(r, (o) => ({ ...o, metadata: { ...o.metadata, labels: { converted: 'yes' }, generation: 99 } }));
    const r = await raw(path);
    assert.equal(r.status, 200);
    assert.deepEqual(r.body.metadata.labels, { converted: 'yes' });
    assert.equal(r.body.metadata.generation, 1);
  } finally {
    behaviour = convertAll;
  }
});

test('a webhook that is down fails reads at the other version as a cluster does', async () => {
  await ok(['create', '-f', '-'], JSON.stringify({ apiVersion: `${G}/v1`, kind: 'Down', metadata: { name: 'd', namespace: 'default' }, spec: { schedule: 's' } }));
  const r = await kubectl(s, ['get', `downs.v1beta1.${G}`, 'd']);
  assert.equal(r.code, 1);
  assert.match(
    r.stderr,
    new RegExp(`Error from server: conversion webhook for stable.example.com/v1, Kind=Down failed: Post "https://127.0.0.1:${deadPort}/convert\\?timeout=30s": dial tcp 127.0.0.1:${deadPort}: connect: connection refused`),
  );
  await ok(['get', `downs.v1.${G}`, 'd']);
});

test('a conversion webhook named by service is reached at the address --webhook-service-address gives', async () => {
  await ok(['create', '-f', '-'], JSON.stringify({ apiVersion: `${G}/v1`, kind: 'Svc', metadata: { name: 'sv', namespace: 'default' }, spec: { schedule: 'sv' } }));
  const before = reviewCount();
  const got = JSON.parse((await ok(['get', `svcs.v1beta1.${G}`, 'sv', '-o', 'json'])).stdout) as Obj;
  assert.deepEqual(got.spec, { cronSpec: 'sv' });
  assert.equal(reviews(before).length, 1);
});

test('discovery lists both versions with v1 preferred; storedVersions follow the storage version', async () => {
  const group = JSON.parse((await ok(['get', '--raw', `/apis/${G}`])).stdout) as Obj;
  assert.deepEqual(group.versions.map((v: Obj) => v.version), ['v1', 'v1beta1']);
  assert.equal(group.preferredVersion.version, 'v1');
  const apiVersions = (await ok(['api-versions'])).stdout.split('\n');
  assert.ok(apiVersions.includes(`${G}/v1`) && apiVersions.includes(`${G}/v1beta1`));
  const openapi = JSON.parse((await ok(['get', '--raw', `/openapi/v3/apis/${G}/v1beta1`])).stdout) as Obj;
  assert.ok(JSON.stringify(openapi).includes('cronSpec'));
  const stored = async () => (JSON.parse((await ok(['get', 'crd', `downs.${G}`, '-o', 'json'])).stdout) as Obj).status.storedVersions;
  assert.deepEqual(await stored(), ['v1']);
  await applyText('downs-beta.yaml', crdYAML('downs', 'Down', `https://127.0.0.1:${deadPort}/convert`, 'v1beta1'));
  assert.deepEqual(await stored(), ['v1', 'v1beta1']);
  // Only the user takes a version out, through status (which upstream does not check against spec).
  await ok(['patch', 'crd', `downs.${G}`, '--subresource=status', '--type=merge', '-p', '{"status":{"storedVersions":["v1beta1"]}}']);
  assert.deepEqual(await stored(), ['v1beta1']);
  // A spec write keeps status and records a new storage version.
  await applyText('downs-v1.yaml', crdYAML('downs', 'Down', `https://127.0.0.1:${deadPort}/convert`, 'v1'));
  assert.deepEqual(await stored(), ['v1beta1', 'v1']);
});
