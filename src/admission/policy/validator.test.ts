/**
 * The policy validator as data: upstream's validator_test.go TestValidate with real expressions
 * (testdata/k8s/admission/validator.json says how each fake outcome is reproduced).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { PolicyValidator, type AuditAnnotationResult, type PolicyDecision } from './validator.ts';
import type { AdmissionInput } from '../../schema/index.ts';
import type { Obj } from '../../registry/index.ts';

interface DecisionJSON extends Partial<PolicyDecision> {
  messageContains?: string;
}
interface Case {
  name: string;
  spec: Obj;
  decisions: DecisionJSON[];
  auditAnnotations?: (Partial<AuditAnnotationResult> & { errorContains?: string })[];
  budget?: 'validationCost';
}
const doc = JSON.parse(readFileSync(new URL('../../../testdata/k8s/admission/validator.json', import.meta.url), 'utf8')) as {
  object: Obj;
  params: Obj;
  cases: Case[];
  skipped: { name: string; reason: string }[];
};

test('validator vectors (validator_test.go TestValidate)', async (t) => {
  assert.ok(doc.cases.length >= 34, `at least 34 cases, got ${doc.cases.length}`);
  for (const s of doc.skipped) t.diagnostic(`skipped ${s.name}: ${s.reason}`);
  t.diagnostic(`${doc.skipped.length} skipped`);
  for (const c of doc.cases) {
    await t.test(c.name, () => {
      const input: AdmissionInput = { object: doc.object, oldObject: null, params: c.spec.paramKind ? doc.params : null, request: { operation: 'CREATE', name: 'foo', namespace: 'default' } };
      const v = new PolicyValidator(c.spec);
      let budget: number | undefined;
      if (c.budget === 'validationCost') {
        // Exactly what the validations cost, so the messageExpressions find nothing left.
        const only = new PolicyValidator({ ...c.spec, validations: (c.spec.validations as Obj[]).map(({ messageExpression: _, ...rest }) => rest) });
        budget = 1;
        while (only.validate(input, budget).decisions.some((d) => d.message.includes('running out of cost budget'))) budget++;
      }
      const r = v.validate(input, budget);
      assert.equal(r.decisions.length, c.decisions.length, JSON.stringify(r.decisions));
      c.decisions.forEach((want, i) => {
        const got = r.decisions[i]!;
        assert.equal(got.action, want.action);
        assert.equal(got.evaluation, want.evaluation);
        if (want.message !== undefined) assert.equal(got.message, want.message);
        if (want.messageContains !== undefined) assert.ok(got.message.includes(want.messageContains), got.message);
        if (want.reason !== undefined) assert.equal(got.reason, want.reason);
      });
      if (c.auditAnnotations !== undefined) {
        assert.equal(r.auditAnnotations.length, c.auditAnnotations.length);
        c.auditAnnotations.forEach((want, i) => {
          const got = r.auditAnnotations[i]!;
          assert.equal(got.key, want.key);
          assert.equal(got.action, want.action);
          if (want.value !== undefined) assert.equal(got.value, want.value);
          if (want.errorContains !== undefined) assert.ok(got.error?.includes(want.errorContains), got.error);
        });
      }
    });
  }
});

test('variables are lazy, chained and evaluated once per phase', () => {
  const v = new PolicyValidator({
    variables: [
      { name: 'replicas', expression: 'object.spec.replicas' },
      { name: 'doubled', expression: 'variables.replicas * 2' },
      { name: 'broken', expression: 'object.spec.missing' },
    ],
    validations: [{ expression: 'variables.doubled == 6' }, { expression: 'variables.broken == 1' }],
  });
  const r = v.validate({ object: { spec: { replicas: 3 } }, oldObject: null, request: {} });
  assert.equal(r.decisions[0]!.action, 'admit');
  assert.equal(r.decisions[1]!.message, `expression 'variables.broken == 1' resulted in error: composited variable "broken" fails to evaluate: no such key: missing`);
  // A variable may only use those before it.
  const later = new PolicyValidator({ variables: [{ name: 'a', expression: 'variables.b' }, { name: 'b', expression: '1' }], validations: [{ expression: 'variables.a == 1' }] });
  const m = later.validate({ object: {}, oldObject: null, request: {} }).decisions[0]!.message;
  assert.match(m, /composited variable "a" fails to compile: compilation failed: ERROR: <input>:1:10: undefined field 'b'/);
});

test('oldObject is null on CREATE and request is typed', () => {
  const v = new PolicyValidator({ validations: [{ expression: 'oldObject == null && request.operation == "CREATE" && request.userInfo.username == "alice"' }] });
  assert.equal(v.validate({ object: {}, oldObject: null, request: { operation: 'CREATE', userInfo: { username: 'alice' } } }).decisions[0]!.action, 'admit');
  const bad = new PolicyValidator({ validations: [{ expression: 'request.nope == 1' }] });
  assert.match(bad.validate({ object: {}, oldObject: null, request: {} }).decisions[0]!.message, /undefined field 'nope'/);
});

test('params only with a paramKind', () => {
  const v = new PolicyValidator({ validations: [{ expression: 'params == null' }] });
  assert.match(v.validate({ object: {}, oldObject: null, request: {} }).decisions[0]!.message, /undeclared reference to 'params'/);
});
