/**
 * `@kubernetes/client-node`'s informers (makeInformer: list, then watch from the list's
 * resourceVersion) on built-in kinds against real server processes: Pods with a label selector
 * (add, update, delete; objects the selector leaves out never reported), Deployments (their
 * status writes by the deployment controller arrive as updates), and the resync an informer does
 * when its watch has expired: restarted from a resourceVersion that etcd compacted meanwhile, the
 * watch answers 410 Gone, the informer lists again and reports what changed while it was away.
 */
import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { AppsV1Api, CoreV1Api, KubeConfig, makeInformer, type Informer, type KubernetesObject, type V1Deployment, type V1Pod } from '@kubernetes/client-node';
import { startServer, type ServerProcess } from './harness.ts';
import { startReplica, type Replica } from './etcd-harness.ts';
import { etcdMissing, startEtcdCluster, type EtcdCluster } from '../../src/storage/etcd/process.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until(what: string | (() => string), f: () => boolean, ms = 15000): Promise<void> {
  const end = Date.now() + ms;
  while (!f()) {
    if (Date.now() > end) assert.fail(`timed out waiting for ${typeof what === "function" ? (what as () => string)() : what}`);
    await sleep(25);
  }
}

const pod = (name: string, labels: Record<string, string>, image = 'nginx:1.25'): V1Pod => ({
  metadata: { name, labels },
  spec: { containers: [{ name: 'c', image }] },
});

/** Records an informer's events as `verb name` (updates with a detail the test picks). */
function record<T extends KubernetesObject>(inf: Informer<T>, detail: (o: T) => string = () => ''): string[] {
  const seen: string[] = [];
  inf.on('add', (o) => seen.push(`add ${o.metadata?.name}`));
  inf.on('update', (o) => seen.push(`update ${o.metadata?.name}${detail(o)}`));
  inf.on('delete', (o) => seen.push(`delete ${o.metadata?.name}`));
  return seen;
}

describe('informers on one server', () => {
  let s: ServerProcess;
  let kc: KubeConfig;
  before(async () => {
    s = await startServer();
    kc = new KubeConfig();
    kc.loadFromFile(s.kubeconfig);
  });
  after(async () => {
    await s.stop();
  });

  test('Pods with a label selector: add, update, delete, and nothing for other pods', async () => {
    const core = kc.makeApiClient(CoreV1Api);
    await core.createNamespacedPod({ namespace: 'default', body: pod('before', { app: 'inf' }) });
    const inf = makeInformer<V1Pod>(kc, '/api/v1/namespaces/default/pods', () => core.listNamespacedPod({ namespace: 'default', labelSelector: 'app=inf' }), 'app=inf');
    const seen = record(inf, (o) => ` ${o.spec?.containers[0]?.image}`);
    await inf.start();
    await until('the listed pod', () => seen.includes('add before'));
    await core.createNamespacedPod({ namespace: 'default', body: pod('other', { app: 'else' }) });
    await core.createNamespacedPod({ namespace: 'default', body: pod('p1', { app: 'inf' }) });
    await until('p1 added', () => seen.includes('add p1'));
    await core.patchNamespacedPod({ namespace: 'default', name: 'p1', body: [{ op: 'replace', path: '/spec/containers/0/image', value: 'nginx:1.26' }] });
    await until('p1 updated', () => seen.includes('update p1 nginx:1.26'));
    await core.deleteNamespacedPod({ namespace: 'default', name: 'p1' });
    await until('p1 deleted', () => seen.includes('delete p1'));
    await core.deleteNamespacedPod({ namespace: 'default', name: 'other' });
    await sleep(300);
    await inf.stop();
    assert.deepEqual(seen, ['add before', 'add p1', 'update p1 nginx:1.26', 'delete p1']);
    assert.deepEqual(inf.list().map((p) => p.metadata?.name), ['before']);
  });

  test('Deployments: the controller\'s status writes and a scale arrive as updates', async () => {
    const apps = kc.makeApiClient(AppsV1Api);
    const inf = makeInformer<V1Deployment>(kc, '/apis/apps/v1/namespaces/default/deployments', () => apps.listNamespacedDeployment({ namespace: 'default' }));
    const seen = record(inf, (o) => ` replicas=${o.spec?.replicas} observed=${o.status?.observedGeneration ?? '-'}`);
    await inf.start();
    await apps.createNamespacedDeployment({
      namespace: 'default',
      body: {
        metadata: { name: 'web' },
        spec: { replicas: 1, selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'nginx', image: 'nginx:1.25' }] } } },
      },
    });
    await until('the controller observing generation 1', () => seen.includes('update web replicas=1 observed=1'));
    await apps.patchNamespacedDeploymentScale({ namespace: 'default', name: 'web', body: [{ op: 'replace', path: '/spec/replicas', value: 4 }] });
    await until('the scale observed', () => seen.includes('update web replicas=4 observed=2'));
    const cached = inf.get('web', 'default');
    assert.equal(cached?.metadata?.annotations?.['deployment.kubernetes.io/revision'], '1');
    await apps.deleteNamespacedDeployment({ namespace: 'default', name: 'web' });
    await until('the delete', () => seen.includes('delete web'));
    await inf.stop();
    assert.equal(seen[0], 'add web');
    assert.equal(seen.at(-1), 'delete web');
    assert.ok(seen.includes('update web replicas=4 observed=1'), seen.join('\n'));
  });
});

const noEtcd = etcdMissing();

describe('an informer whose watch expired', { skip: noEtcd ?? false }, () => {
  let cluster: EtcdCluster;
  let r: Replica;
  before(async () => {
    cluster = await startEtcdCluster();
    r = await startReplica(cluster.endpoints, `/informers-${process.pid}`, ['--etcd-compaction-interval', '1s']);
  });
  after(async () => {
    await r?.stop();
    await cluster?.stop();
  });

  test('410 Gone on the resumed watch: it lists again and reports what changed', async () => {
    const kc = new KubeConfig();
    kc.loadFromFile(r.kubeconfig);
    const core = kc.makeApiClient(CoreV1Api);
    for (const n of ['keep', 'gone', 'changed']) await core.createNamespacedPod({ namespace: 'default', body: pod(n, { app: 'inf' }) });
    const inf = makeInformer<V1Pod>(kc, '/api/v1/namespaces/default/pods', () => core.listNamespacedPod({ namespace: 'default' }));
    const seen = record(inf, (o) => ` ${o.spec?.containers[0]?.image}`);
    const errors: unknown[] = [];
    let resuming = false;
    // As client-node's documentation has it: an informer that failed is started again (the first
    // try after the restart may meet a pooled connection to the killed process).
    inf.on('error', (e) => {
      errors.push(e);
      if (resuming) setTimeout(() => void inf.start(), 200);
    });
    await inf.start();
    await until(() => `the initial list (${seen.join(', ')})`, () => seen.length === 3);

    // The server goes away under the watch; while the informer is down, things change and etcd
    // compacts past the revision the informer last saw.
    await r.kill();
    await until('the informer to notice', () => errors.length > 0);
    await r.restart();
    await core.deleteNamespacedPod({ namespace: 'default', name: 'gone' });
    await core.patchNamespacedPod({ namespace: 'default', name: 'changed', body: [{ op: 'replace', path: '/spec/containers/0/image', value: 'nginx:1.26' }] });
    await core.createNamespacedPod({ namespace: 'default', body: pod('new', { app: 'inf' }) });
    for (let i = 0; i < 5; i++) {
      await core.patchNamespacedPod({ namespace: 'default', name: 'keep', body: [{ op: 'add', path: '/metadata/annotations', value: { n: String(i) } }] });
      await sleep(600);
    }
    const resumeAt = (inf as unknown as { resourceVersion: string }).resourceVersion;
    const probe = await r.fetch(`${r.url}/api/v1/namespaces/default/pods?watch=1&resourceVersion=${resumeAt}&timeoutSeconds=1`);
    const first = (await probe.text()).split('\n')[0]!;
    assert.match(first, /"code":410/, `the watch from ${resumeAt} has expired`);

    seen.length = 0;
    resuming = true;
    await inf.start();
    await until(() => `the resync (${seen.join(', ')}; errors: ${errors.slice(0, 3).map(String).join(', ')}; server: ${r.output().slice(-2000)})`, () => seen.includes('delete gone') && seen.includes('add new') && seen.includes('update changed nginx:1.26'));
    resuming = false;
    await inf.stop();
    assert.deepEqual(inf.list().map((p) => p.metadata?.name).sort(), ['changed', 'keep', 'new']);
    assert.ok(!seen.includes('add keep'), 'objects that were already known are updates, not adds');
  });
});
