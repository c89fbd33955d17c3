/**
 * structured-merge-diff's merge tests as data (testdata/smd/merge.json): sequences of applies and
 * updates by named managers, each checked for the conflicts it must raise, then the final object
 * and managed fields — both as the upstream test states them and exactly as upstream's code left
 * them. The upstream tests' version converters are ported here as test fixtures.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parse as parseYAML } from 'yaml';
import { deserializeElement } from '../fieldpath/element.ts';
import { managedFieldsDifference, versionedSet, type ManagedFields } from '../fieldpath/managers.ts';
import { setToJSON } from '../fieldpath/serialize.ts';
import { excludeSetFilter, type Filter, type FieldSet } from '../fieldpath/set.ts';
import { parseSchema, type Schema, type TypeRef } from '../schema/schema.ts';
import { asTyped, type TypedValue } from '../typed/typed.ts';
import { equals, isMap, type Value } from '../value.ts';
import { loadVectors, runVectors, setOfJSON, Tally } from '../vectors.ts';
import { ConflictsError, conflictsEqual, conflictsString, type Conflict } from './conflict.ts';
import { sameVersionConverter, Updater, type Converter } from './update.ts';

interface Op {
  op: 'apply' | 'forceApply' | 'update' | 'extractApply' | 'changeParser';
  manager?: string;
  apiVersion?: string;
  object?: string;
  objectJSON?: Value;
  conflicts?: { manager: string; path: string[] }[] | null;
  schema: string;
  typeRef?: string;
}

interface Managed {
  apiVersion: string;
  applied: boolean;
  fieldsV1: string;
}

interface Case {
  name: string;
  converter: string;
  ops: Op[];
  object: string | null;
  apiVersion: string;
  managed: Record<string, Managed> | null;
  returnInputOnNoop: boolean;
  ignoredFields: Record<string, string>;
  ignoreFilter: Record<string, { exclude?: string; unsupported?: string }>;
  upstreamError: string;
  failedOp: number;
  actual: { live: Value; managers: Record<string, Managed> | null };
}

const file = loadVectors<{ schemas: Record<string, string>; cases: Case[] }>('merge.json');
const schemas = new Map<string, Schema>(Object.entries(file.schemas).map(([id, text]) => [id, parseSchema(text)]));
const tally = new Tally('smd merge');

/** yaml.v2, which the upstream tests parse with, reads YAML 1.1. */
function yaml(text: string): Value {
  const v = parseYAML(text, { version: '1.1' }) as Value;
  return v === undefined ? null : v;
}

const missingVersion = new Error('cannot convert to invalid version');

/** The named type of a version: upstream's multi-version test schemas name each type after it. */
function typeOf(_schema: Schema, version: string): TypeRef {
  return { namedType: version };
}

/** renamingConverter: field names ending in the version are renamed to the target version. */
function renamingConverter(schema: () => Schema): Converter {
  const rename = (v: Value, from: string, to: string): Value => {
    if (isMap(v)) {
      const out: Record<string, unknown> = {};
      for (const [k, x] of Object.entries(v)) out[k.endsWith(from) ? k.slice(0, k.length - from.length) + to : k] = rename(x, from, to);
      return out;
    }
    if (Array.isArray(v)) return v.map((x) => rename(x, from, to));
    return v;
  };
  return {
    convert: (tv, version) => asTyped(rename(tv.value, tv.typeRef.namedType!, version), schema(), typeOf(schema(), version)),
    isMissingVersionError: (e) => e === missingVersion,
  };
}

/** reliantFieldsConverter: v1's field_foo_rely_on_bar is v2's required_field_bar. */
function reliantFieldsConverter(schema: () => Schema): Converter {
  return {
    convert: (tv, version) => {
      if (tv.typeRef.namedType === version) return tv;
      const text = JSON.stringify(tv.value);
      let out: string;
      if (version === 'v1') {
        if (!text.includes('required_field_bar')) throw new Error('missing requried field bar');
        out = text.replaceAll('required_field_bar', 'field_foo_rely_on_bar');
      } else if (version === 'v2') out = text.replaceAll('field_foo_rely_on_bar', 'required_field_bar');
      else throw missingVersion;
      return asTyped(JSON.parse(out), schema(), typeOf(schema(), version));
    },
    isMissingVersionError: (e) => e === missingVersion,
  };
}

/**
 * repeatingConverter: in version vN every key below the first top-level field is its first
 * letter N times (upstream does this on the YAML text, which keeps only the first top-level key
 * and turns every nested value into a map of such keys or null).
 */
function repeatingConverter(schema: () => Schema): Converter {
  const rec = (v: Value, n: number): Value => {
    if (!isMap(v) || Object.keys(v).length === 0) return null;
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(v).sort()) out[k[0]!.repeat(n)] = rec(v[k], n);
    return out;
  };
  return {
    convert: (tv, version) => {
      const m = /^v([0-9]+)$/.exec(version);
      if (m === null) throw missingVersion;
      const n = Number(m[1]);
      let value: Value = tv.value;
      if (isMap(value) && Object.keys(value).length > 0) {
        const top = Object.keys(value).sort()[0]!;
        const inner = value[top];
        value = { [top]: isMap(inner) && Object.keys(inner).length > 0 ? rec(inner, n) : inner };
      }
      // The upstream test's parser has one type for every version.
      return asTyped(value, schema(), tv.typeRef);
    },
    isMissingVersionError: (e) => e === missingVersion,
  };
}

function managedOf(m: Record<string, Managed>): ManagedFields {
  return new Map(Object.entries(m).map(([k, v]) => [k, versionedSet(setOfJSON(v.fieldsV1), v.apiVersion, v.applied)]));
}

function managedJSON(m: ManagedFields): Record<string, Managed> {
  return Object.fromEntries([...m].sort(([a], [b]) => (a < b ? -1 : 1)).map(([k, v]) => [k, { apiVersion: v.apiVersion, applied: v.applied, fieldsV1: setToJSON(v.set) }]));
}

function sortedJSON(m: Record<string, Managed> | null): Record<string, Managed> {
  return Object.fromEntries(Object.entries(m ?? {}).sort(([a], [b]) => (a < b ? -1 : 1)));
}

/** Skips: key is the case name. */
const skip: Record<string, string> = {};

function run(c: Case): void {
  let schema = schemas.get(c.ops.find((o) => o.schema !== undefined)?.schema ?? 's0')!;
  let schemaOverride: Schema | undefined;
  const currentSchema = () => schemaOverride ?? schema;
  const converter: Converter = {
    '*fixture.dummyConverter': sameVersionConverter,
    'merge_test.renamingConverter': renamingConverter(currentSchema),
    'merge_test.reliantFieldsConverter': reliantFieldsConverter(currentSchema),
    'merge_test.repeatingConverter': repeatingConverter(currentSchema),
  }[c.converter]!;
  assert.ok(converter !== undefined, `no converter ${c.converter}`);
  const ignoreFilter = new Map<string, Filter>();
  for (const [v, f] of Object.entries(c.ignoreFilter)) {
    assert.ok(f.exclude !== undefined, `unsupported filter ${f.unsupported}`);
    ignoreFilter.set(v, excludeSetFilter(setOfJSON(f.exclude)));
  }
  const ignoredFields = new Map<string, FieldSet>(Object.entries(c.ignoredFields).map(([v, s]) => [v, setOfJSON(s)]));
  const updater = new Updater({
    converter,
    ignoreFilter: Object.keys(c.ignoreFilter).length > 0 ? ignoreFilter : undefined,
    ignoredFields: Object.keys(c.ignoredFields).length > 0 ? ignoredFields : undefined,
    returnInputOnNoop: c.returnInputOnNoop,
  });
  let live: TypedValue | undefined;
  let managers: ManagedFields = new Map();

  const typeFor = (op: Op): [Schema, TypeRef] => {
    schema = schemas.get(op.schema)!;
    return [currentSchema(), parseYAML(op.typeRef!) as TypeRef];
  };
  const parse = (op: Op, allowDuplicates: boolean): TypedValue => {
    const [s, tr] = typeFor(op);
    const v = op.objectJSON !== undefined ? op.objectJSON : yaml(op.object!);
    return asTyped(v, s, tr, { allowDuplicates });
  };
  const init = (op: Op) => {
    if (live === undefined) {
      const [s, tr] = typeFor(op);
      live = asTyped(null, s, tr);
    }
    live = converter.convert(live, op.apiVersion!);
  };
  const apply = (op: Op, tv: TypedValue, force: boolean) => {
    init(op);
    const r = updater.apply(live!, tv, op.apiVersion!, managers, op.manager!, force);
    managers = r.managers;
    if (r.object !== undefined) live = r.object;
  };

  const runOp = (op: Op) => {
    switch (op.op) {
      case 'apply': {
        const tv = parse(op, false);
        try {
          apply(op, tv, false);
          if (op.conflicts !== null && op.conflicts !== undefined && op.conflicts.length > 0) {
            throw new Error(`expected conflicts, got none`);
          }
        } catch (e) {
          if (!(e instanceof ConflictsError) || op.conflicts === null || op.conflicts === undefined) throw e;
          const want: Conflict[] = op.conflicts.map((x) => ({ manager: x.manager, path: x.path.map(deserializeElement) }));
          const got = e.conflicts;
          const missing = want.filter((w) => !got.some((g) => conflictsEqual(g, w)));
          const extra = got.filter((g) => !want.some((w) => conflictsEqual(g, w)));
          if (missing.length + extra.length > 0) {
            throw new Error(`Expected conflicts:\n${conflictsString(want)}\ngot\n${conflictsString(got)}`);
          }
        }
        return;
      }
      case 'forceApply':
        apply(op, parse(op, false), true);
        return;
      case 'extractApply': {
        const tv = parse(op, false);
        if (live === undefined) {
          apply(op, tv, true);
          return;
        }
        const current = converter.convert(live, op.apiVersion!);
        const mgr = managers.get(op.manager!);
        let set = setOfJSON('');
        if (mgr !== undefined) {
          if (mgr.apiVersion !== op.apiVersion) {
            throw new Error(`existing managed fieldpath set APIVersion (${mgr.apiVersion}) differs from desired (${op.apiVersion}), unable to extract`);
          }
          set = mgr.set.leaves();
        }
        apply(op, current.extractItems(set).merge(tv), true);
        return;
      }
      case 'update': {
        const tv = parse(op, true);
        init(op);
        const r = updater.updateObject(live!, tv, op.apiVersion!, managers, op.manager!);
        live = r.object;
        managers = r.managers;
        return;
      }
      case 'changeParser':
        schemaOverride = schemas.get(op.schema)!;
        live = asTyped(live!.value, schemaOverride, live!.typeRef);
        return;
    }
  };

  let failure: string | undefined;
  for (const [i, op] of c.ops.entries()) {
    try {
      runOp(op);
    } catch (e) {
      failure = `failed operation ${i}: ${(e as Error).message}`;
      break;
    }
  }
  if (c.upstreamError !== '') {
    assert.equal(failure, c.upstreamError);
    return;
  }
  if (failure !== undefined) throw new Error(failure);

  if (c.object !== null) {
    const [s, tr] = [currentSchema(), typeOf(currentSchema(), c.apiVersion)];
    const perVersionTypes = c.converter === 'merge_test.renamingConverter' || c.converter === 'merge_test.reliantFieldsConverter';
    const want = asTyped(yaml(c.object), s, perVersionTypes ? tr : live!.typeRef, { allowDuplicates: true });
    const got = converter.convert(live!, c.apiVersion);
    assert.ok(equals(got.value, want.value), `live object: got ${JSON.stringify(got.value)}, want ${JSON.stringify(want.value)}`);
  }
  if (c.managed !== null) {
    const diff = managedFieldsDifference(managers, managedOf(c.managed));
    assert.equal(diff.size, 0, `managed fields differ for ${[...diff.keys()].join(', ')}: got ${JSON.stringify(managedJSON(managers))}`);
  }
  for (const [m, vs] of managers) assert.ok(!vs.set.empty(), `expected Managers to have no empty sets, but found one managed by ${m}`);
  // Exactly upstream's final state, FieldsV1 bytes included.
  assert.ok(equals(live?.value ?? null, c.actual.live), `final live: got ${JSON.stringify(live?.value)}, upstream ${JSON.stringify(c.actual.live)}`);
  assert.deepEqual(managedJSON(managers), sortedJSON(c.actual.managers));
}

test('structured-merge-diff merge vectors', () => {
  runVectors(tally, file.cases, { min: 300, name: (c) => c.name, skip: (c) => skip[c.name], run });
});
