/**
 * Pod spec warnings on fractional memory (GetWarningsForPodSpec's `fractional byte value`): the
 * quantity is named in its canonical form, for limits and requests, as text or number, and a
 * whole number of bytes gives none; each case is asked twice (the canonical texts are kept).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Path } from '../../../apimachinery/index.ts';
import { podSpecWarnings } from './warnings.ts';

const spec = (limits: unknown, requests: unknown) => ({ containers: [{ name: 'c', image: 'nginx', resources: { limits: { memory: limits }, requests: { memory: requests } } }] });
const fractional = (ws: string[]) => ws.filter((w) => w.includes('fractional byte value'));

test('fractional memory quantities are warned about in their canonical form', () => {
  for (let round = 0; round < 2; round++) {
    assert.deepEqual(fractional(podSpecWarnings(spec('1.5', 0.5), {}, Path.of('spec'))), [
      'spec.containers[0].resources.limits[memory]: fractional byte value "1500m" is invalid, must be an integer',
      'spec.containers[0].resources.requests[memory]: fractional byte value "500m" is invalid, must be an integer',
    ]);
    assert.deepEqual(fractional(podSpecWarnings(spec('128Mi', '1G'), {}, Path.of('spec'))), []);
    assert.deepEqual(fractional(podSpecWarnings(spec('0.1Ki', 'junk'), {}, Path.of('spec'))), [
      'spec.containers[0].resources.limits[memory]: fractional byte value "102400m" is invalid, must be an integer',
    ]);
  }
});
