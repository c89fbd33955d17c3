// Object validation against OpenAPI schemas, from Kubernetes' pkg/apiserver/validation tests
// (validation.json: exact sets of rendered field errors), plus format and number unit cases.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { compileValidator } from './validator.ts';
import { errorString } from '../../apimachinery/index.ts';
import type { JSONSchemaProps } from '../types.ts';
import { loadVectors, Tally } from '../vectors.ts';
import { formatCheckers } from './formats.ts';

interface Case {
  name: string;
  schema: JSONSchemaProps;
  object: unknown;
  oldObject?: unknown;
  compatibilityVersion?: string;
  expectErrors: string[];
}

function hasRules(s: unknown): boolean {
  return JSON.stringify(s, (_k, v) => (typeof v === 'bigint' ? String(v) : v)).includes('"x-kubernetes-validations"');
}

const file = loadVectors<Case>('validation.json');
const tally = new Tally('validation.json');
after(() => console.log(tally.summary()));

for (const c of file.cases) {
  test(`validation: ${c.name}`, (t) => {
    if (hasRules(c.schema)) {
      tally.skip(c.name, 'a CEL-rule case: runs with the CEL validator in src/schema/cel/validation-vectors.test.ts');
      t.skip('a CEL-rule case: runs with the CEL validator in src/schema/cel/validation-vectors.test.ts');
      return;
    }
    const v = compileValidator(c.schema, { compatibilityVersion: c.compatibilityVersion });
    const got = [...new Set(v.validate(c.object).map(errorString))].sort();
    try {
      assert.deepEqual(got, [...new Set(c.expectErrors)].sort());
      tally.passed++;
    } catch (e) {
      tally.failed++;
      throw e;
    }
  });
}

test('numbers: bounds, exclusive bounds, multipleOf and their messages', () => {
  const v = compileValidator({
    type: 'object',
    properties: {
      spec: {
        type: 'object',
        properties: {
          replicas: { type: 'integer', maximum: 10, minimum: 1, multipleOf: 2 },
          ratio: { type: 'number', maximum: 1.5, exclusiveMaximum: true },
        },
      },
    },
  });
  assert.deepEqual(v.validate({ spec: { replicas: 20, ratio: 1.5 } }).map(errorString).sort(), [
    'spec.ratio: Invalid value: 1.5: spec.ratio in body should be less than 1.5',
    'spec.replicas: Invalid value: 20: spec.replicas in body should be less than or equal to 10',
  ]);
  assert.deepEqual(v.validate({ spec: { replicas: 3 } }).map(errorString), ['spec.replicas: Invalid value: 3: spec.replicas in body should be a multiple of 2']);
  assert.deepEqual(v.validate({ spec: { replicas: 0 } }).map(errorString).sort(), [
    'spec.replicas: Invalid value: 0: spec.replicas in body should be greater than or equal to 1',
  ]);
  // an integral float is an integer
  assert.deepEqual(v.validate({ spec: { replicas: 4.0 } }), []);
});

test('strings: lengths in runes, pattern, enum, formats', () => {
  const v = compileValidator({
    type: 'object',
    properties: {
      a: { type: 'string', maxLength: 2, minLength: 2 },
      p: { type: 'string', pattern: '^[a-z]+$' },
      e: { type: 'string', enum: ['x', 'y'] },
      d: { type: 'string', format: 'date' },
      arr: { type: 'array', items: { type: 'string' }, minItems: 2, uniqueItems: true },
      m: { type: 'object', additionalProperties: false, minProperties: 1, properties: { k: { type: 'string' } } },
    },
  });
  assert.deepEqual(v.validate({ a: '日本' }), []);
  assert.deepEqual(
    v.validate({ a: 'x', p: 'AB', e: 'z', d: '2020-02-30', arr: ['q'], m: { z: 1 } }).map(errorString).sort(),
    [
      'a: Invalid value: "x": a in body should be at least 2 chars long',
      'arr: Invalid value: 1: arr in body should have at least 2 items',
      'd: Invalid value: "2020-02-30": d in body must be of type date: "2020-02-30"',
      'e: Unsupported value: "z": supported values: "x", "y"',
      'm: Invalid value: "z": m.z in body is a forbidden property',
      'p: Invalid value: "AB": p in body should match \'^[a-z]+$\'',
    ],
  );
  assert.deepEqual(v.validate({ arr: ['a', 'a'] }).map(errorString), ['arr: Invalid value: "": arr in body shouldn\'t contain duplicates']);
});

test('format checkers follow Go parsing', () => {
  const cases: [string, string, boolean][] = [
    ['ipv4', '1.2.3.4', true],
    ['ipv4', '01.2.3.4', true],
    ['ipv4', '1.2.3', false],
    ['ipv4', '::ffff:1.2.3.4', true],
    ['ipv6', '::1', true],
    ['ipv6', '1.2.3.4', false],
    ['ipv6', 'fe80::1%eth0', false],
    ['cidr', '10.0.0.0/8', true],
    ['cidr', '10.0.0.0/33', false],
    ['cidr', '::/0', true],
    ['mac', '00:1a:2b:3c:4d:5e', true],
    ['mac', '001a.2b3c.4d5e', true],
    ['mac', '00:1a:2b:3c:4d', false],
    ['uri', 'https://example.com/a?b', true],
    ['uri', '/relative/path', true],
    ['uri', 'relative', false],
    ['uri', 'http://exa mple.com', false],
    ['uri', 'mailto:x@y', true],
    ['email', 'a@b.c', true],
    ['email', 'Name <a@b.c>', true],
    ['email', 'not-an-email', false],
    ['hostname', 'example.com', true],
    ['hostname', '-bad', false],
    ['uuid', '123e4567-e89b-12d3-a456-426614174000', true],
    ['uuid4', '123e4567-e89b-42d3-a456-426614174000', true],
    ['uuid4', '123e4567-e89b-12d3-a456-426614174000', false],
    ['isbn10', '0321751043', true],
    ['isbn13', '978-0321751041', true],
    ['isbn', '0321751044', false],
    ['creditcard', '4111 1111 1111 1111', true],
    ['creditcard', '4111 1111 1111 1112', false],
    ['ssn', '123-45-6789', true],
    ['hexcolor', '#fff', true],
    ['rgbcolor', 'rgb(255, 0, 0)', true],
    ['rgbcolor', 'rgb(256, 0, 0)', false],
    ['byte', 'aGVsbG8=', true],
    ['byte', 'aGVsbG8', false],
    ['date', '2024-02-29', true],
    ['date', '2023-02-29', false],
    ['datetime', '2014-12-15T19:30:20.000Z', true],
    ['datetime', '2014-12-15T25:30:20Z', false],
    ['duration', '1h30m', true],
    ['duration', '3 days', true],
    ['duration', 'soon', false],
    ['bsonobjectid', '507f1f77bcf86cd799439011', true],
    ['bsonobjectid', '507f1f77bcf86cd79943901', false],
    ['k8sshortname', 'my-name', true],
    ['k8sshortname', 'My-name', false],
    ['k8slongname', 'a.b-c.d', true],
    ['k8slongname', 'a..b', false],
  ];
  for (const [f, s, ok] of cases) assert.equal(formatCheckers.get(f)!(s), ok, `${f}(${JSON.stringify(s)})`);
});

test('formats are gated by compatibility version', () => {
  const schema: JSONSchemaProps = { type: 'object', properties: { n: { type: 'string', format: 'k8s-short-name' } } };
  assert.deepEqual(compileValidator(schema, { compatibilityVersion: '1.33' }).validate({ n: 'A_' }), []);
  assert.equal(compileValidator(schema, { compatibilityVersion: '1.34' }).validate({ n: 'A_' }).length, 1);
});

test('ratcheting: unchanged invalid values are not reported on update', () => {
  const v = compileValidator({
    type: 'object',
    properties: {
      spec: {
        type: 'object',
        properties: {
          a: { type: 'string', maxLength: 2 },
          b: { type: 'string', maxLength: 2 },
          ports: {
            type: 'array',
            'x-kubernetes-list-type': 'map',
            'x-kubernetes-list-map-keys': ['name'],
            items: { type: 'object', properties: { name: { type: 'string' }, port: { type: 'integer', maximum: 100 } } },
          },
          plain: { type: 'array', items: { type: 'integer', maximum: 100 } },
        },
      },
    },
  });
  const old = { spec: { a: 'long', b: 'ok', ports: [{ name: 'x', port: 500 }], plain: [500] } };
  // a unchanged (invalid, ratcheted); b changed to invalid (reported); the list-map element with
  // the same key is unchanged although it moved; the atomic list is compared as a whole.
  const now = { spec: { a: 'long', b: 'bad', ports: [{ name: 'y', port: 1 }, { name: 'x', port: 500 }], plain: [500, 1] } };
  assert.deepEqual(v.validateUpdate(now, old).map(errorString).sort(), [
    'spec.b: Too long: may not be more than 2 bytes',
    'spec.plain[0]: Invalid value: 500: spec.plain[0] in body should be less than or equal to 100',
  ]);
  assert.deepEqual(v.validateUpdate(old, old), []);
  assert.equal(v.validate(old).length, 3);
});
