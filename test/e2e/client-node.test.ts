/**
 * @kubernetes/client-node 1.4 against a real server process: CustomObjectsApi CRUD (JSON and
 * merge patches, replace with the re-sent creationTimestamp) and an informer that sees objects
 * added, updated and deleted.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  ApiextensionsV1Api,
  CustomObjectsApi,
  KubeConfig,
  makeInformer,
  PatchStrategy,
  setHeaderOptions,
  type KubernetesObject,
} from '@kubernetes/client-node';
import { readYAML } from '../../src/apimachinery/yaml/index.ts';
import { crontabCRDYAML, startServer, type ServerProcess } from './harness.ts';

let s: ServerProcess;
let kc: KubeConfig;
let api: CustomObjectsApi;
const ref = { group: 'stable.example.com', version: 'v1', namespace: 'default', plural: 'crontabs' };

before(async () => {
  s = await startServer();
  kc = new KubeConfig();
  kc.loadFromFile(s.kubeconfig);
  const ext = kc.makeApiClient(ApiextensionsV1Api);
  await ext.createCustomResourceDefinition({ body: readYAML(crontabCRDYAML).value as any });
  for (let i = 0; i < 400; i++) {
    const crd = await ext.readCustomResourceDefinition({ name: 'crontabs.stable.example.com' });
    if (crd.status?.conditions?.some((c) => c.type === 'Established' && c.status === 'True')) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  api = kc.makeApiClient(CustomObjectsApi);
});

after(async () => {
  assert.equal(await s.stop(), 0, s.output());
});

const body = (name: string, labels: Record<string, string> = { app: 'js' }) => ({
  apiVersion: 'stable.example.com/v1',
  kind: 'CronTab',
  metadata: { name, labels },
  spec: { cronSpec: '* * * * */5', image: 'img', replicas: 1 },
});

test('CustomObjectsApi create, get, list, patch, replace, delete', async () => {
  const created = await api.createNamespacedCustomObject({ ...ref, body: body('js-1') });
  assert.equal(created.metadata.name, 'js-1');
  const got = await api.getNamespacedCustomObject({ ...ref, name: 'js-1' });
  assert.equal(got.spec.image, 'img');
  const list = await api.listNamespacedCustomObject({ ...ref, labelSelector: 'app=js' });
  assert.deepEqual(list.items.map((i: KubernetesObject) => i.metadata?.name), ['js-1']);
  const jp = await api.patchNamespacedCustomObject({ ...ref, name: 'js-1', body: [{ op: 'replace', path: '/spec/image', value: 'patched' }] });
  assert.equal(jp.spec.image, 'patched');
  const mp = await api.patchNamespacedCustomObject(
    { ...ref, name: 'js-1', body: { spec: { replicas: 3 } } },
    setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
  );
  assert.equal(mp.spec.replicas, 3);
  const cur = await api.getNamespacedCustomObject({ ...ref, name: 'js-1' });
  cur.spec.image = 'replaced';
  const rep = await api.replaceNamespacedCustomObject({ ...ref, name: 'js-1', body: cur });
  assert.equal(rep.spec.image, 'replaced');
  await assert.rejects(
    api.replaceNamespacedCustomObject({ ...ref, name: 'js-1', body: cur }),
    (e: { code?: number; body?: string }) => e.code === 409 && /the object has been modified/.test(String(e.body)),
  );
  await api.deleteNamespacedCustomObject({ ...ref, name: 'js-1' });
  await assert.rejects(api.getNamespacedCustomObject({ ...ref, name: 'js-1' }), (e: { code?: number }) => e.code === 404);
});

test('an informer sees add, update and delete', async () => {
  const path = '/apis/stable.example.com/v1/namespaces/default/crontabs';
  const informer = makeInformer<KubernetesObject & { spec?: { image?: string } }>(kc, path, () =>
    api.listNamespacedCustomObject({ ...ref }) as never,
  );
  const seen: string[] = [];
  let resolveDone: () => void;
  const done = new Promise<void>((r) => (resolveDone = r));
  informer.on('add', (o) => seen.push(`add ${o.metadata?.name}`));
  informer.on('update', (o) => seen.push(`update ${o.metadata?.name} ${o.spec?.image}`));
  informer.on('delete', (o) => {
    seen.push(`delete ${o.metadata?.name}`);
    resolveDone();
  });
  await informer.start();
  await api.createNamespacedCustomObject({ ...ref, body: body('inf-1') });
  for (let i = 0; i < 500 && !seen.includes('add inf-1'); i++) await new Promise((r) => setTimeout(r, 20));
  await api.patchNamespacedCustomObject(
    { ...ref, name: 'inf-1', body: { spec: { image: 'v2' } } },
    setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
  );
  for (let i = 0; i < 500 && !seen.includes('update inf-1 v2'); i++) await new Promise((r) => setTimeout(r, 20));
  await api.deleteNamespacedCustomObject({ ...ref, name: 'inf-1' });
  await Promise.race([done, new Promise((r) => setTimeout(r, 15000))]);
  await informer.stop();
  assert.deepEqual(seen, ['add inf-1', 'update inf-1 v2', 'delete inf-1']);
});
