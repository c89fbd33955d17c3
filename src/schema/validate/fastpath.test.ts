// The generated fast pass against the detailed validator alone (fastPath: false): both must report
// exactly the same errors, in the same order, on Kubernetes' validation tables, on the Gateway API
// and cert-manager CRDs with mutated objects, and on random schemas with random values.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { errorString } from '../../apimachinery/index.ts';
import { readYAMLDocuments } from '../../apimachinery/index.ts';
import { GoFloat } from '../../apimachinery/index.ts';
import type { JSONSchemaProps } from '../types.ts';
import { loadVectors } from '../vectors.ts';
import { compileValidator, type SchemaValidator } from './validator.ts';
import { compileSchema } from '../compile.ts';
import { validateListSetsAndMaps } from '../listtype.ts';
import { newStructural } from '../structural.ts';
import { Path } from '../../apimachinery/index.ts';

/** Both validators on value (and on update against old): the same rendered errors, in order. */
const compiled = new WeakMap<JSONSchemaProps, [SchemaValidator, SchemaValidator]>();

function same(schema: JSONSchemaProps, value: unknown, old?: unknown, label = ''): number {
  let pair = compiled.get(schema);
  if (pair === undefined) {
    pair = [compileValidator(schema), compileValidator(schema, { fastPath: false })];
    compiled.set(schema, pair);
  }
  const [fast, slow] = pair;
  const got = fast.validate(value).map(errorString);
  assert.deepEqual(got, slow.validate(value).map(errorString), `validate ${label}`);
  const raw = (v: SchemaValidator) => v.validateRaw(value).map((e) => `${e.code} ${e.name} ${e.message}`);
  assert.deepEqual(raw(fast), raw(slow), `validateRaw ${label}`);
  if (old !== undefined) {
    assert.deepEqual(fast.validateUpdate(value, old).map(errorString), slow.validateUpdate(value, old).map(errorString), `validateUpdate ${label}`);
  }
  return got.length;
}

interface Case {
  name: string;
  schema: JSONSchemaProps;
  object: unknown;
  oldObject?: unknown;
  compatibilityVersion?: string;
}

test('validation.json: the fast pass agrees with the detailed validator on every case', () => {
  const cases = loadVectors<Case>('validation.json').cases;
  let invalid = 0;
  for (const c of cases) if (same(c.schema, c.object, c.oldObject, c.name) > 0) invalid++;
  assert.ok(cases.length > 50 && invalid > 20, `${cases.length} cases, ${invalid} invalid`);
});

/** A deterministic PRNG (mulberry32). */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const ODD_VALUES: unknown[] = [
  null,
  undefined,
  true,
  0,
  -0,
  1,
  -7,
  2 ** 31,
  2 ** 40,
  2 ** 60,
  1.5,
  -2.5,
  1e300,
  10n,
  2n ** 70n,
  new GoFloat(3),
  new GoFloat(2.5),
  '',
  'a',
  'abc',
  'x'.repeat(70),
  '😀😀',
  '2025-03-01T10:00:00Z',
  '2025-03-01 10:00',
  'Always',
  'a.b-c',
  '-bad',
  [],
  ['a', 'a'],
  [1, 2, 3],
  {},
  { a: 1 },
  { name: 'x' },
  { constructor: 1, toString: 'x' },
  // No prototype: no inherited constructor (the GoFloat test then asks instanceof).
  Object.assign(Object.create(null) as object, { name: 'x', a: 1 }),
  JSON.parse('{"__proto__": {"a": 1}}'),
];

/** Random values of every kind, some shaped after the schema. */
function randomValue(r: () => number, s: JSONSchemaProps | undefined, depth: number): unknown {
  const x = r();
  if (x < 0.25 || depth > 3 || s === undefined) return ODD_VALUES[Math.floor(r() * ODD_VALUES.length)];
  if (s.properties !== undefined || (s.type === 'object' && x < 0.9)) {
    const o: Record<string, unknown> = {};
    for (const [k, p] of Object.entries(s.properties ?? {})) if (r() < 0.7) o[k] = randomValue(r, p, depth + 1);
    if (r() < 0.3) o[`extra${Math.floor(r() * 3)}`] = randomValue(r, typeof s.additionalProperties === 'object' ? s.additionalProperties : undefined, depth + 1);
    return o;
  }
  if (s.type === 'array' || s.items !== undefined) {
    const n = Math.floor(r() * 4);
    const items = s.items !== undefined && !Array.isArray(s.items) ? s.items : undefined;
    const out = Array.from({ length: n }, () => randomValue(r, items, depth + 1));
    if (n > 0 && r() < 0.2) out.push(out[0]);
    return out;
  }
  if (s.enum !== undefined && r() < 0.6) return s.enum[Math.floor(r() * s.enum.length)];
  if (s.type === 'integer') return Math.floor((r() - 0.5) * 40);
  if (s.type === 'number') return (r() - 0.5) * 40;
  if (s.type === 'string') return ['', 'ab', 'abcdef', 'Always', 'a-b', '2025-03-01T10:00:00.5+01:00', 'ümlaut'][Math.floor(r() * 7)];
  return ODD_VALUES[Math.floor(r() * ODD_VALUES.length)];
}

/** Random schemas over the keywords the fast pass translates, and some it leaves to the validator. */
function randomSchema(r: () => number, depth: number): JSONSchemaProps {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
  const s: JSONSchemaProps = {};
  const type = pick(['string', 'integer', 'number', 'boolean', 'object', 'array', '', 'object', 'string']);
  if (type !== '') s.type = type;
  if (r() < 0.15) s.nullable = true;
  switch (type) {
    case 'string':
      if (r() < 0.3) s.maxLength = Math.floor(r() * 6);
      if (r() < 0.3) s.minLength = Math.floor(r() * 3);
      if (r() < 0.3) s.pattern = pick(['^[a-z]+$', '^a', 'b', '^([a-z]+-)*[a-z]+$', '(']);
      if (r() < 0.2) s.format = pick(['date-time', 'date', 'byte', 'hostname', 'k8s-short-name']);
      if (r() < 0.3) s.enum = pick([['Always', 'Never'], ['a', 'ab', 'abc', 'abcdef', 'x', 'y', 'z', 'w', 'v', 'u'], ['1', 2, null]]);
      break;
    case 'integer':
    case 'number':
      if (r() < 0.3) s.format = pick(['int32', 'int64', 'float', 'double']);
      if (r() < 0.4) s.minimum = pick([0, -3, 1.5, 2 ** 60, -(2 ** 31)]);
      if (r() < 0.4) s.maximum = pick([10, 3.5, 2 ** 31, 1e20]);
      if (r() < 0.3) s.exclusiveMinimum = true;
      if (r() < 0.3) s.exclusiveMaximum = true;
      if (r() < 0.3) s.multipleOf = pick([2, 0.5, 3, -1, 0]);
      if (r() < 0.15) s.enum = pick([[1, 2], ['1', 2]]);
      break;
    case 'object': {
      if (depth < 3) {
        const n = Math.floor(r() * 4);
        if (n > 0 || r() < 0.5) {
          s.properties = {};
          for (let i = 0; i < n; i++) s.properties[pick(['a', 'b', 'name', 'constructor', '__proto__', 'x y', 'q"\\', '.dot', ''])] = randomSchema(r, depth + 1);
        }
        if (r() < 0.3) s.additionalProperties = r() < 0.2 ? false : randomSchema(r, depth + 1);
      }
      if (r() < 0.4) s.required = [pick(['a', 'name', 'b', 'x: y'])];
      if (r() < 0.2) s.minProperties = 1;
      if (r() < 0.2) s.maxProperties = 2;
      break;
    }
    case 'array':
      if (depth < 3) s.items = randomSchema(r, depth + 1);
      if (r() < 0.2) s.minItems = 1;
      if (r() < 0.2) s.maxItems = 2;
      if (r() < 0.15) s.uniqueItems = true;
      if (r() < 0.3) {
        s['x-kubernetes-list-type'] = 'map';
        s['x-kubernetes-list-map-keys'] = ['name'];
      }
      break;
    case '':
      if (r() < 0.3) s['x-kubernetes-int-or-string'] = true;
      if (r() < 0.3) s['x-kubernetes-preserve-unknown-fields'] = true;
      break;
  }
  if (depth < 3 && r() < 0.12) s.anyOf = [randomSchema(r, depth + 1), randomSchema(r, depth + 1)];
  if (depth < 3 && r() < 0.08) s.oneOf = [randomSchema(r, depth + 1), randomSchema(r, depth + 1)];
  if (depth < 3 && r() < 0.08) s.allOf = [randomSchema(r, depth + 1)];
  if (depth < 3 && r() < 0.08) s.not = randomSchema(r, depth + 1);
  return s;
}

test('random schemas and values: the fast pass agrees with the detailed validator', () => {
  const r = rng(20261130);
  let invalid = 0;
  let valid = 0;
  for (let i = 0; i < 400; i++) {
    const schema = randomSchema(r, 0);
    for (let j = 0; j < 12; j++) {
      const v = randomValue(r, schema, 0);
      const old = r() < 0.3 ? randomValue(r, schema, 0) : undefined;
      if (same(schema, v, old, `#${i}.${j} ${JSON.stringify(schema)}`) > 0) invalid++;
      else valid++;
    }
  }
  // Both outcomes are well represented, so agreement is not agreement on trivia.
  assert.ok(valid > 800 && invalid > 800, `${valid} valid, ${invalid} invalid`);
});

const crds = fileURLToPath(new URL('../../../testdata/crds/', import.meta.url));

function crdSchema(file: string, name: string, version: string): JSONSchemaProps {
  for (const d of readYAMLDocuments(readFileSync(crds + file, 'utf8'))) {
    const crd = d as { metadata?: { name?: string }; spec?: { versions?: { name: string; schema: { openAPIV3Schema: JSONSchemaProps } }[] } };
    if (crd?.metadata?.name !== name) continue;
    const v = crd.spec?.versions?.find((x) => x.name === version);
    if (v !== undefined) return v.schema.openAPIV3Schema;
  }
  throw new Error(`${name}/${version} not in ${file}`);
}

/** Every object and array node of a value, with a setter that replaces it. */
function* slots(v: unknown): Generator<(x: unknown) => void> {
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      yield (x) => (v[i] = x);
      yield* slots(v[i]);
    }
  } else if (v !== null && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    for (const k of Object.keys(o)) {
      yield (x) => (o[k] = x);
      yield (x) => {
        if (x === undefined) delete o[k];
      };
      yield* slots(o[k]);
    }
  }
}

test('Gateway API and cert-manager objects with every field replaced: the same errors either way', () => {
  const route = crdSchema('gateway-api/crds/standard-install.yaml', 'httproutes.gateway.networking.k8s.io', 'v1beta1');
  const cert = crdSchema('cert-manager/cert-manager.crds.yaml', 'certificates.cert-manager.io', 'v1');
  const base = [
    [
      route,
      {
        apiVersion: 'gateway.networking.k8s.io/v1beta1',
        kind: 'HTTPRoute',
        metadata: { name: 'r' },
        spec: {
          parentRefs: [{ name: 'gw', sectionName: 'https' }],
          hostnames: ['example.com'],
          rules: [
            {
              matches: [{ path: { type: 'PathPrefix', value: '/api' }, headers: [{ name: 'x-a', value: '1' }] }],
              filters: [{ type: 'RequestHeaderModifier', requestHeaderModifier: { add: [{ name: 'x-b', value: '2' }], remove: ['x-c'] } }],
              backendRefs: [{ name: 'svc', port: 8080, weight: 1 }],
            },
          ],
        },
      },
    ],
    [
      cert,
      {
        apiVersion: 'cert-manager.io/v1',
        kind: 'Certificate',
        metadata: { name: 'c' },
        spec: {
          secretName: 's',
          dnsNames: ['a.example.com'],
          usages: ['server auth'],
          privateKey: { algorithm: 'RSA', size: 2048 },
          issuerRef: { name: 'ca', kind: 'Issuer' },
        },
        status: { conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: '2025-03-01T10:00:00Z' }], revision: 1 },
      },
    ],
  ] as const;
  const resources = new Map(base.map(([schema]) => [schema, compileSchema(schema)]));
  const structural = new Map(base.map(([schema]) => [schema, newStructural(schema)]));
  const replacements: unknown[] = [[{ name: 'a' }, { name: 'a' }], ['x', 'x'], [{ name: 'gw' }, { name: 'gw', port: 1 }], undefined, null, 'x', '', 'x'.repeat(300), 7, 2 ** 40, -1.5, true, [], [1], {}, { name: 'x' }, '2025-03-01 10:00'];
  let runs = 0;
  for (const [schema, obj] of base) {
    assert.equal(same(schema, obj), 0, 'the base object is valid');
    const n = [...slots(structuredClone(obj))].length;
    for (let i = 0; i < n; i++) {
      for (const rep of replacements) {
        const copy = structuredClone(obj) as unknown;
        const set = [...slots(copy)][i]!;
        set(rep);
        same(schema, copy, obj, `slot ${i} := ${JSON.stringify(rep)}`);
        // With the list-type checks folded in: what the validator and listtype report apart.
        const want = [...compileValidator(schema, { fastPath: false }).validate(copy), ...validateListSetsAndMaps(Path.root(), structural.get(schema)!, copy)];
        assert.deepEqual(resources.get(schema)!.validate(copy).map(errorString), want.map(errorString), `compileSchema: slot ${i} := ${JSON.stringify(rep)}`);
        runs++;
      }
    }
  }
  assert.ok(runs > 500, `${runs} objects`);
});

test('generated code takes property names and enum values as data, whatever they contain', () => {
  const evil = ['"); throw new Error("x"); ("', '\\', '\u2028\u2029', '${1}', '`', '</script>', 'constructor', '__proto__'];
  const schema: JSONSchemaProps = {
    type: 'object',
    properties: Object.fromEntries(evil.map((k) => [k, { type: 'string', enum: evil }])),
    required: evil,
  };
  const v = compileValidator(schema);
  const ok = Object.fromEntries(evil.map((k) => [k, k]));
  Object.defineProperty(ok, '__proto__', { value: '__proto__', enumerable: true, configurable: true, writable: true });
  assert.deepEqual(v.validate(ok), []);
  const bad = { ...ok, '\\': 'nope' };
  assert.deepEqual(v.validate(bad).map((e) => e.field), ['\\']);
  same(schema, ok);
  same(schema, bad);
});

test('list-type checks folded into the fast pass: compileSchema reports what the validator and listtype report', () => {
  const r = rng(7);
  let checked = 0;
  let dups = 0;
  const check = (schema: JSONSchemaProps, v: unknown, label: string) => {
    let cs;
    try {
      cs = compileSchema(schema);
    } catch {
      return; // not convertible to a structural schema
    }
    const want = [...compileValidator(schema, { fastPath: false }).validate(v), ...validateListSetsAndMaps(Path.root(), newStructural(schema), v)].map(errorString);
    assert.deepEqual(cs.validate(v).map(errorString), want, label);
    checked++;
    if (want.some((e) => e.includes('Duplicate value') || e.includes('list-type map'))) dups++;
  };
  for (let i = 0; i < 300; i++) {
    const inner = randomSchema(r, 1);
    const list: JSONSchemaProps = { type: 'array', items: inner, 'x-kubernetes-list-type': r() < 0.5 ? 'set' : 'map' };
    if (list['x-kubernetes-list-type'] === 'map') list['x-kubernetes-list-map-keys'] = r() < 0.8 ? ['name'] : ['name', 'a'];
    const schema: JSONSchemaProps = { type: 'object', properties: { spec: { type: 'object', properties: { list, other: randomSchema(r, 2) } } } };
    for (let j = 0; j < 10; j++) {
      const items = Array.from({ length: Math.floor(r() * 4) }, () => (r() < 0.5 ? randomValue(r, inner, 1) : { name: ['x', 'y'][Math.floor(r() * 2)], a: 1 }));
      if (items.length > 0 && r() < 0.4) items.push(structuredClone(items[0]));
      const other = randomValue(r, schema.properties!.spec!.properties!.other, 2);
      check(schema, { spec: { list: items, other } }, `#${i}.${j}`);
      // The other order: a schema error met before the list (the error pass then runs the list checks).
      check(schema, { spec: { other, list: items } }, `#${i}.${j} reordered`);
    }
  }
  assert.ok(checked > 3000 && dups > 400, `${checked} objects, ${dups} with list-type errors`);
});

test("names with a leading '.' lose it in the field path, on either pass (root properties '.x', root additionalProperties)", () => {
  for (const fastPath of [true, false]) {
    const props = compileValidator({ type: 'object', properties: { '.dot': { type: 'string' } }, required: ['.req'] }, { fastPath });
    assert.deepEqual(props.validate({ '.dot': 1 }).map(errorString), [
      'dot: Invalid value: "integer": .dot in body must be of type string: "integer"',
      '.req: Required value',
    ]);
    const ap = compileValidator({ type: 'object', additionalProperties: { type: 'object', properties: { n: { type: 'integer' } } } }, { fastPath });
    assert.deepEqual(ap.validate({ k: { n: 'x' } }).map(errorString), ['k.n: Invalid value: "string": .k.n in body must be of type integer: "string"']);
  }
});

test('list-type checks: a value handed to the detailed validator needs its own list walk only when lists lie below it', () => {
  const set = { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'string' } };
  const schema: JSONSchemaProps = {
    type: 'object',
    properties: {
      // anyOf is not translated: its values go to the detailed validator when invalid.
      withList: { type: 'object', anyOf: [{ required: ['a'] }, { required: ['b'] }], properties: { a: { type: 'string' }, tags: set as JSONSchemaProps } },
      plain: { type: 'object', anyOf: [{ required: ['a'] }, { required: ['b'] }], properties: { a: { type: 'string' } } },
    },
  };
  const v = compileValidator(schema, { listTypes: true });
  assert.equal(v.validateResource({ plain: { c: 1 } }).length, 2);
  assert.equal(v.listTypesClean(), true, 'no list below the handed-over value');
  assert.equal(v.validateResource({ withList: { tags: ['x', 'x'] } }).length, 2);
  assert.equal(v.listTypesClean(), false, 'the handed-over value holds a set');
  // Through compileSchema, the duplicate is reported either way.
  const errs = compileSchema(schema).validate({ withList: { tags: ['x', 'x'] } }).map(errorString);
  assert.ok(errs.includes('withList.tags[1]: Duplicate value: "x"'), errs.join('\n'));
});
