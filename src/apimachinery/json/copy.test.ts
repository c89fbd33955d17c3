import { test } from 'node:test';
import assert from 'node:assert/strict';
import { deepCopyJSON } from './copy.ts';
import { valueDepth } from './depth.ts';
import { GoFloat } from '../field/govalue.ts';

test('copies arrays and objects, shares scalars and wrapper objects', () => {
  const f = new GoFloat(1);
  const v = { a: [1, { b: 'x' }], c: null, d: f, e: undefined, n: 10n };
  const c = deepCopyJSON(v);
  assert.deepEqual(c, v);
  assert.notEqual(c.a, v.a);
  assert.notEqual(c.a[1], v.a[1]);
  assert.equal(c.d, f);
  assert.ok(Object.hasOwn(c, 'e'));
});

test('a __proto__ key stays a plain key of the copy, at every depth', () => {
  // JSON.parse makes __proto__ an own data property, as Go's decoder makes it a map key.
  const v = JSON.parse('{"__proto__":{"polluted":true},"deep":' + '{"x":'.repeat(300) + '{"__proto__":{"p":1}}' + '}'.repeat(300) + '}');
  const c = deepCopyJSON(v);
  assert.equal(Object.getPrototypeOf(c), Object.prototype);
  assert.equal((c as { polluted?: boolean }).polluted, undefined);
  assert.deepEqual(Object.keys(c), ['__proto__', 'deep']);
  assert.deepEqual(Object.getOwnPropertyDescriptor(c, '__proto__')?.value, { polluted: true });
  let inner = c.deep;
  for (let i = 0; i < 300; i++) inner = inner.x;
  assert.ok(Object.hasOwn(inner, '__proto__'));
  assert.equal(Object.getPrototypeOf(inner), Object.prototype);
  assert.deepEqual(Object.getOwnPropertyDescriptor(inner, '__proto__')?.value, { p: 1 });
});

test('copies values nested 10000 levels deep, independently of the original', () => {
  const v = JSON.parse('{"a":'.repeat(5000) + '[' .repeat(5000) + '1' + ']'.repeat(5000) + '}'.repeat(5000));
  const c = deepCopyJSON(v);
  assert.equal(valueDepth(c), 10000);
  let x = c;
  let y = v;
  for (let i = 0; i < 5000; i++) {
    assert.notEqual(x, y);
    x = x.a;
    y = y.a;
  }
  x.push(2);
  assert.equal(y.length, 1);
});
