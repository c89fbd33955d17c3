/**
 * Plain scalars as go-yaml v2 resolves them (and so as kubectl sends them), including the cases the
 * `yaml` package's YAML 1.1 schema reads differently: `.` is a string, `12:30` and `1:20:30` are
 * strings (no sexagesimal numbers), `0o17` is an integer.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readYAML } from './index.ts';
import { formatFloat32 } from './gofmt.ts';

const scalars: [string, unknown][] = [
  ['.', '.'],
  ['12:30', '12:30'],
  ['1:20:30', '1:20:30'],
  ['190:20:30.15', '190:20:30.15'],
  ['0o17', 15],
  ['0O17', 15],
  ['017', 15],
  ['08', 8],
  ['0x1F', 31],
  ['0b_101', 5],
  ['+0x10', 16],
  ['-0o10', -8],
  ['1_000_000', 1000000],
  ['_1', '_1'],
  ['0x', '0x'],
  ['0b2', '0b2'],
  ['1e3', 1000],
  ['1E-2', 0.01],
  ['1.', 1],
  ['1e400', '1e400'],
  ['.5e400', '.5e400'],
  ['.e5', '.e5'],
  ['-0', 0],
  ['9223372036854775807', 9223372036854775807],
  ['18446744073709551615', 18446744073709551615],
  ['18446744073709551616', 18446744073709551616],
  ['.inf', 'error: json: unsupported value: +Inf'],
  ['-.Inf', 'error: json: unsupported value: -Inf'],
  ['.NaN', 'error: json: unsupported value: NaN'],
  ['.Nan', '.Nan'],
  ['yes', true],
  ['Off', false],
  ['y', true],
  ['NO', false],
  ['TRUE', true],
  ['tRUE', 'tRUE'],
  ['~', null],
  ['Null', null],
  ['NULL', null],
  ['nULL', 'nULL'],
  ['2001-12-14', '2001-12-14'],
  ['2001-12-14t21:59:43.10-05:00', '2001-12-14t21:59:43.10-05:00'],
  ['<<', '<<'],
  ['0.1.2', '0.1.2'],
  ['1_0.5', 10.5],
  ['+.5', 0.5],
  ['-', 'error: *'],
];

for (const [text, want] of scalars) {
  test(`plain scalar ${JSON.stringify(text)}`, () => {
    const y = `v: ${text}\n`;
    if (typeof want === 'string' && want.startsWith('error: ')) {
      const msg = want.slice('error: '.length);
      assert.throws(() => readYAML(y), (e: Error) => msg === '*' || e.message === msg);
      return;
    }
    assert.deepEqual(readYAML(y).value, { v: want });
  });
}

test('-0.0 is a float64 negative zero, -0 an int zero', () => {
  assert.ok(Object.is((readYAML('v: -0.0').value as { v: number }).v, -0));
  assert.ok(Object.is((readYAML('v: -0').value as { v: number }).v, 0));
});

test('explicit tags: resolvable ones check the text, others keep it', () => {
  const ok: [string, unknown][] = [
    ['!!str 12', '12'],
    ['!!int "12"', 12],
    ['!!float 1', 1],
    ['!!bool yes', true],
    ['!!null ""', null],
    ['!foo 12', '12'],
    ['! 12', '12'],
    ['!!timestamp 2001-01-01', '2001-01-01'],
    ['!!binary aGVsbG8=', 'hello'],
    ['!!binary "aGVs\\nbG8="', 'hello'],
    ['!!binary /w==', '\ufffd'],
    ['!!binary 4oI=', '\ufffd\ufffd'],
  ];
  for (const [text, want] of ok) assert.deepEqual(readYAML(`v: ${text}`).value, { v: want }, text);
  const bad: [string, string][] = [
    ['!!int foo', 'yaml: cannot decode !!str `foo` as a !!int'],
    ['!!int 1.5', 'yaml: cannot decode !!float `1.5` as a !!int'],
    ['!!float 18446744073709551615', 'yaml: cannot decode !!int `18446744073709551615` as a !!float'],
    ['!!null foo', 'yaml: cannot decode !!str `foo` as a !!null'],
    ['!!int ""', 'yaml: cannot decode !!null `` as a !!int'],
    ['!!timestamp 2001-02-30', 'yaml: cannot decode !!str `2001-02-30` as a !!timestamp'],
    ['!!binary a', 'yaml: !!binary value contains invalid base64 data'],
  ];
  for (const [text, msg] of bad) assert.throws(() => readYAML(`v: ${text}`), { message: msg }, text);
});

test('keys become strings as sigs.k8s.io/yaml converts them; a null or uint64 key is an error', () => {
  assert.deepEqual(readYAML('1: a\n0x10: b\n1.5: c\n1e6: d\n0.1234567891: e\ntrue: f\n.inf: g\n-.inf: h\n.nan: i\n').value, {
    1: 'a',
    16: 'b',
    '1.5': 'c',
    '1e+06': 'd',
    '0.12345679': 'e',
    true: 'f',
    '.inf': 'g',
    '-.inf': 'h',
    '.nan': 'i',
  });
  assert.throws(() => readYAML('18446744073709551615: a\n'), {
    message: 'unsupported map key of type: uint64, key: 0xffffffffffffffff, value: "a"',
  });
  assert.equal(formatFloat32(1e39), '+Inf');
  assert.equal(formatFloat32(16777217), '1.6777216e+07');
});

test('keys of different Go types are different keys; equal ones are duplicates', () => {
  assert.deepEqual(readYAML('yes: a\ntrue: b\n').duplicates.map((d) => d.message), ['line 2: key true already set in map']);
  assert.deepEqual(readYAML('1: a\n"1": b\n').duplicates, []);
  assert.deepEqual(readYAML('0x1: a\n1: b\n').duplicates.map((d) => d.message), ['line 2: key 1 already set in map']);
});

test('merges: later entries override earlier ones in document order, and an explicit key over a merged one is a duplicate', () => {
  const d = readYAML('base: &b {a: 1, b: 2}\nm:\n  a: 0\n  <<: *b\n  c: 3\n');
  assert.deepEqual(d.value, { base: { a: 1, b: 2 }, m: { a: 1, b: 2, c: 3 } });
  assert.deepEqual(d.duplicates.map((x) => x.message), ['line 1: key "a" already set in map']);
  assert.deepEqual(readYAML('m:\n  <<: {a: 1}\n  a: 2\n').duplicates.map((x) => x.message), ['line 3: key "a" already set in map']);
  assert.deepEqual(readYAML('m:\n  "<<": {a: 1}\n').value, { m: { '<<': { a: 1 } } });
  assert.throws(() => readYAML('m:\n  <<: [a]\n'), { message: 'yaml: map merge requires map or sequence of maps as the value' });
});

test('a __proto__ key is an own key, as JSON.parse makes it', () => {
  const v = readYAML('__proto__: {polluted: true}\n').value as Record<string, unknown>;
  assert.deepEqual(Object.keys(v), ['__proto__']);
  assert.equal(({} as Record<string, unknown>).polluted, undefined);
});

test('object keys come in Go sorted order', () => {
  assert.deepEqual(Object.keys(readYAML('b: 1\na: 2\nZ: 3\n').value as object), ['Z', 'a', 'b']);
});
