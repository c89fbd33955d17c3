/**
 * The field manager over an asynchronous converter (RequestConversions): an apply at v2 after an
 * update at v1 compares in v1 through the converter, converging in rounds; each run asks again;
 * a failed conversion is the apply's error and leaves an update's managedFields as they were.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { newFieldManager } from './field-manager.ts';
import type { Obj } from './manager.ts';
import { RequestConversions } from './request-conversions.ts';
import { deducedTypeConverter } from './type-converter.ts';

/** x.io/v1's spec.a is x.io/v2's spec.b; each call is recorded. */
function renaming(calls: string[], fail: () => boolean): RequestConversions {
  return new RequestConversions(async (o, gv) => {
    calls.push(`${String(o.apiVersion)}->${gv}`);
    await new Promise((r) => setImmediate(r));
    if (fail()) throw new Error('conversion webhook for x.io/v2, Kind=T failed: down');
    const spec = { ...(o.spec as Obj) };
    if (gv === 'x.io/v1' && 'b' in spec) [spec.a, spec.b] = [spec.b, undefined];
    if (gv === 'x.io/v2' && 'a' in spec) [spec.b, spec.a] = [spec.a, undefined];
    for (const k of Object.keys(spec)) if (spec[k] === undefined) delete spec[k];
    return { ...o, apiVersion: gv, spec };
  });
}

const t = (v: string, spec: Obj): Obj => ({ apiVersion: `x.io/${v}`, kind: 'T', metadata: { name: 'n' }, spec });

test('an apply at v2 conflicts with v1\'s owner of the converted field; the run converges and asks again next time', async () => {
  const calls: string[] = [];
  let failing = false;
  const conv = renaming(calls, () => failing);
  const fm = (v: string) => newFieldManager({ typeConverter: deducedTypeConverter, apiVersion: `x.io/${v}`, kind: 'T', convertToVersion: conv.convertToVersion, now: () => '2026-01-01T00:00:00Z' });
  const v1 = fm('v1');
  const v2 = fm('v2');
  const live = await conv.run(() => v1.update({ apiVersion: 'x.io/v1', kind: 'T' }, t('v1', { a: 'one' }), 'writer'));
  assert.deepEqual(calls, []);
  const liveAtV2 = { ...live, apiVersion: 'x.io/v2', spec: { b: 'one' } };
  await assert.rejects(
    conv.run(() => v2.apply(liveAtV2, t('v2', { b: 'two' }), 'applier', false)),
    (e: any) => e.status?.code === 409 && e.status.message === 'Apply failed with 1 conflict: conflict with "writer" using x.io/v1: .spec.a',
  );
  assert.ok(calls.length >= 2 && calls.every((c) => c === 'x.io/v2->x.io/v1'), calls.join(', '));
  const asked = calls.length;
  const forced = await conv.run(() => v2.apply(liveAtV2, t('v2', { b: 'two' }), 'applier', true));
  assert.ok(calls.length > asked, 'a new run converts again');
  const managed = (forced.metadata as Obj).managedFields as Obj[];
  assert.deepEqual(managed.map((m) => [m.manager, m.apiVersion, JSON.stringify(m.fieldsV1)]), [
    ['applier', 'x.io/v2', '{"f:spec":{".":{},"f:b":{}}}'],
    ['writer', 'x.io/v1', '{"f:spec":{}}'],
  ]);

  failing = true;
  // The live object is converted first, to reconcile the managers with the schema: its error as it is.
  await assert.rejects(conv.run(() => v2.apply(liveAtV2, t('v2', { b: 'three' }), 'applier', true)), (e: Error) => e.message === 'conversion webhook for x.io/v2, Kind=T failed: down');
  // An update keeps the live managedFields when it cannot compute them (UpdateNoErrors).
  const updated = await conv.run(() => v2.updateNoErrors(liveAtV2, t('v2', { b: 'four' }), 'other'));
  assert.deepEqual((updated.metadata as Obj).managedFields, (live.metadata as Obj).managedFields);
});

test('outside a run, a conversion is an error rather than a guess', () => {
  const conv = renaming([], () => false);
  assert.throws(() => conv.convertToVersion(t('v1', {}), 'x.io/v2'), /only possible during a write/);
  assert.deepEqual(conv.convertToVersion(t('v2', {}), 'x.io/v2'), t('v2', {}));
});
