/**
 * Admission policy and binding validation: upstream's validation_test.go vectors, and the
 * expressions handed to the installed expression checker.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { aggregateString } from '../../apimachinery/index.ts';
import type { Obj } from '../rest.ts';
import {
  validateMutatingAdmissionPolicy,
  validateMutatingAdmissionPolicyBinding,
  validateValidatingAdmissionPolicy,
  validateValidatingAdmissionPolicyBinding,
  validateValidatingAdmissionPolicyStatus,
} from './validation.ts';
import { usePolicyExpressionChecker, noExpressionChecks, type PolicyExpressionOptions } from './expression-checker.ts';
import { runValidationVectors, withObjectMeta } from './validation-vectors.ts';

test('admission policy object validation (upstream validation_test.go vectors)', () => {
  runValidationVectors('validation.json', 'admissionregistration validation', 90, {
    ValidatingAdmissionPolicy: withObjectMeta(validateValidatingAdmissionPolicy),
    ValidatingAdmissionPolicyBinding: withObjectMeta(validateValidatingAdmissionPolicyBinding),
    MutatingAdmissionPolicy: withObjectMeta(validateMutatingAdmissionPolicy),
    MutatingAdmissionPolicyBinding: withObjectMeta(validateMutatingAdmissionPolicyBinding),
    ValidatingAdmissionPolicyStatus: validateValidatingAdmissionPolicyStatus,
  });
});

test('every expression goes to the installed checker, with params only where a paramKind is given', () => {
  const seen: { expression: string; options: PolicyExpressionOptions }[] = [];
  usePolicyExpressionChecker({
    compile(expression, options) {
      seen.push({ expression, options });
      return expression === 'bad' ? [{ type: 'Invalid', detail: 'compilation failed: ERROR: <input>:1:1: undeclared reference to \'bad\'' }] : [];
    },
  });
  try {
    const policy: Obj = {
      metadata: { name: 'p' },
      spec: {
        failurePolicy: 'Fail',
        matchConstraints: { matchPolicy: 'Equivalent', namespaceSelector: {}, objectSelector: {}, resourceRules: [{ operations: ['*'], apiGroups: ['*'], apiVersions: ['*'], resources: ['*'] }] },
        matchConditions: [{ name: 'm', expression: 'true' }],
        variables: [{ name: 'v', expression: '1' }],
        validations: [{ expression: 'bad', messageExpression: "'m'" }],
        auditAnnotations: [{ key: 'k', valueExpression: "'x'" }],
      },
    };
    const errs = validateValidatingAdmissionPolicy(policy);
    assert.equal(aggregateString(errs), `spec.validations[0].expression: Invalid value: "bad": compilation failed: ERROR: <input>:1:1: undeclared reference to 'bad'`);
    assert.deepEqual(
      seen.map((s) => [s.expression, s.options.kind, s.options.hasParams, s.options.hasAuthorizer, s.options.variables.map((v) => v.name)]),
      [
        ['true', 'matchCondition', false, true, []],
        ['1', 'variable', false, true, []],
        ['bad', 'validation', false, true, ['v']],
        ["'m'", 'messageExpression', false, false, ['v']],
        ["'x'", 'auditAnnotation', false, true, ['v']],
      ],
    );
    // On update, expressions already stored compile in the stored-expressions environment.
    seen.length = 0;
    const updated = structuredClone(policy);
    (updated.spec as { validations: unknown[] }).validations = [{ expression: 'object != null' }, { expression: 'bad' }];
    (updated.spec as Record<string, unknown>).paramKind = { apiVersion: 'v1', kind: 'ConfigMap' };
    validateValidatingAdmissionPolicy(updated, policy);
    assert.deepEqual(
      seen.filter((s) => s.options.kind === 'validation').map((s) => [s.expression, s.options.stored, s.options.hasParams]),
      [
        ['object != null', false, true],
        ['bad', true, true],
      ],
    );
    // Mutations declare the mutation types.
    seen.length = 0;
    validateMutatingAdmissionPolicy({ metadata: { name: 'm' }, spec: { mutations: [{ patchType: 'JSONPatch', jsonPatch: { expression: '[]' } }] } });
    assert.deepEqual(seen.map((s) => [s.options.kind, s.options.hasPatchTypes]), [['jsonPatch', true]]);
  } finally {
    usePolicyExpressionChecker(noExpressionChecks);
  }
});
