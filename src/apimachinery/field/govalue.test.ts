import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatGoValue, goFloatString, goJSON, goQuote, GoFloat } from './govalue.ts';

test('goFloatString matches fmt %v of float64', () => {
  const table: Array<[number, string]> = [
    [1e6, '1e+06'],
    [123456, '123456'],
    [1234567, '1.234567e+06'],
    [0.0001, '0.0001'],
    [0.00001, '1e-05'],
    [1.5e-7, '1.5e-07'],
    [-2.5, '-2.5'],
    [3.4028234663852886e38, '3.4028234663852886e+38'],
    [1e100, '1e+100'],
    [0, '0'],
    [-0, '-0'],
    [NaN, 'NaN'],
    [Infinity, '+Inf'],
    [-Infinity, '-Inf'],
    [0.1, '0.1'],
    [100000, '100000'],
  ];
  for (const [f, want] of table) assert.equal(goFloatString(f), want, String(f));
});

test('goQuote matches strconv.Quote', () => {
  const table: Array<[string, string]> = [
    ['abc', '"abc"'],
    ['a"b\\c', '"a\\"b\\\\c"'],
    ['\x00\x01\x7f', '"\\x00\\x01\\x7f"'],
    ['\x07\b\f\n\r\t\v', '"\\a\\b\\f\\n\\r\\t\\v"'],
    ['héllo 世界', '"héllo 世界"'],
    ['\u00a0', '"\\u00a0"'],
    ['\u00ad', '"\\u00ad"'],
    ['\u200b', '"\\u200b"'],
    ['😀', '"😀"'],
    ['\u{e0001}', '"\\U000e0001"'],
    ['<&>', '"<&>"'],
    // Both sides of the 64-character cut between the loop and the regex.
    [' ~'.repeat(32), `"${' ~'.repeat(32)}"`],
    [' ~'.repeat(32) + '"', `"${' ~'.repeat(32)}\\""`],
    ['x'.repeat(63) + '\x7f', `"${'x'.repeat(63)}\\x7f"`],
    ['x'.repeat(64) + '\\', `"${'x'.repeat(64)}\\\\"`],
  ];
  for (const [s, want] of table) assert.equal(goQuote(s), want, s);
});

test('goJSON matches encoding/json', () => {
  assert.equal(goJSON({ z: 1, a: [true, null, 'x'] }), '{"a":[true,null,"x"],"z":1}');
  assert.equal(goJSON('<a&b>'), '"\\u003ca\\u0026b\\u003e"');
  assert.equal(goJSON('\u2028'), '"\\u2028"');
  assert.equal(goJSON(1e21), '1e+21');
  assert.equal(goJSON(1e-7), '1e-7');
  assert.equal(goJSON(new GoFloat(1e6)), '1000000');
  assert.equal(goJSON({}), '{}');
  assert.equal(goJSON([]), '[]');
});

test('formatGoValue picks %v, %q or JSON like ErrorBody', () => {
  assert.equal(formatGoValue(1000000), '1000000');
  assert.equal(formatGoValue(new GoFloat(1000000)), '1e+06');
  assert.equal(formatGoValue(9007199254740993n), '9007199254740993');
  assert.equal(formatGoValue(1e21), '1e+21');
  assert.equal(formatGoValue(1.5), '1.5');
  assert.equal(formatGoValue(false), 'false');
  assert.equal(formatGoValue('x'), '"x"');
  assert.equal(formatGoValue(null), 'null');
  assert.equal(formatGoValue(undefined), 'null');
  assert.equal(formatGoValue({ a: { b: [1] } }), '{"a":{"b":[1]}}');
});
