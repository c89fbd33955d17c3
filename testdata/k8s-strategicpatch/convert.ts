/**
 * Converts the test tables of k8s.io/apimachinery/pkg/util/strategicpatch/patch_test.go into
 * vectors.json: every case where upstream applies a patch (StrategicMergePatchUsingLookupPatchMeta)
 * becomes {original, patch, expected | expectedError}. Tables whose upstream harness sorts merge
 * lists first (sortMergeListsByName) are stored sorted, as upstream feeds them.
 *
 *   npx tsx testdata/k8s-strategicpatch/convert.ts path/to/patch_test.go <commit>
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { parse } from 'yaml';
import { OpenAPIV3PatchMeta, type PatchMetaLookup } from '../../src/apimachinery/patch/strategic/index.ts';
import { goKind, goSprint, isMap, type JSONMap } from '../../src/apimachinery/patch/strategic/go-value.ts';
import { deduplicateScalars } from '../../src/apimachinery/patch/strategic/merge.ts';

const [goFile, commit] = process.argv.slice(2);
if (!goFile || !commit) throw new Error('usage: convert.ts patch_test.go <commit>');
const src = readFileSync(goFile, 'utf8');
const here = new URL('.', import.meta.url);
const doc = (f: string) => JSON.parse(readFileSync(new URL(f, here), 'utf8'));
const mergeItem = OpenAPIV3PatchMeta.forSchema(doc('swagger-merge-item-v3.json'), 'mergeItem')!;

// sigs.k8s.io/yaml reads YAML 1.1 (go-yaml v2) and hands the JSON to encoding/json.
const yamlToJSON = (y: string | undefined): unknown => (y === undefined ? null : (parse(y, { version: '1.1' }) ?? null));

/** The Go source of `var <name> = ...` up to the next top-level declaration. */
function block(name: string): string {
  const start = src.indexOf(`var ${name} = `);
  if (start < 0) throw new Error(`no ${name}`);
  const end = src.slice(start + 1).search(/\n(func|var|type) /);
  return src.slice(start, start + 1 + end);
}

function yamlBlock(name: string): Array<Record<string, unknown>> {
  const b = block(name);
  return (yamlToJSON(b.slice(b.indexOf('`') + 1, b.lastIndexOf('`'))) as { testCases: Array<Record<string, unknown>> }).testCases;
}

/** The StrategicMergePatchRawTestCase literals of a table: description and raw fields. */
function rawBlock(name: string): Array<{ description: string; fields: Record<string, string> }> {
  const b = block(name);
  const starts = [...b.matchAll(/Description:\s*"((?:[^"\\]|\\.)*)"/g)];
  return starts.map((m, i) => {
    const body = b.slice(m.index!, i + 1 < starts.length ? starts[i + 1]!.index : b.length);
    const fields: Record<string, string> = {};
    for (const f of body.matchAll(/(\w+):\s*\[\]byte\(`([^`]*)`\)/g)) fields[f[1]!] = f[2]!;
    const ee = /ExpectedError:\s*"((?:[^"\\]|\\.)*)"/.exec(body);
    if (ee) fields.ExpectedError = JSON.parse(`"${ee[1]}"`);
    return { description: JSON.parse(`"${m[1]}"`), fields };
  });
}

// sortMergeListsByName, the helper upstream's harness runs over its YAML tables.
const vLess = (a: unknown, b: unknown) => {
  const x = goSprint(a);
  const y = goSprint(b);
  return x < y ? -1 : x > y ? 1 : 0;
};
function sortMap(s: JSONMap, schema: PatchMetaLookup): JSONMap {
  const out: JSONMap = {};
  for (const [k, v0] of Object.entries(s)) {
    let v = v0;
    if (k === '$retainKeys' || k.startsWith('$deleteFromPrimitiveList')) v = [...(v as unknown[])].sort(vLess);
    else if (k.startsWith('$setElementOrder') || k === '$patch') v = v0;
    else if (isMap(v)) v = sortMap(v, schema.lookupPatchMetadataForStruct(k).schema);
    else if (Array.isArray(v)) {
      const { schema: sub, meta } = schema.lookupPatchMetadataForSlice(k);
      const strategy = meta.strategies.filter((x) => x !== 'retainKeys')[0] ?? '';
      if (strategy === 'merge' && v.length > 0) {
        if (goKind(v[0]) !== 'map') v = deduplicateScalars([...v]).sort(vLess);
        else v = v.map((e) => sortMap(e as JSONMap, sub)).sort((a, b) => vLess(a[meta.mergeKey], b[meta.mergeKey]));
      }
    }
    out[k] = v;
  }
  return out;
}
const sorted = (v: unknown): unknown => (v === null || v === undefined ? null : sortMap(v as JSONMap, mergeItem));
const orEmpty = (v: unknown): unknown => v ?? {};

interface Vector {
  name: string;
  schema: 'mergeItem' | 'precisionItem';
  original: unknown;
  patch: unknown;
  expected?: unknown;
  expectedError?: string;
  originalText?: string;
  patchText?: string;
}
const cases: Vector[] = [];
const skipped: Array<{ name: string; reason: string }> = [];
const has = (o: Record<string, unknown>, k: string) => o[k] !== undefined && o[k] !== null;

// TestCustomStrategicMergePatch: the two-way patch applied to original (sorted).
for (const c of yamlBlock('customStrategicMergePatchTestCaseData')) {
  cases.push({
    name: `custom/${c.description}/twoWay`,
    schema: 'mergeItem',
    original: orEmpty(sorted(c.original)),
    patch: orEmpty(sorted(c.twoWay)),
    expected: sorted(c.twoWayResult ?? c.modified),
  });
}

/** The raw tables: two-way and three-way, as raw YAML converted to JSON (no sorting). */
function raw(table: string, prefix: string): void {
  for (const { description, fields: f } of rawBlock(table)) {
    const twoWayExpected = yamlToJSON(f.TwoWayResult ?? f.Modified);
    const err = f.ExpectedError;
    cases.push({
      name: `${prefix}/${description}/twoWay`,
      schema: 'mergeItem',
      original: orEmpty(yamlToJSON(f.Original)),
      patch: orEmpty(yamlToJSON(f.TwoWay)),
      ...(err !== undefined ? { expectedError: err } : { expected: twoWayExpected }),
    });
    if (prefix === 'customRaw') continue; // upstream applies only the two-way patch of these
    const result = yamlToJSON(f.Result);
    if (result === null) {
      skipped.push({ name: `${prefix}/${description}/threeWay`, reason: 'upstream asserts only that computing the three-way patch conflicts; no patch is applied' });
      continue;
    }
    cases.push({
      name: `${prefix}/${description}/threeWay`,
      schema: 'mergeItem',
      original: orEmpty(yamlToJSON(f.Current)),
      patch: orEmpty(yamlToJSON(f.ThreeWay)),
      ...(err !== undefined ? { expectedError: err } : { expected: result }),
    });
  }
}
raw('customStrategicMergePatchRawTestCases', 'customRaw');

// TestStrategicMergePatch: the YAML table, two-way on original and three-way on current (sorted).
for (const c of yamlBlock('createStrategicMergePatchTestCaseData')) {
  cases.push({
    name: `create/${c.description}/twoWay`,
    schema: 'mergeItem',
    original: orEmpty(sorted(c.original)),
    patch: orEmpty(sorted(c.twoWay)),
    expected: sorted(c.twoWayResult ?? c.modified),
  });
  if (!has(c, 'result')) {
    skipped.push({ name: `create/${c.description}/threeWay`, reason: 'upstream asserts only that computing the three-way patch conflicts; no patch is applied' });
    continue;
  }
  cases.push({
    name: `create/${c.description}/threeWay`,
    schema: 'mergeItem',
    original: orEmpty(sorted(c.current)),
    patch: orEmpty(sorted(c.threeWay)),
    expected: sorted(c.result),
  });
}
raw('strategicMergePatchRawTestCases', 'raw');
raw('replaceRawExtensionPatchTestCases', 'rawExtension');

// TestStrategicMergePatch's error cases on JSON text.
cases.push({ name: 'errors/bad original', schema: 'mergeItem', original: null, patch: null, originalText: '<THIS IS NOT JSON>', patchText: '{}', expectedError: 'invalid JSON document' });
cases.push({ name: 'errors/bad patch', schema: 'mergeItem', original: null, patch: null, originalText: '{}', patchText: '<THIS IS NOT JSON>', expectedError: 'invalid JSON document' });
skipped.push({ name: 'errors/bad struct', reason: 'PatchMetaFromStruct (Go struct tags); only the OpenAPI v3 lookup exists here' });
skipped.push({ name: 'errors/nil struct', reason: 'PatchMetaFromStruct (Go struct tags); only the OpenAPI v3 lookup exists here' });

/** A Go map literal of test cases: `"name": { Field: `...`, ... },` with backquoted or quoted strings. */
function goMapCases(fn: string): Array<{ name: string; fields: Record<string, string> }> {
  const start = src.indexOf(`func ${fn}(`);
  const body = src.slice(start, src.indexOf('\n}\n', start));
  const out: Array<{ name: string; fields: Record<string, string> }> = [];
  const heads = [...body.matchAll(/\n\t\t"([^"]+)": \{\n/g)];
  heads.forEach((h, i) => {
    const part = body.slice(h.index!, i + 1 < heads.length ? heads[i + 1]!.index : body.length);
    const fields: Record<string, string> = {};
    for (const f of part.matchAll(/(\w+):\s*`([^`]*)`/g)) fields[f[1]!] = f[2]!;
    out.push({ name: h[1]!, fields });
  });
  return out;
}

// TestNumberConversion: the expected patch applied to Old.
for (const { name, fields: f } of goMapCases('TestNumberConversion')) {
  const n = `numbers/${name}`;
  if (name === 'int64 max') {
    skipped.push({ name: n, reason: '9223372036854775807 is not representable as a JavaScript number; request bodies are decoded with JSON.parse' });
    continue;
  }
  cases.push({ name: n, schema: 'precisionItem', original: JSON.parse(f.Old!), patch: JSON.parse(f.ExpectedPatch!), expected: JSON.parse(f.ExpectedResult!) });
}

// TestUnknownField: the expected patches applied to Original and Current.
for (const { name, fields: f } of goMapCases('TestUnknownField')) {
  for (const [dir, base, patch, result, err] of [
    ['twoWay', f.Original, f.ExpectedTwoWay, f.ExpectedTwoWayResult, f.ExpectedTwoWayErr],
    ['threeWay', f.Current, f.ExpectedThreeWay, f.ExpectedThreeWayResult, f.ExpectedThreeWayErr],
  ] as const) {
    const n = `unknownField/${name}/${dir}`;
    if (err !== undefined) {
      skipped.push({ name: n, reason: `upstream asserts only that computing the patch fails (${err}); no patch is applied` });
      continue;
    }
    cases.push({ name: n, schema: 'mergeItem', original: JSON.parse(base!), patch: JSON.parse(patch!), expected: JSON.parse(result!) });
  }
}

const out = {
  description: 'Strategic merge patch application cases from k8s.io/apimachinery/pkg/util/strategicpatch/patch_test.go, against the OpenAPI v3 test schemas (swagger-*-v3.json)',
  source: `kubernetes/apimachinery@${commit} pkg/util/strategicpatch/patch_test.go`,
  license: 'Apache-2.0',
  conventions:
    'Apply `patch` to `original` with the lookup for components.schemas[`schema`] of testdata/k8s-strategicpatch/swagger-<schema>-v3.json. ' +
    '`expected`: the result must deep-equal it (object key order ignored, list order significant). ' +
    '`expectedError`: the call must fail with an error whose message contains it (upstream matches substrings). ' +
    '`originalText`/`patchText`: apply to the JSON text instead (StrategicMergePatchUsingLookupPatchMeta). ' +
    'Tables marked sorted upstream (custom/, create/) are stored after sortMergeListsByName, exactly as upstream feeds them.',
  count: cases.length,
  cases,
  skipped,
};
writeFileSync(new URL('vectors.json', here), JSON.stringify(out, null, 1) + '\n');
console.log(`${cases.length} cases, ${skipped.length} skipped`);
