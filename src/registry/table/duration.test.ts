import { test } from 'node:test';
import assert from 'node:assert/strict';
import { humanAge, humanDuration } from './duration.ts';

const s = 1000;
const m = 60 * s;
const h = 60 * m;
const d = 24 * h;

test('humanDuration matches duration.HumanDuration', () => {
  const cases: Array<[number, string]> = [
    [-2 * s, '<invalid>'],
    [-1 * s + 1, '0s'],
    [0, '0s'],
    [59 * s, '59s'],
    [119 * s, '119s'],
    [2 * m, '2m'],
    [5 * m + 3 * s, '5m3s'],
    [10 * m + 3 * s, '10m'],
    [179 * m, '179m'],
    [3 * h, '3h'],
    [3 * h + 10 * m, '3h10m'],
    [8 * h + 10 * m, '8h'],
    [47 * h, '47h'],
    [2 * d, '2d'],
    [2 * d + 5 * h, '2d5h'],
    [8 * d + 5 * h, '8d'],
    [729 * d, '729d'],
    [730 * d, '2y'],
    [3 * 365 * d + 10 * d, '3y10d'],
    [9 * 365 * d + 10 * d, '9y'],
  ];
  for (const [ms, want] of cases) assert.equal(humanDuration(ms), want, String(ms));
});

test('humanAge handles unset timestamps', () => {
  assert.equal(humanAge(undefined, 0), '<unknown>');
  assert.equal(humanAge('2026-01-01T00:00:00Z', Date.parse('2026-01-01T00:05:00Z')), '5m');
});
