import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Store } from '../../storage/index.ts';
import type { Obj } from '../rest.ts';
import { customResourceKinds } from './definition.ts';

const crd: Obj = {
  metadata: { name: 'things.g.io' },
  spec: {
    group: 'g.io',
    scope: 'Namespaced',
    names: { plural: 'things', singular: 'thing', kind: 'Thing', shortNames: ['th'] },
    versions: [
      { name: 'v1', served: true, storage: true, subresources: { status: {}, scale: { specReplicasPath: '.spec.n', statusReplicasPath: '.status.n' } } },
      { name: 'v1beta1', served: true, storage: false, deprecated: true },
      { name: 'v1alpha1', served: false, storage: false },
    ],
  },
  status: { acceptedNames: { plural: 'things', singular: 'thing', kind: 'Thing', listKind: 'ThingList', shortNames: ['th', 'thg'] } },
};

test('a CRD is served as one kind definition per served version, with its subresources and deprecation', () => {
  const ks = customResourceKinds(crd, { store: {} as Store });
  assert.deepEqual(ks.map((k) => k.version), ['v1', 'v1beta1']);
  assert.deepEqual(ks[0]!.subresources.map((s) => s.name), ['status', 'scale']);
  assert.deepEqual((ks[0]!.scale?.mapping as { spec?: unknown } | undefined)?.spec, { specReplicasPath: '.spec.n', statusReplicasPath: '.status.n' });
  assert.equal(ks[1]!.scale, undefined);
  assert.equal(ks[1]!.deprecationWarning, 'g.io/v1beta1 Thing is deprecated; use g.io/v1 Thing');
  // Both versions store in the storage version; the accepted names are served.
  assert.deepEqual(ks.map((k) => k.storageVersion), ['v1', 'v1']);
  assert.deepEqual(ks[0]!.shortNames, ['th', 'thg']);
  assert.equal(ks[0]!.listKind, 'ThingList');
  assert.ok(ks.every((k) => k.custom && !k.strategicMerge));
});
