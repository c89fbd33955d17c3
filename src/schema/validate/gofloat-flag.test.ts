// The generated passes skip the GoFloat check until the process has made one (govalue.ts
// goFloatsMade). This file runs in a process of its own, so it sees the flag before any GoFloat.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { errorString } from '../../apimachinery/index.ts';
import { GoFloat, goFloatsMade } from '../../apimachinery/index.ts';
import { compileSchema } from '../compile.ts';
import { compileValidator } from './validator.ts';

test('a GoFloat made after compiling is still checked as a number', () => {
  // Loading the validator, the compiler and their libraries makes none: decoded data cannot hold one.
  assert.equal(goFloatsMade.any, false);
  const schema = { type: 'object', properties: { a: { type: 'object', properties: { b: { type: 'integer' } } } } };
  const compiled = compileSchema(schema);
  const detailed = compileValidator(schema, { fastPath: false });
  assert.deepEqual(compiled.validate({ a: { b: 1 } }), []);
  assert.equal(goFloatsMade.any, false);
  const f = new GoFloat(2);
  assert.equal(goFloatsMade.any, true);
  const obj = { a: f };
  const want = detailed.validate(obj).map(errorString);
  assert.deepEqual(want, ['a: Invalid value: "number": a in body must be of type object: "number"']);
  assert.deepEqual(compiled.validate(obj).map(errorString), want);
  // An integral GoFloat passes `integer`, as in Go.
  assert.deepEqual(compiled.validate({ a: { b: new GoFloat(3) } }), []);
});
