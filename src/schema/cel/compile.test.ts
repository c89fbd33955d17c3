/**
 * Rule compilation (compilation.go), cases ported from Kubernetes' TestCelCompilation
 * (apiextensions-apiserver pkg/apiserver/schema/cel/compilation_test.go): optional oldSelf typing,
 * type errors, escaping of property names, transition-rule detection, empty rules, result types of
 * rules and messageExpressions, and fieldPath normalisation.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { newStructural } from '../structural.ts';
import type { JSONSchemaProps, ValidationRule } from '../types.ts';
import { compileRules, type CompiledRule } from './compile.ts';
import { schemaDeclType } from './types.ts';

function compile(schema: JSONSchemaProps, rules: ValidationRule[]): CompiledRule[] {
  const s = newStructural({ ...schema, 'x-kubernetes-validations': rules })!;
  return compileRules(s, schemaDeclType(s, false));
}

const ok = (r: CompiledRule, transition?: boolean) => {
  assert.equal(r.error, undefined, `${r.rule.rule}: ${r.error?.detail}`);
  if (transition !== undefined) assert.equal(r.usesOldSelf, transition, r.rule.rule);
};
const invalid = (r: CompiledRule, contains: string) => {
  assert.equal(r.error?.type, 'Invalid', r.rule.rule);
  assert.ok(r.error.detail.includes(contains), `${r.rule.rule}: ${r.error.detail}`);
};

test('optional primitive transition rule type checking', () => {
  const opt = (rule: string): ValidationRule => ({ rule, optionalOldSelf: true });
  const r = compile({ type: 'integer' }, [
    opt('self >= oldSelf.value()'),
    opt('self >= oldSelf.orValue(1)'),
    opt('oldSelf.hasValue() ? self >= oldSelf.value() : true'),
    opt('self >= oldSelf'),
    opt("self >= oldSelf.orValue('')"),
  ]);
  ok(r[0]!, true);
  ok(r[1]!, true);
  ok(r[2]!, true);
  invalid(r[3]!, 'optional');
  invalid(r[4]!, 'orValue');
});

test('optional complex transition rule type checking', () => {
  const inner: JSONSchemaProps = { type: 'object', properties: { i: { type: 'integer' }, s: { type: 'string' }, o: { type: 'object' } } };
  const opt = (rule: string): ValidationRule => ({ rule, optionalOldSelf: true });
  const r = compile({ type: 'object', properties: { i: { type: 'integer' }, o: inner } }, [
    opt('self.i >= oldSelf.i.value()'),
    opt('self.o == oldSelf.o.value()'),
    opt('self.o.o == oldSelf.o.o.value()'),
    opt('self.o.i >= oldSelf.o.i.orValue(1)'),
    opt('self.o.i >= oldSelf.o.i'),
    opt('self.o.i >= oldSelf.o.s.orValue(0)'),
  ]);
  for (const x of r.slice(0, 4)) ok(x, true);
  invalid(r[4]!, 'optional');
  invalid(r[5]!, 'orValue');
});

test('type errors fail compilation with the checker message', () => {
  invalid(compile({ type: 'number' }, [{ rule: 'size(self) == 10' }])[0]!, 'compilation failed');
  const [r] = compile({ type: 'integer' }, [{ rule: 'size(self) == 10' }]);
  invalid(r!, "compilation failed: ERROR: <input>:1:5: found no matching overload for 'size' applied to '(int)'");
});

test('escaping: keywords are reachable escaped and, from 1.31, by name; `self` is a field', () => {
  const schema: JSONSchemaProps = {
    type: 'object',
    properties: { namespace: { type: 'array', items: { type: 'array', items: { type: 'string' } } }, if: { type: 'integer' }, self: { type: 'integer' } },
  };
  const r = compile(schema, [{ rule: 'size(self.__namespace__[0]) == 10' }, { rule: 'self.__if__ == 10' }, { rule: 'self.self == 10' }]);
  for (const x of r) ok(x);
  const named = compile(schema, [{ rule: 'size(self.namespace[0]) == 10' }, { rule: 'self.if == 10' }, { rule: 'self == 10' }]);
  ok(named[0]!);
  ok(named[1]!);
  invalid(named[2]!, 'found no matching overload');
});

test('transition rules are identified; whitespace-only rules compile to nothing', () => {
  const [a, b] = compile({ type: 'integer' }, [{ rule: 'self > 0' }, { rule: 'self >= oldSelf' }]);
  ok(a!, false);
  ok(b!, true);
  const [w] = compile({ type: 'object' }, [{ rule: ' \t' }]);
  assert.equal(w!.error, undefined);
  assert.equal(w!.program, undefined);
});

test('results: rules must be bool, messageExpressions string', () => {
  invalid(compile({ type: 'object' }, [{ rule: '42' }])[0]!, 'cel expression must evaluate to a bool');
  const [m] = compile({ type: 'integer' }, [{ rule: 'self > 0', messageExpression: '42' }]);
  assert.equal(m!.messageExpressionError?.detail, 'messageExpression must evaluate to a string');
  const [syntax] = compile({ type: 'integer' }, [{ rule: 'self > 0', messageExpression: '"a" + ' }]);
  assert.match(syntax!.messageExpressionError!.detail, /^messageExpression compilation failed: ERROR: <input>:1:/);
  const [good] = compile({ type: 'integer' }, [{ rule: 'self > 0', messageExpression: "'x is ' + string(self)" }]);
  assert.ok(good!.messageExpression);
  assert.ok(good!.messageExpressionMaxCost > 0n);
});

test('fieldPath is normalised against the schema', () => {
  const schema: JSONSchemaProps = { type: 'object', properties: { a: { type: 'object', properties: { 'b.c': { type: 'string' } } }, m: { type: 'object', additionalProperties: { type: 'string' } } } };
  const r = compile(schema, [
    { rule: 'true', fieldPath: ".a['b.c']" },
    { rule: 'true', fieldPath: ".m['k']" },
    { rule: 'true', fieldPath: '.nope' },
  ]);
  assert.deepEqual(
    r.map((x) => x.normalizedRuleFieldPath),
    ['a.b.c', 'm[k]', ''],
  );
});

test('library functions, types and macros of the base environment', () => {
  const r = compile({ type: 'string' }, [
    { rule: "isQuantity(self) && quantity(self).isGreaterThan(quantity('1'))" },
    { rule: "isURL(self) && url(self).getScheme() == 'https'" },
    { rule: "self.split(',').all(x, x.size() > 0)" },
    { rule: "ip.isCanonical('127.0.0.1') && cidr('10.0.0.0/8').containsIP(ip('10.1.2.3'))" },
    { rule: "[3, 1, 2].sortBy(x, x) == [1, 2, 3] && [1, 2].all(i, v, i < v)" },
    { rule: "sets.contains([1, 2], [1]) && format.dns1123Label().validate(self).hasValue() || true" },
    { rule: "cel.bind(x, self, x == '')" },
  ]);
  for (const x of r.slice(0, 6)) ok(x);
  // Kubernetes does not install ext.Bindings
  invalid(r[6]!, "undeclared reference to 'bind'");
});
