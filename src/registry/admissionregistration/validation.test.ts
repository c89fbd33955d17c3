import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { aggregateString, nameIsDNSSubdomain, type FieldError } from '../../apimachinery/index.ts';
import { validateObjectMetaWith } from '../objectmeta-checks.ts';
import type { Obj } from '../rest.ts';
import {
  validateMutatingAdmissionPolicy,
  validateMutatingAdmissionPolicyBinding,
  validateValidatingAdmissionPolicy,
  validateValidatingAdmissionPolicyBinding,
  validateValidatingAdmissionPolicyStatus,
} from './validation.ts';
import { usePolicyExpressionChecker, noExpressionChecks, type PolicyExpressionOptions } from './expression-checker.ts';

interface Case {
  kind: string;
  name: string;
  object: Obj;
  oldObject?: Obj;
  expectedError: string;
}
const vectors = JSON.parse(readFileSync(new URL('../../../testdata/k8s/admissionregistration/validation.json', import.meta.url), 'utf8')) as {
  count: number;
  cases: Case[];
  skipped: { kind: string; name: string; reason: string }[];
};

/** As the upstream tests call them: ObjectMeta first, then the kind's own rules. */
const validators: Record<string, (obj: Obj, old?: Obj) => FieldError[]> = {
  ValidatingAdmissionPolicy: (o, old) => [...validateObjectMetaWith(o, false, nameIsDNSSubdomain), ...validateValidatingAdmissionPolicy(o, old)],
  ValidatingAdmissionPolicyBinding: (o) => [...validateObjectMetaWith(o, false, nameIsDNSSubdomain), ...validateValidatingAdmissionPolicyBinding(o)],
  MutatingAdmissionPolicy: (o, old) => [...validateObjectMetaWith(o, false, nameIsDNSSubdomain), ...validateMutatingAdmissionPolicy(o, old)],
  MutatingAdmissionPolicyBinding: (o) => [...validateObjectMetaWith(o, false, nameIsDNSSubdomain), ...validateMutatingAdmissionPolicyBinding(o)],
  ValidatingAdmissionPolicyStatus: (o) => validateValidatingAdmissionPolicyStatus(o),
};

test('admission policy object validation (upstream validation_test.go vectors)', () => {
  assert.ok(vectors.cases.length >= 90, `only ${vectors.cases.length} cases`);
  assert.equal(vectors.count, vectors.cases.length);
  const failures: string[] = [];
  for (const c of vectors.cases) {
    const validate = validators[c.kind];
    assert.ok(validate, `no validator for ${c.kind}`);
    const errs = validate(structuredClone(c.object), c.oldObject && structuredClone(c.oldObject));
    const got = errs.length === 0 ? '' : aggregateString(errs);
    const ok = c.expectedError === '' ? errs.length === 0 : got.includes(c.expectedError);
    if (!ok) failures.push(`${c.kind} "${c.name}":\n  want ${JSON.stringify(c.expectedError)}\n  got  ${JSON.stringify(got)}`);
  }
  for (const s of vectors.skipped) assert.ok(s.reason.length > 0, `${s.kind} "${s.name}" is skipped without a reason`);
  console.log(`admissionregistration validation: ${vectors.cases.length - failures.length} passed, ${failures.length} failed, ${vectors.skipped.length} skipped`);
  for (const s of vectors.skipped) console.log(`  skipped ${s.kind} "${s.name}": ${s.reason}`);
  assert.deepEqual(failures, []);
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
