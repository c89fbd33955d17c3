/**
 * Estimated rule costs against schema sizes: Kubernetes' TestCostEstimation
 * (apiextensions-apiserver pkg/apiserver/schema/cel/compilation_test.go at 1aa2717a), each case
 * compiled twice, once with no maxItems / maxProperties / maxLength (sizes estimated from the
 * 3 MiB request limit) and once with them set; the compiled rule's estimated max cost must equal
 * upstream's figure (a 0 figure is not checked, as upstream), or exceed its lower bound.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { newStructural } from '../structural.ts';
import type { JSONSchemaProps } from '../types.ts';
import { compileRules } from './compile.ts';
import { schemaDeclType } from './types.ts';

interface Case {
  name: string;
  gen: string;
  args: (string | { gen: string })[];
  calc?: number;
  calcExceeds?: number;
  setMax: number;
  set?: number;
  setExceeds?: number;
}

/** The upstream table; `gen` names upstream's schema generator, `custom` its inline ones. */
const CASES: Case[] = [
  {"name": "number array with all", "calc": 4718591, "setMax": 10, "set": 32, "gen": "genArrayWithRule", "args": ["number", "self.all(x, true)"]},
  {"name": "string array with all", "calc": 3145727, "setMax": 20, "set": 62, "gen": "genArrayWithRule", "args": ["string", "self.all(x, true)"]},
  {"name": "boolean array with all", "calc": 1887437, "setMax": 5, "set": 17, "gen": "genArrayWithRule", "args": ["boolean", "self.all(x, true)"]},
  {"name": "array of number arrays with all", "calc": 3145727, "setMax": 100, "set": 302, "gen": "genArrayOfArraysWithRule", "args": ["number", "self.all(x, true)"]},
  {"name": "array of objects with all", "calc": 555128, "setMax": 50, "set": 152, "gen": "genObjectArrayWithRule", "args": ["self.all(x, true)"]},
  {"name": "map of numbers with all", "calc": 1348169, "setMax": 10, "set": 32, "gen": "genMapWithRule", "args": ["number", "self.all(x, true)"]},
  {"name": "map of numbers with has", "calc": 0, "setMax": 100, "set": 0, "gen": "genMapWithRule", "args": ["number", "has(self.x)"]},
  {"name": "map of strings with all", "calc": 1179647, "setMax": 3, "set": 11, "gen": "genMapWithRule", "args": ["string", "self.all(x, true)"]},
  {"name": "map of strings with has", "calc": 0, "setMax": 550, "set": 0, "gen": "genMapWithRule", "args": ["string", "has(self.x)"]},
  {"name": "map of booleans with all", "calc": 943718, "setMax": 100, "set": 302, "gen": "genMapWithRule", "args": ["boolean", "self.all(x, true)"]},
  {"name": "map of booleans with has", "calc": 0, "setMax": 1024, "set": 0, "gen": "genMapWithRule", "args": ["boolean", "has(self.x)"]},
  {"name": "string with contains", "calc": 314574, "setMax": 10, "set": 5, "gen": "genStringWithRule", "args": ["self.contains('test')"]},
  {"name": "string with startsWith", "calc": 2, "setMax": 15, "set": 2, "gen": "genStringWithRule", "args": ["self.startsWith('test')"]},
  {"name": "string with endsWith", "calc": 2, "setMax": 30, "set": 2, "gen": "genStringWithRule", "args": ["self.endsWith('test')"]},
  {"name": "concat string", "calc": 314578, "setMax": 4, "set": 7, "gen": "genStringWithRule", "args": ["size(self + \"hello\") > size(\"hello\")"]},
  {"name": "index of array with numbers", "calc": 2, "setMax": 5000, "set": 2, "gen": "genArrayWithRule", "args": ["number", "self[1] == 0.0"]},
  {"name": "index of array with strings", "calc": 314577, "setMax": 8, "set": 314577, "gen": "genArrayWithRule", "args": ["string", "self[1] == self[1]"]},
  {"name": "O(n^2) loop with numbers", "setMax": 10, "set": 352, "gen": "genArrayWithRule", "args": ["number", "self.all(x, self.all(y, true))"]},
  {"name": "O(n^3) loop with numbers", "setMax": 10, "set": 3552, "gen": "genArrayWithRule", "args": ["number", "self.all(x, self.all(y, self.all(z, true)))"]},
  {"name": "regex matches simple", "calc": 314574, "setMax": 50, "set": 22, "gen": "genStringWithRule", "args": ["self.matches(\"x\")"]},
  {"name": "regex matches empty string", "calc": 7, "setMax": 10, "set": 7, "gen": "genStringWithRule", "args": ["\"\".matches(\"(((((((((())))))))))[0-9]\")"]},
  {"name": "regex matches empty regex", "calc": 1, "setMax": 100, "set": 1, "gen": "genStringWithRule", "args": ["self.matches(\"\")"]},
  {"name": "map of strings with value length", "calc": 2752507, "setMax": 10, "set": 72, "gen": "genNestedSpecWithRule", "args": ["self.all(x, x.contains(self[x]))"]},
  {"name": "set array maxLength to zero", "calc": 2, "setMax": 0, "set": 2, "gen": "genArrayWithRule", "args": ["number", "self[3] == 0.0"]},
  {"name": "set map maxLength to zero", "calc": 2, "setMax": 0, "set": 2, "gen": "genMapWithRule", "args": ["number", "self[\"x\"] == 0.0"]},
  {"name": "set string maxLength to zero", "calc": 2, "setMax": 0, "set": 1, "gen": "genStringWithRule", "args": ["self == \"x\""]},
  {"name": "set bytes maxLength to zero", "calc": 2, "setMax": 0, "set": 1, "gen": "genBytesWithRule", "args": ["self == b\"x\""]},
  {"name": "set maxLength greater than estimated maxLength", "calc": 6291454, "setMax": 6291456, "set": 25165826, "gen": "genArrayWithRule", "args": ["number", "self.all(x, x == 0.0)"]},
  {"name": "nested types with root rule with all supporting maxLength", "calc": 7340027, "setMax": 10, "set": 72, "gen": "genAllMaxNestedSpecWithRootRule", "args": ["self.all(x, x[\"y\"].required == \"z\")"]},
  {"name": "nested types with root rule with one supporting maxLength", "calc": 7340027, "setMax": 10, "set": 7340027, "gen": "genOneMaxNestedSpecWithRootRule", "args": ["self.all(x, x[\"y\"].required == \"z\")"]},
  {"name": "int-or-string array with all", "calc": 4718591, "setMax": 10, "set": 32, "gen": "genArrayWithRule", "args": ["int-or-string", "self.all(x, true)"]},
  {"name": "index of array with int-or-strings", "calc": 3, "setMax": 10, "set": 3, "gen": "genArrayWithRule", "args": ["int-or-string", "self[0] == 5"]},
  {"name": "index of array with booleans", "calc": 2, "setMax": 25, "set": 2, "gen": "genArrayWithRule", "args": ["boolean", "self[0] == false"]},
  {"name": "index of array of objects", "calc": 2, "setMax": 422, "set": 2, "gen": "genObjectArrayWithRule", "args": ["self[0] == null"]},
  {"name": "index of array of array of numnbers", "calc": 3, "setMax": 51, "set": 3, "gen": "genArrayOfArraysWithRule", "args": ["number", "self[0][0] == -1.0"]},
  {"name": "array of number maps with all", "calc": 6291452, "setMax": 12, "set": 74, "gen": "getMapArrayWithRule", "args": ["number", "self.all(x, x.y == 25.2)"]},
  {"name": "index of array of number maps", "calc": 4, "setMax": 3000, "set": 4, "gen": "getMapArrayWithRule", "args": ["number", "self[0].x > 2.0"]},
  {"name": "duration array with all", "calc": 2359295, "setMax": 5, "set": 17, "gen": "genArrayWithRule", "args": ["duration", "self.all(x, true)"]},
  {"name": "index of duration array", "calc": 4, "setMax": 525, "set": 4, "gen": "genArrayWithRule", "args": ["duration", "self[0].getHours() == 2"]},
  {"name": "date array with all", "calc": 725936, "setMax": 15, "set": 47, "gen": "genArrayWithRule", "args": ["date", "self.all(x, true)"]},
  {"name": "index of date array", "calc": 4, "setMax": 42, "set": 4, "gen": "genArrayWithRule", "args": ["date", "self[2].getDayOfMonth() == 13"]},
  {"name": "date-time array with all", "calc": 428963, "setMax": 25, "set": 77, "gen": "genArrayWithRule", "args": ["date-time", "self.all(x, true)"]},
  {"name": "index of date-time array", "calc": 4, "setMax": 99, "set": 4, "gen": "genArrayWithRule", "args": ["date-time", "self[2].getMinutes() == 45"]},
  {"name": "map of int-or-strings with all", "calc": 1348169, "setMax": 15, "set": 47, "gen": "genMapWithRule", "args": ["int-or-string", "self.all(x, true)"]},
  {"name": "map of int-or-strings with has", "calc": 0, "setMax": 5000, "set": 0, "gen": "genMapWithRule", "args": ["int-or-string", "has(self.x)"]},
  {"name": "map of objects with all", "calc": 428963, "setMax": 20, "set": 62, "gen": "genMapWithCustomItemRule", "args": [{"gen": "genObjectForMap"}, "self.all(x, true)"]},
  {"name": "map of objects with has", "calc": 0, "setMax": 9001, "set": 0, "gen": "genMapWithCustomItemRule", "args": [{"gen": "genObjectForMap"}, "has(self.x)"]},
  {"name": "map of number maps with all", "calc": 1179647, "setMax": 10, "set": 32, "gen": "genMapWithCustomItemRule", "args": [{"gen": "genMapForMap"}, "self.all(x, true)"]},
  {"name": "map of number maps with has", "calc": 0, "setMax": 101, "set": 0, "gen": "genMapWithCustomItemRule", "args": [{"gen": "genMapForMap"}, "has(self.x)"]},
  {"name": "map of number arrays with all", "calc": 1179647, "setMax": 25, "set": 77, "gen": "genMapWithCustomItemRule", "args": [{"gen": "genArrayForMap"}, "self.all(x, true)"]},
  {"name": "map of number arrays with has", "calc": 0, "setMax": 40000, "set": 0, "gen": "genMapWithCustomItemRule", "args": [{"gen": "genArrayForMap"}, "has(self.x)"]},
  {"name": "map of durations with all", "calc": 1048577, "setMax": 5, "set": 17, "gen": "genMapWithRule", "args": ["duration", "self.all(x, true)"]},
  {"name": "map of durations with has", "calc": 0, "setMax": 256, "set": 0, "gen": "genMapWithRule", "args": ["duration", "has(self.x)"]},
  {"name": "map of dates with all", "calc": 524288, "setMax": 10, "set": 32, "gen": "genMapWithRule", "args": ["date", "self.all(x, true)"]},
  {"name": "map of dates with has", "calc": 0, "setMax": 65536, "set": 0, "gen": "genMapWithRule", "args": ["date", "has(self.x)"]},
  {"name": "map of date-times with all", "calc": 349526, "setMax": 25, "set": 77, "gen": "genMapWithRule", "args": ["date-time", "self.all(x, true)"]},
  {"name": "map of date-times with has", "calc": 0, "setMax": 490, "set": 0, "gen": "genMapWithRule", "args": ["date-time", "has(self.x)"]},
  {"name": "extended library regex find", "calc": 629147, "setMax": 10, "set": 11, "gen": "genStringWithRule", "args": ["self.find('[0-9]+') == ''"]},
  {"name": "check cost of size call", "calc": 5, "setMax": 10, "set": 5, "gen": "genMapWithRule", "args": ["integer", "oldSelf.size() == self.size()"]},
  {"name": "check cost of timestamp comparison", "calc": 8, "setMax": 7, "set": 8, "gen": "genMapWithRule", "args": ["date-time", "self[\"a\"] == self[\"b\"]"]},
  {"name": "check cost of duration comparison", "calc": 8, "setMax": 42, "set": 8, "gen": "genMapWithRule", "args": ["duration", "self[\"c\"] == self[\"d\"]"]},
  {"name": "enums with maxLength equals to the longest possible value", "calc": 2, "setMax": 1000, "set": 401, "gen": "genEnumWithRuleAndValues", "args": ["self.contains('A')", "A", "B", "C", "LongValue"]},
  {"name": "extended library join", "gen": "custom", "args": ["join"], "calc": 329853068905, "setMax": 10, "set": 43},
  {"name": "extended library isSorted", "gen": "custom", "args": ["isSorted"], "calc": 329854432052, "setMax": 10, "set": 52},
  {"name": "extended library replace", "gen": "custom", "args": ["replace"], "calc": 629154, "setMax": 4, "set": 12},
  {"name": "extended library split", "gen": "custom", "args": ["split"], "calc": 629160, "setMax": 10, "set": 22},
  {"name": "extended library lowerAscii", "gen": "custom", "args": ["lowerAscii"], "calc": 314575, "setMax": 10, "set": 6},
  {"name": "IntOrString type with quantity rule", "gen": "custom", "args": ["quantity"], "calc": 314574, "setMax": 20, "set": 9},
];

/** Cases that cannot pass here, by name, each with its reason. */
const SKIP: Record<string, string> = {};

/** parseRuleType: formats are strings with a format; int-or-string has no type. */
function ruleType(t: string): JSONSchemaProps {
  if (t === 'duration' || t === 'date' || t === 'date-time') return { type: 'string', format: t };
  if (t === 'int-or-string') return { 'x-kubernetes-int-or-string': true };
  return { type: t };
}

const reqObject = (): JSONSchemaProps => ({ type: 'object', required: ['required'], properties: { required: { type: 'string' }, optional: { type: 'string' } } });
const rules = (rule: string) => ({ 'x-kubernetes-validations': [{ rule }] });
const opt = <K extends string>(k: K, v: number | undefined): Partial<Record<K, number>> => (v === undefined ? {} : ({ [k]: v } as Record<K, number>));

const ITEMS: Record<string, () => JSONSchemaProps> = {
  genObjectForMap: reqObject,
  genArrayForMap: () => ({ type: 'array', items: { type: 'number' } }),
  genMapForMap: () => ({ type: 'object', additionalProperties: { type: 'number' } }),
};

function generate(c: Case, max: number | undefined): JSONSchemaProps {
  const [a0, a1] = c.args;
  const s = (x: unknown) => x as string;
  switch (c.gen) {
    case 'genArrayWithRule':
      return { type: 'array', items: ruleType(s(a0)), ...opt('maxItems', max), ...rules(s(a1)) };
    case 'genArrayOfArraysWithRule':
      return { type: 'array', items: { type: 'array', items: { type: s(a0) } }, ...opt('maxItems', max), ...rules(s(a1)) };
    case 'genObjectArrayWithRule':
      return { type: 'array', items: reqObject(), ...opt('maxItems', max), ...rules(s(a0)) };
    case 'getMapArrayWithRule':
      return { type: 'array', items: { type: 'object', additionalProperties: { type: s(a0) } }, ...opt('maxItems', max), ...rules(s(a1)) };
    case 'genMapWithRule':
      return { type: 'object', additionalProperties: ruleType(s(a0)), ...opt('maxProperties', max), ...rules(s(a1)) };
    case 'genMapWithCustomItemRule':
      return { type: 'object', additionalProperties: ITEMS[(a0 as { gen: string }).gen]!(), ...opt('maxProperties', max), ...rules(s(a1)) };
    case 'genStringWithRule':
      return { type: 'string', ...opt('maxLength', max), ...rules(s(a0)) };
    case 'genEnumWithRuleAndValues':
      return { type: 'string', ...opt('maxLength', max), enum: c.args.slice(1) as string[], ...rules(s(a0)) };
    case 'genBytesWithRule':
      return { type: 'string', format: 'byte', ...opt('maxLength', max), ...rules(s(a0)) };
    case 'genNestedSpecWithRule':
      return { type: 'object', additionalProperties: { type: 'string', ...opt('maxLength', max) }, ...opt('maxProperties', max), ...rules(s(a0)) };
    case 'genAllMaxNestedSpecWithRootRule':
      return {
        type: 'array',
        items: { type: 'object', additionalProperties: { ...reqObject(), ...opt('maxProperties', max) }, ...opt('maxProperties', max) },
        ...opt('maxItems', max),
        ...rules(s(a0)),
      };
    case 'genOneMaxNestedSpecWithRootRule':
      // only the items' maxProperties follows the max
      return { type: 'array', items: { type: 'object', additionalProperties: reqObject(), ...opt('maxProperties', max) }, ...rules(s(a0)) };
    case 'custom':
      switch (a0) {
        case 'join':
        case 'isSorted':
          return {
            type: 'array',
            items: { type: 'string', ...opt('maxLength', max) },
            ...opt('maxItems', max),
            ...rules(a0 === 'join' ? "self.join(' ') == 'aa bb'" : 'self.isSorted() == true'),
          };
        case 'replace':
          return {
            type: 'object',
            properties: { str: { type: 'string', ...opt('maxLength', max) }, before: { type: 'string', maxLength: 2 }, after: { type: 'string', maxLength: 4 } },
            ...rules("self.str.replace(self.before, self.after) == 'does not matter'"),
          };
        case 'split':
          return {
            type: 'object',
            properties: { str: { type: 'string', ...opt('maxLength', max) }, separator: { type: 'string', ...opt('maxLength', max) } },
            ...rules('self.str.split(self.separator) == []'),
          };
        case 'lowerAscii':
          return { type: 'string', ...opt('maxLength', max), ...rules("self.lowerAscii() == 'lower!'") };
        case 'quantity':
          return { 'x-kubernetes-int-or-string': true, ...opt('maxLength', max), ...rules('isQuantity(self)') };
      }
  }
  throw new Error(`unknown generator ${c.gen} ${JSON.stringify(c.args)}`);
}

function check(c: Case, max: number | undefined, want: number | undefined, atLeast: number | undefined): string | undefined {
  const s = newStructural(generate(c, max))!;
  const [r] = compileRules(s, schemaDeclType(s, false));
  if (r === undefined) return 'no rule';
  if (r.error) return `compile error: ${r.error.detail}`;
  if (want !== undefined && want > 0 && r.maxCost !== BigInt(want)) return `cost ${r.maxCost}, want ${want}`;
  if (atLeast !== undefined && atLeast > 0 && r.maxCost < BigInt(atLeast)) return `cost ${r.maxCost}, want at least ${atLeast}`;
  return undefined;
}

test('estimated costs (compilation_test.go TestCostEstimation)', () => {
  let passed = 0;
  let skipped = 0;
  const failures: string[] = [];
  for (const c of CASES) {
    if (SKIP[c.name] !== undefined) {
      skipped++;
      continue;
    }
    for (const [label, max, want, atLeast] of [
      ['calc maxLength', undefined, c.calc, c.calcExceeds],
      ['set maxLength', c.setMax, c.set, c.setExceeds],
    ] as const) {
      const f = check(c, max, want, atLeast);
      if (f === undefined) passed++;
      else failures.push(`${c.name} (${label}): ${f}`);
    }
  }
  console.log(`TestCostEstimation: ${passed} passed, ${failures.length} failed, ${skipped} skipped (cases x 2)`);
  assert.deepEqual(failures, []);
});

test('metadata.name and generateName costs are bounded by the name length (TestMetadataNameCostIsBounded)', () => {
  for (const rule of ["self.metadata.name.contains('x')", "self.metadata.generateName.contains('x')"]) {
    const s = newStructural({ type: 'object', 'x-kubernetes-validations': [{ rule }] })!;
    const [r] = compileRules(s, schemaDeclType(s, true));
    assert.equal(r!.error, undefined);
    assert.ok(r!.maxCost > 0n && r!.maxCost <= 10000n, `${rule}: ${r!.maxCost}`);
  }
});
