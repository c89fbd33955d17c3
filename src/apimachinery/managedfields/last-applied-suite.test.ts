/**
 * apimachinery's last-applied tables (testdata/managedfields/last-applied.json): an object made by
 * client-side apply, then a server-side apply — by `kubectl`, whose conflicts with fields its
 * last-applied annotation holds unchanged are forgiven, or by another manager, whose are not. The
 * 409 must be exactly upstream's; a forced apply must then succeed; the applied fields must end up
 * in the live object.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { parse as parseYAML } from 'yaml';
import { goJSON } from '../field/govalue.ts';
import { StatusError } from '../status.ts';
import { deserializeElement } from '../smd/fieldpath/element.ts';
import { FieldSet } from '../smd/fieldpath/set.ts';
import { schemaFromOpenAPI, type OpenAPISchema } from '../smd/schema/from-openapi.ts';
import { equals, isMap, type Value } from '../smd/value.ts';
import { runVectors, Tally } from '../smd/vectors.ts';
import { newConflictError } from './conflict.ts';
import { newFieldManager } from './field-manager.ts';
import { setLastApplied } from './last-applied.ts';
import type { Obj } from './manager.ts';
import { newTypeConverter } from './type-converter.ts';

interface Case {
  name: string;
  apiVersion: string;
  kind: string;
  fieldManager: string;
  lastApplied: string | null;
  original: string;
  applied: string;
  expectConflicts: string[][] | null;
}

const read = <T>(p: string) => JSON.parse(readFileSync(new URL(`../../../testdata/${p}`, import.meta.url), 'utf8')) as T;
const { cases } = read<{ cases: Case[] }>('managedfields/last-applied.json');
const models = {
  ...read<{ schemas: Record<string, OpenAPISchema> }>('smd/openapi/apps-v1-deployment.json').schemas,
  ...read<{ schemas: Record<string, OpenAPISchema> }>('smd/openapi/core-v1-pod-service-rc.json').schemas,
};
const schema = schemaFromOpenAPI(models);
const typeConverter = newTypeConverter(
  schema,
  new Map([
    ['apps/v1/Deployment', { namedType: 'io.k8s.api.apps.v1.Deployment' }],
    ['v1/Service', { namedType: 'io.k8s.api.core.v1.Service' }],
    ['v1/ReplicationController', { namedType: 'io.k8s.api.core.v1.ReplicationController' }],
    ['v1/Pod', { namedType: 'io.k8s.api.core.v1.Pod' }],
  ]),
);

const yaml = (text: string): Value => parseYAML(text) as Value;

/** apiequality.Semantic.DeepDerivative: every value set in a is the same in b (unset ones are free). */
function deepDerivative(a: Value, b: Value): boolean {
  if (a === undefined || a === null) return true;
  if (Array.isArray(a)) return a.length === 0 || (Array.isArray(b) && a.length === b.length && a.every((x, i) => deepDerivative(x, b[i])));
  if (isMap(a)) return Object.keys(a).length === 0 || (isMap(b) && Object.entries(a).every(([k, v]) => deepDerivative(v, b[k])));
  return equals(a, b);
}

function run(c: Case): void {
  const fm = newFieldManager({ typeConverter, apiVersion: c.apiVersion, kind: c.kind, now: () => '2026-01-01T00:00:00Z' });
  const original = yaml(c.original) as Obj;
  // setLastAppliedFromEncoded: the YAML as JSON (sigs.k8s.io/yaml.YAMLToJSON), or `null` when empty.
  const lastApplied = c.lastApplied ?? c.original;
  setLastApplied(original, goJSON(yaml(lastApplied) ?? null));
  let live = fm.update({ apiVersion: c.apiVersion, kind: c.kind }, original, 'test_client_side_apply');
  const applied = yaml(c.applied) as Obj;
  if (c.expectConflicts === null) {
    live = fm.apply(live, applied, c.fieldManager, false);
  } else {
    let err: unknown;
    try {
      fm.apply(live, applied, c.fieldManager, false);
    } catch (e) {
      err = e;
    }
    assert.ok(err instanceof StatusError && err.status.code === 409, `expected conflicts, got ${String(err)}`);
    const manager = `{"manager":"test_client_side_apply","operation":"Update","apiVersion":"${c.apiVersion}"}`;
    const want = FieldSet.of(...c.expectConflicts.map((p) => p.map(deserializeElement)))
      .paths()
      .map((path) => ({ manager, path }));
    assert.deepEqual(err.status, newConflictError(want).status);
    live = fm.apply(live, applied, c.fieldManager, true);
  }
  assert.ok(deepDerivative(applied, live), `applied fields missing from live: ${JSON.stringify(live)}`);
}

test('apimachinery last-applied tables', () => {
  runVectors(new Tally('managedfields last-applied'), cases, { min: 20, name: (c) => c.name, run });
});
