/**
 * structured-merge-diff's typed tests as data (testdata/smd/typed.json): validation with
 * upstream's messages, field sets, comparisons, merges, removal and extraction, each against the
 * schema and type the upstream test used and the result upstream's code produced.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parse as parseYAML } from 'yaml';
import { setToJSON } from '../fieldpath/serialize.ts';
import { parseSchema, type Schema, type TypeRef } from '../schema/schema.ts';
import { equals, type Value } from '../value.ts';
import { loadVectors, runVectors, setOfJSON, Tally } from '../vectors.ts';
import { TypedError } from './errors.ts';
import { reconcileFieldSetWithSchema } from './reconcile.ts';
import { TypedValue } from './typed.ts';

interface Case {
  kind: string;
  where: string;
  schema: string;
  typeRef: string;
  value?: Value;
  allowDuplicates?: boolean;
  error?: string | null;
  set?: string | null;
  lhs?: Value;
  rhs?: Value;
  out?: Value;
  removed?: string;
  modified?: string;
  added?: string;
  items?: string;
  appendKeyFields?: boolean;
}

const file = loadVectors<{ schemas: Record<string, string>; cases: Case[] }>('typed.json');
const schemas = new Map<string, Schema>(Object.entries(file.schemas).map(([id, text]) => [id, parseSchema(text)]));
const tally = new Tally('smd typed');

/** Multi-error messages list Go map entries in random order; compare their lines as a set. */
function normalizeErrors(msg: string): string {
  // yaml.v2 decodes maps with interface{} keys; decoded JSON requests have string keys.
  const m = msg.replaceAll('map[interface {}]interface {}', 'map[string]interface {}');
  if (!m.startsWith('errors:\n')) return m;
  return ['errors:', ...m.split('\n').slice(1).sort()].join('\n');
}

function errorText(fn: () => unknown): string | null {
  try {
    fn();
    return null;
  } catch (e) {
    if (e instanceof TypedError) return e.message;
    throw e;
  }
}

function run(c: Case): void {
  const schema = schemas.get(c.schema)!;
  const tr = parseYAML(c.typeRef) as TypeRef;
  const tv = (v: Value) => new TypedValue(v, schema, tr);
  switch (c.kind) {
    case 'validate': {
      const got = errorText(() => tv(c.value).validate({ allowDuplicates: c.allowDuplicates }));
      assert.equal(got === null ? null : normalizeErrors(got), c.error === null ? null : normalizeErrors(c.error!));
      return;
    }
    case 'toFieldSet': {
      if (c.error !== null) {
        assert.throws(() => tv(c.value).toFieldSet(), TypedError);
        return;
      }
      assert.equal(setToJSON(tv(c.value).toFieldSet()), c.set);
      return;
    }
    case 'compare': {
      if (c.error !== null) {
        assert.throws(() => tv(c.lhs).compare(tv(c.rhs)), TypedError);
        return;
      }
      const got = tv(c.lhs).compare(tv(c.rhs));
      assert.deepEqual(
        { removed: setToJSON(got.removed), modified: setToJSON(got.modified), added: setToJSON(got.added) },
        { removed: c.removed, modified: c.modified, added: c.added },
      );
      return;
    }
    case 'merge': {
      if (c.error !== null) {
        assert.throws(() => tv(c.lhs).merge(tv(c.rhs)), TypedError);
        return;
      }
      const got = tv(c.lhs).merge(tv(c.rhs)).value;
      assert.ok(equals(got, c.out), `merge: got ${JSON.stringify(got)}, want ${JSON.stringify(c.out)}`);
      return;
    }
    case 'removeItems': {
      const got = tv(c.value).removeItems(setOfJSON(c.items)).value;
      assert.ok(equals(got, c.out), `removeItems: got ${JSON.stringify(got)}, want ${JSON.stringify(c.out)}`);
      return;
    }
    case 'extractItems': {
      const got = tv(c.value).extractItems(setOfJSON(c.items), { appendKeyFields: c.appendKeyFields }).value;
      assert.ok(equals(got, c.out), `extractItems: got ${JSON.stringify(got)}, want ${JSON.stringify(c.out)}`);
      return;
    }
    case 'reconcile': {
      const got = reconcileFieldSetWithSchema(setOfJSON(c.set), tv(c.value));
      assert.equal(got === undefined ? null : setToJSON(got), c.out);
      return;
    }
    default:
      throw new Error(`unknown case kind ${c.kind}`);
  }
}

test('structured-merge-diff typed vectors', () => {
  runVectors(tally, file.cases, { min: 1100, name: (c, i) => `#${i} ${c.kind} ${c.where}`, run });
});
