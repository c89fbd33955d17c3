/**
 * Garbage collection on a real server process, driven with kubectl and client-node: a custom
 * resource owning ConfigMaps and a Deployment deleted with each cascade mode, chains three deep,
 * owners that never existed or have another uid, references across namespaces (the collector's
 * Warning Event) and from cluster-scoped objects, a Job deleted without a propagation policy (the
 * warning and its orphaned pods), and a server killed in the middle of a foreground cascade.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { CoreV1Api, CustomObjectsApi, KubeConfig } from '@kubernetes/client-node';
import { crontabCRDYAML, kubectl, startServer, type ServerProcess } from './harness.ts';

let s: ServerProcess;

async function k(args: string[], stdin?: string): Promise<string> {
  const r = await kubectl(s, args, stdin);
  assert.equal(r.code, 0, `kubectl ${args.join(' ')}: ${r.stderr}`);
  return r.stdout;
}

async function exists(what: string, ns = 'default'): Promise<boolean> {
  const r = await kubectl(s, ['get', what, '-n', ns, '-o', 'name']);
  if (r.code !== 0 && /NotFound|not found/.test(r.stderr)) return false;
  assert.equal(r.code, 0, r.stderr);
  return true;
}

async function getJSON(what: string, ns = 'default'): Promise<Record<string, any>> {
  return JSON.parse(await k(['get', what, '-n', ns, '-o', 'json']));
}

async function eventually(what: string, fn: () => Promise<boolean>, ms = 15000): Promise<void> {
  const end = Date.now() + ms;
  for (;;) {
    if (await fn()) return;
    if (Date.now() > end) assert.fail(`timed out waiting for: ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const crontab = (name: string, owner?: Owner, block = false) => ({
  apiVersion: 'stable.example.com/v1',
  kind: 'CronTab',
  metadata: { name, ...(owner ? { ownerReferences: [ref(owner, block)] } : {}) },
  spec: { cronSpec: '* * * * *', image: 'img' },
});

interface Owner {
  apiVersion: string;
  kind: string;
  name: string;
  uid: string;
}

const ref = (o: Owner, block: boolean) => ({ ...o, ...(block ? { blockOwnerDeletion: true } : {}) });

const configMap = (name: string, owner: Owner, opts: { block?: boolean; finalizers?: string[]; namespace?: string } = {}) => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: {
    name,
    ...(opts.namespace ? { namespace: opts.namespace } : {}),
    ownerReferences: [ref(owner, opts.block === true)],
    ...(opts.finalizers ? { finalizers: opts.finalizers } : {}),
  },
  data: { k: 'v' },
});

/** Creates objects (a list) with kubectl and returns them as owners. */
async function create(...objs: object[]): Promise<Owner[]> {
  // kubectl prints one JSON document per created object, one after the other.
  const out = await k(['create', '-o', 'json', '-f', '-'], JSON.stringify({ apiVersion: 'v1', kind: 'List', items: objs }));
  const items = out.split(/(?<=^\})\n(?=\{)/m).map((d) => JSON.parse(d)) as Array<{ apiVersion: string; kind: string; metadata: { name: string; uid: string } }>;
  assert.equal(items.length, objs.length);
  return items.map((i) => ({ apiVersion: i.apiVersion, kind: i.kind, name: i.metadata.name, uid: i.metadata.uid }));
}

before(async () => {
  s = await startServer();
  await k(['apply', '-f', '-'], crontabCRDYAML);
  await k(['wait', '--for', 'condition=established', 'crd/crontabs.stable.example.com', '--timeout=30s']);
});

after(async () => {
  await s.stop();
});

test('background (kubectl delete): a custom resource takes its ConfigMaps and Deployment with it', async () => {
  const [owner] = await create(crontab('bg'));
  const deployment = {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'bg-web', ownerReferences: [ref(owner!, true)] },
    spec: { selector: { matchLabels: { app: 'bg' } }, template: { metadata: { labels: { app: 'bg' } }, spec: { containers: [{ name: 'web', image: 'nginx' }] } } },
  };
  await create(configMap('bg-a', owner!), configMap('bg-b', owner!, { block: true }), deployment, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'bg-free' } });
  const out = await k(['delete', 'crontab', 'bg']);
  assert.equal(out.trim(), 'crontab.stable.example.com "bg" deleted');
  await eventually('the dependents are collected', async () => !(await exists('cm/bg-a')) && !(await exists('cm/bg-b')) && !(await exists('deployment/bg-web')));
  assert.equal(await exists('cm/bg-free'), true);
});

test('foreground: the owner is kept, deleting, until no dependent blocks it; the others go at once', async () => {
  const [owner] = await create(crontab('fg'));
  await create(configMap('fg-held', owner!, { block: true, finalizers: ['example.com/hold'] }), configMap('fg-plain', owner!));
  await k(['delete', 'crontab', 'fg', '--cascade=foreground', '--wait=false']);
  await eventually('the non-blocking dependent is collected and the blocking one is deleting', async () => !(await exists('cm/fg-plain')) && (await getJSON('cm/fg-held')).metadata.deletionTimestamp !== undefined);
  const kept = await getJSON('crontab/fg');
  assert.deepEqual(kept.metadata.finalizers, ['foregroundDeletion']);
  assert.ok(kept.metadata.deletionTimestamp);
  await k(['patch', 'cm', 'fg-held', '--type=merge', '-p', '{"metadata":{"finalizers":null}}']);
  await eventually('the owner goes once its blocking dependent is gone', async () => !(await exists('crontab/fg')));
});

test('orphan: the dependents stay, without the reference to the deleted owner', async () => {
  const [owner] = await create(crontab('or'));
  const [other] = await create(crontab('or-other'));
  await create({ ...configMap('or-a', owner!), metadata: { name: 'or-a', ownerReferences: [ref(owner!, true), ref(other!, false)] } }, configMap('or-b', owner!));
  await k(['delete', 'crontab', 'or', '--cascade=orphan']);
  assert.equal(await exists('crontab/or'), false);
  const a = await getJSON('cm/or-a');
  assert.deepEqual(a.metadata.ownerReferences.map((r: Owner) => r.name), ['or-other']);
  const b = await getJSON('cm/or-b');
  assert.equal(b.metadata.ownerReferences, undefined);
});

test('chains three deep: background takes them all; foreground waits for the deepest, then goes up', async () => {
  const [top] = await create(crontab('chain-top'));
  const [mid] = await create(crontab('chain-mid', top, true));
  await create(configMap('chain-leaf', mid!, { block: true }));
  await k(['delete', 'crontab', 'chain-top']);
  await eventually('the whole chain is collected', async () => !(await exists('crontab/chain-mid')) && !(await exists('cm/chain-leaf')));

  const [ftop] = await create(crontab('fchain-top'));
  const [fmid] = await create(crontab('fchain-mid', ftop, true));
  await create(configMap('fchain-leaf', fmid!, { block: true, finalizers: ['example.com/hold'] }));
  await k(['delete', 'crontab', 'fchain-top', '--cascade=foreground', '--wait=false']);
  await eventually('the middle one deletes its dependents in the foreground too', async () => {
    const m = await getJSON('crontab/fchain-mid');
    return m.metadata.deletionTimestamp !== undefined && (m.metadata.finalizers ?? []).includes('foregroundDeletion');
  });
  assert.equal(await exists('crontab/fchain-top'), true);
  await k(['patch', 'cm', 'fchain-leaf', '--type=merge', '-p', '{"metadata":{"finalizers":null}}']);
  await eventually('the chain goes bottom up', async () => !(await exists('crontab/fchain-top')) && !(await exists('crontab/fchain-mid')) && !(await exists('cm/fchain-leaf')));
});

test('an owner that never existed, or exists with another uid, does not keep its dependents', async () => {
  const [live] = await create(crontab('uid-owner'));
  await create(
    configMap('dangling-ghost', { apiVersion: 'stable.example.com/v1', kind: 'CronTab', name: 'ghost', uid: randomUUID() }),
    configMap('dangling-uid', { ...live!, uid: randomUUID() }),
    configMap('solid', live!),
  );
  await eventually('both dangling dependents are collected', async () => !(await exists('cm/dangling-ghost')) && !(await exists('cm/dangling-uid')));
  assert.equal(await exists('cm/solid'), true);
  assert.equal(await exists('crontab/uid-owner'), true);
});

test('references across namespaces: an OwnerRefInvalidNamespace Warning and collection; a cluster-scoped dependent of a namespaced owner is kept', async () => {
  await k(['create', 'namespace', 'elsewhere']);
  const [owner] = await create(crontab('ns-owner'));
  await create(configMap('wrong-ns', owner!, { namespace: 'elsewhere' }));
  const role = { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: 'gc-cluster-dependent', ownerReferences: [ref(owner!, false)] }, rules: [] };
  await create(role, configMap('control', { ...owner!, uid: randomUUID() }));
  await eventually('the dependent in the other namespace is collected', async () => !(await exists('cm/wrong-ns', 'elsewhere')) && !(await exists('cm/control')));
  const events = JSON.parse(await k(['get', 'events', '-n', 'elsewhere', '-o', 'json', '--field-selector', 'reason=OwnerRefInvalidNamespace']));
  assert.equal(events.items.length, 1, JSON.stringify(events.items));
  const ev = events.items[0];
  assert.equal(ev.type, 'Warning');
  assert.equal(ev.source.component, 'garbage-collector-controller');
  assert.equal(ev.involvedObject.name, 'wrong-ns');
  assert.equal(ev.message, `ownerRef [stable.example.com/v1/CronTab, namespace: elsewhere, name: ns-owner, uid: ${owner!.uid}] does not exist in namespace "elsewhere"`);
  assert.equal(await exists('clusterrole/gc-cluster-dependent'), true);
  assert.equal(await exists('crontab/ns-owner'), true);
  // A namespace deleted in the foreground goes once its content and its dependents are gone.
  await k(['delete', 'namespace', 'elsewhere', '--cascade=foreground', '--wait=false']);
  await eventually('the namespace is removed', async () => (await kubectl(s, ['get', 'namespace', 'elsewhere'])).code !== 0);
});

test('a Job deleted without a propagation policy warns and keeps its pods (batch/v1 orphans by default)', async () => {
  const [job] = await create({
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: { name: 'once' },
    spec: { template: { spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'busybox' }] } } },
  });
  await create({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'once-pod', ownerReferences: [{ ...job!, controller: true, blockOwnerDeletion: true }] }, spec: { containers: [{ name: 'c', image: 'busybox' }] } });
  const res = await s.fetch(`${s.url}/apis/batch/v1/namespaces/default/jobs/once`, { method: 'DELETE' });
  assert.equal(res.status, 200);
  assert.equal(
    res.headers.get('warning'),
    '299 - "child pods are preserved by default when jobs are deleted; set propagationPolicy=Background to remove them or set propagationPolicy=Orphan to suppress this warning"',
  );
  const body = (await res.json()) as { metadata: { finalizers?: string[]; deletionTimestamp?: string } };
  assert.deepEqual(body.metadata.finalizers, ['orphan']);
  assert.ok(body.metadata.deletionTimestamp);
  await eventually('the Job is gone once its pod is orphaned', async () => !(await exists('job/once')));
  const pod = await getJSON('pod/once-pod');
  assert.equal(pod.metadata.ownerReferences, undefined);
  // With a policy there is no warning.
  await create({ apiVersion: 'batch/v1', kind: 'Job', metadata: { name: 'twice' }, spec: { template: { spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'busybox' }] } } } });
  const quiet = await s.fetch(`${s.url}/apis/batch/v1/namespaces/default/jobs/twice?propagationPolicy=Background`, { method: 'DELETE' });
  assert.equal(quiet.status, 200);
  assert.equal(quiet.headers.get('warning'), null);
  // deletecollection warns once, as Job's REST does.
  await create({ apiVersion: 'batch/v1', kind: 'Job', metadata: { name: 'thrice', labels: { batch: 'x' } }, spec: { template: { spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'busybox' }] } } } });
  const all = await s.fetch(`${s.url}/apis/batch/v1/namespaces/default/jobs?labelSelector=batch%3Dx`, { method: 'DELETE' });
  assert.equal(all.status, 200);
  assert.match(all.headers.get('warning') ?? '', /^299 - "child pods are preserved by default when jobs are deleted; /);
});

test('client-node: DeleteOptions propagationPolicy Foreground and the legacy orphanDependents', async () => {
  const kc = new KubeConfig();
  kc.loadFromFile(s.kubeconfig);
  const custom = kc.makeApiClient(CustomObjectsApi);
  const core = kc.makeApiClient(CoreV1Api);
  const [a] = await create(crontab('js-fg'));
  await create(configMap('js-fg-dep', a!, { block: true }));
  const kept = (await custom.deleteNamespacedCustomObject({ group: 'stable.example.com', version: 'v1', namespace: 'default', plural: 'crontabs', name: 'js-fg', propagationPolicy: 'Foreground' })) as {
    metadata: { finalizers?: string[] };
  };
  assert.deepEqual(kept.metadata.finalizers, ['foregroundDeletion']);
  await eventually('foreground completes', async () => !(await exists('crontab/js-fg')) && !(await exists('cm/js-fg-dep')));
  const [b] = await create(crontab('js-orphan'));
  await create(configMap('js-orphan-dep', b!));
  await custom.deleteNamespacedCustomObject({ group: 'stable.example.com', version: 'v1', namespace: 'default', plural: 'crontabs', name: 'js-orphan', body: { orphanDependents: true } });
  await eventually('the owner is gone after orphaning', async () => !(await exists('crontab/js-orphan')));
  const dep = await core.readNamespacedConfigMap({ name: 'js-orphan-dep', namespace: 'default' });
  assert.equal(dep.metadata?.ownerReferences, undefined);
  // Both at once is refused as upstream refuses it.
  const [c] = await create(crontab('js-both'));
  await assert.rejects(
    custom.deleteNamespacedCustomObject({ group: 'stable.example.com', version: 'v1', namespace: 'default', plural: 'crontabs', name: 'js-both', propagationPolicy: 'Orphan', body: { orphanDependents: true } }),
    (e: { code?: number; body?: string }) => e.code === 422 && /orphanDependents and deletionPropagation cannot be both set/.test(String(e.body)),
  );
  assert.ok(c);
});

test('a CRD deleted while its custom resources own others: the dependents are collected with them', async () => {
  const crd = crontabCRDYAML.replaceAll('crontabs', 'gadgets').replaceAll('crontab', 'gadget').replaceAll('CronTab', 'Gadget').replace('shortNames: [ct]', 'shortNames: [gd]');
  await k(['apply', '-f', '-'], crd);
  await k(['wait', '--for', 'condition=established', 'crd/gadgets.stable.example.com', '--timeout=30s']);
  const [g] = await create({ ...crontab('g1'), kind: 'Gadget' });
  await create(configMap('gadget-dep', g!, { block: true }), configMap('gadget-dep2', g!));
  await k(['delete', 'crd', 'gadgets.stable.example.com']);
  await eventually('the dependents of the removed kind are collected', async () => !(await exists('cm/gadget-dep')) && !(await exists('cm/gadget-dep2')));
});

test('a server killed in the middle of a foreground cascade finishes it after the restart', async () => {
  const [owner] = await create(crontab('restart-owner'));
  await create(configMap('restart-held', owner!, { block: true, finalizers: ['example.com/hold'] }), configMap('restart-plain', owner!, { block: true }));
  await k(['delete', 'crontab', 'restart-owner', '--cascade=foreground', '--wait=false']);
  await eventually('the cascade has started', async () => !(await exists('cm/restart-plain')));
  const dir = s.dir;
  const exited = new Promise((r) => s.proc.once('exit', r));
  s.proc.kill('SIGKILL');
  await exited;
  s = await startServer({ dir });
  assert.equal(await exists('crontab/restart-owner'), true);
  await k(['patch', 'cm', 'restart-held', '--type=merge', '-p', '{"metadata":{"finalizers":null}}']);
  await eventually('the restarted collector completes the cascade', async () => !(await exists('crontab/restart-owner')));
});
