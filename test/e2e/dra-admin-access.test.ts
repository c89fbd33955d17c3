/**
 * kubectl against DRA admin access on a real server process: a ResourceClaim or
 * ResourceClaimTemplate asking for `adminAccess: true` is refused in a namespace without the
 * `resource.kubernetes.io/admin-access: "true"` label, with the message a cluster prints, and is
 * created once the namespace has it; the label is read when the claim is written.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { kubectl, kubectlOK, manifest, startServer, type ServerProcess } from './harness.ts';

let s: ServerProcess;
before(async () => {
  s = await startServer();
});
after(async () => {
  await s.stop();
});

const ok = (args: string[]): Promise<string> => kubectlOK(s, args);

const requests = (admin: boolean) => `    requests:\n    - name: gpu\n      exactly:\n        deviceClassName: gpu\n        adminAccess: ${admin}\n`;
const claim = (name: string, admin: boolean) => `apiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata: {name: ${name}, namespace: drivers}\nspec:\n  devices:\n${requests(admin)}`;
const template = (name: string, admin: boolean) =>
  `apiVersion: resource.k8s.io/v1\nkind: ResourceClaimTemplate\nmetadata: {name: ${name}, namespace: drivers}\nspec:\n  spec:\n    devices:\n${requests(admin).replace(/^/gm, '  ')}`;
const refused = 'spec.devices.requests[0].adminAccess: Forbidden: admin access to devices requires the `resource.kubernetes.io/admin-access: true` label on the containing namespace';

test('adminAccess needs the namespace label, for claims and claim templates; without adminAccess no label is needed', async () => {
  await ok(['create', 'namespace', 'drivers']);
  const c = await kubectl(s, ['create', '-f', manifest(s, 'admin-claim.yaml', claim('monitor', true))]);
  assert.notEqual(c.code, 0);
  assert.equal(c.stderr.trim(), `The ResourceClaim "monitor" is invalid: ${refused}`);
  const t = await kubectl(s, ['apply', '-f', manifest(s, 'admin-template.yaml', template('monitor', true))]);
  assert.notEqual(t.code, 0);
  assert.equal(t.stderr.trim(), `The ResourceClaimTemplate "monitor" is invalid: ${refused}`);
  const dry = await kubectl(s, ['create', '--dry-run=server', '-f', manifest(s, 'admin-claim.yaml', claim('monitor', true))]);
  assert.equal(dry.stderr.trim(), `The ResourceClaim "monitor" is invalid: ${refused}`);
  await ok(['create', '-f', manifest(s, 'plain-claim.yaml', claim('plain', false))]);

  await ok(['label', 'namespace', 'drivers', 'resource.kubernetes.io/admin-access=true']);
  await ok(['create', '-f', manifest(s, 'admin-claim.yaml', claim('monitor', true))]);
  await ok(['apply', '-f', manifest(s, 'admin-template.yaml', template('monitor', true))]);
  assert.equal(await ok(['get', 'resourceclaim', 'monitor', '-n', 'drivers', '-o', 'jsonpath={.spec.devices.requests[0].exactly.adminAccess}']), 'true');
  assert.equal(await ok(['get', 'resourceclaimtemplate', 'monitor', '-n', 'drivers', '-o', 'jsonpath={.spec.spec.devices.requests[0].exactly.adminAccess}']), 'true');

  // Any value but "true" is no label: the check reads the namespace as it is now.
  await ok(['label', 'namespace', 'drivers', '--overwrite', 'resource.kubernetes.io/admin-access=yes']);
  const again = await kubectl(s, ['create', '-f', manifest(s, 'admin-claim-2.yaml', claim('monitor-2', true))]);
  assert.equal(again.stderr.trim(), `The ResourceClaim "monitor-2" is invalid: ${refused}`);
  // Stored claims stay (their spec is immutable): a metadata update is not checked again, as upstream.
  await ok(['label', 'resourceclaim', 'monitor', '-n', 'drivers', 'team=gpu']);
});
