/**
 * Test support for structured-merge-diff's own tests, converted to JSON under testdata/smd (see
 * its README): loading a vector file, building field sets from its path lists, and a
 * passed/failed/skipped tally that every suite prints with its skip reasons.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { deserializeElement, type Path } from './fieldpath/element.ts';
import { FieldSet } from './fieldpath/set.ts';
import { setFromJSON } from './fieldpath/serialize.ts';
import { Tally } from '../tally.ts';

export { Tally };

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


export interface VectorRun<C> {
  /** The fewest cases the file must hold (a truncated file fails). */
  min: number;
  /** How a failure names its case. */
  name: (c: C, i: number) => string;
  /** The reason a case is skipped, if it is. */
  skip?: (c: C) => string | undefined;
  /** Throws when the case fails. */
  run: (c: C) => void;
}

/** Runs every case, prints the tally with its skip reasons and the first failures, and asserts none failed. */
export function runVectors<C>(tally: Tally, cases: readonly C[], r: VectorRun<C>): void {
  assert.ok(cases.length >= r.min, `expected at least ${r.min} cases, found ${cases.length}`);
  const failures: string[] = [];
  cases.forEach((c, i) => {
    const why = r.skip?.(c);
    if (why !== undefined) {
      tally.skip(r.name(c, i), why);
      return;
    }
    try {
      r.run(c);
      tally.passed++;
    } catch (e) {
      tally.failed++;
      failures.push(`${r.name(c, i)}: ${(e as Error).message.slice(0, 700)}`);
    }
  });
  console.log(tally.summary());
  if (failures.length > 0) console.log(failures.slice(0, 30).join('\n---\n'));
  assert.deepEqual(failures, []);
}

