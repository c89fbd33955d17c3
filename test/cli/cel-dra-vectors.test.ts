/**
 * The DRA device-selector environment against Kubernetes' own cases
 * (testdata/dra-cel/compile-cases.json, from dynamic-resource-allocation/cel compile_test.go):
 * each expression's compile error, match error or match, and its estimated cost, through the
 * `cel` command's eval and check.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { runCelCaptured } from './run-cel.ts';

interface Case {
  name: string;
  expression: string;
  driver?: string;
  attributes?: Record<string, unknown>;
  capacity?: Record<string, unknown>;
  expectCompileError?: string;
  expectMatchError?: string;
  expectMatch?: boolean;
  expectCost?: number;
}

const vectors = JSON.parse(readFileSync(new URL('../../testdata/dra-cel/compile-cases.json', import.meta.url), 'utf8')) as { cases: Case[] };

async function cel(...argv: string[]): Promise<{ code: number; out: Record<string, unknown> }> {
  const r = await runCelCaptured(...argv);
  return { code: r.code, out: JSON.parse(r.stdout) as Record<string, unknown> };
}

test('the upstream cases are all here', () => {
  assert.ok(vectors.cases.length >= 17, `${vectors.cases.length} cases`);
  console.log(`dra-cel: ${vectors.cases.length} cases, 0 skipped`);
});

for (const c of vectors.cases) {
  test(`dra case ${c.name}`, async () => {
    const device = { driver: c.driver ?? '', attributes: c.attributes ?? {}, capacity: c.capacity ?? {} };
    const r = await cel('eval', c.expression, '--env', 'dra', '--vars', JSON.stringify({ device }));
    if (c.expectCompileError !== undefined) {
      assert.equal(r.code, 2);
      assert.ok(String(r.out.error).includes(c.expectCompileError), String(r.out.error));
      return;
    }
    if (c.expectMatchError !== undefined) {
      assert.equal(r.code, 1);
      assert.ok(String(r.out.error).includes(c.expectMatchError), String(r.out.error));
    } else {
      assert.deepEqual(r, { code: 0, out: { type: 'bool', value: c.expectMatch } });
    }
    if (c.expectCost !== undefined) {
      const k = await cel('check', c.expression, '--env', 'dra');
      assert.equal((k.out.cost as { max: number }).max, c.expectCost);
    }
  });
}
