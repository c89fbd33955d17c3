/**
 * Schema -> CEL types: property-name escaping (k8s.io/apiserver escaping_test.go cases), the CEL
 * types and size bounds of schema nodes (maxLength ×4, enums, the 3 MiB request estimates, formats,
 * int-or-string, resource roots), and the data conversion of formats and invalid data.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CelError, CelMap, Duration, Timestamp, formatType } from '../../cel/index.ts';
import { newStructural } from '../structural.ts';
import type { JSONSchemaProps } from '../types.ts';
import { escape, unescape } from './escaping.ts';
import { maxCardinality, schemaDeclType, type DeclType } from './types.ts';
import { ValueConverter } from './values.ts';

test('escape: upstream TestEscaping cases', () => {
  const cases: [string, string | undefined][] = [
    ['a.a', 'a__dot__a'],
    ['a-a', 'a__dash__a'],
    ['a__a', 'a__underscores__a'],
    ['a.-/__a', 'a__dot____dash____slash____underscores__a'],
    ['a._a', 'a__dot___a'],
    ['a__.__a', 'a__underscores____dot____underscores__a'],
    ['a___a', 'a__underscores___a'],
    ['a____a', 'a__underscores____underscores__a'],
    ['a__dot__a', 'a__underscores__dot__underscores__a'],
    ['a__underscores__a', 'a__underscores__underscores__underscores__a'],
    ['true', '__true__'],
    ['namespace', '__namespace__'],
    ['while', '__while__'],
    ['@', undefined],
    ['1up', undefined],
    ['👑', undefined],
    ['has', 'has'],
    ['exists_one', 'exists_one'],
    ['getMilliseconds', 'getMilliseconds'],
    ['_', '_'],
  ];
  for (const [from, want] of cases) {
    assert.equal(escape(from), want, from);
    if (want !== undefined) assert.equal(unescape(want), from, want);
  }
  assert.equal(unescape('a__bogus__a'), undefined);
  assert.equal(unescape('x__if__'), undefined, 'a keyword escape is only valid as the whole name');
});

const decl = (s: JSONSchemaProps, root = false): DeclType => schemaDeclType(newStructural(s), root)!;

test('CEL types and size bounds of schema nodes', () => {
  const cases: { schema: JSONSchemaProps; type: string; max: number; min: number }[] = [
    { schema: { type: 'string' }, type: 'string', max: 3 * 1024 * 1024 - 2, min: 2 },
    { schema: { type: 'string', maxLength: 10 }, type: 'string', max: 40, min: 2 },
    { schema: { type: 'string', enum: ['a', 'bbb'] }, type: 'string', max: 3, min: 2 },
    { schema: { type: 'string', format: 'byte', maxLength: 10 }, type: 'bytes', max: 10, min: 2 },
    { schema: { type: 'string', format: 'duration' }, type: 'duration', max: 32, min: 3 },
    { schema: { type: 'string', format: 'date' }, type: 'timestamp', max: 12, min: 12 },
    { schema: { type: 'string', format: 'date-time' }, type: 'timestamp', max: 32, min: 21 },
    { schema: { 'x-kubernetes-int-or-string': true }, type: 'dyn', max: 3 * 1024 * 1024 - 2, min: 1 },
    { schema: { 'x-kubernetes-int-or-string': true, maxLength: 5 }, type: 'dyn', max: 20, min: 1 },
    { schema: { type: 'integer' }, type: 'int', max: 0, min: 1 },
    { schema: { type: 'number' }, type: 'double', max: 0, min: 1 },
    { schema: { type: 'boolean' }, type: 'bool', max: 0, min: 4 },
    // (3 MiB - 2) / (2 + 1) strings fit in a request; a map entry needs at least 6 more bytes
    { schema: { type: 'array', items: { type: 'string' } }, type: 'list(string)', max: 1048575, min: 2 },
    { schema: { type: 'array', maxItems: 7, items: { type: 'string' } }, type: 'list(string)', max: 7, min: 2 },
    { schema: { type: 'object', additionalProperties: { type: 'string' } }, type: 'map(string, string)', max: 393215, min: 2 },
    { schema: { type: 'object', maxProperties: 3, additionalProperties: { type: 'integer' } }, type: 'map(string, int)', max: 3, min: 2 },
    // required fields without defaults count towards the minimum size: {"name":""}
    {
      schema: { type: 'array', items: { type: 'object', required: ['name'], properties: { name: { type: 'string' } } } },
      type: 'list(object)',
      max: Math.floor((3 * 1024 * 1024 - 2) / 13),
      min: 2,
    },
  ];
  for (const c of cases) {
    const d = decl(c.schema);
    assert.equal(formatType(d.celType), c.type, JSON.stringify(c.schema));
    assert.equal(d.maxElements, c.max, JSON.stringify(c.schema));
    assert.equal(d.minSerializedSize, c.min, JSON.stringify(c.schema));
  }
  assert.equal(maxCardinality(2), 1048576n);
});

test('inaccessible data: untyped, preserved-unknown and unescapable properties', () => {
  const d = decl({
    type: 'object',
    properties: {
      typed: { type: 'string' },
      'with-dash': { type: 'string' },
      '1st': { type: 'string' },
      untyped: {},
      preserved: { 'x-kubernetes-preserve-unknown-fields': true },
      list: { type: 'array', items: {} },
    },
  });
  assert.deepEqual([...d.fields!.keys()].sort(), ['typed', 'with__dash__dash']);
  assert.equal(d.fields!.get('with__dash__dash')!.property, 'with-dash');
});

test('resource roots: apiVersion, kind, metadata.name (253) and metadata.generateName (252)', () => {
  const d = decl({ type: 'object', properties: { spec: { type: 'object', properties: { x: { type: 'integer' } } } } }, true);
  assert.deepEqual([...d.fields!.keys()].sort(), ['apiVersion', 'kind', 'metadata', 'spec']);
  const md = d.fields!.get('metadata')!.type;
  assert.equal(md.fields!.get('name')!.type.maxElements, 253 * 4);
  assert.equal(md.fields!.get('generateName')!.type.maxElements, 252 * 4);
  const shorter = decl({ type: 'object', properties: { metadata: { type: 'object', properties: { name: { type: 'string', maxLength: 20 } } } } }, true);
  assert.equal(shorter.fields!.get('metadata')!.type.fields!.get('name')!.type.maxElements, 80);
  const embedded = decl({ type: 'object', properties: { tmpl: { type: 'object', 'x-kubernetes-embedded-resource': true, properties: {} } } });
  assert.ok(embedded.fields!.get('tmpl')!.type.fields!.has('apiVersion'));
});

test('data conversion: formats, int-or-string, nulls and invalid data', () => {
  const d = decl({
    type: 'object',
    properties: {
      d: { type: 'string', format: 'duration' },
      t: { type: 'string', format: 'date-time' },
      day: { type: 'string', format: 'date' },
      b: { type: 'string', format: 'byte' },
      ios: { 'x-kubernetes-int-or-string': true },
      n: { type: 'number' },
      i: { type: 'integer' },
      s: { type: 'string' },
      ns: { type: 'array', items: { type: 'string', nullable: true } },
      bad: { type: 'array', items: { type: 'string' } },
    },
  });
  const v = new ValueConverter().convert(
    { d: '1h2m3s4ms', t: '2011-08-18T19:03:37.01+01:00', day: '2011-08-18', b: 'MTA=', ios: 5, n: 3, i: 4, s: null, ns: [null, 'x'], bad: [null], extra: 1 },
    d,
  ) as CelMap;
  assert.deepEqual(v.get('d'), new Duration(3723004000000n));
  // The written zone offset is kept (as Go's time.Parse keeps it), so string(t) prints it.
  assert.deepEqual(v.get('t'), new Timestamp(1313690617010000000n, 3600));
  assert.deepEqual(v.get('day'), new Timestamp(1313625600000000000n));
  assert.deepEqual(v.get('b'), new Uint8Array([0x31, 0x30]));
  assert.equal(v.get('ios'), 5n);
  assert.equal(v.get('n'), 3);
  assert.equal(v.get('i'), 4n);
  assert.equal(v.get('s'), undefined, 'null fields are absent');
  assert.deepEqual(v.get('ns'), [null, 'x']);
  const bad = v.get('bad') as CelError[];
  assert.ok(bad[0] instanceof CelError);
  assert.equal(bad[0].message, 'invalid data, got null for schema with nullable=false');
  const wrong = new ValueConverter().convert({ i: 1.5, d: 'soon' }, d) as CelMap;
  assert.equal((wrong.get('i') as CelError).message, 'invalid data, expected int, got float64');
  assert.match((wrong.get('d') as CelError).message, /^Invalid duration soon: /);
});
