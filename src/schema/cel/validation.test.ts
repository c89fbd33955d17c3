/**
 * The rule validator's own behaviours beyond the upstream tables: oldSelf correlation through
 * list-type=map keys (and none through atomic lists), the per-object budget across nodes, errors at
 * the resource root printed as kube-apiserver prints them, and ratcheted failures as warnings.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { errorString } from '../../apimachinery/index.ts';
import { newStructural } from '../structural.ts';
import type { JSONSchemaProps } from '../types.ts';
import { compileCELValidator } from './validation.ts';

const item: JSONSchemaProps = {
  type: 'object',
  properties: { name: { type: 'string' }, v: { type: 'integer', 'x-kubernetes-validations': [{ rule: 'self >= oldSelf', message: 'may not decrease' }] } },
};

const listSchema = (listType: 'map' | 'atomic'): JSONSchemaProps => ({
  type: 'object',
  properties: {
    l: {
      type: 'array',
      items: item,
      'x-kubernetes-list-type': listType,
      ...(listType === 'map' ? { 'x-kubernetes-list-map-keys': ['name'] } : {}),
    },
  },
});

test('transition rules correlate list-type=map items by key, regardless of order', () => {
  const v = compileCELValidator(newStructural(listSchema('map')), false)!;
  const old = { l: [{ name: 'a', v: 5 }, { name: 'b', v: 1 }] };
  const r = v.validate({ l: [{ name: 'b', v: 2 }, { name: 'a', v: 4 }, { name: 'c', v: 0 }] }, old);
  assert.deepEqual(r.errors.map(errorString), ['l[1].v: Invalid value: 4: may not decrease']);
});

test('transition rules do not run under atomic lists (no correlation)', () => {
  const v = compileCELValidator(newStructural(listSchema('atomic')), false)!;
  const r = v.validate({ l: [{ name: 'a', v: 0 }] }, { l: [{ name: 'a', v: 5 }] });
  assert.deepEqual(r.errors, []);
  assert.equal(r.remainingBudget, 10_000_000, 'the rule never ran');
});

test('rule errors at the resource root print as <nil>, objects omit their value', () => {
  const v = compileCELValidator(
    newStructural({
      type: 'object',
      'x-kubernetes-validations': [{ rule: "self.metadata.name.startsWith('x')", messageExpression: "'name ' + self.metadata.name + ' must start with x'" }],
      properties: { spec: { type: 'object', properties: { n: { type: 'integer' } }, 'x-kubernetes-validations': [{ rule: 'self.n > 1', reason: 'FieldValueForbidden', fieldPath: '.n' }] } },
    }),
    true,
  )!;
  const r = v.validate({ apiVersion: 'v1', kind: 'K', metadata: { name: 'abc', labels: { a: 'b' } }, spec: { n: 1 } });
  assert.deepEqual(r.errors.map(errorString), ['<nil>: Invalid value: name abc must start with x', 'spec.n: Forbidden: failed rule: self.n > 1']);
});

test('the budget runs out across nodes, then no further rules run', () => {
  const v = compileCELValidator(
    newStructural({
      type: 'object',
      properties: { l: { type: 'array', items: { type: 'string', 'x-kubernetes-validations': [{ rule: "self.contains('x') || true" }] } } },
    }),
    false,
  )!;
  const full = v.validate({ l: ['a', 'b', 'c', 'd'] });
  const perItem = (10_000_000 - full.remainingBudget) / 4;
  assert.ok(perItem > 0);
  const r = v.validate({ l: ['a', 'b', 'c', 'd'] }, undefined, { budget: perItem * 2 + 1 });
  assert.deepEqual(r.errors.map(errorString), ['l[2]: Invalid value: "string": validation failed due to running out of cost budget, no further validation rules will be run']);
  assert.equal(r.remainingBudget, -1);
});

test('ratcheting: failures on unchanged values become warnings, changed values still fail', () => {
  const v = compileCELValidator(
    newStructural({
      type: 'object',
      properties: {
        a: { type: 'string', 'x-kubernetes-validations': [{ rule: "self == 'ok'", message: 'must be ok' }] },
        b: { type: 'string', 'x-kubernetes-validations': [{ rule: "self == 'ok'", message: 'must be ok' }] },
      },
    }),
    false,
  )!;
  const r = v.validate({ a: 'bad', b: 'worse' }, { a: 'bad', b: 'bad' }, { ratcheting: true });
  assert.deepEqual(r.errors.map(errorString), ['b: Invalid value: "worse": must be ok']);
  assert.deepEqual(r.warnings, ['a: Invalid value: "bad": must be ok']);
  const strict = v.validate({ a: 'bad', b: 'worse' }, { a: 'bad', b: 'bad' });
  assert.equal(strict.errors.length, 2, 'without ratcheting both fail');
});

test('reserved-word properties are selected by their plain and escaped names at run time', () => {
  const v = compileCELValidator(
    newStructural({
      type: 'object',
      properties: { namespace: { type: 'string' }, 'a-b': { type: 'integer' } },
      'x-kubernetes-validations': [{ rule: "self.namespace == 'x' && self.__namespace__ == 'x' && self.a__dash__b == 1" }],
    }),
    false,
  )!;
  assert.deepEqual(v.validate({ namespace: 'x', 'a-b': 1 }).errors, []);
  assert.equal(v.validate({ namespace: 'y', 'a-b': 1 }).errors.length, 1);
});

test('set and map lists compare as Kubernetes compares them; + unions and merges', () => {
  const v = compileCELValidator(
    newStructural({
      type: 'object',
      properties: {
        s1: { type: 'array', items: { type: 'string' }, 'x-kubernetes-list-type': 'set' },
        s2: { type: 'array', items: { type: 'string' }, 'x-kubernetes-list-type': 'set' },
        m: {
          type: 'array',
          'x-kubernetes-list-type': 'map',
          'x-kubernetes-list-map-keys': ['k'],
          items: { type: 'object', properties: { k: { type: 'string' }, v: { type: 'integer' } } },
        },
      },
      'x-kubernetes-validations': [
        { rule: 'self.s1 == self.s2' },
        { rule: "self.s1 + ['c', 'a'] == ['a', 'b', 'c']" },
        { rule: "self.m + [self.m[0]] == self.m && size(self.m + self.m) == 2" },
        { rule: "['b', 'a'] != self.s1", message: 'literal lists keep order semantics' },
      ],
    }),
    false,
  )!;
  const r = v.validate({ s1: ['a', 'b'], s2: ['b', 'a'], m: [{ k: 'x', v: 1 }, { k: 'y', v: 2 }] });
  assert.deepEqual(r.errors, []);
});

test('list types decide == with the left operand, inside maps and under in; has() on invalid data is an error', () => {
  const v = compileCELValidator(
    newStructural({
      type: 'object',
      properties: {
        a: { type: 'object', additionalProperties: { type: 'array', items: { type: 'integer' }, 'x-kubernetes-list-type': 'set' } },
        b: { type: 'object', additionalProperties: { type: 'array', items: { type: 'integer' }, 'x-kubernetes-list-type': 'set' } },
      },
      'x-kubernetes-validations': [
        { rule: 'self.a == self.b', message: 'maps compare their set values as sets' },
        { rule: 'self.a.s in [[2, 1]]', message: 'membership uses the set semantics' },
        { rule: '[2, 1] != self.a.s', message: 'a literal on the left keeps order' },
        { rule: 'self.a.s + [3, 1] == [1, 2, 3]', message: 'set + unions' },
      ],
    }),
    false,
  )!;
  assert.deepEqual(v.validate({ a: { s: [1, 2] }, b: { s: [2, 1] } }).errors, []);
  assert.deepEqual(
    v.validate({ a: { s: [1, 2] }, b: { s: [2, 3] } }).errors.map(errorString),
    ['<nil>: Invalid value: maps compare their set values as sets'],
  );

  const h = compileCELValidator(
    newStructural({ type: 'object', properties: { i: { type: 'integer' } }, 'x-kubernetes-validations': [{ rule: 'has(self.i)', message: 'i is required' }] }),
    false,
  )!;
  assert.deepEqual(h.validate({ i: 1 }).errors, []);
  assert.deepEqual(h.validate({}).errors.map(errorString), ['<nil>: Invalid value: i is required']);
  assert.deepEqual(h.validate({ i: 'x' }).errors.map(errorString), ['<nil>: Invalid value: "object": invalid data, expected int, got string evaluating rule: i is required']);
});
