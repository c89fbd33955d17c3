/**
 * Well-known protobuf messages constructed by name, and cel.@block (written with the conformance
 * suite's cel.block/cel.index test macros), through Env.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Env, allExtensionLibraries } from '../index.ts';
import { DynType } from '../check/types.ts';
import { ALL_MACROS } from '../syntax/macros.ts';
import { BLOCK_TEST_MACROS } from './conformance.ts';
import { CelMap, Duration, Uint, formatValue } from './values.ts';

const env = new Env({ libraries: [...allExtensionLibraries], variables: {} });

function run(expr: string, e = env) {
  const c = e.compile(expr);
  assert.ok(c.program, `${expr}: ${c.issues}`);
  return c.program.eval({});
}

test('wrappers construct to their primitive values (FloatValue narrows to float32)', () => {
  assert.equal(run('google.protobuf.Int64Value{value: 7}').value, 7n);
  assert.equal(run('google.protobuf.Int32Value{}').value, 0n);
  assert.deepEqual(run('google.protobuf.UInt64Value{value: 3u}').value, new Uint(3n));
  assert.equal(run('google.protobuf.FloatValue{value: 1.333} == 1.333').value, false);
  assert.equal(run('google.protobuf.StringValue{} == ""').value, true);
  assert.equal(run('type(google.protobuf.BoolValue{value: true})').value?.toString(), run('bool').value?.toString());
});

test('out-of-range 32-bit wrappers are errors', () => {
  assert.equal(run('google.protobuf.Int32Value{value: 2147483648}').error?.message, 'range error');
  assert.equal(run('google.protobuf.UInt32Value{value: 4294967296u}').error?.message, 'range error');
});

test('Value, Struct and ListValue construct JSON-like values', () => {
  assert.equal(run('google.protobuf.Value{}').value, null);
  assert.equal(run('google.protobuf.Value{null_value: google.protobuf.NullValue.NULL_VALUE}').value, null);
  assert.equal(run('google.protobuf.Value{number_value: 1.5}').value, 1.5);
  const s = run("google.protobuf.Struct{fields: {'a': 1.0, 'b': [true]}}").value;
  assert.ok(s instanceof CelMap);
  assert.equal(formatValue(s), formatValue(run("{'a': 1.0, 'b': [true]}").value!));
  assert.deepEqual(run("google.protobuf.ListValue{values: [1.0, 'x']}").value, [1, 'x']);
  assert.deepEqual(run('google.protobuf.Duration{seconds: 2, nanos: 5}').value, new Duration(2_000_000_005n));
  assert.ok(run('google.protobuf.Any{}').error);
});

test('cel.@block evaluates each index at most once, and only when used', () => {
  const blockEnv = new Env({
    libraries: [...allExtensionLibraries],
    variables: { '@index0': DynType, '@index1': DynType, '@index2': DynType },
    parse: { macros: [...ALL_MACROS, ...BLOCK_TEST_MACROS] },
  });
  // The unused index 1 would be a division by zero; index 0 is used three times.
  const r = run('cel.block([[1, 2, 3].map(x, x * 2), 1 / 0, size(cel.index(0))], cel.index(2) + cel.index(0)[0] + cel.index(0)[1])', blockEnv);
  assert.equal(r.value, 9n);
  const once = run('cel.block([[1, 2, 3].map(x, x * 2)], size(cel.index(0)))', blockEnv);
  const twice = run('cel.block([[1, 2, 3].map(x, x * 2)], size(cel.index(0)) + size(cel.index(0)))', blockEnv);
  // The second use costs the identifier, the size call and the addition, not the map again.
  assert.ok(twice.cost - once.cost <= 3, `${once.cost} -> ${twice.cost}`);
  assert.ok(once.cost > 10, `${once.cost}`);
});
