/**
 * Real-world CRDs on a real server through kubectl: the Gateway API standard install and
 * cert-manager's CRDs register and become Established, appear in discovery, and the Gateway API
 * examples that must be accepted are (namespaces first, as their file names order them).
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { kubectl, startServer, type ServerProcess } from './harness.ts';

const root = new URL('../..', import.meta.url).pathname;
const gateway = join(root, 'testdata/crds/gateway-api');
const certManager = join(root, 'testdata/crds/cert-manager/cert-manager.crds.yaml');

let s: ServerProcess;

before(async () => {
  s = await startServer();
});

after(async () => {
  const code = await s.stop();
  assert.equal(code, 0, s.output());
});

/** Files under dir, namespaces files first (they create what the others live in). */
function yamlFiles(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const name of readdirSync(d).sort()) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (name.endsWith('.yaml')) out.push(p);
    }
  };
  walk(dir);
  return out.sort((a, b) => Number(!a.endsWith('0-namespaces.yaml')) - Number(!b.endsWith('0-namespaces.yaml')));
}

test('Gateway API and cert-manager CRDs register and become Established', async () => {
  // `create`, not `apply`: the last-applied annotation of these large CRDs exceeds the 256 KiB limit.
  const gw = await kubectl(s, ['create', '-f', join(gateway, 'crds/standard-install.yaml')]);
  assert.equal(gw.code, 0, gw.stderr);
  for (const name of ['gatewayclasses', 'gateways', 'httproutes', 'referencegrants']) {
    assert.match(gw.stdout, new RegExp(`customresourcedefinition.apiextensions.k8s.io/${name}.gateway.networking.k8s.io created`));
  }
  const cm = await kubectl(s, ['create', '-f', certManager]);
  assert.equal(cm.code, 0, cm.stderr);
  assert.equal((cm.stdout.match(/ created$/gm) ?? []).length, 6, cm.stdout);
  const w = await kubectl(s, ['wait', '--for=condition=Established', 'crd', '--all', '--timeout=30s']);
  assert.equal(w.code, 0, w.stderr);
  assert.equal((w.stdout.match(/condition met/g) ?? []).length, 10, w.stdout);
  const res = await kubectl(s, ['api-resources', '--api-group=gateway.networking.k8s.io', '-o', 'name']);
  assert.deepEqual(res.stdout.trim().split('\n').sort(), [
    'gatewayclasses.gateway.networking.k8s.io',
    'gateways.gateway.networking.k8s.io',
    'httproutes.gateway.networking.k8s.io',
    'referencegrants.gateway.networking.k8s.io',
  ]);
});

test('every Gateway API example under valid/ is accepted', async () => {
  const failures: string[] = [];
  // apply: several examples are variants of one object (same name) and update it.
  for (const f of yamlFiles(join(gateway, 'valid'))) {
    const r = await kubectl(s, ['apply', '-f', f]);
    if (r.code !== 0) failures.push(`${relative(gateway, f)}: ${r.stderr.trim()}`);
  }
  assert.deepEqual(failures, []);
  const routes = await kubectl(s, ['get', 'httproutes', '-A', '-o', 'name']);
  assert.ok(routes.stdout.trim().split('\n').length >= 10, routes.stdout);
});

test('every Gateway API example under invalid/ is rejected with the API server message (schema and CEL rules)', async () => {
  const accepted: string[] = [];
  let celMessages = 0;
  for (const f of yamlFiles(join(gateway, 'invalid'))) {
    const r = await kubectl(s, ['create', '-f', f]);
    if (r.code === 0) accepted.push(relative(gateway, f));
    else {
      assert.match(r.stderr, /The \w+ "[^"]*" is invalid: /, `${f}: ${r.stderr}`);
      // Messages written by the CRD's x-kubernetes-validations rules reach kubectl as is.
      if (/must not be used together with backendRefs|filter cannot be repeated|must be specified for|Must have port for Service reference/.test(r.stderr)) celMessages++;
    }
  }
  assert.deepEqual(accepted, []);
  assert.ok(celMessages >= 5, `expected rule messages from CEL validations, saw ${celMessages}`);
});
