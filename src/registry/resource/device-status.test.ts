/**
 * A claim's device statuses and allocation results as data (testdata/k8s-native/dra-device-status/):
 * each case is a status update run through ResourceClaim's real status strategy.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { errorString } from '../../apimachinery/index.ts';
import { builtinResources } from '../builtin/catalog.ts';
import { BuiltinStrategy } from '../builtin/strategy.ts';
import { expand } from '../native-vectors/vectors.ts';
import type { Obj } from '../rest.ts';
import type { RequestContext } from '../strategy.ts';
import { loadAllKindSemantics } from '../builtin/native-index.ts';

// The kind folders load on first use of a kind's store; these tables run the strategies directly.
await loadAllKindSemantics();

interface Case {
  name: string;
  devices?: unknown[];
  results?: unknown[];
  errors: string[];
}
interface Vectors {
  source: string;
  minCases: number;
  claim: Obj;
  cases: Case[];
  skipped: { name: string; reason: string }[];
}

const vectors = JSON.parse(readFileSync(new URL('../../../testdata/k8s-native/dra-device-status/status-update.json', import.meta.url), 'utf8')) as Vectors;

function statusStrategy() {
  const r = builtinResources().find((x) => x.group === 'resource.k8s.io' && x.resource === 'resourceclaims')!;
  return new BuiltinStrategy(r, () => {
    throw new Error('resourceclaims fell back to its OpenAPI schema');
  }).subresourceStrategy('status')!;
}

test('dra-device-status vectors: counts and skips', () => {
  assert.ok(vectors.cases.length >= vectors.minCases && vectors.minCases >= 23, `only ${vectors.cases.length} cases`);
  for (const s of vectors.skipped) assert.ok(s.reason.trim() !== '', `${s.name} is skipped without a reason`);
  console.log(`dra-device-status: ${vectors.cases.length} cases, ${vectors.skipped.length} upstream cases skipped\n  ${vectors.skipped.map((s) => `${s.name}: ${s.reason}`).join('\n  ')}`);
});

test(`dra-device-status (${vectors.source})`, () => {
  const s = statusStrategy();
  for (const c of vectors.cases) {
    const old = expand(vectors.claim) as Obj;
    const status = old.status as { allocation?: { devices: { results: unknown[] } }; devices?: unknown[] };
    if (c.results !== undefined) delete status.allocation;
    const obj = structuredClone(old);
    const newStatus = obj.status as typeof status;
    if (c.devices !== undefined) newStatus.devices = expand(c.devices) as unknown[];
    if (c.results !== undefined) newStatus.allocation = { devices: { results: expand(c.results) as unknown[] } };
    const ctx: RequestContext = { warnings: [], fieldValidation: 'Strict', dryRun: false, subresource: 'status' };
    assert.deepEqual(s.validateUpdate(ctx, obj, old).map(errorString), c.errors, c.name);
  }
});
