/**
 * Kubernetes' semver library (k8s.io/apiserver/pkg/cel/library/semverlib.go, at its latest version):
 * `semver(string[, normalize])`, `isSemver(string[, normalize])`, `major`, `minor`, `patch`,
 * `isGreaterThan`, `isLessThan`, `compareTo`, over a port of github.com/blang/semver/v4's Parse and
 * Compare with its error messages. Versions are equal when they compare equal (build metadata is
 * ignored).
 */
import { BoolType, IntType, StringType, structType } from '../../check/types.ts';
import { errNoOverload, type Val } from '../../eval/values.ts';
import type { Library } from '../decls.ts';
import { err, fn, global, member } from '../define.ts';
import { nominalCost, stringCost } from './costs.ts';
import { LibraryValue } from './object.ts';
import { goQuote } from './netip.ts';

export const SEMVER_TYPE_NAME = 'kubernetes.Semver';
/** The checker's type of semver values. */
export const SemverType = structType(SEMVER_TYPE_NAME);

/** A prerelease identifier: numeric or alphanumeric. */
type PR = { num: bigint } | { str: string };

/** A parsed semantic version (blang/semver Version). */
export interface Version {
  major: bigint;
  minor: bigint;
  patch: bigint;
  pre: PR[];
  build: string[];
}

const NUMBERS = /^[0-9]*$/;
const ALPHANUM = /^[-A-Za-z0-9]*$/;
const leadingZeroes = (s: string) => s.length > 1 && s[0] === '0';
const UINT64_MAX = 2n ** 64n - 1n;

/** strconv.ParseUint(s, 10, 64) for a string of digits. */
function parseUint(s: string): bigint | string {
  if (s === '' || !NUMBERS.test(s)) return `strconv.ParseUint: parsing ${goQuote(s)}: invalid syntax`;
  const v = BigInt(s);
  return v > UINT64_MAX ? `strconv.ParseUint: parsing ${goQuote(s)}: value out of range` : v;
}

/** semver.Parse: the version, or blang/semver's error message. */
export function parseSemver(s: string): Version | string {
  if (s.length === 0) return 'Version string empty';
  const first = s.indexOf('.');
  const second = first < 0 ? -1 : s.indexOf('.', first + 1);
  if (second < 0) return 'No Major.Minor.Patch elements found';
  const parts = [s.slice(0, first), s.slice(first + 1, second), s.slice(second + 1)];
  const nums: bigint[] = [];
  for (const [i, name] of [
    [0, 'major'],
    [1, 'minor'],
  ] as const) {
    const p = parts[i]!;
    if (!NUMBERS.test(p)) return `Invalid character(s) found in ${name} number ${goQuote(p)}`;
    if (leadingZeroes(p)) return `${name === 'major' ? 'Major' : 'Minor'} number must not contain leading zeroes ${goQuote(p)}`;
    const v = parseUint(p);
    if (typeof v === 'string') return v;
    nums.push(v);
  }
  let patchStr = parts[2]!;
  let build: string[] = [];
  let prerelease: string[] = [];
  const b = patchStr.indexOf('+');
  if (b !== -1) {
    build = patchStr.slice(b + 1).split('.');
    patchStr = patchStr.slice(0, b);
  }
  const p = patchStr.indexOf('-');
  if (p !== -1) {
    prerelease = patchStr.slice(p + 1).split('.');
    patchStr = patchStr.slice(0, p);
  }
  if (!NUMBERS.test(patchStr)) return `Invalid character(s) found in patch number ${goQuote(patchStr)}`;
  if (leadingZeroes(patchStr)) return `Patch number must not contain leading zeroes ${goQuote(patchStr)}`;
  const patch = parseUint(patchStr);
  if (typeof patch === 'string') return patch;
  const pre: PR[] = [];
  for (const pr of prerelease) {
    if (pr.length === 0) return 'Prerelease is empty';
    if (NUMBERS.test(pr)) {
      if (leadingZeroes(pr)) return `Numeric PreRelease version must not contain leading zeroes ${goQuote(pr)}`;
      const n = parseUint(pr);
      if (typeof n === 'string') return n;
      pre.push({ num: n });
    } else if (ALPHANUM.test(pr)) pre.push({ str: pr });
    else return `Invalid character(s) found in prerelease ${goQuote(pr)}`;
  }
  for (const str of build) {
    if (str.length === 0) return 'Build meta data is empty';
    if (!ALPHANUM.test(str)) return `Invalid character(s) found in build meta data ${goQuote(str)}`;
  }
  return { major: nums[0]!, minor: nums[1]!, patch, pre, build };
}

/** upstream's normalizeAndParse: drops a leading `v`, leading zeros, and fills in missing parts. */
export function normalizeAndParse(s: string): Version | string {
  if (s.startsWith('v')) s = s.slice(1);
  const first = s.indexOf('.');
  const second = first < 0 ? -1 : s.indexOf('.', first + 1);
  const parts = first < 0 ? [s] : second < 0 ? [s.slice(0, first), s.slice(first + 1)] : [s.slice(0, first), s.slice(first + 1, second), s.slice(second + 1)];
  for (let i = 0; i < parts.length; i++) {
    let p = parts[i]!;
    if (p.length > 1) {
      p = p.replace(/^0+/, '');
      if (p.length === 0 || !'0123456789'.includes(p[0]!)) p = '0' + p;
      parts[i] = p;
    }
  }
  if (parts.length < 3) {
    if (/[+-]/.test(parts[parts.length - 1]!)) return 'short version cannot contain PreRelease/Build meta data';
    while (parts.length < 3) parts.push('0');
  }
  return parseSemver(parts.join('.'));
}

const cmpBig = (a: bigint, b: bigint) => (a === b ? 0 : a > b ? 1 : -1);

function comparePR(a: PR, b: PR): number {
  if ('num' in a && 'num' in b) return cmpBig(a.num, b.num);
  if ('num' in a) return -1;
  if ('num' in b) return 1;
  return a.str === b.str ? 0 : a.str > b.str ? 1 : -1;
}

/** Version.Compare: -1, 0 or 1 (build metadata ignored). */
export function compareSemver(v: Version, o: Version): number {
  const c = cmpBig(v.major, o.major) || cmpBig(v.minor, o.minor) || cmpBig(v.patch, o.patch);
  if (c) return c;
  if (v.pre.length === 0 && o.pre.length === 0) return 0;
  if (v.pre.length === 0) return 1;
  if (o.pre.length === 0) return -1;
  let i = 0;
  for (; i < v.pre.length && i < o.pre.length; i++) {
    const comp = comparePR(v.pre[i]!, o.pre[i]!);
    if (comp !== 0) return comp;
  }
  if (i === v.pre.length && i === o.pre.length) return 0;
  return i === v.pre.length ? -1 : 1;
}

/** A CEL `kubernetes.Semver` value. */
export class SemverValue extends LibraryValue {
  constructor(readonly version: Version) {
    const pre = version.pre.map((p) => ('num' in p ? String(p.num) : p.str)).join('.');
    super(SEMVER_TYPE_NAME, `${version.major}.${version.minor}.${version.patch}${pre ? '-' + pre : ''}`);
  }
}

function toSemver(s: string, normalize = false): Val {
  const v = normalize ? normalizeAndParse(s) : parseSemver(s);
  return typeof v === 'string' ? err(v) : new SemverValue(v);
}

const isSemver = (s: string, normalize = false) => typeof (normalize ? normalizeAndParse(s) : parseSemver(s)) !== 'string';

function withV(f: (...v: Version[]) => Val) {
  return (...args: Val[]): Val => {
    const vs: Version[] = [];
    for (const a of args) {
      if (!(a instanceof SemverValue)) return errNoOverload();
      vs.push(a.version);
    }
    return f(...vs);
  };
}

/** Go's types.Int(uint64): wraps into int64. */
const asInt = (v: bigint) => BigInt.asIntN(64, v);

export const semverLibrary: Library = {
  name: 'kubernetes.Semver',
  functions: [
    fn(
      'semver',
      global('string_to_semver', [StringType], SemverType, (s: string) => toSemver(s), { cost: stringCost }),
      global('string_bool_to_semver', [StringType, BoolType], SemverType, toSemver, { cost: stringCost }),
    ),
    fn(
      'isSemver',
      global('is_semver_string', [StringType], BoolType, (s: string) => isSemver(s), { cost: stringCost }),
      global('is_semver_string_bool', [StringType, BoolType], BoolType, isSemver, { cost: stringCost }),
    ),
    fn('isGreaterThan', member('semver_is_greater_than', [SemverType, SemverType], BoolType, withV((a, b) => compareSemver(a!, b!) === 1), { cost: nominalCost })),
    fn('isLessThan', member('semver_is_less_than', [SemverType, SemverType], BoolType, withV((a, b) => compareSemver(a!, b!) === -1), { cost: nominalCost })),
    fn('compareTo', member('semver_compare_to', [SemverType, SemverType], IntType, withV((a, b) => BigInt(compareSemver(a!, b!))), { cost: nominalCost })),
    fn('major', member('semver_major', [SemverType], IntType, withV((v) => asInt(v.major)), { cost: nominalCost })),
    fn('minor', member('semver_minor', [SemverType], IntType, withV((v) => asInt(v.minor)), { cost: nominalCost })),
    fn('patch', member('semver_patch', [SemverType], IntType, withV((v) => asInt(v.patch)), { cost: nominalCost })),
  ],
};
