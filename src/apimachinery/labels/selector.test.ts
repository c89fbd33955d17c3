import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Path } from '../field/path.ts';
import { errorString } from '../field/errors.ts';
import {
  labelSelectorAsSelector,
  matches,
  parseSelector,
  requiresExactMatch,
  selectorFromSet,
  selectorString,
  validateLabelSelector,
  isEmpty,
} from './selector.ts';

const NAME_PART =
  "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
const LABEL_VALUE =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";

// [selector, canonical String() after parsing]
const valid: Array<[string, string]> = [
  ['', ''],
  ['x=a', 'x=a'],
  ['x==a', 'x==a'],
  ['x!=a', 'x!=a'],
  ['  x = a , y == b ', 'x=a,y==b'],
  ['y=b,x=a', 'x=a,y=b'],
  ['x in (b,a,a)', 'x in (a,b)'],
  ['x notin (a)', 'x notin (a)'],
  ['x in ()', 'x in ()'],
  ['x in (,a)', 'x in (,a)'],
  ['x', 'x'],
  ['!x', '!x'],
  ['x,!y', 'x,!y'],
  ['x=', 'x='],
  ['x=,y=b', 'x=,y=b'],
  ['x>1', 'x>1'],
  ['x<5', 'x<5'],
  ['example.com/app=web', 'example.com/app=web'],
  ['in=notin', 'in=notin'],
  ['x in (in,notin)', 'x in (in,notin)'],
];
for (const [sel, want] of valid) {
  test(`parse ok: ${JSON.stringify(sel)}`, () => assert.equal(selectorString(parseSelector(sel)), want));
}

const invalidCases: Array<[string, string]> = [
  ['x=a,', "found '', expected: identifier after ','"],
  [',x=a', "found ',', expected: !, identifier, or 'end of string'"],
  ['x=a b', "found 'b', expected: ',' or 'end of string'"],
  ['x y', "unable to parse requirement: found 'y', expected: in, notin, =, ==, !=, gt, lt"],
  ['x in a', "unable to parse requirement: found 'a' expected: '('"],
  ['x in (a', "unable to parse requirement: found '', expected: ',' or ')'"],
  ['x in (a b)', "unable to parse requirement: found 'b', expected: ',' or ')'"],
  ['x in (=)', "unable to parse requirement: found '=', expected: ',', ')' or identifier"],
  ['x=(a)', "unable to parse requirement: found '(', expected: identifier"],
  ['!=a', "found '!=', expected: !, identifier, or 'end of string'"],
  ['!', "unable to parse requirement: found '', expected: identifier"],
  ['x<-5', `unable to parse requirement: values[0][x]: Invalid value: "-5": ${LABEL_VALUE}`],
  ['x=>a', "unable to parse requirement: found '=>', expected: identifier".replace("'=>'", "'>'")],
  ['x!!a', "unable to parse requirement: found '!', expected: in, notin, =, ==, !=, gt, lt"],
  ['a-=b', `unable to parse requirement: <nil>: Invalid value: "a-": ${NAME_PART}`],
  ['x=a b c', "found 'b', expected: ',' or 'end of string'"],
  ['x=a-', `unable to parse requirement: values[0][x]: Invalid value: "a-": ${LABEL_VALUE}`],
  ['x>a', `unable to parse requirement: values[0]: Invalid value: "a": for 'Gt', 'Lt' operators, the value must be an integer`],
  ['x in (a,b,c', "unable to parse requirement: found '', expected: ',' or ')'"],
];
for (const [sel, want] of invalidCases) {
  test(`parse error: ${JSON.stringify(sel)}`, () => assert.throws(() => parseSelector(sel), { message: want }));
}

test('matching', () => {
  const l = { env: 'prod', tier: 'web', n: '10' };
  const m = (s: string) => matches(parseSelector(s), l);
  assert.equal(m(''), true);
  assert.equal(m('env=prod'), true);
  assert.equal(m('env==prod,tier=web'), true);
  assert.equal(m('env=dev'), false);
  assert.equal(m('env!=dev'), true);
  assert.equal(m('missing!=x'), true);
  assert.equal(m('env in (dev,prod)'), true);
  assert.equal(m('env notin (prod)'), false);
  assert.equal(m('missing notin (prod)'), true);
  assert.equal(m('env'), true);
  assert.equal(m('!env'), false);
  assert.equal(m('!missing'), true);
  assert.equal(m('n>9'), true);
  assert.equal(m('n<10'), false);
  assert.equal(m('env>1'), false);
  assert.equal(m('missing='), false);
  assert.equal(matches(parseSelector('x='), { x: '' }), true);
});

test('requiresExactMatch and selectorFromSet', () => {
  assert.equal(requiresExactMatch(parseSelector('a=1,b in (2)'), 'b'), '2');
  assert.equal(requiresExactMatch(parseSelector('a!=1'), 'a'), undefined);
  assert.equal(selectorString(selectorFromSet({ b: '2', a: '1' })), 'a=1,b=2');
});

test('metav1.LabelSelector conversion', () => {
  assert.equal(matches(labelSelectorAsSelector(null), {}), false);
  assert.ok(isEmpty(labelSelectorAsSelector({})));
  const s = labelSelectorAsSelector({
    matchLabels: { app: 'web' },
    matchExpressions: [
      { key: 'env', operator: 'In', values: ['prod', 'dev'] },
      { key: 'beta', operator: 'DoesNotExist' },
    ],
  });
  assert.equal(selectorString(s), 'app=web,!beta,env in (dev,prod)'.replace('app=web,!beta,env', 'app=web,!beta,env'));
  assert.equal(matches(s, { app: 'web', env: 'dev' }), true);
  assert.equal(matches(s, { app: 'web', env: 'dev', beta: '' }), false);
  assert.throws(() => labelSelectorAsSelector({ matchExpressions: [{ key: 'a', operator: 'Foo' }] }), {
    message: '"Foo" is not a valid label selector operator',
  });
  assert.throws(() => labelSelectorAsSelector({ matchExpressions: [{ key: 'a', operator: 'In', values: [] }] }), {
    message: "values: Invalid value: []: for 'in', 'notin' operators, values set can't be empty",
  });
});

test('metav1.LabelSelector validation', () => {
  const errs = validateLabelSelector(
    {
      matchLabels: { 'a-': 'x' },
      matchExpressions: [
        { key: 'k', operator: 'In' },
        { key: 'k', operator: 'Exists', values: ['v'] },
        { key: 'k', operator: 'Gt', values: ['v v'] },
      ],
    },
    {},
    Path.of('spec', 'selector'),
  ).map(errorString);
  assert.deepEqual(errs, [
    `spec.selector.matchLabels: Invalid value: "a-": ${NAME_PART}`,
    "spec.selector.matchExpressions[0].values: Required value: must be specified when `operator` is 'In' or 'NotIn'",
    "spec.selector.matchExpressions[1].values: Forbidden: may not be specified when `operator` is 'Exists' or 'DoesNotExist'",
    'spec.selector.matchExpressions[2].operator: Invalid value: "Gt": not a valid selector operator',
    `spec.selector.matchExpressions[2].values[0]: Invalid value: "v v": ${LABEL_VALUE}`,
  ]);
});

// From k8s.io/apimachinery pkg/labels/selector_test.go (TestSelectorParse, TestSelectorMatches).
test('upstream TestSelectorParse strings', () => {
  for (const s of ['x=a,y=b,z=c', '', 'x!=a,y=b', 'x=', 'x= ', 'x=,z= ', 'x= ,z= ', '!x', 'x>1', 'x>1,z<5']) {
    assert.equal(selectorString(parseSelector(s)), s.replaceAll(' ', ''), s);
  }
  for (const s of ['x=a||y=b', 'x==a==b', '!x=a', 'x<a']) assert.throws(() => parseSelector(s), s);
  assert.equal(selectorString(parseSelector('x=a,a=x')), selectorString(parseSelector('a=x,x=a')));
});

test('upstream TestSelectorMatches', () => {
  const yes: Array<[string, Record<string, string>]> = [
    ['', { x: 'y' }],
    ['x=y', { x: 'y' }],
    ['x=y,z=w', { x: 'y', z: 'w' }],
    ['x!=y,z!=w', { x: 'z', z: 'a' }],
    ['notin=in', { notin: 'in' }],
    ['x', { x: 'z' }],
    ['!x', { y: 'z' }],
    ['x>1', { x: '2' }],
    ['x<1', { x: '0' }],
  ];
  const no: Array<[string, Record<string, string>]> = [
    ['x=z', {}],
    ['x=y', { x: 'z' }],
    ['x=y,z=w', { x: 'w', z: 'w' }],
    ['x!=y,z!=w', { x: 'z', z: 'w' }],
    ['x', { y: 'z' }],
    ['!x', { x: 'z' }],
    ['x>1', { x: '0' }],
    ['x<1', { x: '2' }],
  ];
  for (const [s, l] of yes) assert.equal(matches(parseSelector(s), l), true, s);
  for (const [s, l] of no) assert.equal(matches(parseSelector(s), l), false, s);
});
