/**
 * cel-go's AST validator tests (cel/validator_test.go) as data from testdata/cel-checker: duration,
 * timestamp and regex literals, homogeneous aggregate literals, comprehension nesting, and the
 * four together. Literal conversions are judged by the runtime's own conversion overloads, as
 * cel-go evaluates the call. Prints passed/failed/skipped counts.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Constant } from '../syntax/ast.ts';
import { parse } from '../syntax/parser.ts';
import { check } from './checker.ts';
import { CheckEnv } from './env.ts';
import type { ValidatorOptions } from './validators.ts';
import { optionalLibrary, standardLibrary } from '../lib/std/decls.ts';
import { stdImpls } from '../lib/std/impl.ts';
import { isError, type Val } from '../eval/values.ts';
import { BoolType, StringType, listOf, mapOf, type Type } from './types.ts';
import type { Library } from '../lib/decls.ts';

const dataDir = fileURLToPath(new URL('../../../testdata/cel-checker/', import.meta.url));
const data = JSON.parse(readFileSync(dataDir + 'validator_cases.json', 'utf8')) as {
  suites: Record<string, { expr: string; iss?: string }[]>;
};

/** Evaluates a conversion overload on a literal; valid when it does not produce an error. */
function converts(ids: Record<string, string>): (c: Constant) => boolean {
  return (c) => {
    const id = ids[c.kind];
    if (!id) return true;
    const value = (c as { value: unknown }).value as Val;
    return !isError(stdImpls.get(id)!.impl(value));
  };
}
const durationLiteral = converts({ string: 'string_to_duration', duration: 'duration_to_duration' });
const timestampLiteral = converts({ string: 'string_to_timestamp', int: 'int64_to_timestamp' });

/** The environments cel-go's tests build, by suite. */
const suites: Record<string, { variables: Record<string, Type>; libraries: Library[]; validators: ValidatorOptions }> = {
  TestValidateDurationLiterals: {
    variables: { x: StringType },
    libraries: [standardLibrary],
    validators: { durationLiteral },
  },
  TestValidateTimestampLiterals: {
    variables: { x: StringType },
    libraries: [standardLibrary],
    validators: { timestampLiteral },
  },
  TestValidateRegexLiterals: {
    variables: { x: StringType },
    libraries: [standardLibrary],
    validators: { regexLiterals: true },
  },
  TestValidateHomogeneousAggregateLiterals: {
    variables: { name: StringType },
    // NewCustomEnv: no standard library, only a string-typed `in` and the optional library.
    libraries: [
      {
        name: 'test.in',
        functions: [
          {
            name: '@in',
            overloads: [
              { id: 'in_list', params: [StringType, listOf(StringType)], result: BoolType },
              { id: 'in_map', params: [StringType, mapOf(StringType, BoolType)], result: BoolType },
            ],
          },
        ],
      },
      optionalLibrary,
    ],
    validators: { homogeneousAggregateLiterals: true },
  },
  TestValidateComprehensionNestingLimit: {
    variables: {},
    libraries: [standardLibrary],
    validators: { comprehensionNestingLimit: 2 },
  },
  TestExtendedValidations: {
    variables: { x: StringType },
    libraries: [standardLibrary],
    validators: { homogeneousAggregateLiterals: true, regexLiterals: true, durationLiteral, timestampLiteral },
  },
};

const strip = (s: string): string => s.replace(/[ \t\n\r]/g, '');

test('cel-go AST validators', () => {
  let passed = 0;
  const failed: string[] = [];
  for (const [suite, cases] of Object.entries(data.suites)) {
    const cfg = suites[suite]!;
    const env = new CheckEnv({ ...cfg, crossTypeNumericComparisons: true });
    for (const c of cases) {
      const p = parse(c.expr);
      const r = p.parsed ? check(p.parsed, env) : { issues: p.issues, checked: undefined };
      const got = r.issues.toString();
      if (c.iss ? strip(got) !== strip(c.iss) : got !== '') {
        failed.push(`${suite} ${c.expr}\n got: ${got}\nwant: ${c.iss ?? ''}`);
      } else {
        passed++;
      }
    }
  }
  console.log(`cel-go validators: ${passed} passed, ${failed.length} failed, 0 skipped`);
  assert.deepEqual(failed, []);
});
