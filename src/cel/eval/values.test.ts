/**
 * Runtime values: the spec's numeric equality and ordering across int/uint/double, map keys,
 * formatting of doubles, timestamps and durations as cel-go prints them, time parsing and zones,
 * and the JSON conversions used by the CLI and the schema layer.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseJSONToCel } from './json.ts';
import { civil, parseDuration, parseTimestamp } from './time.ts';
import {
  CelError,
  CelMap,
  Duration,
  Timestamp,
  Uint,
  checkInt,
  checkUint,
  codePointLength,
  compare,
  compareStrings,
  equals,
  formatDouble,
  formatDuration,
  formatTimestamp,
  fromJSON,
  toJSON,
  typeName,
  type Val,
} from './values.ts';

test('numeric equality across int, uint and double', () => {
  assert.equal(equals(1n, new Uint(1n)), true);
  assert.equal(equals(1n, 1.0), true);
  assert.equal(equals(new Uint(2n), 2.0), true);
  assert.equal(equals(1n, 1.5), false);
  assert.equal(equals(NaN, NaN), false);
  assert.equal(equals(1n, '1'), false);
  assert.equal(equals([1n, 2.0], [1.0, new Uint(2n)]), true);
  assert.equal(equals(null, null), true);
  assert.equal(equals(new Uint8Array([1]), new Uint8Array([1])), true);
});

test('a list behaviour gives marked lists their own equality, membership and +', async () => {
  const { withListBehavior, equality, listContains } = await import('./values.ts');
  const { Env } = await import('../index.ts');
  const { listOf, IntType } = await import('../check/types.ts');
  const asSet = {
    equal: (x: readonly Val[], y: readonly Val[]) => (y.some((e) => Array.isArray(e)) ? new CelError('scalars only') : x.every((e) => y.some((f) => equals(e, f)))),
    add: (x: readonly Val[], y: readonly Val[]): Val => withListBehavior([...x, ...y.filter((e) => !x.some((f) => equals(e, f)))], asSet),
  };
  const a = withListBehavior([1n, 2n], asSet);
  assert.equal(equality(a, [2n, 1n]), true);
  assert.equal(equals(a, [2n, 1n]), true);
  assert.equal(equality([1n, 2n], [2n, 1n]), false, 'unmarked lists stay ordered');
  assert.equal(equality([2n, 1n], a), false, 'the left operand decides');
  assert.ok(equality(a, [[1n], 2n]) instanceof CelError);
  assert.equal(listContains([[2n, 1n]], a), true, 'membership compares with the searched value\'s semantics');
  const env = new Env({ variables: { s: listOf(IntType) } });
  const run = (src: string) => {
    const c = env.compile(src);
    assert.ok(c.program, src);
    const r = c.program.eval({ s: a });
    return r.error ?? r.value;
  };
  assert.equal(run('s == [2, 1]'), true);
  assert.equal(run('s != [2, 1]'), false);
  assert.equal(run('s in [[2, 1]]'), true);
  assert.deepEqual(run('s + [2, 3]'), [1n, 2n, 3n]);
  assert.ok(run('s == [[1], 2]') instanceof CelError);
});

test('ordering follows cel-go compare.go, NaN cannot be ordered', () => {
  assert.equal(compare(-1n, new Uint(0n)), -1);
  assert.equal(compare(new Uint(2n ** 63n), 9223372036854775807n), 1);
  assert.equal(compare(1n, 1.5), -1);
  assert.equal(compare(9223372036854775807n, 9223372036854775807.0), 0, 'lossy int -> double, as cel-go');
  assert.equal(compare(1n, 1e30), -1);
  assert.equal((compare(NaN, 1n) as CelError).message, 'NaN values cannot be ordered');
  assert.equal((compare('a', 1n) as CelError).message, 'no such overload');
  assert.equal(compare(true, false), 1);
  assert.equal(compareStrings('\u{1F600}', '\uFFFF'), 1, 'code point order, not UTF-16 order');
});

test('int and uint overflow are errors', () => {
  assert.equal((checkInt(2n ** 63n) as CelError).message, 'integer overflow');
  assert.equal(checkInt(-(2n ** 63n)), -(2n ** 63n));
  assert.equal((checkUint(-1n) as CelError).message, 'unsigned integer overflow');
});

test('maps: numeric keys are one key space; duplicates are errors', () => {
  const m = new CelMap();
  assert.equal(m.set(1n, 'a'), undefined);
  assert.equal(m.get(new Uint(1n)), 'a');
  assert.equal(m.get(1.0), 'a');
  assert.equal(m.get(1.5), undefined);
  assert.equal(m.set(new Uint(1n), 'b')?.message, 'Failed with repeated key: 1');
  assert.match(m.set(1.5, 'c')!.message, /unsupported key type/);
  const u = new CelMap();
  u.set(new Uint(3n), 'x');
  assert.ok(u.keys()[0] instanceof Uint, 'uint keys keep their type');
});

test('doubles print as Go %g', () => {
  const cases: [number, string][] = [
    [1.5, '1.5'],
    [123.456, '123.456'],
    [-0.0045, '-0.0045'],
    [1e6, '1e+06'],
    [123456, '123456'],
    [1e-5, '1e-05'],
    [1e100, '1e+100'],
    [Infinity, '+Inf'],
    [0, '0'],
  ];
  for (const [d, s] of cases) assert.equal(formatDouble(d), s, String(d));
});

test('timestamps and durations parse and print as cel-go', () => {
  const t = parseTimestamp('2009-02-13T23:31:30.120Z') as Timestamp;
  assert.equal(formatTimestamp(t), '2009-02-13T23:31:30.12Z');
  assert.equal((parseTimestamp('10000-01-01T00:00:00Z') as CelError).constructor, CelError);
  assert.equal(formatTimestamp(parseTimestamp('0001-01-01T00:00:00Z') as Timestamp), '0001-01-01T00:00:00Z');
  assert.equal(formatDuration(parseDuration('1h2m3s') as Duration), '3723s');
  assert.equal(formatDuration(parseDuration('-1.5s') as Duration), '-1.5s');
  assert.equal(formatDuration(parseDuration('300ms') as Duration), '0.3s');
  assert.ok(parseDuration('1x') instanceof CelError);
  assert.ok(parseDuration('3000000h') instanceof CelError, 'beyond int64 nanoseconds');
});

test('timestamps keep the offset they were written with, as Go and cel-go do', () => {
  const t = parseTimestamp('2011-08-18T19:03:37.01+01:00') as Timestamp;
  assert.equal(formatTimestamp(t), '2011-08-18T19:03:37.01+01:00');
  assert.equal(formatTimestamp(t, true), '2011-08-18T18:03:37.01Z');
  assert.equal((civil(t) as Exclude<ReturnType<typeof civil>, CelError>).hours, 19);
  assert.equal((civil(t, 'UTC') as Exclude<ReturnType<typeof civil>, CelError>).hours, 18);
  assert.equal(equals(t, parseTimestamp('2011-08-18T18:03:37.01Z')), true);
  assert.equal(formatTimestamp(parseTimestamp('2011-08-18T19:03:37-05:30') as Timestamp), '2011-08-18T19:03:37-05:30');
});

test('calendar fields in UTC, IANA zones and fixed offsets', () => {
  const t = parseTimestamp('2023-01-01T02:30:00Z') as Timestamp;
  const utc = civil(t) as Exclude<ReturnType<typeof civil>, CelError>;
  assert.deepEqual([utc.year, utc.month, utc.day, utc.hours, utc.dayOfYear, utc.dayOfWeek], [2023, 0, 1, 2, 0, 0]);
  const ny = civil(t, 'America/New_York') as typeof utc;
  assert.deepEqual([ny.year, ny.month, ny.day, ny.hours], [2022, 11, 31, 21]);
  const plus = civil(t, '+05:30') as typeof utc;
  assert.deepEqual([plus.hours, plus.minutes], [8, 0]);
  assert.ok(civil(t, 'Nowhere/City') instanceof CelError);
});

test('JSON conversions', () => {
  const v = fromJSON({ a: 1, b: 1.5, c: [true, null], d: 'x' }) as CelMap;
  assert.equal(v.get('a'), 1n);
  assert.equal(v.get('b'), 1.5);
  assert.equal(typeName(v), 'map');
  assert.deepEqual(toJSON(v), { a: 1, b: 1.5, c: [true, null], d: 'x' });
  assert.equal(toJSON(2n ** 60n), '1152921504606846976');
  assert.equal(toJSON(new Uint8Array([104, 105])), 'aGk=');
  const p = parseJSONToCel('{"big": 9223372036854775807, "f": 2.0, "g": 2.5, "s": "\\u00e9"}') as CelMap;
  assert.equal(p.get('big'), 9223372036854775807n);
  assert.equal(p.get('f'), 2n, 'integral numbers are int');
  assert.equal(p.get('g'), 2.5);
  assert.equal(p.get('s'), 'é');
  assert.throws(() => parseJSONToCel('{"a": }'));
  const typed = fromJSON({ spec: { replicas: 3, ratio: 1, list: [1, 2] } }, {
    numberKind: (path) => (path[1] === 'ratio' || path[1] === 'list' ? 'double' : undefined),
  }) as CelMap;
  const spec = typed.get('spec') as CelMap;
  assert.equal(spec.get('replicas'), 3n);
  assert.equal(spec.get('ratio'), 1);
  assert.deepEqual(spec.get('list'), [1, 2]);
});

test('strings count code points', () => {
  assert.equal(codePointLength('a\u{1F600}b'), 3);
});
