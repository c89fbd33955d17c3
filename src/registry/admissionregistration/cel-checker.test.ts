/**
 * The write-time compile of policy expressions through the admission CEL environment: syntax
 * errors, result types, `params` only with a paramKind, variables in order.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { validateValidatingAdmissionPolicy } from './validation.ts';

const policy = (spec: Record<string, unknown>) => ({
  apiVersion: 'admissionregistration.k8s.io/v1',
  kind: 'ValidatingAdmissionPolicy',
  metadata: { name: 'p' },
  spec: {
    failurePolicy: 'Fail',
    matchConstraints: {
      matchPolicy: 'Equivalent',
      namespaceSelector: {},
      objectSelector: {},
      resourceRules: [{ apiGroups: ['apps'], apiVersions: ['v1'], operations: ['CREATE'], resources: ['deployments'], scope: '*' }],
    },
    ...spec,
  },
});
const errors = (spec: Record<string, unknown>) => validateValidatingAdmissionPolicy(policy(spec) as never).map((e) => `${e.field}: ${e.detail}`);

test('a policy whose expressions compile passes', () => {
  assert.deepEqual(
    errors({ variables: [{ name: 'n', expression: 'object.spec.replicas' }], validations: [{ expression: 'variables.n <= 5', messageExpression: "'too many: ' + string(variables.n)" }] }),
    [],
  );
});

test('expressions that do not compile, or return the wrong type, are refused at write time', () => {
  const syntax = errors({ validations: [{ expression: 'object.x in [1, 2, ' }] });
  assert.equal(syntax.length, 1);
  assert.match(syntax[0]!, /^spec\.validations\[0\]\.expression: compilation failed: ERROR: <input>:1:/);
  assert.deepEqual(errors({ validations: [{ expression: '1 + 1' }] }), ['spec.validations[0].expression: must evaluate to bool but got int']);
  assert.deepEqual(errors({ validations: [{ expression: 'true', messageExpression: '1' }] }), ['spec.validations[0].messageExpression: must evaluate to string but got int']);
  const params = errors({ matchConditions: [{ name: 'm', expression: 'params.x == 1' }], validations: [{ expression: 'true' }] });
  assert.equal(params.length, 1);
  assert.match(params[0]!, /^spec\.matchConditions\[0\]\.expression: compilation failed: ERROR: .*undeclared reference to 'params'/s);
  const unknownVar = errors({ validations: [{ expression: 'variables.missing > 1' }] });
  assert.equal(unknownVar.length, 1);
  assert.match(unknownVar[0]!, /^spec\.validations\[0\]\.expression: compilation failed: /);
});
