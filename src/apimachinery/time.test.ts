import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatRFC3339, parseRFC3339 } from './time.ts';

test('formatRFC3339 prints whole seconds in UTC', () => {
  assert.equal(formatRFC3339(Date.UTC(2026, 0, 2, 15, 4, 5, 999)), '2026-01-02T15:04:05Z');
  assert.equal(formatRFC3339(new Date('2020-02-29T23:59:59.5+01:00')), '2020-02-29T22:59:59Z');
});

test('parseRFC3339 accepts what Go accepts', () => {
  const ok = (s: string, iso: string) => {
    const r = parseRFC3339(s);
    assert.ok(r.ok, s);
    if (r.ok) assert.equal(new Date(r.epochMs).toISOString(), iso);
  };
  ok('2026-01-02T15:04:05Z', '2026-01-02T15:04:05.000Z');
  ok('2026-01-02T15:04:05.123456789Z', '2026-01-02T15:04:05.123Z');
  ok('2026-01-02T15:04:05+02:00', '2026-01-02T13:04:05.000Z');
  ok('2024-02-29T00:00:00Z', '2024-02-29T00:00:00.000Z');
  ok('0050-01-01T00:00:00Z', '0050-01-01T00:00:00.000Z');
});

test('parseRFC3339 reports Go time.ParseError texts', () => {
  const table: Array<[string, string]> = [
    ['x', 'parsing time "x" as "2006-01-02T15:04:05Z07:00": cannot parse "x" as "2006"'],
    ['2026-1-02T15:04:05Z', 'parsing time "2026-1-02T15:04:05Z" as "2006-01-02T15:04:05Z07:00": cannot parse "1-02T15:04:05Z" as "01"'],
    ['2026-13-02T15:04:05Z', 'parsing time "2026-13-02T15:04:05Z": month out of range'],
    ['2026-02-30T15:04:05Z', 'parsing time "2026-02-30T15:04:05Z": day out of range'],
    ['2026-01-02 15:04:05Z', 'parsing time "2026-01-02 15:04:05Z" as "2006-01-02T15:04:05Z07:00": cannot parse " 15:04:05Z" as "T"'],
    ['2026-01-02T15:04:05', 'parsing time "2026-01-02T15:04:05" as "2006-01-02T15:04:05Z07:00": cannot parse "" as "Z07:00"'],
    ['2026-01-02T15:04:05Zjunk', 'parsing time "2026-01-02T15:04:05Zjunk": extra text: "junk"'],
    ['2026-01-02T15:04:05+25:00', 'parsing time "2026-01-02T15:04:05+25:00": time zone offset hour out of range'],
    ['2026-01-02T25:04:05Z', 'parsing time "2026-01-02T25:04:05Z": hour out of range'],
  ];
  for (const [s, want] of table) {
    const r = parseRFC3339(s);
    assert.equal(r.ok, false, s);
    if (!r.ok) assert.equal(r.error, want);
  }
});
