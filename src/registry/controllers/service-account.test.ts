import { test } from 'node:test';
import assert from 'node:assert/strict';
import { StatusError } from '../../apimachinery/index.ts';
import { builtinKind } from '../builtin/definition.ts';
import { builtinResources } from '../builtin/catalog.ts';
import { NamespaceStore } from '../namespace/rest.ts';
import { openTempStore } from '../testing.ts';
import { startServiceAccountController } from './service-account.ts';

async function eventually(check: () => Promise<boolean>, ms = 3000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) assert.fail('condition not reached');
    await new Promise((r) => setTimeout(r, 20));
  }
}

test('every active namespace gets a default ServiceAccount, again when it is deleted, none while terminating', async () => {
  const t = await openTempStore();
  const namespaces = new NamespaceStore(t.store);
  const accounts = builtinKind(builtinResources().find((r) => r.group === '' && r.resource === 'serviceaccounts')!, { store: t.store }).store;
  const exists = async (ns: string) => {
    try {
      await accounts.get(ns, 'default');
      return true;
    } catch (e) {
      if (e instanceof StatusError && e.code === 404) return false;
      throw e;
    }
  };
  await namespaces.create(undefined, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'before' } }, {});
  const ctl = startServiceAccountController(namespaces, accounts);
  try {
    await eventually(() => exists('before'));
    await namespaces.create(undefined, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team' } }, {});
    await eventually(() => exists('team'));
    const sa = await accounts.get('team', 'default');
    assert.deepEqual(Object.keys(sa).sort(), ['apiVersion', 'kind', 'metadata']);
    await accounts.delete('team', 'default', {});
    await eventually(() => exists('team'));
    const uidOf = (o: { metadata?: unknown }) => (o.metadata as { uid: string }).uid;
    assert.notEqual(uidOf(await accounts.get('team', 'default')), uidOf(sa));

    // A terminating namespace (kept by its finalizer: no namespace controller here) gets none back.
    await namespaces.delete(undefined, 'team', {});
    await accounts.delete('team', 'default', {});
    await ctl.idle();
    await new Promise((r) => setTimeout(r, 100));
    await ctl.idle();
    assert.equal(await exists('team'), false);
  } finally {
    ctl.stop();
    await t.close();
  }
});
