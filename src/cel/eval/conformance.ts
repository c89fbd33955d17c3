/**
 * The CEL conformance harness (run by scripts/cel-conformance.ts and src/cel/conformance.test.ts):
 * runs the suite (google/cel-spec `tests/simple/testdata`, vendored in
 * testdata/cel-spec/) against this implementation: every test of every SimpleTestFile is parsed,
 * checked (unless `disable_check`), planned and evaluated with its bindings, and its result compared
 * with the expected value, error, or typed result. Prints `N passed, N failed, N skipped` per file
 * and in total, then each skip reason. Well-known types (wrappers, Value/Struct/ListValue, Any
 * payloads in bindings) run as the CEL values they stand for; block_ext runs with cel-go's test-only
 * cel.block/cel.index/cel.iterVar/cel.accuVar macros. Tests that need the protobuf test messages
 * (TestAllTypes...) are the only ones skipped.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  BoolType,
  BytesType,
  DoubleType,
  DurationType,
  DynType,
  ErrorType,
  IntType,
  NullType,
  StringType,
  TimestampType,
  UintType,
  AnyType,
  formatType,
  listOf,
  mapOf,
  opaque,
  structType,
  typeOf,
  typeParam,
  type Type,
} from '../check/types.ts';
import {
  field,
  messageField,
  messages,
  parseTextProto,
  stringField,
  type TextMessage,
  type TextValue,
} from './textproto.ts';
import { CelMap, CelType, Duration, Timestamp, Uint, type Val, formatValue } from './values.ts';
import { Env } from '../env.ts';
import { allExtensionLibraries } from '../lib/runtime.ts';
import type { FunctionDecl, Library } from '../lib/decls.ts';
import type { Expr } from '../syntax/ast.ts';
import { type Macro, macrosForLibraries } from '../syntax/macros.ts';
import { cidrLibrary, ipLibrary, kubernetesTypeNames, withKubernetesTypes } from '../lib/kubernetes/index.ts';

export const SPEC_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'testdata', 'cel-spec');

/** Whole files skipped, with the reason. */
const SKIPPED_FILES: Record<string, string> = {};

/**
 * Tests expected to fail while work is in progress: `file/section/test` -> why. The list only
 * shrinks; the conformance test fails if any other non-skipped test fails.
 */
export const KNOWN_FAILURES: Record<string, string> = {
  // cel-go's ext.Network (ext/network.go parseIPAddr) rejects every address netip reports Is4In6,
  // as Kubernetes' ip() does: the suite's expectation differs from both.
  'network_ext/ipv4/ipv4_equals_ipv6':
    "cel-go's ext.Network and Kubernetes' ip() both reject IPv4-mapped IPv6 addresses ('::ffff:c0a8:1')",
  'network_ext/ipv4/ipv4_not_equals_ipv6':
    "cel-go's ext.Network and Kubernetes' ip() both reject IPv4-mapped IPv6 addresses ('::ffff:c0a8:1')",
  // The next two are in cel-go's own conformance skip list (conformance/BUILD.bazel _TESTS_TO_SKIP).
  'type_deduction/legacy_nullable_types/null_assignable_to_abstract_parameter_candidate':
    'cel-go skips it: its checker deduces null, not optional_type(int), for null given to an abstract type parameter',
  'timestamps/duration_converters/get_milliseconds':
    "cel-go skips it: duration.getMilliseconds() is the total milliseconds in cel-go (and Kubernetes), not the spec's component",
};

/**
 * block_ext's test-only macros (cel-go conformance_test.go celBlockLib): `cel.block(l, e)` ->
 * `cel.@block(l, e)`, `cel.index(N)` -> `@indexN`, `cel.iterVar(N, M)` -> `@it:N:M`,
 * `cel.accuVar(N, M)` -> `@ac:N:M`; `@index0`..`@index29` are declared dyn.
 */
const nonNegativeInt = (e: Expr): bigint | undefined =>
  e.kind === 'const' && e.value.kind === 'int' && e.value.value >= 0n ? e.value.value : undefined;
const isCelNamespace = (t: Expr | undefined) => t?.kind === 'ident' && t.name === 'cel';
export const BLOCK_TEST_MACROS: readonly Macro[] = [
  {
    name: 'block',
    argCount: 2,
    receiver: true,
    expand: (h, target, args) => {
      if (!isCelNamespace(target)) return undefined;
      if (args[0]!.kind !== 'list') return h.error(args[0]!.id, 'cel.block requires the first arg to be a list literal');
      return h.call('cel.@block', args[0]!, args[1]!);
    },
  },
  {
    name: 'index',
    argCount: 1,
    receiver: true,
    expand: (h, target, args) => {
      if (!isCelNamespace(target)) return undefined;
      const i = nonNegativeInt(args[0]!);
      if (i === undefined) return h.error(args[0]!.id, 'cel.index requires a single non-negative int constant arg');
      return h.ident(`@index${i}`);
    },
  },
  ...(
    [
      ['iterVar', '@it'],
      ['accuVar', '@ac'],
    ] as const
  ).map(
    ([name, prefix]): Macro => ({
      name,
      argCount: 2,
      receiver: true,
      expand: (h, target, args) => {
        if (!isCelNamespace(target)) return undefined;
        const depth = nonNegativeInt(args[0]!);
        const unique = nonNegativeInt(args[1]!);
        if (depth === undefined || unique === undefined) {
          return h.error((depth === undefined ? args[0] : args[1])!.id, `cel.${name} requires two non-negative int constant args`);
        }
        return h.ident(`${prefix}:${depth}:${unique}`);
      },
    }),
  ),
];
const BLOCK_INDEX_VARIABLES: Record<string, Type> = Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`@index${i}`, DynType]));

export interface TestOutcome {
  file: string;
  section: string;
  name: string;
  status: 'pass' | 'fail' | 'skip';
  reason?: string;
}

/** What marks a test as needing the protobuf test messages (the only tests skipped). */
const PROTO_RE = /TestAllTypes|NestedTestAllTypes|TestRequired|GlobalEnum|NestedEnum|cel\.expr\.conformance\.proto/;
const NEEDS_TEST_MESSAGES = 'needs protobuf test messages (TestAllTypes...)';

function textOf(v: TextValue | undefined): string {
  if (v === undefined) return '';
  if (v instanceof Map) return [...v.entries()].map(([k, vs]) => k + ':' + vs.map(textOf).join(',')).join(';');
  return v.kind === 'string' ? new TextDecoder().decode(v.bytes) : v.text;
}

class Unsupported extends Error {}

function token(m: TextMessage, name: string): string {
  const v = field(m, name);
  if (v === undefined || v instanceof Map) throw new Unsupported(`bad field ${name}`);
  return v.kind === 'string' ? new TextDecoder().decode(v.bytes) : v.text;
}

function parseDouble(t: string): number {
  const l = t.toLowerCase();
  if (l === 'inf' || l === 'infinity') return Infinity;
  if (l === '-inf' || l === '-infinity') return -Infinity;
  if (l === 'nan') return NaN;
  return Number(t.replace(/[fF]$/, ''));
}

/** A cel.expr.Value as a runtime value. */
export function valueOf(m: TextMessage): Val {
  const [k] = [...m.keys()];
  switch (k) {
    case 'null_value':
      return null;
    case 'bool_value':
      return token(m, k) === 'true';
    case 'int64_value':
      return BigInt(token(m, k));
    case 'uint64_value':
      return new Uint(BigInt(token(m, k)));
    case 'double_value':
      return parseDouble(token(m, k));
    case 'string_value':
      return token(m, k);
    case 'bytes_value': {
      const v = field(m, k)!;
      return v instanceof Map || v.kind !== 'string' ? new Uint8Array() : v.bytes;
    }
    case 'type_value':
      return new CelType(token(m, k));
    case 'list_value':
      return messages(messageField(m, k)!, 'values').map(valueOf);
    case 'map_value': {
      const out = new CelMap();
      for (const e of messages(messageField(m, k)!, 'entries')) {
        out.set(valueOf(messageField(e, 'key')!), valueOf(messageField(e, 'value')!));
      }
      return out;
    }
    case 'object_value':
      return objectValue(messageField(m, k)!);
    default:
      throw new Unsupported(`value kind ${k ?? '(empty)'} (protobuf messages or enums)`);
  }
}

/**
 * An Any-packed well-known message (`[type.googleapis.com/google.protobuf.Int32Value] { value: 1 }`)
 * as the CEL value it stands for; other messages need the protobuf test messages.
 */
function objectValue(any: TextMessage): Val {
  const [url] = [...any.keys()];
  const name = /^\[type\.googleapis\.com\/(.*)\]$/.exec(url ?? '')?.[1];
  const body = name && messageField(any, url!);
  if (!name || !body) throw new Unsupported(`object ${url}`);
  return wellKnownMessage(name, body);
}

function wellKnownMessage(name: string, m: TextMessage): Val {
  const scalar = (f: string): string | undefined => (m.has(f) ? token(m, f) : undefined);
  switch (name) {
    case 'google.protobuf.Int32Value':
    case 'google.protobuf.Int64Value':
      return BigInt(scalar('value') ?? 0);
    case 'google.protobuf.UInt32Value':
    case 'google.protobuf.UInt64Value':
      return new Uint(BigInt(scalar('value') ?? 0));
    case 'google.protobuf.FloatValue':
      return Math.fround(parseDouble(scalar('value') ?? '0'));
    case 'google.protobuf.DoubleValue':
      return parseDouble(scalar('value') ?? '0');
    case 'google.protobuf.BoolValue':
      return scalar('value') === 'true';
    case 'google.protobuf.StringValue':
      return scalar('value') ?? '';
    case 'google.protobuf.BytesValue': {
      const v = field(m, 'value');
      return v === undefined || v instanceof Map || v.kind !== 'string' ? new Uint8Array() : v.bytes;
    }
    case 'google.protobuf.Duration':
      return new Duration(BigInt(scalar('seconds') ?? 0) * 1_000_000_000n + BigInt(scalar('nanos') ?? 0));
    case 'google.protobuf.Timestamp':
      return new Timestamp(BigInt(scalar('seconds') ?? 0) * 1_000_000_000n + BigInt(scalar('nanos') ?? 0));
    case 'google.protobuf.ListValue':
      return messages(m, 'values').map((v) => wellKnownMessage('google.protobuf.Value', v));
    case 'google.protobuf.Struct': {
      const out = new CelMap();
      for (const e of messages(m, 'fields')) out.set(stringField(e, 'key')!, wellKnownMessage('google.protobuf.Value', messageField(e, 'value')!));
      return out;
    }
    case 'google.protobuf.Value': {
      const [k] = [...m.keys()];
      switch (k) {
        case undefined:
        case 'null_value':
          return null;
        case 'number_value':
          return parseDouble(token(m, k));
        case 'string_value':
          return token(m, k);
        case 'bool_value':
          return token(m, k) === 'true';
        case 'struct_value':
          return wellKnownMessage('google.protobuf.Struct', messageField(m, k)!);
        case 'list_value':
          return wellKnownMessage('google.protobuf.ListValue', messageField(m, k)!);
      }
    }
  }
  throw new Unsupported(`object ${name}`);
}

const PRIMS: Record<string, Type> = {
  BOOL: BoolType,
  INT64: IntType,
  UINT64: UintType,
  DOUBLE: DoubleType,
  STRING: StringType,
  BYTES: BytesType,
};

/** A cel.expr.Type as a checker type. */
export function typeFromProto(m: TextMessage): Type {
  const [k] = [...m.keys()];
  switch (k) {
    case 'primitive':
      return PRIMS[token(m, k)] ?? DynType;
    case 'well_known': {
      const w = token(m, k);
      return w === 'TIMESTAMP' ? TimestampType : w === 'DURATION' ? DurationType : AnyType;
    }
    case 'list_type':
      return listOf(typeFromProto(messageField(messageField(m, k)!, 'elem_type')!));
    case 'map_type': {
      const mt = messageField(m, k)!;
      return mapOf(typeFromProto(messageField(mt, 'key_type')!), typeFromProto(messageField(mt, 'value_type')!));
    }
    case 'dyn':
      return DynType;
    case 'null':
      return NullType;
    case 'error':
      return ErrorType;
    case 'type_param':
      return typeParam(token(m, k));
    case 'type':
      return typeOf(typeFromProto(messageField(m, k)!));
    case 'message_type':
      return structType(token(m, k));
    case 'wrapper': {
      const p = PRIMS[token(m, k)];
      return { kind: 'wrapper', prim: (p?.kind ?? 'int') as 'int' };
    }
    case 'abstract_type': {
      const a = messageField(m, k)!;
      return opaque(stringField(a, 'name') ?? '', ...messages(a, 'parameter_types').map(typeFromProto));
    }
    default:
      throw new Unsupported(`type kind ${k}`);
  }
}

/** Strict equality for comparing results with expectations (types must match exactly). */
export function sameValue(a: Val, b: Val): boolean {
  if (typeof a !== typeof b) return false;
  if (typeof a === 'number') return Number.isNaN(a) ? Number.isNaN(b as number) : a === b;
  if (typeof a !== 'object' || a === null || b === null) return a === b;
  if (a instanceof Uint) return b instanceof Uint && a.v === b.v;
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((x, i) => sameValue(x, b[i]!));
  if (a instanceof CelMap) {
    if (!(b instanceof CelMap) || a.size !== b.size) return false;
    for (const [k, v] of a.entries()) {
      const w = b.get(k);
      if (w === undefined || !sameValue(v, w)) return false;
      if (!b.keys().some((bk) => sameValue(bk, k))) return false;
    }
    return true;
  }
  if (a instanceof Uint8Array) return b instanceof Uint8Array && a.length === b.length && a.every((x, i) => x === b[i]);
  if (a instanceof CelType) return b instanceof CelType && a.name === b.name;
  return formatValue(a) === formatValue(b);
}

const envCache = new Map<string, Env>();

/**
 * network_ext exercises cel-go's ext network library, a port of Kubernetes' ip and cidr libraries:
 * run it against ours.
 */
const NETWORK_LIBRARIES: readonly Library[] = [ipLibrary, cidrLibrary];

function envFor(file: string, test: TextMessage, disableCheck: boolean): Env {
  const network = file === 'network_ext.textproto';
  const block = file === 'block_ext.textproto';
  const variables: Record<string, Type> = block ? { ...BLOCK_INDEX_VARIABLES } : {};
  const functions: FunctionDecl[] = [];
  for (const d of messages(test, 'type_env')) {
    const name = stringField(d, 'name')!;
    const ident = messageField(d, 'ident');
    if (ident) variables[name] = typeFromProto(messageField(ident, 'type')!);
    const fdecl = messageField(d, 'function');
    if (fdecl) {
      functions.push({
        name,
        overloads: messages(fdecl, 'overloads').map((o) => ({
          id: stringField(o, 'overload_id')!,
          receiver: stringField(o, 'is_instance_function') === 'true',
          params: messages(o, 'params').map(typeFromProto),
          result: typeFromProto(messageField(o, 'result_type')!),
          typeParams: (o.get('type_params') ?? []).map((t) => textOf(t)),
        })),
      });
    }
  }
  const container = stringField(test, 'container') ?? '';
  const disableMacros = stringField(test, 'disable_macros') === 'true';
  const key = JSON.stringify([
    network,
    block,
    container,
    disableCheck,
    disableMacros,
    Object.entries(variables).map(([n, t]) => [n, formatType(t)]),
    functions.map((f) => [f.name, f.overloads.map((o) => o.id)]),
  ]);
  let env = envCache.get(key);
  if (!env) {
    env = new Env({
      variables,
      container,
      disableCheck,
      libraries: [
        ...allExtensionLibraries,
        ...(network ? NETWORK_LIBRARIES : []),
        ...(functions.length ? [{ name: 'test.functions', functions }] : []),
      ],
      provider: network ? withKubernetesTypes() : undefined,
      typeNames: network ? kubernetesTypeNames : undefined,
      parse: disableMacros
        ? { macros: false }
        : block
          ? { macros: [...macrosForLibraries(allExtensionLibraries.flatMap((l) => l.macros ?? [])), ...BLOCK_TEST_MACROS] }
          : undefined,
    });
    envCache.set(key, env);
  }
  return env;
}

function skipReason(file: string, test: TextMessage): string | undefined {
  const fileReason = SKIPPED_FILES[file];
  if (fileReason) return fileReason;
  const texts = [stringField(test, 'expr') ?? '', stringField(test, 'container') ?? '', textOf(test.get('type_env')?.[0])];
  for (const d of messages(test, 'type_env')) texts.push(textOf(d));
  if (texts.some((t) => PROTO_RE.test(t))) return NEEDS_TEST_MESSAGES;
  const all = textOf(test as unknown as TextValue);
  if (/enum_value/.test(all) || (/object_value/.test(all) && PROTO_RE.test(all))) return NEEDS_TEST_MESSAGES;
  if (test.has('unknown') || test.has('any_unknowns')) return 'unknowns (partial activations) are not supported';
  return undefined;
}

/** Runs one test; returns undefined on pass or the failure description. */
function runTest(file: string, test: TextMessage): string | undefined {
  const expr = stringField(test, 'expr')!;
  const disableCheck = stringField(test, 'disable_check') === 'true';
  const checkOnly = stringField(test, 'check_only') === 'true';
  const env = envFor(file, test, disableCheck);
  const expectsError = test.has('eval_error') || test.has('any_eval_errors');
  const typed = messageField(test, 'typed_result');
  const compiled = env.compile(expr);
  if (!compiled.program) return expectsError ? undefined : `compile: ${compiled.issues}`;
  const program = compiled.program;
  if (typed) {
    const want = messageField(typed, 'deduced_type');
    if (want) {
      const wt = formatType(typeFromProto(want));
      const got = formatType(program.type);
      if (wt !== got) return `deduced type ${got}, want ${wt}`;
    }
  }
  if (checkOnly) return undefined;
  const vars: Record<string, Val> = {};
  for (const b of messages(test, 'bindings')) {
    const ev = messageField(b, 'value')!;
    const v = messageField(ev, 'value');
    if (!v) throw new Unsupported('binding without a value');
    vars[stringField(b, 'key')!] = valueOf(v);
  }
  const r = program.eval(vars);
  if (expectsError) return r.error ? undefined : `got ${formatValue(r.value!)}, want an error`;
  if (r.error) return `error: ${r.error.message}`;
  const wantMsg = messageField(test, 'value') ?? (typed && messageField(typed, 'result'));
  const want: Val = wantMsg ? valueOf(wantMsg) : true;
  return sameValue(r.value!, want) ? undefined : `got ${formatValue(r.value!)}, want ${formatValue(want)}`;
}

/** Runs the suite over the given files (default: every .textproto in dir). */
export function runConformance(dir = SPEC_DIR, only?: string[]): TestOutcome[] {
  const out: TestOutcome[] = [];
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.textproto'))
    .filter((f) => !only?.length || only.some((o) => f.startsWith(o)))
    .sort();
  for (const file of files) {
    const tf = parseTextProto(readFileSync(join(dir, file), 'utf8'));
    for (const section of messages(tf, 'section')) {
      const sname = stringField(section, 'name') ?? '';
      for (const test of messages(section, 'test')) {
        const name = stringField(test, 'name') ?? '';
        const base = { file: file.replace(/\.textproto$/, ''), section: sname, name };
        const skip = skipReason(file, test);
        if (skip) {
          out.push({ ...base, status: 'skip', reason: skip });
          continue;
        }
        let failure: string | undefined;
        try {
          failure = runTest(file, test);
        } catch (e) {
          if (e instanceof Unsupported) {
            out.push({ ...base, status: 'skip', reason: NEEDS_TEST_MESSAGES });
            continue;
          }
          failure = `threw: ${(e as Error).stack ?? String(e)}`;
        }
        out.push(failure === undefined ? { ...base, status: 'pass' } : { ...base, status: 'fail', reason: failure });
      }
    }
  }
  return out;
}

/** `file/section/test`, the key of KNOWN_FAILURES. */
export const testKey = (t: TestOutcome) => `${t.file}/${t.section}/${t.name}`;

/** `N passed, N failed, N skipped`. */
export function summary(ts: TestOutcome[]): string {
  const n = (s: TestOutcome['status']) => ts.filter((t) => t.status === s).length;
  return `${n('pass')} passed, ${n('fail')} failed, ${n('skip')} skipped`;
}

