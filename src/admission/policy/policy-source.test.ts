/**
 * The policy source over a real store: each family's policies compile with that family's own
 * compiler only (a MutatingAdmissionPolicy never becomes a validating evaluator), once per
 * stored version, and only policies with bindings become hooks.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { resourcePrefix, type Obj } from '../../registry/index.ts';
import { openTempStore } from '../../registry/testing.ts';
import { PolicySource } from './policy-source.ts';

const G = 'admissionregistration.k8s.io';
const settle = () => new Promise((r) => setTimeout(r, 150));

test('a family compiles its own policies, once per stored version', async () => {
  const t = await openTempStore();
  const compiled: string[] = [];
  const source = new PolicySource(t.store, {
    policies: 'mutatingadmissionpolicies',
    bindings: 'mutatingadmissionpolicybindings',
    compile: (spec: Obj) => {
      compiled.push(String(spec.marker));
      return { marker: spec.marker };
    },
  });
  try {
    await source.synced;
    await t.store.create(resourcePrefix(G, 'mutatingadmissionpolicies') + 'm', JSON.stringify({ metadata: { name: 'm', resourceVersion: '1' }, spec: { marker: 'map' } }));
    await t.store.create(resourcePrefix(G, 'mutatingadmissionpolicybindings') + 'm', JSON.stringify({ metadata: { name: 'm' }, spec: { policyName: 'm' } }));
    // A validating policy with a binding in the same store belongs to the other family.
    await t.store.create(resourcePrefix(G, 'validatingadmissionpolicies') + 'v', JSON.stringify({ metadata: { name: 'v' }, spec: { marker: 'vap' } }));
    await t.store.create(resourcePrefix(G, 'validatingadmissionpolicybindings') + 'v', JSON.stringify({ metadata: { name: 'v' }, spec: { policyName: 'v' } }));
    // Unbound: never compiled.
    await t.store.create(resourcePrefix(G, 'mutatingadmissionpolicies') + 'unbound', JSON.stringify({ metadata: { name: 'unbound' }, spec: { marker: 'unbound' } }));
    await settle();
    const hooks = source.hooks();
    assert.deepEqual(hooks.map((h) => [h.name, h.evaluator]), [['m', { marker: 'map' }]]);
    source.hooks();
    assert.deepEqual(compiled, ['map']);
  } finally {
    source.stop();
    await t.close();
  }
});
