/**
 * Hostile patches: random documents built from the directives, merge keys and field names of a
 * Deployment, applied to a real one. Every outcome must be a result or a StrategicMergePatchError
 * (never another exception), and the inputs must stay untouched.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { OpenAPIV3PatchMeta, StrategicMergePatchError, strategicMergePatch, type OpenAPIDocument } from './index.ts';

const doc = JSON.parse(
  readFileSync(new URL('../../../../vendor/k8s-openapi/1.35/apis/apps/v1.json', import.meta.url), 'utf8'),
) as OpenAPIDocument;
const schema = OpenAPIV3PatchMeta.forKind(doc, { group: 'apps', version: 'v1', kind: 'Deployment' })!;

const live = {
  metadata: { name: 'web', labels: { app: 'web' }, finalizers: ['a', 'b'] },
  spec: {
    replicas: 2,
    strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1 } },
    template: {
      spec: {
        containers: [
          { name: 'app', image: 'i', env: [{ name: 'A', value: '1' }], ports: [{ containerPort: 80 }] },
          { name: 'side', image: 'j' },
        ],
        volumes: [{ name: 'v', emptyDir: {} }],
        tolerations: [{ key: 'k' }],
      },
    },
  },
};

let seed = 12345;
const rand = (n: number) => {
  seed = (seed * 1103515245 + 12345) % 2 ** 31;
  return Math.floor(seed / 65536) % n; // the low bits of this generator repeat quickly
};
const pick = <T>(xs: readonly T[]): T => xs[rand(xs.length)]!;

const keys = ['metadata', 'labels', 'finalizers', 'spec', 'strategy', 'template', 'containers', 'env', 'ports', 'volumes',
  'tolerations', 'name', 'image', 'containerPort', 'emptyDir', 'type', 'replicas', '$patch', '$retainKeys',
  '$setElementOrder/containers', '$setElementOrder/finalizers', '$deleteFromPrimitiveList/finalizers',
  '$deleteFromPrimitiveList', '$setElementOrder', 'unknown'] as const;
const scalars = [null, 'app', 'side', 'a', 'replace', 'delete', 'merge', 80, 1.5, true, ''] as const;

function value(depth: number): unknown {
  const r = rand(depth > 3 ? 3 : 6);
  if (r < 3) return pick(scalars);
  if (r < 4) return Array.from({ length: rand(4) }, () => value(depth + 1));
  const o: Record<string, unknown> = {};
  for (let i = rand(4); i > 0; i--) o[pick(keys)] = value(depth + 1);
  return o;
}

/** A patch shaped like a Deployment's so that it reaches deep into the merge. */
function patch(): Record<string, unknown> {
  const c: Record<string, unknown> = { name: pick(['app', 'side', 'new', 80] as const) };
  for (let i = rand(3); i > 0; i--) c[pick(keys)] = value(3);
  const podSpec: Record<string, unknown> = {};
  for (let i = rand(3) + 1; i > 0; i--) podSpec[pick(keys)] = rand(2) ? [c, value(3)] : value(2);
  return { metadata: rand(2) ? value(1) : { finalizers: value(2) }, spec: { template: { spec: podSpec }, strategy: value(2) } };
}

test('random patches end in a result or a StrategicMergePatchError', () => {
  const before = JSON.stringify(live);
  let errors = 0;
  for (let i = 0; i < 3000; i++) {
    const p = patch();
    const text = JSON.stringify(p);
    try {
      strategicMergePatch(live, p, schema);
    } catch (e) {
      assert.ok(e instanceof StrategicMergePatchError, `${text}: ${e instanceof Error ? e.stack : String(e)}`);
      assert.ok(e.code === 400 || e.code === 422);
      errors++;
    }
    assert.equal(JSON.stringify(p), text);
  }
  assert.equal(JSON.stringify(live), before);
  assert.ok(errors > 100 && errors < 2900, `${errors} errors`);
});
