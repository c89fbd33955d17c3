/**
 * The write-time compile of policy expressions through the admission CEL environment: syntax
 * errors, result types, `params` only with a paramKind, variables in order.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { validateMutatingAdmissionPolicy, validateValidatingAdmissionPolicy } from './validation.ts';

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

const mutating = (mutations: unknown[]) => ({
  apiVersion: 'admissionregistration.k8s.io/v1',
  kind: 'MutatingAdmissionPolicy',
  metadata: { name: 'm' },
  spec: {
    failurePolicy: 'Fail',
    reinvocationPolicy: 'Never',
    matchConstraints: {
      matchPolicy: 'Equivalent',
      namespaceSelector: {},
      objectSelector: {},
      resourceRules: [{ apiGroups: ['apps'], apiVersions: ['v1'], operations: ['CREATE'], resources: ['deployments'], scope: '*' }],
    },
    mutations,
  },
});
const mutationErrors = (mutations: unknown[]) => validateMutatingAdmissionPolicy(mutating(mutations) as never).map((e) => `${e.field}: ${e.detail}`);

test('mutations compile with the mutation types and must return Object or a list of JSONPatch', () => {
  assert.deepEqual(
    mutationErrors([
      { patchType: 'ApplyConfiguration', applyConfiguration: { expression: "Object{metadata: Object.metadata{labels: {'a': 'b'}}}" } },
      { patchType: 'JSONPatch', jsonPatch: { expression: "[JSONPatch{op: 'add', path: '/metadata/labels/' + jsonpatch.escapeKey('a/b'), value: 'c'}]" } },
    ]),
    [],
  );
  assert.deepEqual(mutationErrors([{ patchType: 'ApplyConfiguration', applyConfiguration: { expression: "'x'" } }]), ['spec.mutations[0].applyConfiguration.expression: must evaluate to Object but got string']);
  assert.deepEqual(mutationErrors([{ patchType: 'JSONPatch', jsonPatch: { expression: "JSONPatch{op: 'remove', path: '/x'}" } }]), ['spec.mutations[0].jsonPatch.expression: must evaluate to list(JSONPatch) but got JSONPatch']);
  const undeclared = mutationErrors([{ patchType: 'JSONPatch', jsonPatch: { expression: "[JSONPatch{op: 'add', nope: 1}]" } }]);
  assert.equal(undeclared.length, 1);
  assert.match(undeclared[0]!, /^spec\.mutations\[0\]\.jsonPatch\.expression: compilation failed: ERROR: <input>:1:/);
});

test('no estimated-cost limit at write time: an expensive expression is accepted, as kube-apiserver accepts it', () => {
  // Nested comprehensions over unbounded lists: far above any static limit a CRD rule has.
  const expensive = 'object.spec.template.spec.containers.all(c, object.spec.template.spec.containers.all(d, object.spec.template.spec.containers.all(e, c.name != d.name || d.name != e.name)))';
  assert.deepEqual(errors({ validations: [{ expression: expensive, messageExpression: "object.spec.template.spec.containers.map(c, c.name).join(',')" }] }), []);
  assert.deepEqual(mutationErrors([{ patchType: 'JSONPatch', jsonPatch: { expression: `${expensive} ? [] : [JSONPatch{op: 'remove', path: '/x'}]` } }]), []);
});
