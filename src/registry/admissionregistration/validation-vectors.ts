/**
 * The runner of the admissionregistration validation vectors (testdata/k8s/admissionregistration/,
 * converted from upstream's validation_test.go), shared by the policy and webhook configuration
 * tests: each case goes to its kind's validator, an empty expectedError means no error, any other
 * must be a substring of the aggregated errors; every skip must give its reason, and the counts are
 * printed. Used by tests only.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { aggregateString, nameIsDNSSubdomain, type FieldError } from '../../apimachinery/index.ts';
import { validateObjectMetaWith } from '../objectmeta-checks.ts';
import type { Obj } from '../rest.ts';

export type Validator = (obj: Obj, old?: Obj) => FieldError[];

interface Case {
  kind: string;
  name: string;
  object: Obj;
  oldObject?: Obj;
  expectedError: string;
}

/** As the upstream tests call them: ObjectMeta first (cluster-scoped, a DNS subdomain name), then the kind's own rules. */
export const withObjectMeta =
  (rules: Validator): Validator =>
  (o, old) => [...validateObjectMetaWith(o, false, nameIsDNSSubdomain), ...rules(o, old)];

/** Runs `file`'s cases (at least `minCases`) through `validators` by kind; `label` names the suite in what it prints. */
export function runValidationVectors(file: string, label: string, minCases: number, validators: Readonly<Record<string, Validator>>): void {
  const vectors = JSON.parse(readFileSync(new URL(`../../../testdata/k8s/admissionregistration/${file}`, import.meta.url), 'utf8')) as {
    count: number;
    cases: Case[];
    skipped: { kind: string; name: string; reason: string }[];
  };
  assert.ok(vectors.cases.length >= minCases, `only ${vectors.cases.length} cases`);
  assert.equal(vectors.count, vectors.cases.length);
  const failures: string[] = [];
  for (const c of vectors.cases) {
    const validate = validators[c.kind];
    assert.ok(validate, `no validator for ${c.kind}`);
    const errs = validate(structuredClone(c.object), c.oldObject && structuredClone(c.oldObject));
    const got = errs.length === 0 ? '' : aggregateString(errs);
    const ok = c.expectedError === '' ? errs.length === 0 : got.includes(c.expectedError);
    if (!ok) failures.push(`${c.kind} "${c.name}":\n  want ${JSON.stringify(c.expectedError)}\n  got  ${JSON.stringify(got)}`);
  }
  for (const s of vectors.skipped) assert.ok(s.reason.length > 0, `${s.kind} "${s.name}" is skipped without a reason`);
  console.log(`${label}: ${vectors.cases.length - failures.length} passed, ${failures.length} failed, ${vectors.skipped.length} skipped`);
  for (const s of vectors.skipped) console.log(`  skipped ${s.kind} "${s.name}": ${s.reason}`);
  assert.deepEqual(failures, []);
}
