/**
 * Test support for structured-merge-diff's own tests, converted to JSON under testdata/smd (see
 * its README): loading a vector file, building field sets from its path lists, and a
 * passed/failed/skipped tally that every suite prints with its skip reasons.
 */
import { readFileSync } from 'node:fs';
import { deserializeElement, type Path } from './fieldpath/element.ts';
import { FieldSet } from './fieldpath/set.ts';
import { setFromJSON } from './fieldpath/serialize.ts';

export function loadVectors<T>(name: string): T {
  return JSON.parse(readFileSync(new URL(`../../../testdata/smd/${name}`, import.meta.url), 'utf8')) as T;
}

/** A set from a list of paths, each a list of serialized path elements (`f:spec`). */
export function setOfPaths(paths: readonly (readonly string[])[]): FieldSet {
  return FieldSet.of(...paths.map((p): Path => p.map(deserializeElement)));
}

/** A set from its FieldsV1 text; the empty string stands for no set. */
export function setOfJSON(text: string | null | undefined): FieldSet {
  return text === null || text === undefined || text === '' ? new FieldSet() : setFromJSON(text);
}

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
