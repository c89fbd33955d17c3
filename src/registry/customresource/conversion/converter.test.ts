import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { StatusError } from '../../../apimachinery/index.ts';
import { crConverter, nopConverter } from './converter.ts';
import type { Obj } from '../../rest.ts';

const vectors = JSON.parse(readFileSync(new URL('../../../../testdata/k8s-conversion/converter.json', import.meta.url), 'utf8')) as {
  cases: { name: string; validVersions: string[]; toVersion: string; list: boolean; source: Obj[]; expected?: Obj[]; expectedFailure?: string }[];
};

test('crConverter converts between the CRD\'s versions only (converter_test.go TestConversion)', async () => {
  assert.ok(vectors.cases.length >= 4, `only ${vectors.cases.length} cases`);
  for (const c of vectors.cases) {
    const group = c.validVersions[0]!.split('/')[0]!;
    const conv = crConverter(group, c.validVersions.map((gv) => gv.split('/')[1]!), nopConverter);
    const run = conv.convert(structuredClone(c.source), c.toVersion, c.list);
    if (c.expectedFailure !== undefined) {
      await assert.rejects(run, (e: unknown) => e instanceof StatusError && e.status.code === 500 && e.message.includes(c.expectedFailure!), c.name);
    } else {
      assert.deepEqual(await run, c.expected, c.name);
    }
  }
});

test('crConverter names the side that is not a version of the CRD', async () => {
  const conv = crConverter('example.com', ['v1', 'v2'], nopConverter);
  await assert.rejects(conv.convert([{ apiVersion: 'example.com/v1' }], 'example.com/v3', false), /request to convert CR to an invalid group\/version: example.com\/v3/);
  await assert.rejects(conv.convert([{ apiVersion: 'example.com/v9' }], 'example.com/v2', false), /request to convert CR from an invalid group\/version: example.com\/v9/);
  await assert.rejects(conv.convert([{ apiVersion: 'example.com/v1' }, { apiVersion: 'other/v1' }], 'example.com/v2', true), /request to convert CR list failed, list index 1 has invalid group\/version: other\/v1/);
});
