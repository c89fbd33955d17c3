import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  customResourceFieldLabels,
  escapeValue,
  fieldRequiresExactMatch,
  fieldSelectorString,
  fieldsMatch,
  parseFieldSelector,
  unescapeValue,
  nothing,
} from './selector.ts';

const valid: Array<[string, string]> = [
  ['', ''],
  ['metadata.name=x', 'metadata.name=x'],
  ['metadata.name==x', 'metadata.name=x'],
  ['metadata.name!=x', 'metadata.name!=x'],
  ['b=1,a=2', 'a=2,b=1'],
  ['a=,', 'a='],
  ['a=x\\,y\\=z\\\\', 'a=x\\,y\\=z\\\\'],
  ['a=b\\=c', 'a=b\\=c'],
];
for (const [sel, want] of valid) {
  test(`parse ok: ${JSON.stringify(sel)}`, () => assert.equal(fieldSelectorString(parseFieldSelector(sel)), want));
}

const invalid: Array<[string, string]> = [
  ['a', "invalid selector: 'a'; can't understand 'a'"],
  ['a=1,b', "invalid selector: 'a=1,b'; can't understand 'b'"],
  ['a=b=c', 'invalid field selector: unescaped character in value: 61'],
  ['a=\\x', 'invalid field selector: invalid escape sequence: \\x'],
  ['a=x\\', 'invalid field selector: invalid escape sequence: \\'],
  ['x!==y', 'invalid field selector: unescaped character in value: 61'],
];
for (const [sel, want] of invalid) {
  test(`parse error: ${JSON.stringify(sel)}`, () => assert.throws(() => parseFieldSelector(sel), { message: want }));
}

test('escape round trip', () => {
  for (const v of ['plain', 'a,b', 'a=b', 'a\\b', '\\,=']) assert.equal(unescapeValue(escapeValue(v)), v);
});

test('matching and exact match', () => {
  const f = { 'metadata.name': 'x', 'metadata.namespace': 'ns' };
  assert.equal(fieldsMatch(parseFieldSelector('metadata.name=x'), f), true);
  assert.equal(fieldsMatch(parseFieldSelector('metadata.name=x,metadata.namespace!=ns'), f), false);
  assert.equal(fieldsMatch(parseFieldSelector('spec.x='), f), true);
  assert.equal(fieldsMatch(parseFieldSelector('spec.x!=a'), f), true);
  assert.equal(fieldsMatch(parseFieldSelector(''), f), true);
  assert.equal(fieldsMatch(nothing(), f), false);
  assert.equal(fieldRequiresExactMatch(parseFieldSelector('metadata.name==x'), 'metadata.name'), 'x');
  assert.equal(fieldRequiresExactMatch(parseFieldSelector('metadata.name!=x'), 'metadata.name'), undefined);
});

test('custom resource field labels', () => {
  const ns = customResourceFieldLabels(false, ['spec.color']);
  assert.equal(fieldSelectorString(parseFieldSelector('metadata.namespace=a,spec.color=red', ns)), 'metadata.namespace=a,spec.color=red');
  assert.throws(() => parseFieldSelector('spec.size=1', ns), { message: 'field label not supported: spec.size' });
  assert.throws(() => parseFieldSelector('metadata.namespace=a', customResourceFieldLabels(true)), {
    message: 'field label not supported: metadata.namespace',
  });
});

// From k8s.io/apimachinery pkg/fields/selector_test.go.
test('upstream TestSelectorParse, TestEscapeValue, TestSelectorMatches', () => {
  for (const s of ['x=a,y=b,z=c', '', 'x!=a,y=b', 'x=a||y\\=b', 'x=a\\=\\=b']) {
    assert.equal(fieldSelectorString(parseFieldSelector(s)), s, s);
  }
  for (const s of ['x=a||y=b', 'x==a==b', 'x=a,b', 'x in (a)', 'x in (a,b,c)', 'x']) assert.throws(() => parseFieldSelector(s), s);
  assert.equal(fieldSelectorString(parseFieldSelector('x=a,a=x')), fieldSelectorString(parseFieldSelector('a=x,x=a')));
  const esc: Array<[string, string]> = [
    ['', ''],
    ['a', 'a'],
    ['=', '\\='],
    [',', '\\,'],
    ['\\', '\\\\'],
    ['\\=\\,\\', '\\\\\\=\\\\\\,\\\\'],
  ];
  for (const [raw, escaped] of esc) {
    assert.equal(escapeValue(raw), escaped);
    assert.equal(unescapeValue(escaped), raw);
  }
  for (const bad of ['\\', '\\\\\\', '\\a']) assert.throws(() => unescapeValue(bad), /invalid escape sequence/);
  const yes: Array<[string, Record<string, string>]> = [
    ['', { x: 'y' }],
    ['x=y', { x: 'y' }],
    ['x=y,z=w', { x: 'y', z: 'w' }],
    ['x!=y,z!=w', { x: 'z', z: 'a' }],
    ['notin=in', { notin: 'in' }],
  ];
  const no: Array<[string, Record<string, string>]> = [
    ['x=y', { x: 'z' }],
    ['x=y,z=w', { x: 'w', z: 'w' }],
    ['x!=y,z!=w', { x: 'z', z: 'w' }],
  ];
  for (const [s, f] of yes) assert.equal(fieldsMatch(parseFieldSelector(s), f), true, s);
  for (const [s, f] of no) assert.equal(fieldsMatch(parseFieldSelector(s), f), false, s);
  // Multi-byte terms split and match.
  assert.equal(fieldSelectorString(parseFieldSelector('함=수,목=록')), '목=록,함=수');
});
