/**
 * The pod-template-hash against kube-controller-manager's own code: each vector of
 * testdata/k8s-native/pod-template-hash/ is a template (most as this server stored them for a
 * kubectl command or manifest), a collision count, and the hash Go's controller.ComputeHash gave;
 * some also carry the spew dump it hashed, compared in full so a difference points at its field.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type { Obj } from '../../rest.ts';
import { computeHash } from './hash.ts';
import { spewPodTemplate } from './hash-spew.ts';

interface Vector {
  name: string;
  template: Obj;
  collisionCount: number | null;
  hash: string;
  dump?: string;
}

const file = new URL('../../../../testdata/k8s-native/pod-template-hash/vectors.json', import.meta.url);
const { cases } = JSON.parse(readFileSync(file, 'utf8')) as { cases: Vector[] };

test('pod-template-hash vectors: at least 90 cases, 16 with their spew dump', () => {
  assert.ok(cases.length >= 90, `${cases.length} cases`);
  assert.ok(cases.filter((c) => c.dump !== undefined).length >= 16);
});

for (const c of cases) {
  test(`pod-template-hash: ${c.name}`, () => {
    if (c.dump !== undefined) assert.equal(spewPodTemplate(c.template), c.dump);
    assert.equal(computeHash(c.template, c.collisionCount ?? undefined), c.hash);
  });
}

test('pod-template-hash: a template of the wrong shape hashes without throwing', () => {
  const odd = { metadata: { labels: 'x' }, spec: { containers: [null, 5, { name: 7, ports: {} }], volumes: 'no' } } as unknown as Obj;
  assert.match(computeHash(odd), /^[bcdfghjklmnpqrstvwxz2456789]+$/);
});
