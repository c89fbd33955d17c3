/**
 * cel-go's checker table (checker/checker_test.go), run as data from testdata/cel-checker: each
 * case is parsed, checked in its declared environment, and compared with cel-go's expected
 * checked-tree print, result type and error text. Prints passed/failed/skipped counts.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse } from '../syntax/parser.ts';
import { check } from './checker.ts';
import { CheckEnv } from './env.ts';
import { printChecked } from './printer.ts';
import { standardLibrary } from '../lib/std/decls.ts';
import { formatType, isEquivalentType, parseType, structType, typeOf, optionalOf, DynType } from './types.ts';
import type { TypeProvider } from './types.ts';
import type { FunctionDecl } from '../lib/decls.ts';

const dataDir = fileURLToPath(new URL('../../../testdata/cel-checker/', import.meta.url));

interface EnvData {
  named?: string;
  idents?: { name: string; type: string }[];
  functions?: { name: string; overloads: { id: string; receiver: boolean; params: string[]; result: string }[] }[];
  optionalSyntax?: boolean;
  variadicASTs?: boolean;
  jsonFieldNames?: boolean;
}

interface Case {
  in: string;
  out?: string;
  outType?: string;
  container?: string;
  env?: EnvData;
  err?: string;
  disableStdEnv?: boolean;
  opts?: { crossTypeNumericComparisons?: boolean; homogeneousAggregateLiterals?: boolean };
}

const table = JSON.parse(readFileSync(dataDir + 'checker_cases.json', 'utf8')) as {
  envs: Record<string, EnvData>;
  cases: Case[];
};
const protos = JSON.parse(readFileSync(dataDir + 'test_all_types.json', 'utf8')) as {
  messages: Record<string, Record<string, string>>;
  enums: Record<string, Record<string, number>>;
};

/** cel-go's protobuf test messages (TestAllTypes and friends), from their .proto field lists. */
const testTypes: TypeProvider = {
  findStructType: (name) => (protos.messages[name] ? structType(name) : undefined),
  findFieldType: (s, f) => {
    const t = protos.messages[s]?.[f];
    return t === undefined ? undefined : { type: parseType(t) };
  },
  findEnumValue: (name) => {
    const dot = name.lastIndexOf('.');
    const v = protos.enums[name.slice(0, dot)]?.[name.slice(dot + 1)];
    return v === undefined ? undefined : BigInt(v);
  },
};

/** protoc's JSON name of a field: lowerCamelCase of its snake_case name. */
const jsonName = (f: string): string => f.replace(/_([a-z0-9])/g, (_m, c: string) => c.toUpperCase());

/** The same messages with JSON field names (cel-go's registry with JSONFieldNames(true)). */
const jsonTestTypes: TypeProvider = {
  ...testTypes,
  findFieldType: (s, f) => {
    const fields = protos.messages[s];
    if (!fields) return undefined;
    for (const [name, t] of Object.entries(fields)) {
      if (jsonName(name) === f) return { type: parseType(t), isJsonField: true };
    }
    const t = fields[f];
    return t === undefined ? undefined : { type: parseType(t), isJsonField: false };
  },
};

/** Case index -> why it cannot run here. Empty: every case of the table runs. */
const SKIPS: Record<number, string> = {};

const strip = (s: string): string => s.replace(/[ \t\n\r]/g, '');

function buildEnv(c: Case): CheckEnv {
  const data: EnvData = c.env?.named ? table.envs[c.env.named]! : (c.env ?? {});
  const env = new CheckEnv({
    container: c.container ?? '',
    provider: c.env?.jsonFieldNames ? jsonTestTypes : testTypes,
    jsonFieldNames: !!c.env?.jsonFieldNames,
    crossTypeNumericComparisons: c.opts?.crossTypeNumericComparisons ?? true,
    homogeneousAggregateLiterals: c.opts?.homogeneousAggregateLiterals ?? false,
    libraries: c.disableStdEnv ? [] : [standardLibrary],
  });
  // The optional type is registered with the type provider when optional syntax is on.
  if (c.env?.optionalSyntax) env.addVariable('optional_type', typeOf(optionalOf(DynType)));
  for (const v of data.idents ?? []) env.addVariable(v.name, parseType(v.type));
  for (const f of data.functions ?? []) {
    const fn: FunctionDecl = {
      name: f.name,
      overloads: f.overloads.map((o) => ({
        id: o.id,
        receiver: o.receiver,
        params: o.params.map(parseType),
        result: parseType(o.result),
      })),
    };
    env.addFunction(fn);
  }
  return env;
}

/** Runs one case; returns a failure description, or undefined when it matches cel-go. */
function runCase(c: Case): string | undefined {
  const p = parse(c.in, {
    enableOptionalSyntax: !!c.env?.optionalSyntax,
    enableVariadicOperatorASTs: !!c.env?.variadicASTs,
  });
  if (!p.parsed) return `unexpected parse errors: ${p.issues.toString()}`;
  const r = check(p.parsed, buildEnv(c));
  const errors = r.issues.toString();
  if (errors) {
    if (!c.err) return `unexpected type-check errors: ${errors}`;
    if (strip(errors) !== strip(c.err)) return `error mismatch:\n got: ${errors}\nwant: ${c.err}`;
    return undefined;
  }
  if (c.err) return `expected error not reported: ${c.err}`;
  const checked = r.checked!;
  const actual = checked.typeMap.get(checked.expr.id);
  if (c.outType !== undefined && (!actual || !isEquivalentType(actual, parseType(c.outType)))) {
    return `type mismatch: got ${actual && formatType(actual)}, want ${c.outType}`;
  }
  if (c.in.includes('NestedEnum.BAR')) {
    const ref = checked.referenceMap.get((checked.expr as { args: { id: number }[] }).args[0]!.id);
    if (ref?.value !== 1n) return `enum constant reference carries value ${ref?.value}, want 1`;
  }
  if (c.out !== undefined && strip(printChecked(checked)) !== strip(c.out)) {
    return `structure mismatch:\n got: ${printChecked(checked)}\nwant: ${c.out}`;
  }
  return undefined;
}

test('cel-go checker table', () => {
  let passed = 0;
  const failed: string[] = [];
  const skipped: string[] = [];
  table.cases.forEach((c, i) => {
    const reason = SKIPS[i];
    if (reason) {
      skipped.push(`#${i} ${c.in}: ${reason}`);
      return;
    }
    const failure = runCase(c);
    if (failure) failed.push(`#${i} ${c.in}\n${failure}`);
    else passed++;
  });
  console.log(`cel-go checker table: ${passed} passed, ${failed.length} failed, ${skipped.length} skipped`);
  for (const s of skipped) console.log(`  skipped ${s}`);
  assert.deepEqual(failed, []);
});
