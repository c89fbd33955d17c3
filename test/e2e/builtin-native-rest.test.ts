/**
 * kubectl against the native rules of PersistentVolume, the PVC data sources and status, the
 * PodDisruptionBudget and Ingress status, events.k8s.io Events and the resource.k8s.io kinds on a
 * real server process: objects read back with their defaults, and mistakes are refused with the
 * messages a cluster prints.
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

async function apply(name: string, yaml: string) {
  return kubectl(s, ['apply', '-f', manifest(s, name, yaml)]);
}

const ok = (args: string[]): Promise<string> => kubectlOK(s, args);

const pv = (name: string, source: string, extra = '') =>
  `apiVersion: v1\nkind: PersistentVolume\nmetadata: {name: ${name}}\nspec:\n  capacity: {storage: 1Gi}\n  accessModes: [ReadWriteOnce]\n  ${source}\n${extra}`;

test('a PersistentVolume reads back Pending with its defaults; its source is fixed; a local one needs node affinity', async () => {
  const r = await apply('pv-nfs.yaml', pv('nfs', 'nfs: {server: nfs.example.com, path: /exports}', '  persistentVolumeReclaimPolicy: Recycle\n'));
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stderr, /Warning: spec\.persistentVolumeReclaimPolicy: The Recycle reclaim policy is deprecated\. Instead, the recommended approach is to use dynamic provisioning\./);
  const got = JSON.parse(await ok(['get', 'pv', 'nfs', '-o', 'json']));
  assert.equal(got.spec.volumeMode, 'Filesystem');
  assert.equal(got.status.phase, 'Pending');
  assert.match(got.status.lastPhaseTransitionTime, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);

  const moved = await kubectl(s, ['patch', 'pv', 'nfs', '-p', '{"spec":{"nfs":{"path":"/other"}}}']);
  assert.notEqual(moved.code, 0);
  assert.match(moved.stderr, /The PersistentVolume "nfs" is invalid: spec\.persistentvolumesource: Forbidden: spec\.persistentvolumesource is immutable after creation\n@@ .* @@\n/);
  assert.match(moved.stderr, /\n-  "Path": "\/exports",\n\+  "Path": "\/other",\n/);
  await ok(['patch', 'pv', 'nfs', '-p', '{"spec":{"capacity":{"storage":"2Gi"}}}']);

  const local = await apply('pv-local.yaml', pv('local', 'local: {path: /mnt/disks/ssd1}'));
  assert.notEqual(local.code, 0);
  assert.equal(local.stderr.trim(), 'The PersistentVolume "local" is invalid: spec.nodeAffinity: Required value: Local volume requires node affinity');
  const affinity = '  nodeAffinity:\n    required:\n      nodeSelectorTerms:\n      - matchExpressions: [{key: kubernetes.io/hostname, operator: In, values: [node-1]}]\n';
  assert.equal((await apply('pv-local.yaml', pv('local', 'local: {path: /mnt/disks/ssd1}', affinity))).code, 0);
  const two = await apply('pv-two.yaml', pv('two', 'hostPath: {path: /tmp/x}\n  csi: {driver: csi.example.com}'));
  assert.equal(two.stderr.trim(), 'The PersistentVolume "two" is invalid: spec.csi: Forbidden: may not specify more than 1 volume type');
});

test('PersistentVolume status: the phase moves its transition time', async () => {
  await ok(['apply', '-f', manifest(s, 'pv-status.yaml', pv('st', 'hostPath: {path: /tmp/st}'))]);
  const before = JSON.parse(await ok(['get', 'pv', 'st', '-o', 'json'])).status.lastPhaseTransitionTime as string;
  await new Promise((r) => setTimeout(r, 1100));
  await ok(['patch', 'pv', 'st', '--subresource=status', '--type=merge', '-p', '{"status":{"phase":"Available"}}']);
  const after = JSON.parse(await ok(['get', 'pv', 'st', '-o', 'json'])).status;
  assert.equal(after.phase, 'Available');
  assert.ok(after.lastPhaseTransitionTime > before, `${after.lastPhaseTransitionTime} after ${before}`);
});

const pvc = (name: string, extra: string) =>
  `apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: ${name}, namespace: default}\nspec:\n  accessModes: [ReadWriteOnce]\n  resources: {requests: {storage: 1Gi}}\n${extra}`;

test('a claim data source is mirrored into dataSourceRef; a mismatch and a bad status are refused', async () => {
  await ok(['apply', '-f', manifest(s, 'pvc-snap.yaml', pvc('restored', '  dataSource: {apiGroup: snapshot.storage.k8s.io, kind: VolumeSnapshot, name: snap}\n'))]);
  const got = JSON.parse(await ok(['get', 'pvc', 'restored', '-o', 'json']));
  assert.deepEqual(got.spec.dataSourceRef, { apiGroup: 'snapshot.storage.k8s.io', kind: 'VolumeSnapshot', name: 'snap' });
  // A populator named only in dataSource is ignored, as on a cluster.
  await ok(['apply', '-f', manifest(s, 'pvc-pop.yaml', pvc('populated', '  dataSource: {apiGroup: populator.example.com, kind: Generic, name: p}\n'))]);
  assert.equal(await ok(['get', 'pvc', 'populated', '-o', 'jsonpath={.spec.dataSource}{.spec.dataSourceRef}']), '');
  const mismatch = await apply('pvc-mismatch.yaml', pvc('mismatch', '  dataSource: {kind: PersistentVolumeClaim, name: a}\n  dataSourceRef: {kind: PersistentVolumeClaim, name: b}\n'));
  assert.equal(mismatch.stderr.trim(), 'The PersistentVolumeClaim "mismatch" is invalid: spec: Invalid value: {}: must match dataSourceRef');
  const status = await kubectl(s, ['patch', 'pvc', 'restored', '--subresource=status', '--type=merge', '-p', '{"status":{"allocatedResourceStatuses":{"storage":"Resizing"}}}']);
  assert.equal(
    status.stderr.trim(),
    'The PersistentVolumeClaim "restored" is invalid: status.allocatedResourceStatus: Unsupported value: "storage": supported values: "ControllerResizeInProgress", "ControllerResizeInfeasible", "NodeResizeInProgress", "NodeResizeInfeasible", "NodeResizePending"',
  );
});

test('PodDisruptionBudget and Ingress status rules', async () => {
  await ok(['create', 'poddisruptionbudget', 'web', '--selector=app=web', '--min-available=1']);
  const pdb = await kubectl(s, ['patch', 'pdb', 'web', '--subresource=status', '--type=merge', '-p', '{"status":{"disruptionsAllowed":-1,"currentHealthy":0,"desiredHealthy":0,"expectedPods":0}}']);
  assert.equal(pdb.stderr.trim(), 'The PodDisruptionBudget "web" is invalid: status.disruptionsAllowed: Invalid value: -1: must be greater than or equal to 0');
  await ok(['create', 'ingress', 'web', '--rule=example.com/=web:80']);
  const ing = await kubectl(s, ['patch', 'ingress', 'web', '--subresource=status', '--type=merge', '-p', '{"status":{"loadBalancer":{"ingress":[{"hostname":"10.0.0.1"}]}}}']);
  assert.equal(ing.stderr.trim(), 'The Ingress "web" is invalid: status.loadBalancer.ingress[0].hostname: Invalid value: "10.0.0.1": must be a DNS name, not an IP address');
  await ok(['patch', 'ingress', 'web', '--subresource=status', '--type=merge', '-p', '{"status":{"loadBalancer":{"ingress":[{"ip":"192.0.2.10"}]}}}']);
  assert.equal(await ok(['get', 'ingress', 'web', '-o', 'jsonpath={.status.loadBalancer.ingress[0].ip}']), '192.0.2.10');
});

test('an Event written through events.k8s.io gets the strict rules; through core/v1 the legacy ones', async () => {
  const ev = (apiVersion: string, name: string) => `apiVersion: ${apiVersion}\nkind: Event\nmetadata: {name: ${name}, namespace: default}\n${apiVersion === 'v1' ? 'involvedObject' : 'regarding'}: {kind: Pod, name: p, namespace: default}\nreason: Started\n`;
  assert.equal((await apply('ev-core.yaml', ev('v1', 'core'))).code, 0);
  const strict = await apply('ev-new.yaml', ev('events.k8s.io/v1', 'strict'));
  assert.equal(strict.stderr.trim(), 'The Event "strict" is invalid: \n* eventTime: Required value\n* type: Invalid value: "": has invalid value:');
});

test('resource.k8s.io: device selectors are compiled with the DRA environment and its cost limit; a claim spec is fixed', async () => {
  const dc = (name: string, expr: string) => `apiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata: {name: ${name}}\nspec:\n  selectors:\n  - cel: {expression: '${expr}'}\n`;
  assert.equal((await apply('dc-good.yaml', dc('gpu', 'device.driver == "gpu.example.com" && device.attributes["gpu.example.com"].model == "a100"'))).code, 0);
  const typed = await apply('dc-type.yaml', dc('typed', 'device.driver'));
  assert.equal(typed.stderr.trim(), 'The DeviceClass "typed" is invalid: spec.selectors[0].cel.expression: Invalid value: "device.driver": must evaluate to bool or the unknown type, not string');
  const undeclared = await apply('dc-undeclared.yaml', dc('undeclared', 'pod.name == "x"'));
  assert.match(undeclared.stderr, /The DeviceClass "undeclared" is invalid: spec\.selectors\[0\]\.cel\.expression: Invalid value: "pod\.name == \\"x\\"": compilation failed: ERROR: <input>:1:1: undeclared reference to 'pod' \(in container ''\)/);
  const costly = '[1,2,3].all(x, [1,2,3].all(y, [1,2,3].all(z, device.attributes.all(d, device.attributes[d].all(a, string(device.attributes[d][a]).contains(device.driver))))))';
  const claim = (name: string, count: number, expr = 'true') =>
    `apiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata: {name: ${name}, namespace: default}\nspec:\n  devices:\n    requests:\n    - name: gpu\n      exactly:\n        deviceClassName: gpu\n        count: ${count}\n        selectors: [{cel: {expression: '${expr}'}}]\n`;
  const tooCostly = await apply('claim-costly.yaml', claim('costly', 1, costly));
  assert.equal(tooCostly.stderr.trim(), 'The ResourceClaim "costly" is invalid: spec.devices.requests[0].exactly.selectors[0].cel.expression: Forbidden: too complex, exceeds cost limit');
  assert.equal((await apply('claim.yaml', claim('single', 1))).code, 0);
  assert.equal(await ok(['get', 'resourceclaim', 'single', '-o', 'jsonpath={.spec.devices.requests[0].exactly.allocationMode}']), 'ExactCount');
  const changed = await apply('claim.yaml', claim('single', 2));
  assert.match(changed.stderr, /The ResourceClaim "single" is invalid: spec: Invalid value: \{.*\}: field is immutable/);
  const slice = await apply('slice.yaml', 'apiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nmetadata: {name: s}\nspec:\n  driver: gpu.example.com\n  pool: {name: p, resourceSliceCount: 1}\n  allNodes: true\n  nodeName: node-1\n');
  assert.equal(slice.stderr.trim(), 'The ResourceSlice "s" is invalid: spec: Invalid value: "{`nodeName`, `allNodes`}": exactly one of `nodeName`, `nodeSelector`, `allNodes`, `perDeviceNodeSelection` is required, but multiple fields are set');
});

const affinityPod = (name: string, affinity: string) =>
  `apiVersion: v1\nkind: Pod\nmetadata: {name: ${name}, namespace: default}\nspec:\n  containers: [{name: c, image: nginx}]\n  affinity:\n    nodeAffinity:\n${affinity}`;

test('a pod: a required node affinity with a bad label value or field expression is refused, a preferred one may have bad label values', async () => {
  const bad = await apply('aff-bad.yaml', affinityPod('aff-bad', '      requiredDuringSchedulingIgnoredDuringExecution:\n        nodeSelectorTerms:\n        - matchExpressions: [{key: zone, operator: In, values: [-bad-]}]\n          matchFields: [{key: metadata.namespace, operator: In, values: [x]}]\n'));
  assert.notEqual(bad.code, 0);
  const p = 'spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0]';
  assert.match(bad.stderr, new RegExp(`The Pod "aff-bad" is invalid: \\n\\* ${p.replace(/[.[\]]/g, '\\$&')}\\.matchExpressions\\[0\\]\\.values\\[0\\]: Invalid value: "-bad-": a valid label must be an empty string`));
  assert.match(bad.stderr, /matchFields\[0\]\.key: Invalid value: "metadata\.namespace": not a valid field selector key\n$/);
  const soft = await apply('aff-soft.yaml', affinityPod('aff-soft', '      preferredDuringSchedulingIgnoredDuringExecution:\n      - weight: 5\n        preference:\n          matchExpressions: [{key: zone, operator: In, values: [-bad-]}]\n'));
  assert.equal(soft.code, 0, soft.stderr);
});
