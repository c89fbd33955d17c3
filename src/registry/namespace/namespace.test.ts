import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { StatusError } from '../../apimachinery/index.ts';
import { openTempStore, type TempStore } from '../testing.ts';
import { NamespaceStore } from './rest.ts';
import type { Obj } from '../rest.ts';

const meta = (o: Obj) => o.metadata as Record<string, any>;
const ns = (name: string, extra: Obj = {}): Obj => ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name }, ...extra });

async function rejectsStatus(p: Promise<unknown>, code: number, message: string | RegExp): Promise<void> {
  await assert.rejects(p, (e: unknown) => {
    assert.ok(e instanceof StatusError, String(e));
    assert.equal(e.code, code, e.message);
    if (typeof message === 'string') assert.equal(e.message, message);
    else assert.match(e.message, message);
    return true;
  });
}

describe('namespaces', () => {
  let t: TempStore;
  let s: NamespaceStore;
  before(async () => {
    t = await openTempStore();
    s = new NamespaceStore(t.store);
  });
  after(() => t.close());

  test('create: phase Active, the kubernetes finalizer, the name label, no namespace key segment', async () => {
    const { object } = await s.create(undefined, ns('team-a', { spec: { finalizers: ['example.com/x'] } }), {});
    assert.deepEqual(object.spec, { finalizers: ['example.com/x', 'kubernetes'] });
    assert.deepEqual(object.status, { phase: 'Active' });
    assert.deepEqual(meta(object).labels, { 'kubernetes.io/metadata.name': 'team-a' });
    assert.equal(meta(object).namespace, undefined);
    assert.ok(await t.store.get('/registry/namespaces/team-a'));
  });

  test('generated names get the name label too', async () => {
    const { object } = await s.create(undefined, { apiVersion: 'v1', kind: 'Namespace', metadata: { generateName: 'gen-' } }, {});
    assert.equal(meta(object).labels['kubernetes.io/metadata.name'], meta(object).name);
  });

  test('invalid names and finalizer names are 422', async () => {
    await rejectsStatus(s.create(undefined, ns('Team_A'), {}), 422, /^Namespace "Team_A" is invalid: metadata\.name: Invalid value: "Team_A": a lowercase RFC 1123 label must consist of/);
    await rejectsStatus(
      s.create(undefined, ns('fin', { spec: { finalizers: ['custom'] } }), {}),
      422,
      'Namespace "fin" is invalid: spec.finalizers: Invalid value: "custom": name is neither a standard finalizer name nor is it fully qualified',
    );
  });

  test('unknown fields: dropped with a warning, refused under Strict', async () => {
    const r = await s.create(undefined, ns('unk', { spec: { finalizers: [], extra: 1 } }), { fieldValidation: 'Warn' });
    assert.deepEqual(r.warnings, ['unknown field "spec.extra"']);
    assert.deepEqual(r.object.spec, { finalizers: ['kubernetes'] });
    await rejectsStatus(s.create(undefined, ns('unk2', { bogus: true }), { fieldValidation: 'Strict' }), 400, 'Namespace in version "v1" cannot be handled as a Namespace: strict decoding error: unknown field "bogus"');
    // Metadata and status conditions too, in the order the body has them.
    const deep = ns('unk3', { status: { conditions: [{ type: 'X', status: 'True', oops: 1 }] } });
    (deep.metadata as Record<string, unknown>).lables = { a: 'b' };
    await rejectsStatus(
      s.create(undefined, deep, { fieldValidation: 'Strict' }),
      400,
      'Namespace in version "v1" cannot be handled as a Namespace: strict decoding error: unknown field "metadata.lables", unknown field "status.conditions[0].oops"',
    );
  });

  test('updates keep spec.finalizers and status; the status subresource writes only status', async () => {
    await s.create(undefined, ns('upd'), {});
    const { object: u } = await s.update(undefined, 'upd', (cur) => ({ ...cur!, spec: { finalizers: [] }, status: { phase: 'Terminating' } }), {});
    assert.deepEqual(u.spec, { finalizers: ['kubernetes'] });
    assert.deepEqual(u.status, { phase: 'Active' });
    await rejectsStatus(
      s.update(undefined, 'upd', (cur) => ({ ...cur!, status: { phase: 'Terminating' } }), { subresource: 'status' }),
      422,
      "Namespace \"upd\" is invalid: status.Phase: Invalid value: \"Terminating\": may only be 'Active' if `deletionTimestamp` is empty",
    );
    // A PUT without resourceVersion is allowed for namespaces (unconditional update).
    const body = ns('upd', { metadata: { name: 'upd', labels: { a: 'b' } } });
    const { object: u2 } = await s.update(undefined, 'upd', () => body, {});
    assert.equal(meta(u2).labels.a, 'b');
    assert.equal(meta(u2).labels['kubernetes.io/metadata.name'], 'upd');
  });

  test('field selectors: metadata.name and status.phase; metadata.namespace is not supported', async () => {
    const l = await s.list(undefined, { fieldSelector: 'status.phase=Active,metadata.name=upd' });
    assert.deepEqual(l.items.map((o) => meta(o).name), ['upd']);
    await rejectsStatus(s.list(undefined, { fieldSelector: 'metadata.namespace=x' }), 400, 'field label not supported: metadata.namespace');
  });

  test('delete: Terminating first; finalize empties spec.finalizers and removes it', async () => {
    await s.create(undefined, ns('gone'), {});
    const r1 = await s.delete(undefined, 'gone', {});
    assert.equal(r1.deleted, false);
    assert.equal((r1.object.status as { phase: string }).phase, 'Terminating');
    assert.match(meta(r1.object).deletionTimestamp, /Z$/);
    const r2 = await s.delete(undefined, 'gone', {});
    assert.equal(r2.deleted, false);
    await s.get(undefined, 'gone');
    await s.update(undefined, 'gone', (cur) => ({ ...cur!, spec: { finalizers: [] } }), { subresource: 'finalize' });
    await rejectsStatus(s.get(undefined, 'gone'), 404, 'namespaces "gone" not found');
  });

  test('delete with metadata finalizers: finalized namespaces wait for them; the answer is the object', async () => {
    await s.create(undefined, ns('held', { metadata: { name: 'held', finalizers: ['example.com/hold'] } }), {});
    await s.delete(undefined, 'held', {});
    await s.update(undefined, 'held', (cur) => ({ ...cur!, spec: { finalizers: [] } }), { subresource: 'finalize' });
    const r = await s.delete(undefined, 'held', {});
    assert.equal(r.deleted, false);
    await s.update(undefined, 'held', (cur) => ({ ...cur!, metadata: { ...meta(cur!), finalizers: [] } }), {});
    await rejectsStatus(s.get(undefined, 'held'), 404, 'namespaces "held" not found');
  });

  test('a namespace without finalizers left is removed by the second delete, returning the object', async () => {
    await s.create(undefined, ns('two'), {});
    await s.delete(undefined, 'two', {});
    await s.update(undefined, 'two', (cur) => cur!, {});
    // finalize first, without the first delete's update path
    const ns2 = await s.create(undefined, ns('three'), {});
    await s.update(undefined, 'three', (cur) => ({ ...cur!, spec: { finalizers: [] } }), { subresource: 'finalize' });
    await s.delete(undefined, 'three', {});
    const r = await s.delete(undefined, 'three', {});
    assert.equal(r.deleted, true);
    assert.equal(r.response, r.object);
    assert.equal(meta(r.object).uid, meta(ns2.object).uid);
  });

  test('preconditions use the namespace wording', async () => {
    await s.create(undefined, ns('pre'), {});
    await rejectsStatus(
      s.delete(undefined, 'pre', { preconditions: { uid: 'x' } }),
      409,
      /^Operation cannot be fulfilled on namespaces "pre": Precondition failed: UID in precondition: x, UID in object meta: [0-9a-f-]+$/,
    );
  });
});

describe('namespace lifecycle', () => {
  let t: TempStore;
  before(async () => {
    t = await openTempStore();
  });
  after(() => t.close());

});
