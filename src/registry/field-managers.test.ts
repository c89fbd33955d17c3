/**
 * The generic store with field managers: writes with a manager are recorded in managedFields
 * (Update on create, update and status writes, the status endpoint resetting spec), the server's
 * own writes are not, apply merges and conflicts, and an unchanged apply writes nothing.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { deducedTypeConverter } from '../apimachinery/index.ts';
import { FieldManagers } from './field-managers.ts';
import { openTempStore, rejectsStatus, widget, widgetStore, type TempStore } from './testing.ts';
import type { Obj } from './rest.ts';

let t: TempStore;
before(async () => (t = await openTempStore()));
after(() => t.close());

const managers = () => new FieldManagers({ apiVersion: 'example.com/v1', kind: 'Widget', hasStatus: true, typeConverter: () => deducedTypeConverter });
const entries = (o: Obj) =>
  ((o.metadata as any).managedFields ?? []).map((e: any) => [e.manager, e.operation, e.subresource ?? '', JSON.stringify(e.fieldsV1)]);

test('creates, updates and status writes are recorded per manager; writes without one are not', async () => {
  const s = widgetStore(t.store, { fieldManagers: managers() });
  const { object } = await s.create('default', widget('w1', { spec: { color: 'red' } }), { manager: 'maker' });
  assert.deepEqual(entries(object), [['maker', 'Update', '', '{"f:spec":{".":{},"f:color":{}}}']]);
  const up = await s.update('default', 'w1', (cur) => ({ ...cur!, spec: { color: 'blue', size: 2 } }), { manager: 'editor' });
  // The changed color moves to the editor; the maker keeps the spec map it created (entries of
  // one second are sorted by manager).
  assert.deepEqual(entries(up.object), [
    ['editor', 'Update', '', '{"f:spec":{"f:color":{},"f:size":{}}}'],
    ['maker', 'Update', '', '{"f:spec":{}}'],
  ]);
  const st = await s.update('default', 'w1', (cur) => ({ ...cur!, spec: { color: 'ignored' }, status: { phase: 'Ok' } }), { manager: 'ctl', subresource: 'status' });
  assert.deepEqual(
    entries(st.object).find((e: string[]) => e[0] === 'ctl'),
    ['ctl', 'Update', 'status', '{"f:status":{".":{},"f:phase":{}}}'],
  );
  assert.equal((st.object.spec as Obj).color, 'blue');
  const internal = await s.update('default', 'w1', (cur) => ({ ...cur!, metadata: { ...(cur!.metadata as Obj), labels: { a: 'b' } } }), {});
  assert.equal(entries(internal.object).some((e: string[]) => e[3].includes('labels')), false);
});

test('apply merges, conflicts with another owner, and an unchanged apply writes nothing', async () => {
  const s = widgetStore(t.store, { fieldManagers: managers() });
  const patch = { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w2', namespace: 'default' }, spec: { color: 'red' } };
  const first = await s.update('default', 'w2', (cur) => s.apply!(cur, patch, { manager: 'a', force: false }), { applied: true, forceAllowCreate: true, manager: 'a' });
  assert.equal(first.created, true);
  // Deduced types (no schema): the applied map is owned with its fields.
  assert.deepEqual(entries(first.object), [['a', 'Apply', '', '{"f:spec":{".":{},"f:color":{}}}']]);
  const again = await s.update('default', 'w2', (cur) => s.apply!(cur, patch, { manager: 'a', force: false }), { applied: true, manager: 'a' });
  assert.equal((again.object.metadata as Obj).resourceVersion, (first.object.metadata as Obj).resourceVersion);
  const other = { ...patch, spec: { color: 'blue' } };
  await rejectsStatus(
    s.update('default', 'w2', (cur) => s.apply!(cur, other, { manager: 'b', force: false }), { applied: true, manager: 'b' }),
    409,
    'Conflict',
    'Apply failed with 1 conflict: conflict with "a": .spec.color',
  );
  const forced = await s.update('default', 'w2', (cur) => s.apply!(cur, other, { manager: 'b', force: true }), { applied: true, manager: 'b' });
  assert.deepEqual(entries(forced.object), [
    ['a', 'Apply', '', '{"f:spec":{}}'],
    ['b', 'Apply', '', '{"f:spec":{".":{},"f:color":{}}}'],
  ]);
});

test('a store without field managers serves no apply', () => {
  assert.equal(widgetStore(t.store).apply, undefined);
});
