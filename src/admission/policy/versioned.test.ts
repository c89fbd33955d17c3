/**
 * The request's objects at a matched version: set apiVersion without a convertor, the request's
 * convertor (a CRD's webhook) otherwise — each version once per dispatch, the old object first,
 * a failure kept, and a replaced object converted afresh.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { AdmissionAttributes, AdmissionConvertor, Obj } from '../../registry/index.ts';
import { VersionedAttributes } from './versioned.ts';

const G = 'stable.example.com';
const at = (version: string) => ({ resource: { group: G, version, resource: 'crontabs' }, kind: { group: G, version, kind: 'CronTab' } });
const beta = at('v1beta1');

function attrs(convertor?: AdmissionConvertor): AdmissionAttributes {
  return {
    operation: 'UPDATE',
    user: { username: 'u', groups: [] },
    ...at('v1'),
    subresource: '',
    namespace: 'default',
    name: 'c',
    object: { apiVersion: `${G}/v1`, kind: 'CronTab', metadata: { name: 'c' }, spec: { schedule: 'new' } },
    oldObject: { apiVersion: `${G}/v1`, kind: 'CronTab', metadata: { name: 'c' }, spec: { schedule: 'old' } },
    options: {},
    dryRun: false,
    warnings: [],
    ...(convertor ? { convertor } : {}),
  };
}

/** v1's spec.schedule is v1beta1's spec.cronSpec. */
function renaming(calls: string[], fail = false): AdmissionConvertor {
  return {
    convert(o, to) {
      calls.push(`${String((o.spec as Obj).schedule ?? (o.spec as Obj).cronSpec)}->${to}`);
      if (fail) return Promise.reject(new Error('conversion webhook for stable.example.com/v1, Kind=CronTab failed: no'));
      const spec = o.spec as Obj;
      const out: Obj = { ...o, apiVersion: to, spec: to.endsWith('v1beta1') ? { cronSpec: spec.schedule } : { schedule: spec.cronSpec } };
      return Promise.resolve(out);
    },
  };
}

test('without a convertor a custom resource at another version is the same object at its apiVersion', async () => {
  const v = await new VersionedAttributes(attrs()).at(beta);
  assert.deepEqual(v.object, { apiVersion: `${G}/v1beta1`, kind: 'CronTab', metadata: { name: 'c' }, spec: { schedule: 'new' } });
});

test('the convertor converts each matched version once, the old object first; the request\'s own version is not converted', async () => {
  const calls: string[] = [];
  const a = attrs(renaming(calls));
  const v = new VersionedAttributes(a);
  const first = await v.at(beta);
  assert.deepEqual(first.object?.spec, { cronSpec: 'new' });
  assert.deepEqual(first.oldObject?.spec, { cronSpec: 'old' });
  assert.equal(await v.at(beta), first);
  assert.equal((await v.at(at('v1'))).object, a.object);
  assert.deepEqual(calls, [`old->${G}/v1beta1`, `new->${G}/v1beta1`]);
  // A mutating plugin replaced the object: it is converted again.
  a.object = { ...a.object!, spec: { schedule: 'mutated' } };
  assert.deepEqual((await v.at(beta)).object?.spec, { cronSpec: 'mutated' });
  assert.deepEqual(await v.back({ apiVersion: `${G}/v1beta1`, kind: 'CronTab', spec: { cronSpec: 'x' } }, beta), { apiVersion: `${G}/v1`, kind: 'CronTab', spec: { schedule: 'x' } });
});

test('a failed conversion rejects every caller with its error, converted once', async () => {
  const calls: string[] = [];
  const v = new VersionedAttributes(attrs(renaming(calls, true)));
  await assert.rejects(v.at(beta), /conversion webhook for stable.example.com\/v1, Kind=CronTab failed: no/);
  await assert.rejects(v.at(beta), /failed: no/);
  assert.equal(calls.length, 1);
});
