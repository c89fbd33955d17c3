// The Go-typed JSON value model and the Go-number-preserving reader.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { deepEqualJSON, goJSONMarshal, goKind } from './value.ts';
import { parseGoJSON } from './gojson.ts';
import { GoFloat } from '../apimachinery/index.ts';

test('int64 and float64 stay apart where Go keeps them apart', () => {
  const v = parseGoJSON('{"i": 1, "f": 1.0, "big": 9223372036854775807, "e": 1e3, "x": 0.5}', { keepIntegralFloats: true }) as Record<string, unknown>;
  assert.equal(goKind(v.i), 'int');
  assert.ok(v.f instanceof GoFloat);
  assert.equal(goKind(v.f), 'float');
  assert.equal(v.big, 9223372036854775807n);
  assert.equal(goKind(v.e), 'float');
  assert.equal(goKind(v.x), 'float');
  assert.equal(deepEqualJSON(v.i, v.f), false);
  assert.equal(deepEqualJSON({ a: [1, 'x'] }, { a: [1, 'x'] }), true);
  assert.equal(deepEqualJSON({ a: 1 }, { a: 1, b: 2 }), false);
  assert.equal(goKind(parseGoJSON('1', { allFloats: true })), 'float');
});

test('goJSONMarshal sorts keys and escapes as encoding/json', () => {
  assert.equal(goJSONMarshal({ b: 1, a: ['<x>', 1.5, null, true] }), '{"a":["\\u003cx\\u003e",1.5,null,true],"b":1}');
  assert.equal(goJSONMarshal(new GoFloat(1)), '1');
  assert.equal(goJSONMarshal(1e21), '1e+21');
});

test('malformed JSON is rejected', () => {
  assert.throws(() => parseGoJSON('{"a":}'), SyntaxError);
  assert.throws(() => parseGoJSON('[1,]'), SyntaxError);
  assert.throws(() => parseGoJSON('1 2'), SyntaxError);
});
