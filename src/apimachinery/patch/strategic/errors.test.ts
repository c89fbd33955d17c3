/**
 * Every error strategic merge patch returns: upstream's exact message and the HTTP status the
 * patch handler answers with (400 or 422 as kube-apiserver does; 400 where it has no Status).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { OpenAPIV3PatchMeta, StrategicMergePatchError, strategicMergePatch, strategicMergePatchJSON, type OpenAPIDocument } from './index.ts';

const doc = JSON.parse(
  readFileSync(new URL('../../../../vendor/k8s-openapi/1.35/apis/apps/v1.json', import.meta.url), 'utf8'),
) as OpenAPIDocument;
const schema = OpenAPIV3PatchMeta.forKind(doc, { group: 'apps', version: 'v1', kind: 'Deployment' })!;

type Obj = Record<string, unknown>;
const live: Obj = {
  metadata: { name: 'web', finalizers: ['a'] },
  spec: { extra: { a: 1 }, template: { spec: { containers: [{ name: 'app', image: 'app:1' }] } } },
};
const pod = (p: Obj): Obj => ({ spec: { template: { spec: p } } });

const cases: Array<{ name: string; patch: unknown; original?: Obj; message: string; code: 400 | 422; upstreamCode: 400 | 422 | 500 }> = [
  { name: 'unknown field holding a map on both sides', patch: { spec: { extra: { b: 2 } } }, message: 'unable to find api field "extra"', code: 400, upstreamCode: 500 },
  { name: 'merge key missing from a patch item', patch: pod({ containers: [{ image: 'x' }] }), message: 'map: map[image:x] does not contain declared merge key: name', code: 400, upstreamCode: 500 },
  { name: 'delete directive without the merge key', patch: pod({ containers: [{ $patch: 'delete', image: 'x' }] }), message: 'map: map[$patch:delete image:x] does not contain declared merge key: name', code: 400, upstreamCode: 500 },
  { name: '$patch: merge in a list', patch: pod({ containers: [{ $patch: 'merge' }] }), message: 'merging lists cannot yet be specified in the patch', code: 400, upstreamCode: 500 },
  { name: 'unknown $patch in a list', patch: pod({ containers: [{ name: 'app', $patch: 'nope' }] }), message: 'unknown patch type: nope in map: map[$patch:nope name:app]', code: 400, upstreamCode: 500 },
  { name: 'unknown $patch on a map', patch: { spec: { template: { $patch: 1 } } }, message: 'unknown patch type: %!s(int64=1) in map: map[$patch:1]', code: 400, upstreamCode: 500 },
  { name: '$retainKeys not a list', patch: { spec: { strategy: { $retainKeys: 'type' } } }, original: { spec: { strategy: {} } }, message: 'invalid patch format of retainKeys', code: 400, upstreamCode: 400 },
  { name: 'patch field missing from $retainKeys', patch: { spec: { strategy: { $retainKeys: ['rollingUpdate'], type: 'Recreate' } } }, original: { spec: { strategy: {} } }, message: 'invalid patch format of retainKeys', code: 400, upstreamCode: 400 },
  { name: '$deleteFromPrimitiveList without a list name', patch: { metadata: { $deleteFromPrimitiveList: ['a'] } }, message: 'invalid patch format of primitive list', code: 400, upstreamCode: 400 },
  { name: '$setElementOrder without a list name', patch: { metadata: { $setElementOrderfinalizers: ['a'] } }, message: 'invalid patch format of setElementOrder list', code: 400, upstreamCode: 400 },
  { name: '$setElementOrder not a list', patch: { metadata: { '$setElementOrder/finalizers': 'a' } }, message: 'expected a []interface {}, but received a string', code: 400, upstreamCode: 500 },
  { name: '$setElementOrder over a list that is not one', patch: { metadata: { '$setElementOrder/finalizers': ['a'], finalizers: 'a' } }, message: 'expected a []interface {}, but received a string', code: 400, upstreamCode: 500 },
  { name: '$setElementOrder disagreeing with the patch list', patch: pod({ '$setElementOrder/containers': [{ name: 'a' }], containers: [{ name: 'b' }] }), message: "The order in patch list:\n[map[name:b]]\n doesn't match $setElementOrder list:\n[map[name:a]]\n", code: 400, upstreamCode: 500 },
  { name: 'a list of lists', patch: { metadata: { finalizers: [['a']] } }, original: { metadata: { finalizers: [] } }, message: 'lists of lists are not supported', code: 422, upstreamCode: 422 },
  { name: 'mixed item types', patch: { metadata: { finalizers: [1] } }, message: 'list element types are not identical: [[a] [1]]', code: 400, upstreamCode: 500 },
  { name: 'maps in a primitive merge list', patch: { metadata: { finalizers: [{ y: 1 }] } }, original: { metadata: { finalizers: [{ x: 1 }] } }, message: 'cannot merge lists without merge key for string', code: 400, upstreamCode: 500 },
  { name: 'merge list holding a non-map', patch: pod({ containers: [{ name: 'b' }] }), original: pod({ containers: [{ name: 'app' }, 'x'] }), message: 'list element types are not identical: [[map[name:app] x] [map[name:b]]]', code: 400, upstreamCode: 500 },
  { name: 'map-valued merge keys (a Go panic upstream)', patch: pod({ containers: [{ name: { x: 1 } }] }), message: 'runtime error: comparing uncomparable type map[string]interface {}', code: 400, upstreamCode: 500 },
  { name: 'a patch that is not an object', patch: [1], message: 'json: cannot unmarshal array into Go value of type map[string]interface {}', code: 400, upstreamCode: 400 },
];

for (const c of cases) {
  test(c.name, () => {
    assert.throws(
      () => strategicMergePatch(c.original ?? live, c.patch, schema),
      (e: unknown) => {
        assert.ok(e instanceof StrategicMergePatchError, String(e));
        assert.equal(e.message, c.message);
        assert.equal(e.code, c.code);
        assert.equal(e.upstreamCode, c.upstreamCode);
        return true;
      },
    );
  });
}

test('JSON text that is not an object is an invalid JSON document (400)', () => {
  for (const [o, p] of [['[]', '{}'], ['{}', '"x"'], ['{', '{}']] as const) {
    assert.throws(() => strategicMergePatchJSON(o, p, schema), (e: unknown) => e instanceof StrategicMergePatchError && e.message === 'invalid JSON document' && e.code === 400);
  }
  assert.deepEqual(strategicMergePatchJSON('null', 'null', schema), {});
});

test('a null patch changes nothing; keys named __proto__ stay plain members', () => {
  assert.deepEqual(strategicMergePatch(live, null, schema), live);
  const out = strategicMergePatch({ metadata: { labels: {} } }, JSON.parse('{"metadata":{"labels":{"__proto__":"x"}}}'), schema);
  const labels = (out.metadata as Obj).labels as Obj;
  assert.equal(Object.getPrototypeOf(labels), Object.prototype);
  assert.deepEqual(Object.keys(labels), ['__proto__']);
});

test('patch values nested 10000 deep (the JSON decoder limit) apply, and print in messages, without exhausting the stack', () => {
  let deep: unknown = { leaf: null };
  for (let i = 0; i < 10000; i++) deep = { a: deep };
  const out = strategicMergePatch({ metadata: { labels: {} } }, { metadata: { labels: { x: deep } } }, schema);
  let v = ((out.metadata as Obj).labels as Obj).x as Obj;
  for (let i = 0; i < 10000; i++) v = v.a as Obj;
  assert.deepEqual(v, {}); // the null member is discarded, as for any value the original lacks
  assert.throws(
    () => strategicMergePatch(live, pod({ containers: [{ image: deep }] }), schema),
    (e: unknown) => e instanceof StrategicMergePatchError && e.message.startsWith('map: map[image:map[a:map[a:') && e.message.endsWith(']] does not contain declared merge key: name'),
  );
});
