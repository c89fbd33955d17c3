// Pruning, from Kubernetes' pruning/algorithm_test.go (pruning.json: exact object and paths).
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { compilePruner } from './prune.ts';
import { newStructural } from './structural.ts';
import type { JSONSchemaProps } from './types.ts';
import { loadVectors, Tally } from './vectors.ts';
import { deepCopyJSON } from './value.ts';

interface Case {
  name: string;
  schema: JSONSchemaProps | null;
  isResourceRoot: boolean;
  object: unknown;
  expectPruned: unknown;
  expectPrunedPaths: string[];
}

const file = loadVectors<Case>('pruning.json', { keepIntegralFloats: true });
const tally = new Tally('pruning.json');
after(() => console.log(tally.summary()));

for (const c of file.cases) {
  test(`pruning: ${c.name}`, () => {
    const pruner = compilePruner(c.schema === null ? undefined : newStructural(c.schema), c.isResourceRoot);
    const tracked = deepCopyJSON(c.object);
    const paths = pruner(tracked, { trackUnknown: true });
    const untracked = deepCopyJSON(c.object);
    const none = pruner(untracked);
    try {
      assert.deepEqual(tracked, c.expectPruned);
      assert.deepEqual(untracked, c.expectPruned);
      assert.deepEqual(paths, c.expectPrunedPaths);
      assert.deepEqual(none, []);
      tally.passed++;
    } catch (e) {
      tally.failed++;
      throw e;
    }
  });
}
