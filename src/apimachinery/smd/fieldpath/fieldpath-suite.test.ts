/**
 * structured-merge-diff's fieldpath tests as data (testdata/smd/fieldpath.json): FieldsV1
 * serialization byte for byte, parsing (and its failures), path element round trips and how they
 * print, and the set algebra.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { deserializeElement, elementString, serializeElement } from './element.ts';
import { setFromJSON, setToJSON } from './serialize.ts';
import { loadVectors, runVectors, setOfPaths, Tally } from '../vectors.ts';
import type { FieldSet } from './set.ts';

interface Case {
  kind: string;
  where: string;
  input?: string;
  json?: string;
  paths?: string[][];
  error?: string | null;
  serialized?: string;
  string?: string;
  lhs?: string[][];
  rhs?: string[][] | null;
  out?: string[][];
}

const { cases } = loadVectors<{ cases: Case[] }>('fieldpath.json');
const tally = new Tally('smd fieldpath');

/** Skips: key is the case's input. */
const skip: Record<string, string> = {
  'k:{"jsonField":{"A":1,"B":null,"C":"D","E":{"F":"G"}}}':
    "value.ToString prints a map in Go's map iteration order, which is random; recorded once upstream, printed sorted here",
};

const pathsOf = (s: FieldSet) => s.paths().map((p) => p.map(serializeElement));

function run(c: Case): void {
  switch (c.kind) {
    case 'toJSON':
      assert.equal(setToJSON(setOfPaths(c.paths!)), c.json);
      return;
    case 'fromJSON':
      if (c.error !== null && c.error !== undefined) {
        assert.throws(() => setFromJSON(c.input!), Error, `expected an error like ${c.error}`);
        return;
      }
      {
        const s = setFromJSON(c.input!);
        assert.equal(setToJSON(s), c.json);
        assert.deepEqual(pathsOf(s), c.paths);
      }
      return;
    case 'deserializePathElement':
      if (c.error !== null && c.error !== undefined) {
        assert.throws(() => deserializeElement(c.input!));
        return;
      }
      {
        const pe = deserializeElement(c.input!);
        assert.equal(serializeElement(pe), c.serialized);
        assert.equal(elementString(pe), c.string);
      }
      return;
    case 'union':
    case 'intersection':
    case 'difference':
    case 'recursiveDifference': {
      const l = setOfPaths(c.lhs!);
      const r = setOfPaths(c.rhs!);
      assert.deepEqual(pathsOf(l[c.kind](r)), c.out);
      return;
    }
    case 'leaves':
      assert.deepEqual(pathsOf(setOfPaths(c.lhs!).leaves()), c.out);
      return;
    default:
      throw new Error(`unknown case kind ${c.kind}`);
  }
}

test('structured-merge-diff fieldpath vectors', () => {
  runVectors(tally, cases, {
    min: 170,
    name: (c, i) => `#${i} ${c.kind} ${c.where} ${JSON.stringify(c.input ?? c.paths ?? c.lhs).slice(0, 200)}`,
    skip: (c) => (c.input !== undefined ? skip[c.input] : undefined),
    run,
  });
});
