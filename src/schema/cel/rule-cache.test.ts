/**
 * The compiled-rule cache: the CRD write check and the serving validator share one compilation of
 * a node's rules, and anything that changes what a compilation yields (the declared type's size
 * bounds, its fields, the rule's text or fieldPath, the options) gets a compilation of its own.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Path } from '../../apimachinery/index.ts';
import { newStructural, type Structural } from '../structural.ts';
import type { JSONSchemaProps } from '../types.ts';
import { compileRules } from './compile.ts';
import { validateRulesAtCRDWrite } from './crd-rules.ts';
import { cachedRuleCount } from './rule-cache.ts';
import { schemaDeclType } from './types.ts';
import { compileCELValidator } from './validation.ts';

const rootPath = Path.root().child('spec', 'versions').index(0).child('schema', 'openAPIV3Schema');

function schemaWith(name: string, maxLength?: number): JSONSchemaProps {
  return {
    type: 'object',
    properties: {
      spec: {
        type: 'object',
        properties: { [name]: { type: 'string', ...(maxLength === undefined ? {} : { maxLength }) } },
        'x-kubernetes-validations': [{ rule: `self.${name}.matches('^[a-z]+$')`, message: 'lower case only' }],
      },
    },
  };
}

function compileAt(schema: JSONSchemaProps, opts = {}) {
  const s = newStructural(schema)!;
  const spec = s.properties!.get('spec')! as Structural;
  return compileRules(spec, schemaDeclType(spec, false), opts);
}

test('the CRD write check and serving share one compilation of a rule list', () => {
  const schema = schemaWith('shared', 64);
  const before = cachedRuleCount();
  const atWrite = validateRulesAtCRDWrite(schema, rootPath);
  assert.deepEqual(atWrite.errors, []);
  assert.equal(cachedRuleCount(), before + 1);
  const written = atWrite.costs[0]!.compiled;
  // The served validator compiles the same node from its own structural schema: a cache hit.
  const served = compileCELValidator(newStructural(schema), true)!;
  assert.equal(served.rules()[0]!.compiled, written);
  assert.equal(cachedRuleCount(), before + 1);
  // And it runs: the shared program judges objects.
  const r = served.validate({ spec: { shared: 'ABC' } });
  assert.equal(r.errors.length, 1);
  assert.match(String(r.errors[0]!.detail), /lower case only/);
});

test('a different bound, field, rule or option is compiled on its own', () => {
  const bounded = compileAt(schemaWith('name', 10))[0]!;
  const unbounded = compileAt(schemaWith('name'))[0]!;
  assert.notEqual(bounded, unbounded);
  // The cost estimate follows the bound: the cache must not hand one's cost to the other.
  assert.ok(bounded.maxCost < unbounded.maxCost, `${bounded.maxCost} < ${unbounded.maxCost}`);
  assert.equal(compileAt(schemaWith('name', 10))[0], bounded);
  assert.notEqual(compileAt(schemaWith('other', 10))[0], bounded);
  assert.notEqual(compileAt(schemaWith('name', 10), { perCallLimit: 100 })[0], bounded);
  const broken = schemaWith('name', 10);
  broken.properties!.spec!['x-kubernetes-validations'] = [{ rule: 'self.name.size() +', message: 'x' }];
  assert.match(compileAt(broken)[0]!.error!.detail, /^compilation failed: ERROR: <input>:1:/);
});

test('a rule that does not compile is refused at every write, not only the first', () => {
  const bad: JSONSchemaProps = {
    type: 'object',
    properties: { spec: { type: 'object', 'x-kubernetes-validations': [{ rule: 'self.missing == 1' }] } },
  };
  for (let i = 0; i < 2; i++) {
    const r = validateRulesAtCRDWrite(bad, rootPath);
    assert.equal(r.errors.length, 1);
    assert.match(r.errors[0]!.detail, /compilation failed: ERROR: <input>:1:5: undefined field 'missing'/);
  }
});
