import { test } from 'node:test';
import assert from 'node:assert/strict';
import { builtinRegistry, type Obj } from '../../registry/index.ts';
import { openTempStore } from '../../registry/testing.ts';
import { bootstrapPolicy, reconcileBootstrapPolicy } from './bootstrap.ts';

test('the bootstrap policy is created, completed where it lost parts, and left alone where autoupdate is false', async () => {
  const t = await openTempStore();
  try {
    const kinds = builtinRegistry({ store: t.store }).kinds;
    const store = (r: string) => kinds.find((k) => k.group === 'rbac.authorization.k8s.io' && k.resource === r)!.store;
    const stores = { clusterRoles: store('clusterroles'), clusterRoleBindings: store('clusterrolebindings') };
    await reconcileBootstrapPolicy(stores);
    const p = bootstrapPolicy();
    assert.equal((await stores.clusterRoles.list(undefined, {})).items.length, p.clusterRoles.length);
    assert.equal((await stores.clusterRoleBindings.list(undefined, {})).items.length, p.clusterRoleBindings.length);

    // A rule taken away comes back; a user's own rule stays.
    await stores.clusterRoles.update(undefined, 'system:discovery', (cur) => ({ ...cur!, rules: [{ verbs: ['get'], nonResourceURLs: ['/extra'] }] }), {});
    // With autoupdate false nothing is put back.
    await stores.clusterRoles.update(undefined, 'system:basic-user', (cur) => {
      const m = cur!.metadata as Record<string, any>;
      return { ...cur!, metadata: { ...m, annotations: { 'rbac.authorization.kubernetes.io/autoupdate': 'false' } }, rules: [] };
    }, {});
    // A binding whose roleRef changed is recreated (roleRef is immutable, so delete and create).
    await stores.clusterRoleBindings.delete(undefined, 'system:monitoring', {});
    await stores.clusterRoleBindings.create(undefined, { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRoleBinding', metadata: { name: 'system:monitoring', annotations: { 'rbac.authorization.kubernetes.io/autoupdate': 'true' } }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'view' }, subjects: [{ kind: 'User', name: 'x', apiGroup: 'rbac.authorization.k8s.io' }] }, {});
    await reconcileBootstrapPolicy(stores);
    const discovery = (await stores.clusterRoles.get(undefined, 'system:discovery')) as Obj & { rules: Array<{ nonResourceURLs: string[] }> };
    assert.deepEqual(discovery.rules.map((r) => r.nonResourceURLs[0]), ['/extra', '/api']);
    const basic = (await stores.clusterRoles.get(undefined, 'system:basic-user')) as Obj & { rules?: unknown[] };
    assert.deepEqual(basic.rules ?? [], []);
    const monitoring = (await stores.clusterRoleBindings.get(undefined, 'system:monitoring')) as Obj & { roleRef: { name: string }; subjects: unknown[] };
    assert.equal(monitoring.roleRef.name, 'system:monitoring');
    assert.deepEqual(monitoring.subjects, [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'Group', name: 'system:monitoring' }]);
  } finally {
    await t.close();
  }
});
