/** IsOnlyMutatingGCFields: what the garbage collector changes on a role or binding is never refused. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isOnlyMutatingGCFields } from './policybased.ts';

const role = {
  apiVersion: 'rbac.authorization.k8s.io/v1',
  kind: 'Role',
  metadata: { name: 'r', namespace: 'ns', resourceVersion: '5', finalizers: ['a'] },
  rules: [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }],
};

test('finalizers, ownerReferences and managedFields only: a GC change', () => {
  const gc = { ...role, metadata: { ...role.metadata, finalizers: [], ownerReferences: [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'o', uid: 'u' }], managedFields: [{ manager: 'x' }] } };
  assert.equal(isOnlyMutatingGCFields(gc, role), true);
  assert.equal(isOnlyMutatingGCFields(role, role), true);
  // Empty and absent are alike (conversion.Equalities).
  assert.equal(isOnlyMutatingGCFields({ ...role, metadata: { ...role.metadata, labels: {} } }, role), true);
});

test('anything else, or a create, is not', () => {
  assert.equal(isOnlyMutatingGCFields({ ...role, rules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }] }, role), false);
  assert.equal(isOnlyMutatingGCFields({ ...role, metadata: { ...role.metadata, labels: { a: 'b' } } }, role), false);
  assert.equal(isOnlyMutatingGCFields(role, undefined), false);
});
