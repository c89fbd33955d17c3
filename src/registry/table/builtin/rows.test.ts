// What the built-in printers add to a Table's rows beyond cells: a completed pod's row
// conditions, and the matching order a FlowSchema list is printed in.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { toTable } from '../convert.ts';
import { builtinTableConvertor } from './index.ts';

const opts = { includeObject: 'Metadata' as const, tableVersion: 'v1', now: Date.parse('2026-01-01T00:00:00Z') };

test('a completed pod carries its Completed row condition in the Table; a running one none', () => {
  const pods = builtinTableConvertor('', 'pods');
  const list = {
    metadata: { resourceVersion: '7' },
    items: [
      { metadata: { name: 'done' }, spec: { containers: [{ name: 'a' }] }, status: { phase: 'Succeeded' } },
      { metadata: { name: 'up' }, spec: { containers: [{ name: 'a' }] }, status: { phase: 'Running' } },
    ],
  };
  const rows = toTable(pods, list, true, opts).rows as Array<Record<string, unknown>>;
  assert.deepEqual(Object.keys(rows[0]!), ['cells', 'conditions', 'object']);
  assert.deepEqual(rows[0]!.conditions, [{ type: 'Completed', status: 'True', reason: 'Succeeded', message: 'The pod has completed successfully.' }]);
  assert.deepEqual(Object.keys(rows[1]!), ['cells', 'object']);
});

test('a FlowSchema list prints in matching order: precedence, then name', () => {
  const fs = (name: string, matchingPrecedence: number) => ({ metadata: { name }, spec: { matchingPrecedence, priorityLevelConfiguration: { name: 'pl' } } });
  const list = { metadata: {}, items: [fs('b', 1000), fs('z', 10), fs('a', 10)] };
  const rows = toTable(builtinTableConvertor('flowcontrol.apiserver.k8s.io', 'flowschemas'), list, true, opts).rows as Array<{ cells: unknown[] }>;
  assert.deepEqual(rows.map((r) => r.cells[0]), ['a', 'z', 'b']);
  assert.deepEqual(list.items.map((i) => i.metadata.name), ['b', 'z', 'a'], 'the list itself is not reordered');
});
