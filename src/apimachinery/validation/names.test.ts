import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  isDNS1035Label,
  isDNS1123Label,
  isDNS1123Subdomain,
  isDomainPrefixedPath,
  isQualifiedName,
  isValidLabelValue,
  isValidPathSegmentName,
  isValidPortName,
  isValidPortNum,
  isWildcardDNS1123Subdomain,
  nameIsDNSSubdomain,
  validatePathSegmentName,
  isFullyQualifiedName,
} from './names.ts';
import { Path } from '../field/path.ts';
import { errorString } from '../field/errors.ts';

const SUBDOMAIN =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const LABEL =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
const DNS1035 =
  "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')";
const NAME_PART =
  "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
const LABEL_VALUE =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";

type Case = [string, (v: string) => string[], string, string[]];
const cases: Case[] = [
  ['subdomain ok', isDNS1123Subdomain, 'a.b-c.d1', []],
  ['subdomain upper', isDNS1123Subdomain, 'A', [SUBDOMAIN]],
  ['subdomain trailing dot', isDNS1123Subdomain, 'a.', [SUBDOMAIN]],
  ['subdomain empty', isDNS1123Subdomain, '', [SUBDOMAIN]],
  ['subdomain too long', isDNS1123Subdomain, 'a'.repeat(254), ['must be no more than 253 characters']],
  ['label ok', isDNS1123Label, '1abc', []],
  ['label dots', isDNS1123Label, 'a.b', ['must not contain dots']],
  ['label bad', isDNS1123Label, 'a_b', [LABEL]],
  ['label too long', isDNS1123Label, 'a'.repeat(64), ['must be no more than 63 characters']],
  ['label too long and bad', isDNS1123Label, '-'.repeat(64), ['must be no more than 63 characters', LABEL]],
  ['1035 ok', isDNS1035Label, 'v1beta1', []],
  ['1035 digit start', isDNS1035Label, '1abc', [DNS1035]],
  ['qualified ok', isQualifiedName, 'example.com/My_Name.1', []],
  ['qualified plain', isQualifiedName, 'app', []],
  ['qualified empty', isQualifiedName, '', ['name part must be non-empty', NAME_PART]],
  ['qualified empty prefix', isQualifiedName, '/a', ['prefix part must be non-empty']],
  [
    'qualified bad prefix',
    isQualifiedName,
    'Example.com/a',
    ['prefix part ' + SUBDOMAIN],
  ],
  ['qualified long name', isQualifiedName, 'a'.repeat(64), ['name part must be no more than 63 bytes']],
  ['qualified bad name', isQualifiedName, 'a-', [NAME_PART]],
  [
    'qualified two slashes',
    isQualifiedName,
    'a/b/c',
    [
      "a valid label key must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')",
    ],
  ],
  ['label value ok', isValidLabelValue, 'v1.2_3', []],
  ['label value empty', isValidLabelValue, '', []],
  ['label value bad', isValidLabelValue, 'a b', [LABEL_VALUE]],
  ['label value long', isValidLabelValue, 'a'.repeat(64), ['must be no more than 63 bytes']],
  ['label value multibyte counts bytes', isValidLabelValue, 'é'.repeat(32), ['must be no more than 63 bytes', LABEL_VALUE]],
  ['wildcard ok', isWildcardDNS1123Subdomain, '*.example.com', []],
  ['path segment dot', isValidPathSegmentName, '..', ["may not be '..'"]],
  ['path segment slash percent', isValidPathSegmentName, 'a/b%', ["may not contain '/'", "may not contain '%'"]],
  ['path segment ok', isValidPathSegmentName, 'Any Thing', []],
  ['port name', isValidPortName, '-http--', ['must not contain consecutive hyphens', 'must not begin or end with a hyphen']],
  ['port name digits', isValidPortName, '80', ['must contain at least one letter (a-z)']],
];

for (const [name, fn, value, want] of cases) {
  test(`${name}: ${JSON.stringify(value).slice(0, 30)}`, () => assert.deepEqual(fn(value), want));
}

test('generateName prefixes: trailing dash masked, path segments only check / and %', () => {
  assert.deepEqual(nameIsDNSSubdomain('foo-', true), []);
  assert.deepEqual(nameIsDNSSubdomain('foo-', false), [SUBDOMAIN]);
  assert.deepEqual(validatePathSegmentName('..', true), []);
  assert.deepEqual(validatePathSegmentName('..', false), ["may not be '..'"]);
});

test('ports', () => {
  assert.deepEqual(isValidPortNum(0), ['must be between 1 and 65535, inclusive']);
  assert.deepEqual(isValidPortNum(443), []);
});

test('domain-prefixed paths and fully qualified names', () => {
  const p = Path.of('spec', 'x');
  assert.deepEqual(isDomainPrefixedPath(p, 'acme.io/foo').map(errorString), []);
  assert.deepEqual(isDomainPrefixedPath(p, 'foo').map(errorString), [
    'spec.x: Invalid value: "foo": must be a domain-prefixed path (such as "acme.io/foo")',
  ]);
  assert.deepEqual(isDomainPrefixedPath(p, 'acme.io/f o').map(errorString), [
    `spec.x: Invalid value: "f o": Invalid path (regex used for validation is '[A-Za-z0-9/\\-._~%!$&'()*+,;=:]+')`,
  ]);
  assert.deepEqual(isDomainPrefixedPath(p, '').map(errorString), ['spec.x: Required value']);
  assert.deepEqual(isFullyQualifiedName(p, 'a.b').map(errorString), [
    'spec.x: Invalid value: "a.b": should be a domain with at least three segments separated by dots',
  ]);
});
