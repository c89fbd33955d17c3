/**
 * Client libraries on built-in kinds, against one real server process: @kubernetes/client-node
 * 1.4's CoreV1Api and AppsV1Api (ConfigMap, Secret, Service, Deployment: create, read, list by
 * label selector, replace, JSON / merge / strategic merge patches, delete) and an informer on
 * ConfigMaps; the Python client (`kubernetes`, as Debian's python3-kubernetes ships it) doing
 * the same CRUD through its typed models and a `watch.Watch()` on ConfigMaps (skipped when the
 * module is not installed).
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import {
  AppsV1Api,
  CoreV1Api,
  KubeConfig,
  makeInformer,
  PatchStrategy,
  setHeaderOptions,
  type V1ConfigMap,
  type V1Deployment,
  type V1Secret,
  type V1Service,
} from '@kubernetes/client-node';
import { startServer, type ServerProcess } from './harness.ts';

let s: ServerProcess;
let kc: KubeConfig;
let core: CoreV1Api;
let apps: AppsV1Api;
const namespace = 'default';

before(async () => {
  s = await startServer();
  kc = new KubeConfig();
  kc.loadFromFile(s.kubeconfig);
  core = kc.makeApiClient(CoreV1Api);
  apps = kc.makeApiClient(AppsV1Api);
});

after(async () => {
  assert.equal(await s.stop(), 0, s.output());
});

const strategic = setHeaderOptions('Content-Type', PatchStrategy.StrategicMergePatch);
const merge = setHeaderOptions('Content-Type', PatchStrategy.MergePatch);

/** The status code of a rejected client call. */
const statusOf = (e: unknown): number | undefined => (e as { code?: number }).code;

test('client-node CoreV1Api: ConfigMap create, read, list by label, replace, patch, delete', async () => {
  const cm: V1ConfigMap = { metadata: { name: 'js-cm', labels: { app: 'js', tier: 'config' } }, data: { mode: 'a' } };
  const created = await core.createNamespacedConfigMap({ namespace, body: cm });
  assert.equal(created.metadata?.namespace, namespace);
  assert.match(created.metadata?.uid ?? '', /^[0-9a-f-]{36}$/);
  await core.createNamespacedConfigMap({ namespace, body: { metadata: { name: 'js-cm-other', labels: { app: 'other' } } } });

  const got = await core.readNamespacedConfigMap({ name: 'js-cm', namespace });
  assert.deepEqual(got.data, { mode: 'a' });
  const listed = await core.listNamespacedConfigMap({ namespace, labelSelector: 'app=js,tier in (config)' });
  assert.deepEqual(listed.items.map((i) => i.metadata?.name), ['js-cm']);
  assert.ok(listed.metadata?.resourceVersion);

  got.data = { mode: 'b', extra: 'x' };
  const replaced = await core.replaceNamespacedConfigMap({ name: 'js-cm', namespace, body: got });
  assert.deepEqual(replaced.data, { mode: 'b', extra: 'x' });
  assert.notEqual(replaced.metadata?.resourceVersion, got.metadata?.resourceVersion);
  // The same body again carries a stale resourceVersion.
  await assert.rejects(core.replaceNamespacedConfigMap({ name: 'js-cm', namespace, body: got }), (e) => statusOf(e) === 409);

  // client-node sends a JSON patch unless told otherwise.
  const jp = await core.patchNamespacedConfigMap({ name: 'js-cm', namespace, body: [{ op: 'remove', path: '/data/extra' }] });
  assert.deepEqual(jp.data, { mode: 'b' });
  const mp = await core.patchNamespacedConfigMap({ name: 'js-cm', namespace, body: { data: { mode: null, merged: 'y' } } }, merge);
  assert.deepEqual(mp.data, { merged: 'y' });
  const sp = await core.patchNamespacedConfigMap({ name: 'js-cm', namespace, body: { metadata: { labels: { patched: 'true' } } } }, strategic);
  assert.deepEqual(sp.metadata?.labels, { app: 'js', tier: 'config', patched: 'true' });

  await core.deleteNamespacedConfigMap({ name: 'js-cm', namespace });
  await core.deleteNamespacedConfigMap({ name: 'js-cm-other', namespace });
  await assert.rejects(core.readNamespacedConfigMap({ name: 'js-cm', namespace }), (e) => statusOf(e) === 404);
});

const b64 = (text: string) => Buffer.from(text).toString('base64');

test('client-node CoreV1Api: Secret create, read, list by label, replace, patch, delete', async () => {
  const secret: V1Secret = { metadata: { name: 'js-secret', labels: { app: 'js' } }, type: 'Opaque', data: { password: b64('s3cret') } };
  const created = await core.createNamespacedSecret({ namespace, body: secret });
  assert.deepEqual(created.data, { password: b64('s3cret') });
  const got = await core.readNamespacedSecret({ name: 'js-secret', namespace });
  assert.equal(got.type, 'Opaque');
  const listed = await core.listNamespacedSecret({ namespace, labelSelector: 'app=js' });
  assert.deepEqual(listed.items.map((i) => i.metadata?.name), ['js-secret']);
  got.data = { ...got.data, user: b64('admin') };
  const replaced = await core.replaceNamespacedSecret({ name: 'js-secret', namespace, body: got });
  assert.deepEqual(Object.keys(replaced.data ?? {}).sort(), ['password', 'user']);
  const patched = await core.patchNamespacedSecret({ name: 'js-secret', namespace, body: { data: { user: null } } }, strategic);
  assert.deepEqual(Object.keys(patched.data ?? {}), ['password']);
  await core.deleteNamespacedSecret({ name: 'js-secret', namespace });
  await assert.rejects(core.readNamespacedSecret({ name: 'js-secret', namespace }), (e) => statusOf(e) === 404);
});

test('client-node CoreV1Api: Service create, read, list by label, replace, patch, delete', async () => {
  const svc: V1Service = {
    metadata: { name: 'js-svc', labels: { app: 'js' } },
    spec: { selector: { app: 'web' }, ports: [{ name: 'http', port: 80, targetPort: 8080 }] },
  };
  const created = await core.createNamespacedService({ namespace, body: svc });
  assert.equal(created.spec?.ports?.[0]?.targetPort, 8080);
  const got = await core.readNamespacedService({ name: 'js-svc', namespace });
  assert.deepEqual(got.spec?.selector, { app: 'web' });
  const listed = await core.listNamespacedService({ namespace, labelSelector: 'app=js' });
  assert.deepEqual(listed.items.map((i) => i.metadata?.name), ['js-svc']);
  got.spec!.selector = { app: 'web', track: 'stable' };
  const replaced = await core.replaceNamespacedService({ name: 'js-svc', namespace, body: got });
  assert.deepEqual(replaced.spec?.selector, { app: 'web', track: 'stable' });
  // Strategic merge: ports merge by port number, so a new one is added beside the old.
  const patched = await core.patchNamespacedService(
    { name: 'js-svc', namespace, body: { spec: { ports: [{ name: 'https', port: 443, targetPort: 8443 }] } } },
    strategic,
  );
  assert.deepEqual(patched.spec?.ports?.map((p) => [p.name, p.port]).sort(), [['http', 80], ['https', 443]]);
  await core.deleteNamespacedService({ name: 'js-svc', namespace });
  await assert.rejects(core.readNamespacedService({ name: 'js-svc', namespace }), (e) => statusOf(e) === 404);
});

test('client-node AppsV1Api: Deployment create, read, list by label, replace, patch, delete', async () => {
  const deploy: V1Deployment = {
    metadata: { name: 'js-deploy', labels: { app: 'js' } },
    spec: {
      replicas: 2,
      selector: { matchLabels: { app: 'web' } },
      template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'web', image: 'nginx:1.27' }] } },
    },
  };
  const created = await apps.createNamespacedDeployment({ namespace, body: deploy });
  assert.equal(created.metadata?.generation, 1);
  const got = await apps.readNamespacedDeployment({ name: 'js-deploy', namespace });
  assert.equal(got.spec?.replicas, 2);
  const listed = await apps.listNamespacedDeployment({ namespace, labelSelector: 'app=js' });
  assert.deepEqual(listed.items.map((i) => i.metadata?.name), ['js-deploy']);
  // The deployment controller writes the status meanwhile: read-modify-replace retries on a
  // conflict, as client-go's RetryOnConflict does.
  let replaced: V1Deployment | undefined;
  for (let i = 0; !replaced; i++) {
    const cur = i === 0 ? got : await apps.readNamespacedDeployment({ name: 'js-deploy', namespace });
    cur.spec!.replicas = 3;
    try {
      replaced = await apps.replaceNamespacedDeployment({ name: 'js-deploy', namespace, body: cur });
    } catch (e) {
      if ((e as { code?: number }).code !== 409 || i > 20) throw e;
    }
  }
  assert.equal(replaced!.spec?.replicas, 3);
  assert.equal(replaced!.metadata?.generation, 2);
  // Strategic merge: containers merge by name, so the image changes and nothing else does.
  const patched = await apps.patchNamespacedDeployment(
    { name: 'js-deploy', namespace, body: { spec: { template: { spec: { containers: [{ name: 'web', image: 'nginx:1.28' }] } } } } },
    strategic,
  );
  assert.deepEqual(patched.spec?.template.spec?.containers.map((c) => [c.name, c.image]), [['web', 'nginx:1.28']]);
  await apps.deleteNamespacedDeployment({ name: 'js-deploy', namespace });
  await assert.rejects(apps.readNamespacedDeployment({ name: 'js-deploy', namespace }), (e) => statusOf(e) === 404);
});

test('Secret: stringData is merged into data, base64-encoded, and not stored; the type defaults to Opaque', async () => {
  const created = await core.createNamespacedSecret({ namespace, body: { metadata: { name: 'js-string-data' }, data: { user: b64('me'), password: b64('old') }, stringData: { password: 's3cret' } } });
  try {
    assert.deepEqual(created.data, { user: b64('me'), password: b64('s3cret') });
    assert.equal(created.stringData, undefined);
    assert.equal(created.type, 'Opaque');
    const read = await core.readNamespacedSecret({ name: 'js-string-data', namespace });
    assert.equal(read.stringData, undefined);
  } finally {
    await core.deleteNamespacedSecret({ name: 'js-string-data', namespace });
  }
});

test('Secret: its type cannot change', async () => {
  await core.createNamespacedSecret({ namespace, body: { metadata: { name: 'js-secret-type' }, stringData: { password: 's3cret' } } });
  try {
    await assert.rejects(
      core.patchNamespacedSecret({ name: 'js-secret-type', namespace, body: { type: 'kubernetes.io/tls' } }, merge),
      (e) => statusOf(e) === 422,
    );
  } finally {
    await core.deleteNamespacedSecret({ name: 'js-secret-type', namespace });
  }
});

test('Service and Deployment defaults; a Deployment selector is immutable', async () => {
  const svc = await core.createNamespacedService({ namespace, body: { metadata: { name: 'js-defaults' }, spec: { ports: [{ port: 80 }] } } });
  const deploy = await apps.createNamespacedDeployment({
    namespace,
    body: {
      metadata: { name: 'js-defaults' },
      spec: { selector: { matchLabels: { app: 'd' } }, template: { metadata: { labels: { app: 'd' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } },
    },
  });
  try {
    assert.deepEqual([svc.spec?.type, svc.spec?.sessionAffinity, svc.spec?.ports?.[0]?.protocol, svc.spec?.ports?.[0]?.targetPort], ['ClusterIP', 'None', 'TCP', 80]);
    assert.deepEqual(
      [deploy.spec?.replicas, deploy.spec?.strategy?.type, deploy.spec?.revisionHistoryLimit, deploy.spec?.progressDeadlineSeconds],
      [1, 'RollingUpdate', 10, 600],
    );
    // An image without a tag is pulled Always (SetDefaults_Container).
    assert.equal(deploy.spec?.template.spec?.containers[0]?.imagePullPolicy, 'Always');
    await assert.rejects(
      apps.patchNamespacedDeployment({ name: 'js-defaults', namespace, body: { spec: { selector: { matchLabels: { app: 'other' } } } } }, merge),
      (e) => statusOf(e) === 422,
    );
  } finally {
    await core.deleteNamespacedService({ name: 'js-defaults', namespace });
    await apps.deleteNamespacedDeployment({ name: 'js-defaults', namespace });
  }
});

test('client-node informer on ConfigMaps sees add, update and delete', async () => {
  const ns = 'informer';
  await core.createNamespace({ body: { metadata: { name: ns } } });
  const informer = makeInformer<V1ConfigMap>(kc, `/api/v1/namespaces/${ns}/configmaps`, () => core.listNamespacedConfigMap({ namespace: ns }));
  const seen: string[] = [];
  let resolveDone: () => void;
  const done = new Promise<void>((r) => (resolveDone = r));
  // Every namespace also gets the root CA publisher's kube-root-ca.crt, as on a cluster.
  const ours = (o: V1ConfigMap) => o.metadata?.name !== 'kube-root-ca.crt';
  informer.on('add', (o) => ours(o) && seen.push(`add ${o.metadata?.name} ${o.data?.v}`));
  informer.on('update', (o) => ours(o) && seen.push(`update ${o.metadata?.name} ${o.data?.v}`));
  informer.on('delete', (o) => {
    seen.push(`delete ${o.metadata?.name}`);
    resolveDone();
  });
  await informer.start();
  const waitFor = async (entry: string) => {
    for (let i = 0; i < 500 && !seen.includes(entry); i++) await new Promise((r) => setTimeout(r, 20));
  };
  await core.createNamespacedConfigMap({ namespace: ns, body: { metadata: { name: 'inf-cm' }, data: { v: '1' } } });
  await waitFor('add inf-cm 1');
  await core.patchNamespacedConfigMap({ name: 'inf-cm', namespace: ns, body: { data: { v: '2' } } }, strategic);
  await waitFor('update inf-cm 2');
  await core.deleteNamespacedConfigMap({ name: 'inf-cm', namespace: ns });
  await Promise.race([done, new Promise((r) => setTimeout(r, 15000))]);
  await informer.stop();
  assert.deepEqual(seen, ['add inf-cm 1', 'update inf-cm 2', 'delete inf-cm']);
});

// The first interpreter that has the module: PATH's python3 (maybe a pyenv one), else Debian's.
const python = ['python3', '/usr/bin/python3'].find((exe) => spawnSync(exe, ['-c', 'import kubernetes'], { encoding: 'utf8' }).status === 0);
const skip = python ? false : 'the Python client is not installed (install python3-kubernetes)';

// Typed models in, typed models out; a dict body is sent as a strategic merge patch, a list as a
// JSON patch (the client's rest layer picks the content type).
const script = String.raw`
import base64, json, sys, threading
from kubernetes import client, config, watch
from kubernetes.client.rest import ApiException
config.load_kube_config(config_file=sys.argv[1])
core, apps = client.CoreV1Api(), client.AppsV1Api()
ns = 'py'
core.create_namespace(client.V1Namespace(metadata=client.V1ObjectMeta(name=ns)))
out = {}
def status(f):
    try:
        f()
        return 'ok'
    except ApiException as e:
        return e.status
def names(lst):
    return [i.metadata.name for i in lst.items]

# ConfigMap
cm = core.create_namespaced_config_map(ns, client.V1ConfigMap(metadata=client.V1ObjectMeta(name='py-cm', labels={'app': 'py'}), data={'k': 'a'}))
core.create_namespaced_config_map(ns, client.V1ConfigMap(metadata=client.V1ObjectMeta(name='py-cm-2', labels={'app': 'other'})))
got = core.read_namespaced_config_map('py-cm', ns)
got.data = {'k': 'b'}
out['cm'] = {
    'created': cm.metadata.name,
    'read': core.read_namespaced_config_map('py-cm', ns).data,
    'listed': names(core.list_namespaced_config_map(ns, label_selector='app=py')),
    'replaced': core.replace_namespaced_config_map('py-cm', ns, got).data,
    'patched': core.patch_namespaced_config_map('py-cm', ns, {'data': {'k2': 'c'}}).data,
    'json_patched': core.patch_namespaced_config_map('py-cm', ns, [{'op': 'remove', 'path': '/data/k'}]).data,
    'stale_replace': status(lambda: core.replace_namespaced_config_map('py-cm', ns, got)),
}
core.delete_namespaced_config_map('py-cm', ns)
core.delete_namespaced_config_map('py-cm-2', ns)
out['cm']['after_delete'] = status(lambda: core.read_namespaced_config_map('py-cm', ns))

# Secret
sec = core.create_namespaced_secret(ns, client.V1Secret(metadata=client.V1ObjectMeta(name='py-secret', labels={'app': 'py'}), type='Opaque',
    data={'token': base64.b64encode(b'abc').decode()}))
got = core.read_namespaced_secret('py-secret', ns)
got.data['extra'] = base64.b64encode(b'x').decode()
out['secret'] = {
    'created': base64.b64decode(sec.data['token']).decode(),
    'type': got.type,
    'listed': names(core.list_namespaced_secret(ns, label_selector='app=py')),
    'replaced': sorted(core.replace_namespaced_secret('py-secret', ns, got).data),
    'patched': sorted(core.patch_namespaced_secret('py-secret', ns, {'data': {'extra': None}}).data),
}
core.delete_namespaced_secret('py-secret', ns)
out['secret']['after_delete'] = status(lambda: core.read_namespaced_secret('py-secret', ns))

# Service
svc = core.create_namespaced_service(ns, client.V1Service(metadata=client.V1ObjectMeta(name='py-svc', labels={'app': 'py'}),
    spec=client.V1ServiceSpec(selector={'app': 'web'}, ports=[client.V1ServicePort(name='http', port=80, target_port=8080)])))
got = core.read_namespaced_service('py-svc', ns)
got.spec.selector = {'app': 'web2'}
out['svc'] = {
    'target_port': svc.spec.ports[0].target_port,
    'listed': names(core.list_namespaced_service(ns, label_selector='app=py')),
    'replaced': core.replace_namespaced_service('py-svc', ns, got).spec.selector,
    'patched': sorted([p.port for p in core.patch_namespaced_service('py-svc', ns, {'spec': {'ports': [{'name': 'https', 'port': 443}]}}).spec.ports]),
}
core.delete_namespaced_service('py-svc', ns)
out['svc']['after_delete'] = status(lambda: core.read_namespaced_service('py-svc', ns))

# Deployment
tmpl = client.V1PodTemplateSpec(metadata=client.V1ObjectMeta(labels={'app': 'web'}),
    spec=client.V1PodSpec(containers=[client.V1Container(name='web', image='nginx:1.27')]))
dep = apps.create_namespaced_deployment(ns, client.V1Deployment(metadata=client.V1ObjectMeta(name='py-deploy', labels={'app': 'py'}),
    spec=client.V1DeploymentSpec(replicas=1, selector=client.V1LabelSelector(match_labels={'app': 'web'}), template=tmpl)))
def replace_replicas(n):
    # The deployment controller writes the status meanwhile: retry on a conflict.
    for _ in range(20):
        got = apps.read_namespaced_deployment('py-deploy', ns)
        got.spec.replicas = n
        try:
            return apps.replace_namespaced_deployment('py-deploy', ns, got)
        except ApiException as e:
            if e.status != 409:
                raise
    raise RuntimeError('replace kept conflicting')
out['deploy'] = {
    'generation': dep.metadata.generation,
    'listed': names(apps.list_namespaced_deployment(ns, label_selector='app=py')),
    'replaced': replace_replicas(2).spec.replicas,
    'patched': [[c.name, c.image] for c in apps.patch_namespaced_deployment('py-deploy', ns,
        {'spec': {'template': {'spec': {'containers': [{'name': 'web', 'image': 'nginx:1.28'}]}}}}).spec.template.spec.containers],
}
apps.delete_namespaced_deployment('py-deploy', ns)
out['deploy']['after_delete'] = status(lambda: apps.read_namespaced_deployment('py-deploy', ns))

# A watch on ConfigMaps from the list's resourceVersion: the changes made after it, in order.
rv = core.list_namespaced_config_map(ns).metadata.resource_version
events = []
w = watch.Watch()
def changes():
    core.create_namespaced_config_map(ns, client.V1ConfigMap(metadata=client.V1ObjectMeta(name='py-w'), data={'v': '1'}))
    core.patch_namespaced_config_map('py-w', ns, {'data': {'v': '2'}})
    core.delete_namespaced_config_map('py-w', ns)
t = threading.Thread(target=changes)
t.start()
for ev in w.stream(core.list_namespaced_config_map, ns, resource_version=rv, timeout_seconds=10):
    o = ev['object']
    events.append([ev['type'], o.metadata.name, (o.data or {}).get('v')])
    if ev['type'] == 'DELETED':
        w.stop()
t.join()
out['watch'] = events
print(json.dumps(out))
`;

test('Python client CoreV1Api / AppsV1Api CRUD and a ConfigMap watch', { skip }, () => {
  const r = spawnSync(python!, ['-c', script, s.kubeconfig], { encoding: 'utf8', timeout: 90000 });
  assert.equal(r.status, 0, r.stderr);
  const out = JSON.parse(r.stdout.trim().split('\n').pop()!);
  assert.deepEqual(out, {
    cm: {
      created: 'py-cm',
      read: { k: 'a' },
      listed: ['py-cm'],
      replaced: { k: 'b' },
      patched: { k: 'b', k2: 'c' },
      json_patched: { k2: 'c' },
      stale_replace: 409,
      after_delete: 404,
    },
    secret: { created: 'abc', type: 'Opaque', listed: ['py-secret'], replaced: ['extra', 'token'], patched: ['token'], after_delete: 404 },
    svc: { target_port: 8080, listed: ['py-svc'], replaced: { app: 'web2' }, patched: [80, 443], after_delete: 404 },
    deploy: {
      generation: 1,
      listed: ['py-deploy'],
      replaced: 2,
      patched: [['web', 'nginx:1.28']],
      after_delete: 404,
    },
    watch: [
      ['ADDED', 'py-w', '1'],
      ['MODIFIED', 'py-w', '2'],
      ['DELETED', 'py-w', '2'],
    ],
  });
});
