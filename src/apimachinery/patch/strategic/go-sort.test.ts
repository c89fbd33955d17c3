/**
 * sliceStable is Go's stable sort: with a proper ordering it must sort stably at every size
 * (insertion-sorted blocks of 20, then SymMerge rounds), and with upstream's improper "absent items
 * are less" ordering it must give Go's answer.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sliceStable } from './go-sort.ts';

test('sorts stably at sizes around the block boundaries', () => {
  let seed = 7;
  const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % 10;
  for (const n of [0, 1, 2, 19, 20, 21, 39, 40, 41, 63, 100, 257]) {
    const xs = Array.from({ length: n }, (_, i) => ({ k: rand(), i }));
    const want = [...xs].sort((a, b) => a.k - b.k);
    sliceStable(xs, (a, b) => a.k < b.k);
    assert.deepEqual(xs, want, `n=${n}`);
  }
});

test('upstream ordering: items missing from the order list move in front as Go moves them', () => {
  // normalizeSliceOrder's less: both in order -> by position; otherwise true.
  const order = ['a', 'b', 'c'];
  const xs = ['c', 'x', 'a', 'y', 'b'];
  sliceStable(xs, (p, q) => {
    const i = order.indexOf(p);
    const j = order.indexOf(q);
    return i >= 0 && j >= 0 ? i < j : true;
  });
  // Go's insertion sort: x passes c; a passes c and x; y passes c, x and a; b passes c and x, not a.
  assert.deepEqual(xs, ['y', 'a', 'b', 'x', 'c']);
});
