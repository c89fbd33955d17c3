/**
 * The Python client (`kubernetes`, as Debian's python3-kubernetes ships it) against a real server
 * process: CustomObjectsApi CRUD, the 400 for a merge patch that is not an object (the client
 * sends every patch as a merge patch), a watch with `watch=True` and `timeoutSeconds`, and
 * `VersionApi` (`/version/`), the dynamic client over discovery, and Namespaces through CoreV1Api.
 * Skipped when the module is not installed.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { crontabCRDYAML, kubectl, manifest, startServer, type ServerProcess } from './harness.ts';

// The first interpreter that has the module: PATH's python3 (maybe a pyenv one), else Debian's.
const python = ['python3', '/usr/bin/python3'].find(
  (exe) => spawnSync(exe, ['-c', 'import kubernetes'], { encoding: 'utf8' }).status === 0,
);
const skip = python ? false : 'install python3-kubernetes';

const script = String.raw`
import json, sys
from kubernetes import client, config, watch
from kubernetes.client.rest import ApiException
config.load_kube_config(config_file=sys.argv[1])
api = client.CustomObjectsApi()
g, v, ns, p = 'stable.example.com', 'v1', 'default', 'crontabs'
body = {'apiVersion': 'stable.example.com/v1', 'kind': 'CronTab',
        'metadata': {'name': 'py-1', 'labels': {'app': 'py'}},
        'spec': {'cronSpec': '* * * * */5', 'image': 'img', 'replicas': 1}}
out = {}
out['created'] = api.create_namespaced_custom_object(g, v, ns, p, body)['metadata']['name']
out['got'] = api.get_namespaced_custom_object(g, v, ns, p, 'py-1')['spec']['image']
out['listed'] = [i['metadata']['name'] for i in api.list_namespaced_custom_object(g, v, ns, p, label_selector='app=py', limit=5)['items']]
out['patched'] = api.patch_namespaced_custom_object(g, v, ns, p, 'py-1', {'spec': {'image': 'patched'}})['spec']['image']
try:
    api.patch_namespaced_custom_object(g, v, ns, p, 'py-1', [{'op': 'replace', 'path': '/spec/image', 'value': 'x'}])
    out['listpatch'] = 'accepted'
except ApiException as e:
    out['listpatch'] = e.status
cur = api.get_namespaced_custom_object(g, v, ns, p, 'py-1')
cur['spec']['replicas'] = 4
out['replaced'] = api.replace_namespaced_custom_object(g, v, ns, p, 'py-1', cur)['spec']['replicas']
events = []
w = watch.Watch()
for ev in w.stream(api.list_namespaced_custom_object, g, v, ns, p, timeout_seconds=1):
    events.append([ev['type'], ev['object']['metadata']['name']])
out['events'] = events
api.delete_namespaced_custom_object(g, v, ns, p, 'py-1')
try:
    api.get_namespaced_custom_object(g, v, ns, p, 'py-1')
    out['after_delete'] = 'found'
except ApiException as e:
    out['after_delete'] = e.status
out['version'] = client.VersionApi().get_code().git_version
from kubernetes.dynamic import DynamicClient
dyn = DynamicClient(client.ApiClient())
cts = dyn.resources.get(api_version='stable.example.com/v1', kind='CronTab')
out['dyn_created'] = cts.create(body={'apiVersion': 'stable.example.com/v1', 'kind': 'CronTab', 'metadata': {'name': 'dyn-1'}, 'spec': {'image': 'a'}}, namespace='default').metadata.name
out['dyn_patched'] = cts.patch(name='dyn-1', namespace='default', body={'spec': {'image': 'b'}}, content_type='application/merge-patch+json').spec.image
out['dyn_listed'] = [i.metadata.name for i in cts.get(namespace='default').items]
cts.delete(name='dyn-1', namespace='default')
core = client.CoreV1Api()
out['ns_created'] = core.create_namespace(client.V1Namespace(metadata=client.V1ObjectMeta(name='py-ns'))).status.phase
out['ns_listed'] = 'py-ns' in [n.metadata.name for n in core.list_namespace().items]
print(json.dumps(out))
`;

let s: ServerProcess;

before(async () => {
  if (skip) return;
  s = await startServer();
  await kubectl(s, ['apply', '-f', manifest(s, 'crd.yaml', crontabCRDYAML)]);
  await kubectl(s, ['wait', '--for=condition=Established', 'crd/crontabs.stable.example.com', '--timeout=20s']);
});

after(async () => {
  if (s) assert.equal(await s.stop(), 0);
});

test('Python client CRUD, watch and version', { skip }, () => {
  const r = spawnSync(python!, ['-c', script, s.kubeconfig], { encoding: 'utf8', timeout: 60000 });
  assert.equal(r.status, 0, r.stderr);
  const out = JSON.parse(r.stdout.trim().split('\n').pop()!);
  assert.deepEqual(out, {
    created: 'py-1',
    got: 'img',
    listed: ['py-1'],
    patched: 'patched',
    listpatch: 400,
    replaced: 4,
    events: [['ADDED', 'py-1']],
    after_delete: 404,
    version: 'v1.35.0',
    dyn_created: 'dyn-1',
    dyn_patched: 'b',
    dyn_listed: ['dyn-1'],
    ns_created: 'Active',
    ns_listed: true,
  });
});
