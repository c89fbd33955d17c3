/**
 * Fields behind alpha gates dropped on write, as data (testdata/k8s-native/dra-drop-disabled/):
 * each case is prepared by its kind's real strategy (create, update, or the status strategy's
 * update) and the prepared spec and status are compared whole.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { builtinResources } from '../builtin/catalog.ts';
import { BuiltinStrategy } from '../builtin/strategy.ts';
import type { Obj } from '../rest.ts';
import type { RequestContext, Strategy } from '../strategy.ts';
import { loadAllKindSemantics } from '../builtin/native-index.ts';

// The kind folders load on first use of a kind's store; these tables run the strategies directly.
await loadAllKindSemantics();

interface Case {
  name: string;
  resource: string;
  op: 'create' | 'update' | 'status';
  object: Obj;
  old?: Obj;
  expected: { spec?: unknown; status?: unknown };
  generation?: number;
}

const vectors = JSON.parse(readFileSync(new URL('../../../testdata/k8s-native/dra-drop-disabled/strategy.json', import.meta.url), 'utf8')) as {
  source: string;
  minCases: number;
  cases: Case[];
  skipped: { name: string; reason: string }[];
};

function strategyFor(resource: string, status: boolean): Strategy {
  const r = builtinResources().find((x) => `${x.group}/${x.resource}` === resource && x.version === 'v1');
  assert.ok(r, resource);
  const s = new BuiltinStrategy(r, () => {
    throw new Error(`${resource} fell back to its OpenAPI schema`);
  });
  return status ? s.subresourceStrategy('status')! : s;
}

test('dra-drop-disabled vectors: counts and skips', () => {
  assert.ok(vectors.cases.length >= vectors.minCases && vectors.minCases >= 27, `only ${vectors.cases.length} cases`);
  for (const s of vectors.skipped) assert.ok(s.reason.trim() !== '', `${s.name} is skipped without a reason`);
  console.log(`dra-drop-disabled: ${vectors.cases.length} cases, ${vectors.skipped.length} skipped\n  ${vectors.skipped.map((s) => `${s.name}: ${s.reason}`).join('\n  ')}`);
});

test(`dra-drop-disabled (${vectors.source})`, () => {
  for (const c of vectors.cases) {
    const s = strategyFor(c.resource, c.op === 'status');
    const ctx: RequestContext = { warnings: [], fieldValidation: 'Strict', dryRun: false, ...(c.op === 'status' ? { subresource: 'status' as const } : {}) };
    const obj = structuredClone(c.object);
    if (c.op === 'create') s.prepareForCreate(ctx, obj);
    else s.prepareForUpdate(ctx, obj, structuredClone(c.old!));
    for (const part of ['spec', 'status'] as const) {
      if (part in c.expected) assert.deepEqual(obj[part] ?? null, c.expected[part], `${c.name} (${part})`);
    }
    if (c.generation !== undefined) assert.equal((obj.metadata as { generation?: number }).generation, c.generation, `${c.name} (generation)`);
  }
});
