/** The playground's state in the URL fragment: what is written is read back; damage is ignored. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decodeState, encodeState } from './url-state.ts';
import { nodeOfRulePath } from '../rule-costs.ts';

test('a state survives the URL, text of any script included', () => {
  const st = { env: 'vap' as const, expression: 'object.metadata.name == "ünïcødé ✓"', docs: { object: 'metadata:\n  name: x\n' }, node: 'spec', version: 'v1' };
  const hash = encodeState(st);
  assert.match(hash, /^#s=[A-Za-z0-9_-]+$/);
  assert.deepEqual(decodeState(hash), st);
});

test('a schema loaded by CRD name is kept by name, not by text', () => {
  const hash = encodeState({ env: 'crd', expression: 'true', docs: { schema: 'x'.repeat(10_000), object: 'a: 1' }, crd: 'httproutes.gateway.networking.k8s.io' });
  assert.ok(hash.length < 200);
  assert.deepEqual(decodeState(hash)?.docs, { object: 'a: 1' });
  assert.equal(decodeState(hash)?.crd, 'httproutes.gateway.networking.k8s.io');
});

test('a damaged or foreign fragment is no state', () => {
  assert.equal(decodeState(''), undefined);
  assert.equal(decodeState('#s=!!!'), undefined);
  assert.equal(decodeState('#s=bm90IGpzb24'), undefined);
  assert.equal(decodeState(`#s=${btoa(JSON.stringify({ e: 'nope', x: 1 }))}`)?.env, 'plain');
});

test('a rule\'s schema path names the playground node it sits on', () => {
  assert.equal(nodeOfRulePath('openAPIV3Schema.properties[spec].properties[rules].items.x-kubernetes-validations[0].rule'), 'spec.rules[*]');
  assert.equal(nodeOfRulePath('openAPIV3Schema.properties[spec].additionalProperties.x-kubernetes-validations[1].messageExpression'), 'spec.*');
  assert.equal(nodeOfRulePath('openAPIV3Schema.x-kubernetes-validations[0].rule'), '');
});
