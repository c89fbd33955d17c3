// SortedKeys against a plain sorted array under random inserts, overwrites and deletes, across
// chunk splits and emptied chunks: every position, range bound and lookup must agree.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SortedKeys } from './sorted-keys.ts';
import type { KeyValue } from '../store.ts';

function kv(key: string, v: number): KeyValue {
  return { key, value: String(v), createRevision: v, modRevision: v } as unknown as KeyValue;
}

// A small deterministic generator, so that a failure repeats.
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32);
}

function lower(keys: string[], k: string): number {
  let i = 0;
  while (i < keys.length && keys[i]! < k) i++;
  return i;
}

function check(s: SortedKeys, model: Map<string, number>, random: () => number): void {
  const keys = [...model.keys()].sort();
  assert.equal(s.size, keys.length);
  for (let i = 0; i < keys.length; i += Math.max(1, Math.floor(keys.length / 200))) {
    assert.equal(s.keyAt(i), keys[i]);
    assert.equal(s.valueAt(i).modRevision, model.get(keys[i]!));
  }
  // Sequential reads from a random start, as a range walks them.
  const from = Math.floor(random() * keys.length);
  for (let i = from; i < Math.min(keys.length, from + 1500); i++) assert.equal(s.keyAt(i), keys[i]);
  for (let n = 0; n < 20; n++) {
    const probe = `k${Math.floor(random() * 5000).toString().padStart(4, '0')}${random() < 0.5 ? '' : 'x'}`;
    assert.equal(s.lowerBound(probe), lower(keys, probe), probe);
    assert.equal(s.get(probe)?.modRevision, model.get(probe));
  }
  assert.equal(s.endIndex(undefined), keys.length);
  assert.equal(s.lowerBound(''), 0);
  assert.equal(s.lowerBound('\uffff'), keys.length);
}

for (const [name, order] of [
  ['random keys', 'random'],
  ['ascending keys', 'ascending'],
  ['descending keys', 'descending'],
] as const) {
  test(`sorted keys agree with a sorted array: ${name}`, () => {
    const random = rng(name.length * 7919);
    const s = new SortedKeys();
    const model = new Map<string, number>();
    let rev = 0;
    let seq = 0;
    const next = (): string => {
      const n = order === 'random' ? Math.floor(random() * 5000) : order === 'ascending' ? seq++ : 4999 - (seq++ % 5000);
      return `k${n.toString().padStart(4, '0')}`;
    };
    for (let round = 0; round < 8; round++) {
      for (let i = 0; i < 1200; i++) {
        const k = next();
        s.set(kv(k, ++rev));
        model.set(k, rev);
      }
      check(s, model, random);
      // Delete about half, in random order, emptying whole chunks on the way.
      for (const k of [...model.keys()]) {
        if (random() < 0.55) {
          s.delete(k);
          model.delete(k);
        }
      }
      s.delete('absent');
      check(s, model, random);
      // And a contiguous run of keys, which empties whole chunks.
      const sorted = [...model.keys()].sort();
      const from = Math.floor(random() * sorted.length / 2);
      for (const k of sorted.slice(from, from + 1500)) {
        s.delete(k);
        model.delete(k);
      }
      check(s, model, random);
    }
    for (const k of [...model.keys()]) s.delete(k);
    assert.equal(s.size, 0);
    assert.equal(s.lowerBound('k'), 0);
    s.set(kv('a', 1));
    assert.equal(s.keyAt(0), 'a');
  });
}
