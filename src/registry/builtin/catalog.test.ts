/** The vendored catalog index matches what the vendored OpenAPI documents say. */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { builtinResources, catalogIndexURL, deriveBuiltinResources } from './catalog.ts';
import { catalogIndexText } from './catalog-index.ts';

test('the vendored catalog index is derived from the vendored documents (regenerate: node --import tsx src/registry/builtin/catalog-index.ts)', () => {
  assert.equal(readFileSync(catalogIndexURL(), 'utf8'), catalogIndexText());
});

test('builtinResources reads the index: the same resources, in the same order, as the documents give', () => {
  const derived = deriveBuiltinResources();
  assert.deepEqual(builtinResources(), derived);
  assert.deepEqual(
    derived.filter((r) => r.group === 'apps').map((r) => r.resource),
    ['controllerrevisions', 'daemonsets', 'deployments', 'replicasets', 'statefulsets'],
  );
});
