import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { hpaV1Conversion } from './hpa.ts';

type O = Record<string, unknown>;
const vectors = JSON.parse(readFileSync(new URL('../../../testdata/builtin-conversion/hpa-v1.json', import.meta.url), 'utf8')) as {
  toV1: { name: string; v2: O; v1: O }[];
  roundTrip: { name: string; v2?: O; v1?: O; fromV1?: O; back?: O }[];
  skipped: { name: string; reason: string }[];
};

test('autoscaling/v2 -> v1 spec conversion (upstream conversion_test)', () => {
  assert.ok(vectors.toV1.length >= 3);
  for (const c of vectors.toV1) {
    const v1 = hpaV1Conversion.fromStorage({ spec: structuredClone(c.v2) });
    assert.deepEqual(v1.spec, c.v1, c.name);
  }
  for (const s of vectors.skipped) assert.ok(s.reason.length > 0, `${s.name} is skipped without a reason`);
  console.log(`hpa-v1: ${vectors.toV1.length} spec cases, ${vectors.roundTrip.length} round trips, ${vectors.skipped.length} skipped (${vectors.skipped.map((s) => `${s.name}: ${s.reason}`).join('; ')})`);
});

test('autoscaling/v1 round trips through the annotations', () => {
  assert.ok(vectors.roundTrip.length >= 4);
  for (const c of vectors.roundTrip) {
    let v1: O;
    if (c.v2) {
      v1 = hpaV1Conversion.fromStorage(structuredClone(c.v2));
      assert.deepEqual(v1, c.v1, `${c.name}: v2 -> v1`);
    } else v1 = structuredClone(c.fromV1!);
    assert.deepEqual(hpaV1Conversion.toStorage(structuredClone(v1)), c.back ?? c.v2, `${c.name}: v1 -> v2`);
  }
});
