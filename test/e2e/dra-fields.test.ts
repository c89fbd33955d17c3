/**
 * kubectl against the resource.k8s.io rules of a real server process: a claim's device statuses
 * validated as a cluster validates them (share IDs, network data, driver data, allocated devices),
 * fields behind alpha gates off in 1.35 dropped on write and kept where the stored object has
 * them, and the namespace label a status update needs when its allocation grants admin access.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { kubectl, kubectlOK, manifest, startServer, type ServerProcess } from './harness.ts';

let s: ServerProcess;
before(async () => {
  s = await startServer();
  await ok(['create', 'namespace', 'drivers']);
});
after(async () => {
  await s.stop();
});

const ok = (args: string[]): Promise<string> => kubectlOK(s, args);

const claim = (name: string, extra = '') =>
  `apiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata: {name: ${name}, namespace: drivers}\nspec:\n  devices:\n    requests:\n    - name: gpu\n      exactly:\n        deviceClassName: gpu\n${extra}`;

const result = (extra: Record<string, unknown> = {}) => ({ request: 'gpu', driver: 'gpu.example.com', pool: 'node-1', device: 'gpu-0', ...extra });
const statusPatch = (status: unknown) => ['patch', 'resourceclaim', '-n', 'drivers', '--subresource=status', '--type=merge', '-p', JSON.stringify({ status })];
const getJSON = async (args: string[]) => JSON.parse(await ok([...args, '-o', 'json'])) as Record<string, any>;

test('device statuses: network data, share IDs, driver data and allocated devices are checked as a cluster checks them', async () => {
  await ok(['create', '-f', manifest(s, 'claim.yaml', claim('net'))]);
  await ok([...statusPatch({ allocation: { devices: { results: [result()] } } }), 'net']);
  const device = { driver: 'gpu.example.com', pool: 'node-1', device: 'gpu-0' };
  const good = { ...device, data: { vendor: 'example' }, networkData: { interfaceName: 'eth1', hardwareAddress: '00:11:22:33:44:55', ips: ['10.9.8.7/24', '2001:db8::1/64'] } };
  await ok([...statusPatch({ devices: [good] }), 'net']);
  const stored = await getJSON(['get', 'resourceclaim', 'net', '-n', 'drivers']);
  // Go writes the device status's conditions without omitempty: null when there are none.
  assert.deepEqual(stored.status.devices, [{ ...good, conditions: null }]);

  const bad = await kubectl(s, [
    ...statusPatch({ devices: [{ ...device, networkData: { ips: ['010.009.008.007/24', '2001:db8::1'] }, data: ['not', 'an', 'object'] }, { driver: 'gpu.example.com', pool: 'node-1', device: 'gpu-9' }] }),
    'net',
  ]);
  assert.notEqual(bad.code, 0);
  assert.equal(
    bad.stderr.trim(),
    [
      'The ResourceClaim "net" is invalid: ',
      '* status.devices[0].data: Invalid value: "<value omitted>": must be a valid JSON object',
      '* status.devices[0].networkData.ips[0]: Invalid value: "010.009.008.007/24": must be in canonical form ("10.9.8.7/24")',
      '* status.devices[0].networkData.ips[1]: Invalid value: "2001:db8::1": must be a valid address in CIDR form, (e.g. 10.9.8.7/24 or 2001:db8::1/64)',
      '* status.devices[1]: Invalid value: {"Driver":"gpu.example.com","Pool":"node-1","Device":"gpu-9","ShareID":""}: must be an allocated device in the claim',
    ].join('\n'),
  );
  // Deallocating drops the device statuses with the allocation, as upstream's status strategy does.
  await ok(['patch', 'resourceclaim', 'net', '-n', 'drivers', '--subresource=status', '--type=json', '-p', '[{"op":"remove","path":"/status/allocation"}]']);
  assert.equal((await getJSON(['get', 'resourceclaim', 'net', '-n', 'drivers'])).status?.devices, undefined);
});

test('fields behind alpha gates are dropped on write; share IDs and binding conditions in a status too', async () => {
  const tolerations = '        tolerations:\n        - {key: example.com/unhealthy, operator: Exists}\n        capacity:\n          requests: {memory: 1Gi}\n';
  await ok(['create', '-f', manifest(s, 'tolerating.yaml', claim('tolerating', tolerations))]);
  const c = await getJSON(['get', 'resourceclaim', 'tolerating', '-n', 'drivers']);
  assert.deepEqual(c.spec.devices.requests[0].exactly, { deviceClassName: 'gpu', allocationMode: 'ExactCount', count: 1 });

  const shareID = '0a1b2c3d-0000-4000-8000-00000000000a';
  await ok([...statusPatch({ allocation: { devices: { results: [result({ shareID, bindingConditions: ['ready'], bindingFailureConditions: ['failed'] })] } } }), 'tolerating']);
  assert.deepEqual((await getJSON(['get', 'resourceclaim', 'tolerating', '-n', 'drivers'])).status.allocation.devices.results, [result()]);

  await ok([
    'apply',
    '-f',
    manifest(
      s,
      'slice.yaml',
      'apiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nmetadata: {name: node-1-gpus}\nspec:\n  driver: gpu.example.com\n  pool: {name: node-1, resourceSliceCount: 1}\n  nodeName: node-1\n  devices:\n  - name: gpu-0\n    taints: [{key: example.com/unhealthy, effect: NoSchedule}]\n    allowMultipleAllocations: true\n    bindsToNode: true\n    capacity:\n      memory: {value: 8Gi, requestPolicy: {default: 1Gi, validRange: {min: 1Gi}}}\n',
    ),
  ]);
  const slice = await getJSON(['get', 'resourceslice', 'node-1-gpus']);
  assert.deepEqual(slice.spec.devices, [{ name: 'gpu-0', capacity: { memory: { value: '8Gi' } } }]);
  assert.equal(slice.metadata.generation, 1);

  await ok(['create', '-f', manifest(s, 'class.yaml', 'apiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata: {name: gpu}\nspec:\n  extendedResourceName: example.com/gpu\n')]);
  const cls = await getJSON(['get', 'deviceclass', 'gpu']);
  assert.equal(cls.spec.extendedResourceName, undefined);
  assert.equal(cls.metadata.generation, 1);
});

test(
  'a status update whose allocation grants admin access needs the namespace label',
  async () => {
    await ok(['create', '-f', manifest(s, 'admin.yaml', claim('admin'))]);
    const refused = await kubectl(s, [...statusPatch({ allocation: { devices: { results: [result({ adminAccess: true })] } } }), 'admin']);
    assert.equal(
      refused.stderr.trim(),
      'The ResourceClaim "admin" is invalid: status.allocation.devices.results[0].adminAccess: Forbidden: admin access to devices requires the `resource.kubernetes.io/admin-access: true` label on the containing namespace',
    );
    await ok(['label', 'namespace', 'drivers', 'resource.kubernetes.io/admin-access=true']);
    await ok([...statusPatch({ allocation: { devices: { results: [result({ adminAccess: true })] } } }), 'admin']);
    // Granted once, the allocation is not checked again: the label may go.
    await ok(['label', 'namespace', 'drivers', 'resource.kubernetes.io/admin-access-']);
    await ok([...statusPatch({ reservedFor: [{ resource: 'pods', name: 'p', uid: 'u1' }] }), 'admin']);
  },
);
