import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { call, crontabCRD, eventually, startCrontabFixture, type Fixture } from './testing/fixtures.ts';

let f: Fixture;
const ctPath = '/apis/stable.example.com/v1/namespaces/default/crontabs';
const aggAccept =
  'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList,application/json';
const tableAccept = 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json';

before(async () => {
  f = await startCrontabFixture();
});
after(async () => {
  await f.close();
});

test('the codec: a malformed ObjectMeta is the decoder\'s 400 and nothing else is reported; patch results are decoded too', async () => {
  const p = '/apis/stable.example.com/v1/namespaces/default/crontabs';
  const o = (name: string, extra: Record<string, unknown> = {}) => ({ apiVersion: 'stable.example.com/v1', kind: 'CronTab', metadata: { name }, spec: { replicas: 1 }, ...extra });
  const rev = (await call(f.base, 'GET', p)).json.metadata.resourceVersion;
  // schemaCoercingDecoder stops at the ObjectMeta error: the unknown spec.junk is not reported with it.
  const bad = await call(f.base, 'POST', p + '?fieldValidation=Strict', o('codec1', { metadata: { name: 'codec1', labels: { a: 1 } }, spec: { junk: 1 } }));
  assert.equal(bad.status, 400);
  assert.equal(bad.json.message, 'CronTab in version "v1" cannot be handled as a CronTab: json: cannot unmarshal number into Go struct field ObjectMeta.labels of type string');
  const put = await call(f.base, 'POST', p, o('codec1'));
  assert.equal(put.status, 201, put.text);
  const upd = await call(f.base, 'PUT', p + '/codec1', { ...put.json, metadata: { ...put.json.metadata, labels: { a: true } } });
  assert.equal(upd.status, 400, upd.text);
  assert.equal(upd.json.message, 'CronTab in version "v1" cannot be handled as a CronTab: json: cannot unmarshal bool into Go struct field ObjectMeta.labels of type string');
  // A patch whose result has malformed metadata: 422 on patch with the decoder's message.
  const mp = await call(f.base, 'PATCH', p + '/codec1', '{"metadata":{"labels":{"a":1}}}', { 'Content-Type': 'application/merge-patch+json' });
  assert.equal(mp.status, 422);
  assert.match(mp.json.message, /^ "" is invalid: patch: Invalid value: ".*": json: cannot unmarshal number into Go struct field ObjectMeta.labels of type string$/);
  // Unknown fields a patch adds: warned, refused under Strict as the patch handler refuses them, dropped.
  const warn = await call(f.base, 'PATCH', p + '/codec1', '{"spec":{"junk":1,"image":"i"}}', { 'Content-Type': 'application/merge-patch+json' });
  assert.equal(warn.status, 200, warn.text);
  assert.equal(warn.headers.warning, '299 - "unknown field \\"spec.junk\\""');
  assert.deepEqual(warn.json.spec, { image: 'i', replicas: 1 });
  const strict = await call(f.base, 'PATCH', p + '/codec1?fieldValidation=Strict', [{ op: 'add', path: '/spec/junk', value: 1 }], { 'Content-Type': 'application/json-patch+json' });
  assert.equal(strict.status, 422);
  assert.match(strict.json.message, /: strict decoding error: unknown field "spec.junk"$/);
  const jdup = await call(f.base, 'PATCH', p + '/codec1?fieldValidation=Warn', '[{"op":"add","op":"add","path":"/spec/image","value":"j"}]', { 'Content-Type': 'application/json-patch+json' });
  assert.equal(jdup.status, 200, jdup.text);
  assert.equal(jdup.headers.warning, '299 - "json patch duplicate field \\"[0].op\\""');
  // A scale patch repeating a field: Strict quotes the patched Scale in the 422, Warn warns.
  const sdup = '{"spec":{"replicas":3,"replicas":4}}';
  const ss = await call(f.base, 'PATCH', p + '/codec1/scale?fieldValidation=Strict', sdup, { 'Content-Type': 'application/merge-patch+json' });
  assert.equal(ss.status, 422, ss.text);
  assert.match(ss.json.message, /^ "" is invalid: patch: Invalid value: "\{\\"apiVersion\\":\\"autoscaling\/v1\\",.*\\"replicas\\":4.*": strict decoding error: duplicate field "spec.replicas"$/);
  const sw = await call(f.base, 'PATCH', p + '/codec1/scale', sdup, { 'Content-Type': 'application/merge-patch+json' });
  assert.equal(sw.status, 200, sw.text);
  assert.equal(sw.json.spec.replicas, 4);
  assert.equal(sw.headers.warning, '299 - "duplicate field \\"spec.replicas\\""');
  // Nothing refused was written.
  const after = await call(f.base, 'GET', p + '/codec1');
  assert.deepEqual(after.json.metadata.labels, undefined);
  assert.ok(Number(after.json.metadata.resourceVersion) > Number(rev));
});

test('a refused write still sends the warnings found before the refusal', async () => {
  const body = { apiVersion: 'stable.example.com/v1', kind: 'CronTab', metadata: { name: 'Bad_Name' }, spec: { junk: 1 } };
  const r = await call(f.base, 'POST', ctPath, body);
  assert.equal(r.status, 422, r.text);
  assert.match(r.json.message, /metadata.name: Invalid value: "Bad_Name"/);
  assert.equal(r.headers.warning, '299 - "unknown field \\"spec.junk\\""');
  const ok = await call(f.base, 'POST', ctPath, { ...body, metadata: { name: 'warned-ok' } });
  assert.equal(ok.status, 201, ok.text);
  const upd = await call(f.base, 'PUT', ctPath + '/warned-ok', { ...ok.json, metadata: { ...ok.json.metadata, labels: { 'a b': 'x' } }, spec: { junk: 2 } });
  assert.equal(upd.status, 422, upd.text);
  assert.equal(upd.headers.warning, '299 - "unknown field \\"spec.junk\\""');
});

test('health, version and unknown paths', async () => {
  assert.equal((await call(f.base, 'GET', '/healthz')).text, 'ok');
  assert.equal((await call(f.base, 'GET', '/livez/ping')).text, 'ok');
  assert.equal((await call(f.base, 'GET', '/readyz?verbose')).text, '[+]ping ok\nreadyz check passed\n');
  const v = await call(f.base, 'GET', '/version/');
  assert.equal(v.json.gitVersion, 'v1.35.0');
  const nf = await call(f.base, 'GET', '/nope');
  assert.equal(nf.status, 404);
  assert.equal(nf.json.kind, 'Status');
  assert.equal((await call(f.base, 'GET', '/openapi/v1')).status, 404);
});

test('the established CRD is in aggregated and legacy discovery', async () => {
  const agg = await call(f.base, 'GET', '/apis', undefined, { Accept: aggAccept });
  assert.equal(agg.headers['content-type'], 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList');
  const g = agg.json.items.find((i: any) => i.metadata.name === 'stable.example.com');
  const res = g.versions[0].resources[0];
  assert.equal(res.resource, 'crontabs');
  assert.deepEqual(res.shortNames, ['ct']);
  assert.deepEqual(res.subresources.map((s: any) => s.subresource), ['status', 'scale']);
  const again = await call(f.base, 'GET', '/apis', undefined, { Accept: aggAccept, 'If-None-Match': String(agg.headers.etag) });
  assert.equal(again.status, 304);
  const legacy = await call(f.base, 'GET', '/apis');
  assert.ok(legacy.json.groups.some((x: any) => x.name === 'stable.example.com'));
  const core = await call(f.base, 'GET', '/api', undefined, { Accept: aggAccept });
  // The core group is first, with Namespaces among its resources.
  assert.equal(core.json.items.length, 1);
  assert.ok(core.json.items[0].versions[0].resources.some((r: any) => r.resource === 'namespaces' && r.shortNames[0] === 'ns'));
  const crd = await call(f.base, 'GET', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions/crontabs.stable.example.com');
  assert.ok(crd.json.status.conditions.some((c: any) => c.type === 'Established' && c.status === 'True'));
});

test('create, get, list as Table, conflicts and errors', async () => {
  const obj = { apiVersion: 'stable.example.com/v1', kind: 'CronTab', metadata: { name: 'a', labels: { app: 'demo' } }, spec: { cronSpec: '* * * * */5', image: 'img', replicas: 2 } };
  const c = await call(f.base, 'POST', ctPath, obj);
  assert.equal(c.status, 201, c.text);
  assert.equal(c.json.metadata.namespace, 'default');
  const dup = await call(f.base, 'POST', ctPath, obj);
  assert.equal(dup.status, 409);
  assert.equal(dup.json.message, 'crontabs.stable.example.com "a" already exists');
  const t = await call(f.base, 'GET', ctPath + '?limit=500', undefined, { Accept: tableAccept });
  assert.equal(t.json.kind, 'Table');
  assert.deepEqual(t.json.columnDefinitions.map((x: any) => x.name), ['Name', 'Spec', 'Replicas', 'Image', 'Age']);
  assert.deepEqual(t.json.rows[0].cells.slice(0, 4), ['a', '* * * * */5', 2, 'img']);
  assert.equal(t.json.rows[0].object.kind, 'PartialObjectMetadata');
  const nf = await call(f.base, 'GET', ctPath + '/nope');
  assert.equal(nf.status, 404);
  assert.equal(nf.json.message, 'crontabs.stable.example.com "nope" not found');
  const bad = await call(f.base, 'POST', ctPath, '{"kind":');
  assert.equal(bad.status, 400);
  assert.equal(
    bad.json.message,
    'the object provided is unrecognized (must be of type CronTab): couldn\'t get version/kind; json parse error: unexpected end of JSON input ({"kind":)',
  );
  // (A plain `y` would be the boolean true, as go-yaml reads YAML 1.1.)
  const yaml = await call(f.base, 'POST', ctPath, 'apiVersion: stable.example.com/v1\nkind: CronTab\nmetadata:\n  name: from-yaml\nspec:\n  replicas: 1\n', { 'Content-Type': 'application/yaml' });
  assert.equal(yaml.status, 201, yaml.text);
  const missingNs = await call(f.base, 'POST', '/apis/stable.example.com/v1/namespaces/nope/crontabs', { ...obj, metadata: { name: 'z' } });
  assert.equal(missingNs.status, 404);
  assert.equal(missingNs.json.message, 'namespaces "nope" not found');
  const big = await call(f.base, 'POST', ctPath, Buffer.alloc(3 * 1024 * 1024 + 10, 0x20));
  assert.equal(big.status, 413);
  const dupField = await call(f.base, 'POST', ctPath + '?fieldValidation=Strict', '{"apiVersion":"stable.example.com/v1","kind":"CronTab","metadata":{"name":"d"},"spec":{"image":"a","image":"b"}}');
  assert.equal(dupField.status, 400);
  assert.match(dupField.json.message, /strict decoding error: duplicate field "spec.image"/);
  const warn = await call(f.base, 'POST', ctPath + '?fieldValidation=Warn', '{"apiVersion":"stable.example.com/v1","kind":"CronTab","metadata":{"name":"w"},"spec":{"image":"a","image":"b"}}');
  assert.equal(warn.status, 201);
  assert.equal(warn.headers.warning, '299 - "duplicate field \\"spec.image\\""');
  // Duplicate and unknown fields make one strict decoding error (schemaCoercingDecoder), and nothing is written.
  const both = '{"apiVersion":"stable.example.com/v1","kind":"CronTab","metadata":{"name":"d2"},"spec":{"image":"a","image":"b","bogus":1}}';
  const strictBoth = await call(f.base, 'POST', ctPath + '?fieldValidation=Strict', both);
  assert.equal(strictBoth.status, 400);
  assert.equal(
    strictBoth.json.message,
    'CronTab in version "v1" cannot be handled as a CronTab: strict decoding error: duplicate field "spec.image", unknown field "spec.bogus"',
  );
  assert.equal((await call(f.base, 'GET', ctPath + '/d2')).status, 404);
  const warnBoth = await call(f.base, 'POST', ctPath + '?fieldValidation=Warn', both);
  assert.equal(warnBoth.status, 201, warnBoth.text);
  assert.equal(warnBoth.headers.warning, '299 - "duplicate field \\"spec.image\\"", 299 - "unknown field \\"spec.bogus\\""');
  const putBoth = await call(f.base, 'PUT', ctPath + '/d2?fieldValidation=Strict', both.replace('"name":"d2"', `"name":"d2","resourceVersion":"${warnBoth.json.metadata.resourceVersion}"`));
  assert.equal(putBoth.status, 400);
  assert.equal(
    putBoth.json.message,
    'CronTab in version "v1" cannot be handled as a CronTab: strict decoding error: duplicate field "spec.image", unknown field "spec.bogus"',
  );
  const badQ = await call(f.base, 'GET', ctPath + '?limit=many');
  assert.equal(badQ.status, 400);
  assert.equal(badQ.json.message, 'strconv.ParseInt: parsing "many": invalid syntax');
});

test('scale subresource reads and writes spec.replicas', async () => {
  await call(f.base, 'POST', ctPath, { apiVersion: 'stable.example.com/v1', kind: 'CronTab', metadata: { name: 's' }, spec: { replicas: 1 } });
  const s = await call(f.base, 'GET', ctPath + '/s/scale');
  assert.equal(s.json.kind, 'Scale');
  assert.equal(s.json.spec.replicas, 1);
  const p = await call(f.base, 'PATCH', ctPath + '/s/scale', { spec: { replicas: 4 } }, { 'Content-Type': 'application/merge-patch+json' });
  assert.equal(p.status, 200, p.text);
  assert.equal(p.json.spec.replicas, 4);
  const g = await call(f.base, 'GET', ctPath + '/s');
  assert.equal(g.json.spec.replicas, 4);
});

test('patch: merge, json, strategic refused for custom resources, non-object merge patch is 400', async () => {
  await call(f.base, 'POST', ctPath, { apiVersion: 'stable.example.com/v1', kind: 'CronTab', metadata: { name: 'p' }, spec: { image: 'a' } });
  const m = await call(f.base, 'PATCH', ctPath + '/p', { spec: { image: 'b' } }, { 'Content-Type': 'application/merge-patch+json' });
  assert.equal(m.json.spec.image, 'b');
  const j = await call(f.base, 'PATCH', ctPath + '/p', [{ op: 'replace', path: '/spec/image', value: 'c' }], { 'Content-Type': 'application/json-patch+json' });
  assert.equal(j.json.spec.image, 'c');
  const smp = await call(f.base, 'PATCH', ctPath + '/p', { spec: {} }, { 'Content-Type': 'application/strategic-merge-patch+json' });
  assert.equal(smp.status, 415);
  const list = await call(f.base, 'PATCH', ctPath + '/p', [{ op: 'add' }], { 'Content-Type': 'application/merge-patch+json' });
  assert.equal(list.status, 400);
  const dry = await call(f.base, 'PATCH', ctPath + '/p?dryRun=All', { spec: { image: 'dry' } }, { 'Content-Type': 'application/merge-patch+json' });
  assert.equal(dry.json.spec.image, 'dry');
  assert.equal((await call(f.base, 'GET', ctPath + '/p')).json.spec.image, 'c');
});

test('watch streams events with headers flushed at once and honours timeoutSeconds', async () => {
  const list = await call(f.base, 'GET', ctPath);
  const rv = list.json.metadata.resourceVersion;
  const lines: any[] = [];
  let headersAt = 0;
  const done = new Promise<void>((resolve, reject) => {
    const req = request(`${f.base}${ctPath}?watch=True&resourceVersion=${rv}&timeoutSeconds=2`, (res) => {
      headersAt = Date.now();
      assert.equal(res.headers['content-type'], 'application/json');
      let buf = '';
      res.on('data', (c: Buffer) => {
        buf += c.toString();
        let i;
        while ((i = buf.indexOf('\n')) >= 0) {
          lines.push(JSON.parse(buf.slice(0, i)));
          buf = buf.slice(i + 1);
        }
      });
      res.on('end', () => resolve());
    });
    req.on('error', reject);
    req.end();
  });
  const started = Date.now();
  await eventually(async () => headersAt > 0);
  assert.ok(headersAt - started < 3000);
  await call(f.base, 'POST', ctPath, { apiVersion: 'stable.example.com/v1', kind: 'CronTab', metadata: { name: 'watched' } });
  await done;
  assert.ok(Date.now() - started >= 1900);
  assert.deepEqual(lines.map((l) => [l.type, l.object.metadata.name]), [['ADDED', 'watched']]);
});

/** The length-delimited fields of a protobuf message (all this document holds): field -> bytes. */
function protoFields(buf: Buffer): Map<number, Buffer> {
  const out = new Map<number, Buffer>();
  let i = 0;
  const varint = (): number => {
    let n = 0;
    let shift = 0;
    for (;;) {
      const b = buf[i++]!;
      n |= (b & 0x7f) << shift;
      if (b < 0x80) return n;
      shift += 7;
    }
  };
  while (i < buf.length) {
    const tag = varint();
    assert.equal(tag & 7, 2, `field ${tag >> 3} is length-delimited`);
    const len = varint();
    out.set(tag >> 3, buf.subarray(i, i + len));
    i += len;
  }
  return out;
}

test('OpenAPI v2: JSON, or protobuf as kubectl asks, with no schemas (they are in v3)', async () => {
  const json = await call(f.base, 'GET', '/openapi/v2');
  assert.equal(json.status, 200);
  assert.equal(json.headers['content-type'], 'application/json');
  assert.deepEqual(json.json, { swagger: '2.0', info: { title: 'Kubernetes', version: 'v1.35.0' }, paths: {} });
  const pb = await call(f.base, 'GET', '/openapi/v2', undefined, { Accept: 'application/com.github.proto-openapi.spec.v2@v1.0+protobuf' });
  assert.equal(pb.status, 200);
  // Go's mime parser rejects the '@' spelling: the answer uses the other one, as kube-openapi's.
  assert.equal(pb.headers['content-type'], 'application/com.github.proto-openapi.spec.v2.v1.0+protobuf');
  const doc = protoFields(Buffer.from(pb.text, 'latin1'));
  assert.equal(doc.get(1)!.toString(), '2.0');
  const info = protoFields(doc.get(2)!);
  assert.equal(info.get(1)!.toString(), 'Kubernetes');
  assert.equal(info.get(2)!.toString(), 'v1.35.0');
  assert.equal(doc.get(8)!.length, 0);
  assert.equal(json.headers.etag, pb.headers.etag);
  const cached = await call(f.base, 'GET', '/openapi/v2', undefined, { 'If-None-Match': String(json.headers.etag) });
  assert.equal(cached.status, 304);
});

test('OpenAPI v3 index and group-version document', async () => {
  const idx = await call(f.base, 'GET', '/openapi/v3');
  const url = idx.json.paths['apis/stable.example.com/v1'].serverRelativeURL;
  assert.match(url, /^\/openapi\/v3\/apis\/stable\.example\.com\/v1\?hash=[0-9A-F]{128}$/);
  assert.ok(idx.json.paths['api/v1']);
  const doc = await call(f.base, 'GET', url);
  assert.equal(doc.headers['cache-control'], 'public, immutable');
  const stale = await call(f.base, 'GET', '/openapi/v3/apis/stable.example.com/v1?hash=ABC');
  assert.equal(stale.status, 301);
  assert.equal(stale.headers.location, url);
  const cached = await call(f.base, 'GET', '/openapi/v3/apis/stable.example.com/v1', undefined, { 'If-None-Match': String(doc.headers.etag) });
  assert.equal(cached.status, 304);
  const patch = doc.json.paths['/apis/stable.example.com/v1/namespaces/{namespace}/crontabs/{name}'].patch;
  assert.deepEqual(patch['x-kubernetes-group-version-kind'], { group: 'stable.example.com', version: 'v1', kind: 'CronTab' });
  assert.ok(patch.parameters.some((p: any) => p.name === 'fieldValidation'));
  const schema = doc.json.components.schemas['com.example.stable.v1.CronTab'];
  assert.deepEqual(schema['x-kubernetes-group-version-kind'], [{ group: 'stable.example.com', kind: 'CronTab', version: 'v1' }]);
  assert.equal(schema.properties.metadata.allOf[0].$ref, '#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta');
  assert.equal(schema.properties.spec.properties.cronSpec.type, 'string');
});

test('access reviews answer allowed', async () => {
  const r = await call(f.base, 'POST', '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews', {
    apiVersion: 'authorization.k8s.io/v1',
    kind: 'SelfSubjectAccessReview',
    spec: { resourceAttributes: { verb: 'get', resource: 'crontabs' } },
  });
  assert.equal(r.status, 201);
  assert.equal(r.json.status.allowed, true);
});

test('deleting the CRD removes its custom resources and its discovery entry', async () => {
  const held = { apiVersion: 'stable.example.com/v1', kind: 'CronTab', metadata: { name: 'held', finalizers: ['example.com/hold'] } };
  assert.equal((await call(f.base, 'POST', ctPath, held)).status, 201);
  const d = await call(f.base, 'DELETE', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions/crontabs.stable.example.com');
  assert.equal(d.status, 200, d.text);
  const refused = await eventually(async () => {
    const r = await call(f.base, 'POST', ctPath, { apiVersion: 'stable.example.com/v1', kind: 'CronTab', metadata: { name: 'late' } });
    return r.status === 405 ? r : undefined;
  });
  assert.equal(refused.json.message, 'create not allowed while custom resource definition is terminating');
  const crd = await call(f.base, 'GET', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions/crontabs.stable.example.com');
  assert.ok(crd.json.status.conditions.some((c: any) => c.type === 'Terminating' && c.status === 'True'));
  await call(f.base, 'PATCH', ctPath + '/held', { metadata: { finalizers: null } }, { 'Content-Type': 'application/merge-patch+json' });
  await eventually(async () => (await call(f.base, 'GET', '/apis/stable.example.com/v1')).status === 404);
  const agg = await call(f.base, 'GET', '/apis', undefined, { Accept: aggAccept });
  assert.ok(!agg.json.items.some((i: any) => i.metadata.name === 'stable.example.com'));
});

test('PartialObjectMetadata lists, pretty printing and YAML output', async () => {
  await call(f.base, 'POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'pom' } });
  const pom = await call(f.base, 'GET', '/api/v1/namespaces', undefined, {
    Accept: 'application/json;as=PartialObjectMetadataList;v=v1;g=meta.k8s.io,application/json',
  });
  assert.equal(pom.json.kind, 'PartialObjectMetadataList');
  assert.ok(pom.json.items.every((i: any) => i.kind === 'PartialObjectMetadata' && i.metadata.name && !i.spec));
  const pretty = await call(f.base, 'GET', '/api/v1/namespaces/pom?pretty=true');
  assert.match(pretty.text, /^\{\n  "kind": "Namespace"|^\{\n  "apiVersion"/);
  const yaml = await call(f.base, 'GET', '/api/v1/namespaces/pom', undefined, { Accept: 'application/yaml' });
  assert.equal(yaml.headers['content-type'], 'application/yaml');
  assert.match(yaml.text, /\nmetadata:\n/);
  const table = await call(f.base, 'GET', '/api/v1/namespaces/pom', undefined, { Accept: tableAccept });
  assert.deepEqual(table.json.rows[0].cells.slice(0, 2), ['pom', 'Active']);
});

test('client mistakes get a Status with a 4xx code, never a 500 or a hang', async () => {
  const cases: Array<[string, string, unknown, Record<string, string>?]> = [
    ['PUT', ctPath + '/x', '{not json'],
    ['PUT', ctPath + '/x', '[1,2]'],
    ['POST', ctPath, '"just a string"'],
    ['POST', ctPath, 'null'],
    ['POST', ctPath, { apiVersion: 'other.io/v1', kind: 'CronTab', metadata: { name: 'x' } }],
    ['POST', ctPath, { apiVersion: 'stable.example.com/v1', kind: 'CronTab', metadata: { name: 'x', namespace: 'other' } }],
    ['PUT', ctPath + '/x', { apiVersion: 'stable.example.com/v1', kind: 'CronTab', metadata: { name: 'y' } }],
    ['PATCH', ctPath + '/x', '{bad', { 'Content-Type': 'application/merge-patch+json' }],
    ['PATCH', ctPath + '/x', '{}', { 'Content-Type': 'text/plain' }],
    ['PATCH', ctPath + '/x', '{}', { 'Content-Type': 'application/apply-patch+yaml' }],
    ['GET', ctPath + '?labelSelector=a%20in%20(', undefined],
    ['GET', ctPath + '?fieldSelector=spec.nope=1', undefined],
    ['GET', ctPath + '?limit=abc', undefined],
    ['GET', ctPath + '?continue=garbage', undefined],
    ['GET', ctPath + '?resourceVersion=abc', undefined],
    ['GET', ctPath + '?watch=1&timeoutSeconds=x', undefined],
    ['GET', ctPath + '?includeObject=Bogus', undefined, { Accept: tableAccept }],
    ['GET', ctPath, undefined, { Accept: 'text/html' }],
    ['DELETE', ctPath + '/x', '{"propagationPolicy":"Sideways"}'],
    ['DELETE', ctPath + '/x', '[]'],
    ['POST', ctPath + '?dryRun=Some', { apiVersion: 'stable.example.com/v1', kind: 'CronTab', metadata: { name: 'x' } }],
    ['POST', ctPath + '?fieldValidation=Loose', { apiVersion: 'stable.example.com/v1', kind: 'CronTab', metadata: { name: 'x' } }],
    ['POST', ctPath, { apiVersion: 'stable.example.com/v1', kind: 'CronTab', metadata: { name: 'Bad_Name' } }],
    ['GET', '/apis/stable.example.com/v1/namespaces/default/crontabs/a/b/c/d', undefined],
    ['GET', '/apis/stable.example.com/v1/namespaces/default/crontabs/%zz', undefined],
    ['GET', '/apis/stable.example.com/v1/namespaces/default/crontabs/x/bogus', undefined],
    ['POST', '/api/v1/namespaces', Buffer.from([0x6b, 0x38, 0x73, 0x00, 0xff]), { 'Content-Type': 'application/vnd.kubernetes.protobuf' }],
    ['POST', '/version', '{}'],
    ['OPTIONS', ctPath, undefined],
  ];
  for (const [method, path, body, headers] of cases) {
    const r = await call(f.base, method, path, body, headers);
    assert.ok(r.status >= 400 && r.status < 500, `${method} ${path}: ${r.status} ${r.text}`);
    assert.equal(r.json?.kind, 'Status', `${method} ${path}: ${r.text}`);
  }
});

test('cluster-scoped custom resources', async () => {
  const crd = structuredClone(crontabCRD) as any;
  crd.metadata.name = 'widgets.example.io';
  crd.spec.group = 'example.io';
  crd.spec.scope = 'Cluster';
  crd.spec.names = { plural: 'widgets', singular: 'widget', kind: 'Widget' };
  delete crd.spec.versions[0].additionalPrinterColumns;
  assert.equal((await call(f.base, 'POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', crd)).status, 201);
  await eventually(async () => (await call(f.base, 'GET', '/apis/example.io/v1')).status === 200);
  const c = await call(f.base, 'POST', '/apis/example.io/v1/widgets', { apiVersion: 'example.io/v1', kind: 'Widget', metadata: { name: 'w1' } });
  assert.equal(c.status, 201, c.text);
  assert.equal(c.json.metadata.namespace, undefined);
  const t = await call(f.base, 'GET', '/apis/example.io/v1/widgets', undefined, { Accept: tableAccept });
  assert.deepEqual(t.json.columnDefinitions.map((x: any) => x.name), ['Name', 'Age']);
  assert.equal(t.json.rows[0].cells[0], 'w1');
  const ns = await call(f.base, 'POST', '/apis/example.io/v1/namespaces/default/widgets', { apiVersion: 'example.io/v1', kind: 'Widget', metadata: { name: 'w2' } });
  assert.equal(ns.status, 404);
});

test('every served version of a CRD reads the same objects in its own apiVersion', async () => {
  const crd = structuredClone(crontabCRD) as any;
  crd.metadata.name = 'gadgets.multi.io';
  crd.spec.group = 'multi.io';
  crd.spec.names = { plural: 'gadgets', singular: 'gadget', kind: 'Gadget' };
  const beta = structuredClone(crd.spec.versions[0]);
  beta.name = 'v1beta1';
  beta.storage = false;
  beta.deprecated = true;
  beta.deprecationWarning = 'multi.io/v1beta1 Gadget is going away';
  crd.spec.versions.push(beta);
  assert.equal((await call(f.base, 'POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', crd)).status, 201);
  await eventually(async () => (await call(f.base, 'GET', '/apis/multi.io/v1beta1')).status === 200);
  const base = (v: string) => `/apis/multi.io/${v}/namespaces/default/gadgets`;
  const c = await call(f.base, 'POST', base('v1beta1'), { apiVersion: 'multi.io/v1beta1', kind: 'Gadget', metadata: { name: 'g' }, spec: { image: 'a' } });
  assert.equal(c.status, 201, c.text);
  assert.equal((await call(f.base, 'GET', base('v1') + '/g')).json.apiVersion, 'multi.io/v1');
  // Written through v1beta1, stored in the storage version v1 (conversion None sets apiVersion).
  const stored = await f.store.get('/registry/multi.io/gadgets/default/g');
  assert.equal(JSON.parse(stored!.value).apiVersion, 'multi.io/v1');
  const betaList = await call(f.base, 'GET', base('v1beta1'));
  assert.equal(betaList.json.items[0].apiVersion, 'multi.io/v1beta1');
  assert.equal(betaList.headers.warning, '299 - "multi.io/v1beta1 Gadget is going away"');
  assert.equal(c.headers.warning, '299 - "multi.io/v1beta1 Gadget is going away"');
  const p = await call(f.base, 'PATCH', base('v1') + '/g', { spec: { image: 'b' } }, { 'Content-Type': 'application/merge-patch+json' });
  assert.equal(p.status, 200, p.text);
  assert.equal(p.json.apiVersion, 'multi.io/v1');
  const agg = await call(f.base, 'GET', '/apis', undefined, { Accept: aggAccept });
  assert.deepEqual(agg.json.items.find((i: any) => i.metadata.name === 'multi.io').versions.map((v: any) => v.version), ['v1', 'v1beta1']);
});

test('Table watches carry column definitions on the first event only', async () => {
  const list = await call(f.base, 'GET', '/api/v1/namespaces');
  const rv = list.json.metadata.resourceVersion;
  const events: any[] = [];
  const done = new Promise<string | undefined>((resolve, reject) => {
    const req = request(`${f.base}/api/v1/namespaces?watch=1&resourceVersion=${rv}&timeoutSeconds=1`, { headers: { Accept: tableAccept } }, (res) => {
      let buf = '';
      res.on('data', (c: Buffer) => (buf += c.toString()));
      res.on('end', () => {
        for (const line of buf.split('\n')) if (line) events.push(JSON.parse(line));
        resolve(res.headers['content-type']);
      });
    });
    req.on('error', reject);
    req.end();
  });
  await new Promise((r) => setTimeout(r, 200));
  await call(f.base, 'POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'tw1' } });
  await call(f.base, 'POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'tw2' } });
  assert.equal(await done, 'application/json');
  assert.deepEqual(events.map((e) => [e.type, e.object.kind, e.object.rows[0].cells[0]]), [['ADDED', 'Table', 'tw1'], ['ADDED', 'Table', 'tw2']]);
  assert.deepEqual(events[0].object.columnDefinitions.map((c: any) => c.name), ['Name', 'Status', 'Age']);
  assert.equal(events[1].object.columnDefinitions, null);
});

test('undecodable patches are 400 with the patch library messages; strict errors in a patch are 422 on patch', async () => {
  const path = '/api/v1/namespaces/default';
  // Under Warn (the default) and Strict the patchers decode the patch strictly first.
  const merge = await call(f.base, 'PATCH', path, '{bad', { 'Content-Type': 'application/merge-patch+json' });
  assert.equal(merge.status, 400);
  assert.equal(merge.json.message, "error decoding patch: invalid character 'b' looking for beginning of object key string");
  const json = await call(f.base, 'PATCH', path, '[{', { 'Content-Type': 'application/json-patch+json' });
  assert.equal(json.status, 400);
  assert.equal(json.json.message, 'error decoding patch: unexpected end of JSON input');
  // Under Ignore the patch libraries meet the error: MergePatch's ErrBadJSONPatch, DecodePatch's decoder error.
  const mergeIgnore = await call(f.base, 'PATCH', path + '?fieldValidation=Ignore', '{bad', { 'Content-Type': 'application/merge-patch+json' });
  assert.equal(mergeIgnore.json.message, 'Invalid JSON Patch');
  const jsonIgnore = await call(f.base, 'PATCH', path + '?fieldValidation=Ignore', '[{', { 'Content-Type': 'application/json-patch+json' });
  assert.equal(jsonIgnore.json.message, 'unexpected end of JSON input');
  const smpBad = await call(f.base, 'PATCH', path, '{bad', { 'Content-Type': 'application/strategic-merge-patch+json' });
  assert.equal(smpBad.status, 400);
  assert.equal(smpBad.json.message, "invalid character 'b' looking for beginning of object key string");
  const failing = await call(f.base, 'PATCH', path, [{ op: 'test', path: '/spec/nope', value: 1 }], { 'Content-Type': 'application/json-patch+json' });
  assert.equal(failing.status, 422);
  assert.equal(failing.json.message, 'the server rejected our request due to an error in our request');
  const dup = await call(f.base, 'PATCH', path + '?fieldValidation=Strict', '{"metadata":{"labels":{"a":"1","a":"2"}}}', {
    'Content-Type': 'application/merge-patch+json',
  });
  // The patch handler reports strict errors as an Invalid `patch` whose value is the patched object.
  assert.equal(dup.status, 422);
  assert.match(dup.json.message, /^ "" is invalid: patch: Invalid value: "\{\\"apiVersion\\":\\"v1\\",.*\\"labels\\":\{\\"a\\":\\"2\\",.*": strict decoding error: duplicate field "metadata.labels.a"$/);
  assert.equal(dup.json.details.causes[0].field, 'patch');
  const smp = await call(f.base, 'PATCH', path, { metadata: { labels: { smp: 'yes' } } }, { 'Content-Type': 'application/strategic-merge-patch+json' });
  assert.equal(smp.status, 200, smp.text);
  assert.equal(smp.json.metadata.labels.smp, 'yes');
});

test('large lists stream as one valid JSON document', async () => {
  const path = '/apis/multi.io/v1/namespaces/default/gadgets';
  let next = 0;
  await Promise.all(
    Array.from({ length: 32 }, async () => {
      for (;;) {
        const i = next++;
        if (i >= 600) return;
        const r = await call(f.base, 'POST', path, { apiVersion: 'multi.io/v1', kind: 'Gadget', metadata: { name: `bulk-${i}` } });
        assert.equal(r.status, 201, r.text);
      }
    }),
  );
  const list = await call(f.base, 'GET', path);
  assert.equal(list.json.kind, 'GadgetList');
  assert.equal(list.json.apiVersion, 'multi.io/v1');
  assert.ok(list.json.metadata.resourceVersion);
  assert.equal(list.json.items.filter((i: any) => i.metadata.name.startsWith('bulk-')).length, 600);
  const table = await call(f.base, 'GET', path, undefined, { Accept: tableAccept });
  assert.equal(table.json.kind, 'Table');
  assert.equal(table.json.rows.filter((r: any) => String(r.cells[0]).startsWith('bulk-')).length, 600);
  assert.deepEqual(table.json.columnDefinitions.map((c: any) => c.name), ['Name', 'Spec', 'Replicas', 'Image', 'Age']);
  const paged = await call(f.base, 'GET', path + '?limit=550');
  assert.equal(paged.json.items.length, 550);
  assert.ok(paged.json.metadata.continue);
});

test('a watch with an enormous timeoutSeconds stays open', async () => {
  let ended = false;
  const req = request(`${f.base}/api/v1/namespaces?watch=true&timeoutSeconds=99999999999`, (res) => {
    res.resume();
    res.on('end', () => (ended = true));
  });
  req.on('error', () => {});
  req.end();
  await new Promise((r) => setTimeout(r, 700));
  assert.equal(ended, false);
  req.destroy();
});

test('splitTarget reads request targets as WHATWG URL parsing does', async () => {
  const { splitTarget } = await import('./server.ts');
  const targets = [
    '/', '/apis/stable.example.com/v1/namespaces/default/crontabs', '/a/./b', '/a/../b', '/a/.', '/a/..', '/a/.b', '/a/..b/c',
    '/a/b.', '/x?watch=true&resourceVersion=5', '/x?labelSelector=a%3Db,c+d', '/x?a=b c', '/x#f', '/a%2Fb', '//a//b/', '/x?',
    '/x?a=%zz', '/a/.?x=1', '/a/..?x=1', '/a\\b', '/é', "/x?q='a'", '/.', '/..', '/x?a=1&a=2',
  ];
  for (const t of targets) {
    const u = new URL(t, 'http://localhost');
    const s = splitTarget(t);
    assert.equal(s.pathname, u.pathname, t);
    assert.deepEqual([...s.params], [...u.searchParams], t);
  }
});

