/**
 * Nesting depth through a real server process: bodies nested exactly as deep as Go's decoder
 * allows (10000 levels) are created, updated, patched (merge and JSON patch), read, listed as
 * Tables and watched; one level more is a 400 worded as kube-apiserver words it, and nothing is
 * written. Covered: a custom resource under x-kubernetes-preserve-unknown-fields (with a CEL
 * rule and a printer column over the deep part), one whose schema nests as deep as a CRD can
 * carry (pruning, defaulting, validation all the way down), and the deep CRD itself.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type ServerProcess } from './harness.ts';
import { call, type Reply } from '../../src/server/testing/fixtures.ts';

const max = 10000;
let s: ServerProcess;

/** `levels` objects `{"a":...}` around `leaf`. */
function objects(levels: number, leaf = '0'): string {
  return '{"a":'.repeat(levels) + leaf + '}'.repeat(levels);
}

/** `levels` arrays around nothing. */
function arrays(levels: number): string {
  return '['.repeat(levels) + ']'.repeat(levels);
}

/** The deepest nesting in JSON text (strings here hold no brackets). */
function depthOf(text: string): number {
  let d = 0;
  let m = 0;
  for (const c of text) {
    if (c === '{' || c === '[') m = Math.max(m, ++d);
    else if (c === '}' || c === ']') d--;
  }
  return m;
}

const blobs = '/apis/deep.example.com/v1/namespaces/default/blobs';
const head = (name: string) => `{"apiVersion":"deep.example.com/v1","kind":"Blob","metadata":{"name":"${name}"},"spec":`;
/** A Blob whose whole body nests `depth` levels deep (root object included). */
const blob = (name: string, depth: number) => head(name) + objects(depth - 1) + '}';
const tooDeep = (c: '{' | '[') => `invalid character '${c}' exceeded max depth`;
const unrecognized = (kind: string, body: string, c: '{' | '[') =>
  `the object provided is unrecognized (must be of type ${kind}): couldn't get version/kind; json parse error: ${tooDeep(c)} (${body.slice(0, 30)} ...)`;

function send(method: string, path: string, body: string, contentType = 'application/json'): Promise<Reply> {
  return call(s.url, method, path, body, { 'Content-Type': contentType });
}

function assertBadRequest(r: Reply, message: string): void {
  assert.equal(r.status, 400, r.text.slice(0, 300));
  assert.equal(r.json.reason, 'BadRequest');
  assert.equal(r.json.message, message);
}

async function waitEstablished(name: string): Promise<void> {
  for (let i = 0; i < 100; i++) {
    const r = await call(s.url, 'GET', `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${name}`);
    if (r.json?.status?.conditions?.some((c: { type: string; status: string }) => c.type === 'Established' && c.status === 'True')) {
      // Established is set before the resource is served; wait for discovery to list it too.
      const gv = await call(s.url, 'GET', `/apis/${r.json.spec.group}/v1`);
      if (gv.status === 200 && gv.json.resources.some((x: { name: string }) => x.name === r.json.spec.names.plural)) return;
    }
    await new Promise((res) => setTimeout(res, 100));
  }
  throw new Error(`${name} not established`);
}

function crd(plural: string, kind: string, version: Record<string, unknown>): Record<string, unknown> {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${plural}.deep.example.com` },
    spec: {
      group: 'deep.example.com',
      scope: 'Namespaced',
      names: { plural, singular: kind.toLowerCase(), kind, listKind: `${kind}List` },
      versions: [{ name: 'v1', served: true, storage: true, ...version }],
    },
  };
}

before(async () => {
  // Raw node:http requests (the fixtures' call), so plain HTTP.
  s = await startServer({ args: ['--plain-http'] });
  const r = await call(
    s.url,
    'POST',
    '/apis/apiextensions.k8s.io/v1/customresourcedefinitions',
    crd('blobs', 'Blob', {
      schema: {
        openAPIV3Schema: {
          type: 'object',
          properties: {
            spec: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true, 'x-kubernetes-validations': [{ rule: 'self == self' }] },
          },
        },
      },
      additionalPrinterColumns: [{ name: 'A', type: 'string', jsonPath: '.spec.a' }],
    }),
  );
  assert.equal(r.status, 201, r.text);
  await waitEstablished('blobs.deep.example.com');
});

after(async () => {
  await s.stop();
});

test('create at the maximum depth is stored and read back whole; one level more is a 400 and nothing is written', async () => {
  const body = blob('max', max);
  assert.equal(depthOf(body), max);
  const created = await send('POST', blobs, body);
  assert.equal(created.status, 201, created.text.slice(0, 300));
  assert.equal(depthOf(created.text), max);
  const got = await call(s.url, 'GET', `${blobs}/max`);
  assert.equal(got.status, 200);
  assert.equal(depthOf(got.text), max);

  const deeper = blob('over', max + 1);
  assertBadRequest(await send('POST', blobs, deeper), unrecognized('Blob', deeper, '{'));
  const arrays1 = head('over') + '{"a":' + arrays(max - 1) + '}}';
  assertBadRequest(await send('POST', blobs, arrays1), unrecognized('Blob', arrays1, '['));
  assert.equal((await call(s.url, 'GET', `${blobs}/over`)).status, 404);
});

test('a body nested far past the bound (20000 levels) is a 400, not a crash', async () => {
  const body = head('far') + objects(20000) + '}';
  assertBadRequest(await send('POST', blobs, body), unrecognized('Blob', body, '{'));
  assert.equal((await call(s.url, 'GET', `${blobs}/far`)).status, 404);
});

test('update at the maximum depth succeeds; one level more is a 400 and the stored object is unchanged', async () => {
  const created = await send('POST', blobs, blob('upd', 3));
  assert.equal(created.status, 201);
  const rv = created.json.metadata.resourceVersion;
  const withRV = (text: string) => text.replace('"metadata":{"name":"upd"}', `"metadata":{"name":"upd","resourceVersion":"${rv}"}`);
  const deeper = withRV(blob('upd', max + 1));
  assertBadRequest(await send('PUT', `${blobs}/upd`, deeper), unrecognized('Blob', deeper, '{'));
  assert.equal((await call(s.url, 'GET', `${blobs}/upd`)).json.metadata.resourceVersion, rv);
  const updated = await send('PUT', `${blobs}/upd`, withRV(head('upd') + '{"a":' + arrays(max - 2) + '}}'));
  assert.equal(updated.status, 200, updated.text.slice(0, 300));
  assert.equal(depthOf(updated.text), max);
});

test('merge patch at the maximum depth applies; one level more is a 400 worded per fieldValidation', async () => {
  assert.equal((await send('POST', blobs, blob('mp', 3))).status, 201);
  const rv = (await call(s.url, 'GET', `${blobs}/mp`)).json.metadata.resourceVersion;
  const mp = 'application/merge-patch+json';
  const patched = await send('PATCH', `${blobs}/mp`, `{"spec":${objects(max - 1)}}`, mp);
  assert.equal(patched.status, 200, patched.text.slice(0, 300));
  assert.equal(depthOf(patched.text), max);
  const rv2 = patched.json.metadata.resourceVersion;
  assert.notEqual(rv2, rv);

  const deeper = `{"spec":${objects(max)}}`;
  // Warn is the default: the merge patcher's strict decode meets the depth first.
  assertBadRequest(await send('PATCH', `${blobs}/mp`, deeper, mp), `error decoding patch: ${tooDeep('{')}`);
  assertBadRequest(await send('PATCH', `${blobs}/mp?fieldValidation=Strict`, deeper, mp), `error decoding patch: ${tooDeep('{')}`);
  // Ignore: jsonpatch.MergePatch answers any undecodable patch with ErrBadJSONPatch.
  assertBadRequest(await send('PATCH', `${blobs}/mp?fieldValidation=Ignore`, deeper, mp), 'Invalid JSON Patch');
  assert.equal((await call(s.url, 'GET', `${blobs}/mp`)).json.metadata.resourceVersion, rv2);
});

test('JSON patch at the maximum depth applies; one level more is a 400; a result nested past the bound is a 422', async () => {
  assert.equal((await send('POST', blobs, blob('jp', 3))).status, 201);
  const jp = 'application/json-patch+json';
  // The patch document nests max levels: its array, the operation, then the value.
  const op = (levels: number) => `[{"op":"replace","path":"/spec","value":${objects(levels)}}]`;
  const patched = await send('PATCH', `${blobs}/jp`, op(max - 2), jp);
  assert.equal(patched.status, 200, patched.text.slice(0, 300));
  assert.equal(depthOf(patched.text), max - 1);
  const rv = patched.json.metadata.resourceVersion;

  assertBadRequest(await send('PATCH', `${blobs}/jp`, op(max - 1), jp), `error decoding patch: ${tooDeep('{')}`);
  assertBadRequest(await send('PATCH', `${blobs}/jp?fieldValidation=Ignore`, op(max - 1), jp), tooDeep('{'));

  // A `test` of the whole deep value; then copying it one level below itself twice: 10001 levels.
  const deepValue = objects(max - 2);
  const testOp = await send('PATCH', `${blobs}/jp`, `[{"op":"test","path":"/spec","value":${deepValue}}]`, jp);
  assert.equal(testOp.status, 200, testOp.text.slice(0, 300));
  const copied = await send('PATCH', `${blobs}/jp`, '[{"op":"copy","from":"/spec","path":"/spec/b"},{"op":"copy","from":"/spec","path":"/spec/c"}]', jp);
  assert.equal(copied.status, 422, copied.text.slice(0, 300));
  assert.equal(copied.json.reason, 'Invalid');
  assert.equal(copied.json.details.causes[0].field, 'patch');
  assert.match(copied.json.message, /^ "" is invalid: patch: Invalid value: "\{\\"apiVersion\\":\\"deep\.example\.com\/v1\\",/);
  assert.ok(copied.json.message.endsWith(`": couldn't get version/kind; json parse error: ${tooDeep('{')}`), copied.json.message.slice(-200));
  assert.equal((await call(s.url, 'GET', `${blobs}/jp`)).json.metadata.resourceVersion, rv);
});

test('lists, Tables with a printer column over the deep part, YAML and watches serve deep objects', async () => {
  const list = await call(s.url, 'GET', blobs);
  assert.equal(list.status, 200, list.text.slice(0, 600));
  assert.equal(depthOf(list.text), max + 2);
  const table = await call(s.url, 'GET', blobs, undefined, { Accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' });
  assert.equal(table.status, 200, table.text.slice(0, 300));
  const row = table.json.rows.find((x: { object: { metadata: { name: string } } }) => x.object.metadata.name === 'max');
  assert.equal(row.cells[0], 'max');
  assert.ok(String(row.cells[1]).startsWith('{"a":{"a":'), String(row.cells[1]).slice(0, 50));
  const yaml = await call(s.url, 'GET', `${blobs}/max`, undefined, { Accept: 'application/yaml' });
  assert.equal(yaml.status, 200, yaml.text.slice(0, 300));
  assert.equal(yaml.headers['content-type'], 'application/yaml');
  assert.equal(depthOf(yaml.text), max);
  const watch = await call(s.url, 'GET', `${blobs}?watch=true&timeoutSeconds=1`);
  assert.equal(watch.status, 200);
  const events = watch.text.trim().split('\n').map((l) => JSON.parse(l) as { type: string; object: { metadata: { name: string } } });
  const ev = events.find((e) => e.object.metadata.name === 'max');
  assert.equal(ev?.type, 'ADDED');
});

// A CRD whose schema nests deeply: levels of {"type":"object","properties":{"v":...,"a":<next>}}
// below spec; the leaf carries a CEL rule.
const leafSchema = '{"type":"object","x-kubernetes-validations":[{"rule":"self.v != \'bad\'"}],"properties":{"v":{"type":"string","maxLength":3,"default":"d"}}}';
function deepSchemaCRD(levels: number): string {
  const level = '{"type":"object","properties":{"v":{"type":"string","maxLength":3,"default":"d"},"a":';
  const schema = `{"type":"object","properties":{"spec":${level.repeat(levels)}${leafSchema}${'}}'.repeat(levels)}}}`;
  return (
    '{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition","metadata":{"name":"trees.deep.example.com"},' +
    '"spec":{"group":"deep.example.com","scope":"Namespaced","names":{"plural":"trees","singular":"tree","kind":"Tree","listKind":"TreeList"},' +
    `"versions":[{"name":"v1","served":true,"storage":true,"schema":{"openAPIV3Schema":${schema}}}]}}`
  );
}
// Schema levels: the root, `levels` objects (spec the first), the leaf and its v: levels + 3 in all.
const maxSchemaDepth = 500;
const schemaLevels = maxSchemaDepth - 3;
const trees = '/apis/deep.example.com/v1/namespaces/default/trees';
const crds = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';

test('a CRD body nested past 10000 levels is a 400; a schema past the schema bound is a 422; one at the bound registers', async () => {
  // The body bound: 10 + 2 * levels JSON levels; its 10001st container is the leaf's rule list.
  const deepest = deepSchemaCRD((max - 10) / 2 + 1);
  assert.equal(depthOf(deepest), max + 2);
  assertBadRequest(await send('POST', crds, deepest), unrecognized('CustomResourceDefinition', deepest, '['));
  // The schema bound, reported where the schema sits once hoisted (spec.validation).
  const deeper = await send('POST', crds, deepSchemaCRD(schemaLevels + 1));
  assert.equal(deeper.status, 422, deeper.text.slice(0, 300));
  assert.equal(
    deeper.json.message,
    `CustomResourceDefinition.apiextensions.k8s.io "trees.deep.example.com" is invalid: spec.validation.openAPIV3Schema: Forbidden: must not nest more than ${maxSchemaDepth} levels of schemas`,
  );
  assert.equal((await call(s.url, 'GET', `${crds}/trees.deep.example.com`)).status, 404);
  const body = deepSchemaCRD(schemaLevels);
  const r = await send('POST', crds, body);
  assert.equal(r.status, 201, r.text.slice(0, 300));
  await waitEstablished('trees.deep.example.com');
  const got = await call(s.url, 'GET', `${crds}/trees.deep.example.com`);
  assert.equal(depthOf(got.text), depthOf(body));
  // Its OpenAPI document (what kubectl explain and validation read) is published.
  const doc = await call(s.url, 'GET', '/openapi/v3/apis/deep.example.com/v1');
  assert.equal(doc.status, 200);
  assert.ok(doc.text.includes('trees'));
});

test('custom resources of the deep schema are pruned, defaulted and validated all the way down', async () => {
  const spec = (leaf: string) => '{"a":'.repeat(schemaLevels) + leaf + '}'.repeat(schemaLevels);
  const tree = (name: string, leaf: string) => `{"apiVersion":"deep.example.com/v1","kind":"Tree","metadata":{"name":"${name}"},"spec":${spec(leaf)}}`;
  const created = await send('POST', trees, tree('t', '{"unknown":1}'));
  assert.equal(created.status, 201, created.text.slice(0, 300));
  // managedFields record the whole depth too (metadata.managedFields[0].fieldsV1 then the spec's levels).
  const { managedFields, ...meta } = created.json.metadata;
  assert.equal(depthOf(JSON.stringify({ ...created.json, metadata: meta })), schemaLevels + 2);
  assert.equal(depthOf(JSON.stringify(managedFields)), schemaLevels + 5);
  // Defaulted at every level, the unknown field pruned at the bottom.
  assert.equal(created.text.split('"v":"d"').length - 1, schemaLevels + 1);
  assert.ok(!created.text.includes('"unknown":'), 'the unknown field is pruned');

  const deepPath = `spec${'.a'.repeat(schemaLevels)}.v`;
  const tooLong = await send('POST', trees, tree('long', '{"v":"toolong"}'));
  assert.equal(tooLong.status, 422, tooLong.text.slice(0, 300));
  assert.deepEqual(
    tooLong.json.details.causes.map((c: { field: string; reason: string }) => [c.field, c.reason]),
    // The schema error stops the CEL rules, as upstream says.
    [
      [deepPath, 'FieldValueTooLong'],
      ['<nil>', 'FieldValueInvalid'],
    ],
  );
  const rule = await send('POST', trees, tree('bad', '{"v":"bad"}'));
  assert.equal(rule.status, 422, rule.text.slice(0, 300));
  assert.equal(rule.json.details.causes[0].field, `spec${'.a'.repeat(schemaLevels)}`);
  assert.equal((await call(s.url, 'GET', `${trees}/long`)).status, 404);

  const patched = await send('PATCH', `${trees}/t`, `{"spec":${spec('{"v":"xyz"}')}}`, 'application/merge-patch+json');
  assert.equal(patched.status, 200, patched.text.slice(0, 300));
  assert.ok(patched.text.includes('"v":"xyz"'));
});

test('deep values where metadata, kind or a pruned field belong are answered 4xx, never 5xx', async () => {
  // Malformed ObjectMeta is the decoder's 400 (schemaCoercingDecoder); a well-typed but invalid one is 422.
  const d = objects(max - 5);
  const bodies: Array<[string, number]> = [
    [`{"apiVersion":"deep.example.com/v1","kind":"Blob","metadata":{"name":"m1","annotations":${d}}}`, 400],
    [`{"apiVersion":"deep.example.com/v1","kind":"Blob","metadata":{"name":"m2","labels":{"x":${d}}}}`, 400],
    // managedFields that do not decode are replaced by the field manager's, as upstream's Update does.
    [`{"apiVersion":"deep.example.com/v1","kind":"Blob","metadata":{"name":"m3","managedFields":[{"fieldsV1":${d}}]}}`, 201],
    [`{"apiVersion":"deep.example.com/v1","kind":${d},"metadata":{"name":"m4"}}`, 400],
  ];
  for (const [body, code] of bodies) {
    const r = await send('POST', `${blobs}?fieldValidation=Strict`, body);
    assert.equal(r.status, code, r.text.slice(0, 300));
  }
  // A field the schema does not have is pruned whole, however deep, and reported under Strict.
  const pruned = await send('POST', `${blobs}?fieldValidation=Strict`, `{"apiVersion":"deep.example.com/v1","kind":"Blob","metadata":{"name":"m5"},"spec":{"a":1},"status":${d}}`);
  assert.equal(pruned.status, 400, pruned.text.slice(0, 300));
  assert.equal(pruned.json.message, 'Blob in version "v1" cannot be handled as a Blob: strict decoding error: unknown field "status"');
});
