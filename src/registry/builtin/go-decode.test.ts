import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { StatusError } from '../../apimachinery/index.ts';
import { openTempStore } from '../testing.ts';
import { builtinResources } from './catalog.ts';
import { builtinKind } from './definition.ts';

interface Case {
  name: string;
  resource: string;
  body: Record<string, unknown>;
  error: string | null;
}

const vectors = JSON.parse(readFileSync(new URL('../../../testdata/builtin-decode/type-errors.json', import.meta.url), 'utf8')) as { cases: Case[] };

test('a built-in body of a wrong type is refused with the decoder\'s 400 (testdata/builtin-decode)', async () => {
  assert.ok(vectors.cases.length >= 25, `only ${vectors.cases.length} cases`);
  const t = await openTempStore();
  try {
    const failures: string[] = [];
    for (const c of vectors.cases) {
      const r = builtinResources().find((x) => `${x.group}/${x.resource}` === c.resource)!;
      const store = builtinKind(r, { store: t.store }).store;
      const body = { apiVersion: r.group === '' ? r.version : `${r.group}/${r.version}`, kind: r.kind, ...structuredClone(c.body) };
      let got: string | null = null;
      try {
        await store.create(r.namespaced ? 'default' : undefined, body, { dryRun: true });
      } catch (e) {
        if (!(e instanceof StatusError)) throw e;
        got = e.code === 400 ? e.message : `${e.code} ${e.message}`;
      }
      const want = c.error === null ? null : `${r.kind} in version "${r.version}" cannot be handled as a ${r.kind}: ${c.error}`;
      if (c.error === null ? got !== null && got.includes('cannot be handled') : got !== want) failures.push(`${c.name}: got ${got}, want ${want}`);
    }
    assert.deepEqual(failures, []);
  } finally {
    await t.close();
  }
});

test('quantities are stored as the canonical strings Go encodes them to; a bad one is ParseQuantity\'s error', async () => {
  const t = await openTempStore();
  try {
    const r = builtinResources().find((x) => x.group === '' && x.resource === 'resourcequotas')!;
    const store = builtinKind(r, { store: t.store }).store;
    const body = (hard: Record<string, unknown>) => ({ apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name: `q${Object.keys(hard).length}` }, spec: { hard } });
    const made = await store.create('default', body({ cpu: '1000m', memory: '0.5Gi', pods: 10, 'requests.cpu': 0.5, 'limits.memory': ' 2048Mi ' }), {});
    assert.deepEqual((made.object.spec as Record<string, unknown>).hard, { cpu: '1', memory: '512Mi', pods: '10', 'requests.cpu': '500m', 'limits.memory': '2Gi' });
    for (const [bad, msg] of [
      ['abc', "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"],
      [true, "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"],
    ] as const) {
      await assert.rejects(store.create('default', body({ cpu: bad }), { dryRun: true }), (e: unknown) => e instanceof StatusError && e.code === 400 && e.message === `ResourceQuota in version "v1" cannot be handled as a ResourceQuota: ${msg}`);
    }
  } finally {
    await t.close();
  }
});
