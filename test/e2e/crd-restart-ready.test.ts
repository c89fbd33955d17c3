/**
 * Readiness after a restart, on a real `serve` process over a data dir holding CRDs: the first 200
 * of /readyz comes only once every stored CRD is served (the controllers start after the socket
 * listens, the served table is filled before it), so right after it discovery lists each CRD and a
 * request for its resources succeeds; the controllers run too (a CRD created then becomes
 * Established and serves).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type ServerProcess } from './harness.ts';

function crd(plural: string): Record<string, unknown> {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${plural}.ready.example.com` },
    spec: {
      group: 'ready.example.com',
      scope: 'Namespaced',
      names: { plural, kind: plural[0]!.toUpperCase() + plural.slice(1, -1) },
      versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } }],
    },
  };
}

async function call(s: ServerProcess, method: string, path: string, body?: unknown): Promise<{ status: number; json: any }> {
  const r = await s.fetch(s.url + path, { method, ...(body ? { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } } : {}) });
  const text = await r.text();
  try {
    return { status: r.status, json: JSON.parse(text) };
  } catch {
    return { status: r.status, json: text };
  }
}

/** The server once /readyz first answers 200 (polled without pause from the moment it listens). */
async function ready(dir?: string): Promise<ServerProcess> {
  const s = await startServer({ ...(dir ? { dir } : {}), args: ['--plain-http'] });
  while ((await s.fetch(`${s.url}/readyz`).catch(() => undefined))?.status !== 200);
  return s;
}

async function established(s: ServerProcess, name: string): Promise<void> {
  for (let i = 0; i < 500; i++) {
    const r = await call(s, 'GET', `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${name}`);
    if ((r.json?.status?.conditions ?? []).some((c: any) => c.type === 'Established' && c.status === 'True')) return;
    await new Promise((r) => setTimeout(r, 20));
  }
  assert.fail(`${name} never became Established`);
}

test('after a restart, the first ready /readyz comes with every stored CRD served', { timeout: 120_000 }, async () => {
  const plurals = ['apples', 'pears', 'plums', 'cherries'];
  let s = await ready();
  for (const p of plurals) {
    assert.equal((await call(s, 'POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', crd(p))).status, 201);
    await established(s, `${p}.ready.example.com`);
  }
  await s.stop({ keep: true });

  s = await ready(s.dir);
  try {
    // Right after the first 200: discovery lists every stored CRD, and each is served.
    const gv = await call(s, 'GET', '/apis/ready.example.com/v1');
    assert.equal(gv.status, 200);
    assert.deepEqual(gv.json.resources.map((r: { name: string }) => r.name).sort(), [...plurals].sort());
    for (const p of plurals) {
      const list = await call(s, 'GET', `/apis/ready.example.com/v1/namespaces/default/${p}`);
      assert.equal(list.status, 200, JSON.stringify(list.json));
      assert.equal(list.json.kind, `${p[0]!.toUpperCase()}${p.slice(1, -1)}List`);
    }
    // The controllers run after the socket listens: a new CRD gets its names, Established, served.
    assert.equal((await call(s, 'POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', crd('figs'))).status, 201);
    await established(s, 'figs.ready.example.com');
    const created = await call(s, 'POST', '/apis/ready.example.com/v1/namespaces/default/figs', { apiVersion: 'ready.example.com/v1', kind: 'Fig', metadata: { name: 'a' } });
    assert.equal(created.status, 201, JSON.stringify(created.json));
  } finally {
    await s.stop();
  }
});
