/**
 * The create memo against the layers it stands in for: every create through one field manager
 * (which remembers shapes) gives the same object, to the byte, as through a new field manager
 * each time (which works every create out), and a repeated shape is not converted again.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { schemaFromOpenAPI, type OpenAPISchema } from '../smd/schema/from-openapi.ts';
import { newFieldManager } from './field-manager.ts';
import type { Obj, TypeConverter } from './manager.ts';
import { newTypeConverter } from './type-converter.ts';

const models = (JSON.parse(readFileSync(new URL('../../../testdata/smd/openapi/apps-v1-deployment.json', import.meta.url), 'utf8')) as { schemas: Record<string, OpenAPISchema> }).schemas;
const base = newTypeConverter(schemaFromOpenAPI(models), new Map([['apps/v1/Deployment', { namedType: 'io.k8s.api.apps.v1.Deployment' }]]));

let conversions = 0;
const counting: TypeConverter = {
  objectToTyped: (obj, opts) => {
    conversions++;
    return base.objectToTyped(obj, opts);
  },
  typedToObject: (tv) => base.typedToObject(tv),
};

let clock = '2026-01-01T00:00:00Z';
const make = () => newFieldManager({ typeConverter: counting, apiVersion: 'apps/v1', kind: 'Deployment', now: () => clock });
const empty = (): Obj => ({ apiVersion: 'apps/v1', kind: 'Deployment' });

function deployment(name: string, o: { replicas?: unknown; image?: string; container?: string; labels?: Obj; extra?: Obj; apiVersion?: string } = {}): Obj {
  return {
    apiVersion: o.apiVersion ?? 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace: 'default', labels: o.labels ?? { app: 'web' } },
    spec: {
      replicas: 'replicas' in o ? o.replicas : 1,
      selector: { matchLabels: { app: 'web' } },
      template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: o.container ?? 'c', image: o.image ?? 'nginx' }] } },
      ...o.extra,
    },
  };
}

function nested(depth: number): Obj {
  let v: Obj = {};
  for (let i = 0; i < depth; i++) v = { a: v };
  return v;
}

const cases: [string, Obj][] = [
  ['first', deployment('a')],
  ['same shape, other name and replicas', deployment('b', { replicas: 7 })],
  ['other label key', deployment('c', { labels: { app: 'web', tier: 'x' } })],
  ['other image (lists are kept whole)', deployment('d', { image: 'busybox' })],
  ['another container name', deployment('d2', { container: 'z' })],
  ['two containers', { ...deployment('e'), spec: { ...(deployment('e').spec as Obj), template: { spec: { containers: [{ name: 'a', image: 'x' }, { name: 'b', image: 'x' }] } } } }],
  ['a float replicas', deployment('f', { replicas: 1.5 })],
  ['a string replicas (not of the schema)', deployment('g', { replicas: 'x' })],
  ['the string replicas again', deployment('h', { replicas: 'y' })],
  ['a null field', deployment('i', { replicas: null })],
  ['another version', deployment('j', { apiVersion: 'apps/v1beta2' })],
  ['managedFields given', { ...deployment('k'), metadata: { name: 'k', managedFields: [{ manager: 'm', operation: 'Update', apiVersion: 'apps/v1', fieldsType: 'FieldsV1', fieldsV1: { 'f:spec': {} } }] } }],
  ['an empty managedFields', { ...deployment('l'), metadata: { name: 'l', managedFields: [] } }],
  ['only apiVersion, kind and name', { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'm' } }],
  ['only apiVersion, kind and name again', { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'n' } }],
  ['deeply nested unknown field', deployment('o', { extra: { junk: nested(200) } })],
  ['metadata not an object', { apiVersion: 'apps/v1', kind: 'Deployment', metadata: 'x' }],
  ['first shape again', deployment('p', { replicas: 3 })],
];

test('creates through one field manager are recorded as through a new one each time', () => {
  const fm = make();
  for (const [name, obj] of cases) {
    for (const manager of ['kubectl-create', 'other']) {
      const want = make().updateNoErrors(empty(), structuredClone(obj), manager);
      const got = fm.updateNoErrors(empty(), structuredClone(obj), manager);
      assert.equal(JSON.stringify(got), JSON.stringify(want), `${name} by ${manager}`);
    }
  }
});

test('a repeated shape is not converted again, and its entry takes the current time', () => {
  const fm = make();
  clock = '2026-01-01T00:00:00Z';
  fm.update(empty(), deployment('a'), 'kubectl-create');
  const before = conversions;
  clock = '2026-01-01T00:00:05Z';
  const second = fm.update(empty(), deployment('b', { replicas: 9 }), 'kubectl-create');
  assert.equal(conversions, before, 'the second create of the shape converted the object');
  const entries = (second.metadata as Obj).managedFields as Obj[];
  assert.equal(entries.length, 1);
  assert.equal(entries[0]!.time, '2026-01-01T00:00:05Z');
  // Another manager, or another shape, is worked out.
  fm.update(empty(), deployment('c'), 'other');
  assert.ok(conversions > before);
});

test('changing a returned entry does not change later creates', () => {
  const fm = make();
  const first = fm.update(empty(), deployment('a'), 'kubectl-create');
  const e = ((first.metadata as Obj).managedFields as Obj[])[0]!;
  (e.fieldsV1 as Obj)['f:junk'] = {};
  e.manager = 'changed';
  const second = fm.update(empty(), deployment('b'), 'kubectl-create');
  const want = make().update(empty(), deployment('b'), 'kubectl-create');
  assert.equal(JSON.stringify(second), JSON.stringify(want));
});

test('the object given is not changed, and the result shares nothing but its members', () => {
  const fm = make();
  fm.update(empty(), deployment('a'), 'kubectl-create');
  const given = deployment('b');
  const text = JSON.stringify(given);
  const out = fm.update(empty(), given, 'kubectl-create');
  assert.equal(JSON.stringify(given), text);
  assert.notEqual(out.metadata, given.metadata);
});
