/**
 * The admission CEL environment: which variables each kind of expression sees, upstream's
 * result-type messages, namespaceObject's typed fields, and the per-evaluation budget.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BoolType, NullType, StringType } from '../../cel/index.ts';
import { AdmissionActivation, AdmissionCompiler, OUT_OF_BUDGET, evaluate } from './index.ts';

const all = { hasParams: true, hasAuthorizer: true };

test('result types are checked with cel-go type names', () => {
  const c = new AdmissionCompiler();
  assert.equal(c.compile('1', [BoolType], all).error, 'must evaluate to bool but got int');
  assert.equal(c.compile('object.x', [StringType, NullType], all).error, 'must evaluate to one of [string null_type] but got dyn');
  assert.equal(c.compile('null', [StringType, NullType], all).error, undefined);
  assert.match(c.compile('object.', [BoolType], all).error!, /^compilation failed: ERROR: <input>:1:8: Syntax error/);
});

test('authorizer and params only where declared', () => {
  const c = new AdmissionCompiler();
  assert.match(c.compile("authorizer.group('').resource('pods').check('get').allowed()", [BoolType], { hasParams: false, hasAuthorizer: false }).error!, /undeclared reference to 'authorizer'/);
  assert.equal(c.compile("authorizer.requestResource.check('get').allowed()", [BoolType], all).error, undefined);
  assert.match(c.compile('params == null', [BoolType], { hasParams: false, hasAuthorizer: true }).error!, /undeclared reference to 'params'/);
});

test('namespaceObject is typed, its times are timestamps', () => {
  const c = new AdmissionCompiler();
  const e = c.compile("namespaceObject.metadata.creationTimestamp < timestamp('2030-01-01T00:00:00Z') && namespaceObject.status.phase == 'Active'", [BoolType], all);
  assert.equal(e.error, undefined);
  const act = new AdmissionActivation(
    { object: {}, oldObject: null, request: {}, namespace: { metadata: { name: 'ns', uid: 'u1', creationTimestamp: '2024-05-01T00:00:00Z' }, status: { phase: 'Active' } } },
    c.variables,
  );
  assert.equal(evaluate(e, act, 1_000_000).value, true);
  assert.match(c.compile('namespaceObject.metadata.ownerReferences == null', [BoolType], all).error!, /undefined field 'ownerReferences'/);
});

test('the budget is shared: an expression past what is left stops evaluation', () => {
  const c = new AdmissionCompiler();
  const e = c.compile('object.items.all(x, x > 0)', [BoolType], all);
  const act = new AdmissionActivation({ object: { items: Array.from({ length: 100 }, (_, i) => i + 1) }, oldObject: null, request: {} }, c.variables);
  const full = evaluate(e, act, 1_000_000);
  assert.equal(full.value, true);
  const spent = 1_000_000 - full.remaining;
  assert.ok(spent > 100, `cost ${spent}`);
  assert.deepEqual(evaluate(e, act, spent - 1), { outOfBudget: OUT_OF_BUDGET, remaining: -1 });
  assert.equal(evaluate(e, act, spent).remaining, 0);
});
