/** ignoreManagedFieldsTimestamps as a table: which writes keep the stored managedFields times. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ignoreManagedFieldsTimestamps } from './ignore-timestamps.ts';

const entry = (manager: string, time: string, fields: unknown = { 'f:spec': { 'f:a': {} } }) => ({ manager, operation: 'Apply', apiVersion: 'v1', time, fieldsType: 'FieldsV1', fieldsV1: fields });
const obj = (spec: unknown, entries: unknown[]) => ({ apiVersion: 'v1', kind: 'K', metadata: { name: 'x', resourceVersion: '5', managedFields: entries }, spec });

const cases: { name: string; old: any; new: any; keepsOldTimes: boolean }[] = [
  { name: 'only a time changed: the old time is kept', old: obj({ a: 1 }, [entry('m', 't1')]), new: obj({ a: 1 }, [entry('m', 't2')]), keepsOldTimes: true },
  { name: 'the object changed too', old: obj({ a: 1 }, [entry('m', 't1')]), new: obj({ a: 2 }, [entry('m', 't2')]), keepsOldTimes: false },
  { name: 'an entry was added', old: obj({ a: 1 }, [entry('m', 't1')]), new: obj({ a: 1 }, [entry('m', 't2'), entry('n', 't2')]), keepsOldTimes: false },
  { name: 'an entry owns other fields', old: obj({ a: 1 }, [entry('m', 't1')]), new: obj({ a: 1 }, [entry('m', 't2', { 'f:spec': {} })]), keepsOldTimes: false },
  { name: 'a manager was renamed', old: obj({ a: 1 }, [entry('m', 't1')]), new: obj({ a: 1 }, [entry('n', 't2')]), keepsOldTimes: false },
  { name: 'no entries', old: obj({ a: 1 }, []), new: obj({ a: 1 }, []), keepsOldTimes: false },
];

for (const c of cases) {
  test(`ignoreManagedFieldsTimestamps: ${c.name}`, () => {
    const want = structuredClone(c.keepsOldTimes ? c.old.metadata.managedFields : c.new.metadata.managedFields);
    const out = ignoreManagedFieldsTimestamps(c.new, c.old) as any;
    assert.deepEqual(out.metadata.managedFields, want);
  });
}
