/**
 * Test support for Kubernetes' tables in testdata/k8s: loads a vector file with Go's number
 * semantics (gojson.ts) and keeps the passed/failed/skipped tally each suite prints.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseGoJSON, type GoJSONOptions } from './gojson.ts';

export interface VectorFile<C> {
  description: string;
  conventions: Record<string, unknown>;
  cases: C[];
}

const root = fileURLToPath(new URL('../../testdata/k8s/', import.meta.url));

/** Read testdata/k8s/<name>. */
export function loadVectors<C>(name: string, opts?: GoJSONOptions): VectorFile<C> {
  return parseGoJSON(readFileSync(root + name, 'utf8'), opts) as VectorFile<C>;
}

/** A passed/failed/skipped tally, printed once at the end of a suite. */
export class Tally {
  passed = 0;
  failed = 0;
  readonly skipped: { name: string; why: string }[] = [];
  constructor(readonly suite: string) {}
  skip(name: string, why: string): void {
    this.skipped.push({ name, why });
  }
  summary(): string {
    const reasons = new Map<string, number>();
    for (const s of this.skipped) reasons.set(s.why, (reasons.get(s.why) ?? 0) + 1);
    let out = `${this.suite}: ${this.passed} passed, ${this.failed} failed, ${this.skipped.length} skipped`;
    for (const [why, n] of reasons) out += `\n  skipped ${n}: ${why}`;
    return out;
  }
}
