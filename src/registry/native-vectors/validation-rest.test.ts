/**
 * Kubernetes' validation tables for ConfigMap, Secret, ServiceAccount, RBAC, networking,
 * policy, scheduling, coordination and storage kinds (testdata/k8s-native/validation-rest/),
 * run through each kind's real strategy.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { eventRules } from '../core/event/validation.ts';
import { runCase, vectorFiles, type RulesOverride } from './vectors.ts';
import { loadAllKindSemantics } from '../builtin/native-index.ts';

// The kind folders load on first use of a kind's store; these tables run the strategies directly.
await loadAllKindSemantics();

const files = vectorFiles('validation-rest');

/** Rules by request group, for kinds whose rules depend on it. */
const byRequestGroup: Record<string, RulesOverride> = { 'events.k8s.io': { rules: eventRules('events.k8s.io') } };

test('validation-rest vectors: every file is there', () => {
  assert.ok(files.length >= 8, `only ${files.length} vector files`);
  const total = files.reduce((n, f) => n + f.vectors.cases.length, 0);
  const skipped = files.flatMap((f) => f.vectors.skipped.map((s) => `${f.file} ${s.name}: ${s.reason}`));
  assert.ok(total >= 150, `only ${total} cases`);
  console.log(`validation-rest: ${total} cases in ${files.length} files, ${skipped.length} skipped${skipped.length ? `\n  ${skipped.join('\n  ')}` : ''}`);
});

for (const { file, vectors } of files) {
  test(`validation-rest ${file} (${vectors.source})`, () => {
    assert.ok(vectors.cases.length >= vectors.minCases, `${file}: ${vectors.cases.length} cases, at least ${vectors.minCases} expected`);
    for (const s of vectors.skipped) assert.ok(s.reason.trim().length > 0, `${file}: ${s.name} is skipped without a reason`);
    for (const c of vectors.cases) {
      const override = vectors.requestGroup === undefined ? undefined : byRequestGroup[vectors.requestGroup];
      if (vectors.requestGroup !== undefined) assert.ok(override, `${file}: no rules for request group ${vectors.requestGroup}`);
      const got = runCase(vectors.resource, c, override);
      assert.deepEqual(got.errors, c.errors, `${file}: ${c.name}`);
      if (c.warnings !== undefined) assert.deepEqual(got.warnings, c.warnings, `${file}: ${c.name} (warnings)`);
    }
  });
}
