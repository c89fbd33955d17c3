/**
 * k8s.io/api's round-trip vectors (testdata/k8s-proto/HEAD: one fuzzed object per kind of the
 * served group-versions, as kube-apiserver's protobuf `.pb` and its JSON `.json`): each `.pb`
 * decodes to exactly its `.json` text, fields in Go struct order, and each `.json` encodes to
 * exactly its `.pb` bytes.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { decodeMessage } from './decode.ts';
import { kindMessage } from './descriptors.ts';
import { decodeEnvelope, encodeEnvelope } from './envelope.ts';
import { encodeMessage } from './encode.ts';

const dir = new URL('../../../testdata/k8s-proto/HEAD/', import.meta.url);
const names = readdirSync(dir).filter((f) => f.endsWith('.pb'));

/** Each vector with its envelope's kind and message (WatchEvent is framed without TypeMeta). */
export function vectors() {
  return names.map((name) => {
    const pb = readFileSync(new URL(name, dir));
    const json = readFileSync(new URL(name.replace(/\.pb$/, '.json'), dir), 'utf8');
    const env = decodeEnvelope(pb);
    const typeMeta = env.kind === '' ? undefined : { apiVersion: env.apiVersion, kind: env.kind };
    const m = typeMeta ? kindMessage(typeMeta.apiVersion, typeMeta.kind) : kindMessage('v1', name.split('.').at(-2)!);
    return { name, pb, json, env, typeMeta, message: m };
  });
}

test('every vector .pb decodes to its .json', () => {
  const all = vectors();
  // 87 kinds in the served group-versions at v0.35.7: a smaller count means vectors went missing.
  assert.ok(all.length >= 87, `only ${all.length} vectors`);
  let passed = 0;
  for (const v of all) {
    assert.ok(v.message, `${v.name}: no descriptor for ${v.env.apiVersion}/${v.env.kind}`);
    const got = JSON.stringify(decodeMessage(v.message, v.env.raw, v.typeMeta), null, 2);
    assert.equal(got, v.json.trimEnd(), v.name);
    passed++;
  }
  console.log(`protobuf vectors: ${passed} passed, 0 failed, 0 skipped`);
});

test('every vector .json encodes to its .pb bytes', () => {
  const all = vectors();
  assert.ok(all.length >= 87, `only ${all.length} vectors`);
  let passed = 0;
  for (const v of all) {
    const obj = JSON.parse(v.json) as Record<string, unknown>;
    const raw = encodeMessage(v.message!, obj);
    const got = encodeEnvelope(v.typeMeta?.apiVersion ?? '', v.typeMeta?.kind ?? '', raw);
    assert.equal(Buffer.from(got).toString('hex'), v.pb.toString('hex'), v.name);
    passed++;
  }
  console.log(`protobuf encoding vectors: ${passed} passed, 0 failed, 0 skipped`);
});
