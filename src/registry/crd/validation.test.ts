/**
 * Kubernetes' own CRD validation table (TestValidateCustomResourceDefinition and
 * TestValidateCustomResourceDefinitionUpdate from apiextensions-apiserver, converted to JSON in
 * testdata/k8s/crd-validation.json): every produced error must match exactly one expected
 * (type, field[, contains]) entry and vice versa. The TestValidateCustomResourceDefinitionValidation
 * cases exercise the schema checks alone and run in the schema layer's tests.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { errorString, type FieldError } from '../../apimachinery/index.ts';
import type { InternalCRD } from './internal.ts';
import { validateCRD, validateCRDUpdate } from './validation.ts';

interface Expected {
  type: string;
  field: string;
  contains?: string;
}
interface Case {
  name: string;
  source: string;
  crd: InternalCRD;
  oldCRD?: InternalCRD;
  expectErrorDetails: Expected[];
}

const table = JSON.parse(readFileSync(new URL('../../../testdata/k8s/crd-validation.json', import.meta.url), 'utf8')) as {
  cases: Case[];
};

/** Matching as the table's conventions say: a one-to-one pairing of produced and expected errors. */
function mismatch(got: FieldError[], want: Expected[]): string | undefined {
  const remaining = [...want];
  const extra: string[] = [];
  for (const e of got) {
    const i = remaining.findIndex(
      (w) => w.type === e.type && w.field === e.field && (w.contains === undefined || errorString(e).includes(w.contains)),
    );
    if (i < 0) extra.push(`${e.type} ${errorString(e)}`);
    else remaining.splice(i, 1);
  }
  if (extra.length === 0 && remaining.length === 0) return undefined;
  return [
    ...extra.map((x) => `unexpected: ${x}`),
    ...remaining.map((w) => `missing: ${w.type} ${w.field}${w.contains ? ` (${w.contains})` : ''}`),
  ].join('\n');
}

const cases = table.cases.filter((c) => c.source === 'TestValidateCustomResourceDefinition' || c.source === 'TestValidateCustomResourceDefinitionUpdate');

/**
 * Repairs of the converted table, each with its reason: the JSON conversion dropped zero values
 * that upstream's Go literals set explicitly.
 */
const fixups: Record<string, { why: string; apply(c: Case): void }> = {
  'webhookconfig: blank URL': {
    why: 'upstream sets WebhookClientConfig.URL to ptr.To(""); the conversion omitted the empty string',
    apply: (c) => {
      c.crd.spec!.conversion!.webhookClientConfig!.url = '';
    },
  },
};

/** Cases skipped, each with its reason (none today; the mechanism stays for the next table). */
const skips: Record<string, string> = {};

/** TestValidateCustomResourceDefinition duplicates v1beta1 defaulting before validating. */
function duplicateDefaulting(c: Case): void {
  const conv = c.crd.spec?.conversion;
  if (c.source === 'TestValidateCustomResourceDefinition' && conv && conv.strategy === 'Webhook' && !conv.conversionReviewVersions?.length) {
    conv.conversionReviewVersions = ['v1beta1'];
  }
}

test('crd-validation.json: CRD object validation', () => {
  let passed = 0;
  const failures: string[] = [];
  const skipped: string[] = [];
  for (const c of cases) {
    if (skips[c.name] !== undefined) {
      skipped.push(`${c.name}: ${skips[c.name]}`);
      continue;
    }
    fixups[c.name]?.apply(c);
    duplicateDefaulting(c);
    const got = c.oldCRD ? validateCRDUpdate(c.crd, c.oldCRD) : validateCRD(c.crd);
    const m = mismatch(got, c.expectErrorDetails);
    if (m === undefined) passed++;
    else failures.push(`${c.source} / ${c.name}:\n${m}`);
  }
  console.log(`crd-validation.json (CRD objects): ${passed} passed, ${failures.length} failed, ${skipped.length} skipped`);
  for (const s of skipped) console.log(`  skipped: ${s}`);
  assert.deepEqual(failures, []);
});
