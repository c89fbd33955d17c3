/**
 * apimachinery's managedfields tables (testdata/managedfields/managedfields.json): decoding and
 * its errors, round trips, manager identifiers, the sort order of entries, and the 409 Status of
 * apply conflicts.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { deserializeElement } from '../smd/fieldpath/element.ts';
import { checkManagedFieldsAfterAdmission } from './admission.ts';
import { capUpdateManagers } from './cap-managers.ts';
import { newConflictError } from './conflict.ts';
import { buildManagerIdentifier, decodeManagedFields, encodeManagedFields, sortManagedFieldsEntries, type ManagedFieldsEntry } from './entries.ts';

interface File {
  decode: { name: string; entries: ManagedFieldsEntry[]; error: string | null }[];
  roundTrip: { name: string; entries: ManagedFieldsEntry[] | null }[];
  identifier: { entry: ManagedFieldsEntry; expected: string }[];
  conflicts: { conflicts: { manager: string; path: string[] }[]; status: unknown }[];
  sort: { name: string; entries: ManagedFieldsEntry[] | null; expected: ManagedFieldsEntry[] | null }[];
}

const file = JSON.parse(readFileSync(new URL('../../../testdata/managedfields/managedfields.json', import.meta.url), 'utf8')) as File;

test('DecodeManagedFields: valid entries decode, invalid ones fail with upstream messages', () => {
  assert.ok(file.decode.length >= 9);
  for (const c of file.decode) {
    if (c.error === null) assert.doesNotThrow(() => decodeManagedFields(c.entries), c.name);
    else assert.throws(() => decodeManagedFields(c.entries), { message: c.error }, c.name);
  }
});

test('managedFields round-trip through decode and encode', () => {
  for (const c of file.roundTrip) {
    const encoded = encodeManagedFields(decodeManagedFields(c.entries));
    assert.deepEqual(encoded ?? null, c.entries === null ? null : sortManagedFieldsEntries(structuredClone(c.entries)), c.name);
  }
});

test('BuildManagerIdentifier', () => {
  for (const c of file.identifier) assert.equal(buildManagerIdentifier(c.entry), c.expected);
});

test('sortEncodedManagedFields', () => {
  assert.ok(file.sort.length >= 11);
  for (const c of file.sort) assert.deepEqual(sortManagedFieldsEntries(structuredClone(c.entries)), c.expected, c.name);
});

test('NewConflictError: 409 Conflict with a cause per path', () => {
  for (const c of file.conflicts) {
    const err = newConflictError(c.conflicts.map((x) => ({ manager: x.manager, path: x.path.map(deserializeElement) })));
    assert.deepEqual(JSON.parse(JSON.stringify(err.status)), c.status);
  }
});

test('a decoding error names the entry as Go prints it', () => {
  const e: ManagedFieldsEntry = { manager: 'm', operation: 'Update', apiVersion: 'v1', fieldsType: 'FieldsV1', fieldsV1: { 'x:bad': 1 } };
  assert.throws(() => decodeManagedFields([e]), { message: /^error decoding versioned set from \{m Update v1 <nil> FieldsV1 \{"x:bad":1\} \}: error decoding set: / });
});

test('capUpdateManagers folds the oldest update managers per version into ancient-changes', () => {
  const cases = (file as unknown as { capManagers: { name: string; max: number; input: ManagedFieldsEntry[]; expected: ManagedFieldsEntry[] }[] }).capManagers;
  assert.equal(cases.length, 6);
  for (const c of cases) {
    const capped = capUpdateManagers(decodeManagedFields(c.input), c.max);
    assert.deepEqual(encodeManagedFields(capped), c.expected, c.name);
    // Idempotent: capping again changes nothing.
    assert.deepEqual(encodeManagedFields(capUpdateManagers(decodeManagedFields(c.expected), c.max)), c.expected, `${c.name} (again)`);
  }
});

test('managedFields broken by a mutating admission step are restored, with upstream\'s warning', () => {
  const before: ManagedFieldsEntry[] = [{ manager: 'a', operation: 'Apply', apiVersion: 'v1', fieldsType: 'FieldsV1', fieldsV1: { 'f:x': {} } }];
  const obj = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', managedFields: [{ manager: 'a', operation: 'Patch', apiVersion: 'v1', fieldsType: 'FieldsV1' }] } };
  assert.equal(
    checkManagedFieldsAfterAdmission(obj, before),
    '.metadata.managedFields was in an invalid state after admission; this could be caused by an outdated mutating admission controller; please fix your requests: operation must be `Apply` or `Update`',
  );
  assert.deepEqual(obj.metadata.managedFields, before);
  assert.equal(checkManagedFieldsAfterAdmission(obj, []), undefined);
});
