/**
 * Pods and the workload kinds read back through kubectl with the defaults kube-apiserver 1.35
 * writes: `kubectl create deployment`, `kubectl run`, and minimal Job, CronJob, StatefulSet,
 * DaemonSet, ReplicationController and Pod manifests, each compared field by field with the
 * object a cluster returns (`testdata/k8s-native/defaults-workloads/expected/`, derived from
 * upstream's defaulters), as JSON (`-o json`) and as YAML; mistakes are refused with the
 * cluster's messages and defaults never make a bad object a server error.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { kubectl, manifest, startServer, type ServerProcess } from './harness.ts';

let s: ServerProcess;
before(async () => {
  s = await startServer();
});
after(async () => {
  await s.stop();
});

interface Expected {
  derivation: string;
  expect: Record<string, unknown>;
  absent: string[];
}

const expectedDir = new URL('../../testdata/k8s-native/defaults-workloads/expected/', import.meta.url);
const expected = (name: string): Expected => JSON.parse(readFileSync(new URL(name, expectedDir), 'utf8')) as Expected;

/** A generated name's random suffix (names.SimpleNameGenerator), which expected objects mask as XXXXX. */
const maskedSuffix = /^(.*-)XXXXX$/;

/** Every field `want` names has its value in `got` (arrays element by element, of the same length). */
function assertFields(got: unknown, want: unknown, path: string): void {
  const masked = typeof want === 'string' ? maskedSuffix.exec(want) : null;
  if (masked) {
    assert.match(String(got), new RegExp(`^${masked[1]}[bcdfghjklmnpqrstvwxz2456789]{5}$`), path);
    return;
  }
  if (want !== null && typeof want === 'object' && !Array.isArray(want)) {
    assert.ok(got !== null && typeof got === 'object' && !Array.isArray(got), `${path}: expected an object, got ${JSON.stringify(got)}`);
    const g = got as Record<string, unknown>;
    if (Object.keys(want).length === 0) assert.deepEqual(g, {}, path);
    for (const [k, v] of Object.entries(want)) assertFields(g[k], v, path === '' ? k : `${path}.${k}`);
    return;
  }
  if (Array.isArray(want)) {
    assert.ok(Array.isArray(got), `${path}: expected a list, got ${JSON.stringify(got)}`);
    assert.equal(got.length, want.length, `${path}: length`);
    want.forEach((w, i) => assertFields(got[i], w, `${path}[${i}]`));
    return;
  }
  assert.deepEqual(got, want, path);
}

function at(obj: unknown, path: string): unknown {
  let v = obj;
  for (const part of path.match(/[^.[\]]+/g) ?? []) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<string, unknown>)[part];
  }
  return v;
}

async function getJSON(args: string[]): Promise<Record<string, unknown>> {
  const r = await kubectl(s, ['get', ...args, '-o', 'json']);
  assert.equal(r.code, 0, r.stderr);
  return JSON.parse(r.stdout) as Record<string, unknown>;
}

async function assertDefaults(args: string[], file: string): Promise<void> {
  const e = expected(file);
  const obj = await getJSON(args);
  assertFields(obj, e.expect, '');
  for (const p of e.absent) assert.equal(at(obj, p), undefined, `${p} should be unset`);
}

async function create(name: string, yaml: string): Promise<void> {
  const r = await kubectl(s, ['create', '-f', manifest(s, name, yaml)]);
  assert.equal(r.code, 0, r.stderr);
}

test('kubectl create deployment: strategy, history, deadline and the template defaults', async () => {
  const r = await kubectl(s, ['create', 'deployment', 'web', '--image=nginx']);
  assert.equal(r.code, 0, r.stderr);
  await assertDefaults(['deployment', 'web'], 'deployment-web.json');
  // YAML shows the same (kubectl prints the 25% strings quoted, as from a cluster).
  const y = await kubectl(s, ['get', 'deployment', 'web', '-o', 'yaml']);
  assert.match(y.stdout, /\n {6}maxSurge: 25%\n {6}maxUnavailable: 25%\n {4}type: RollingUpdate\n/);
  assert.match(y.stdout, /\n {8}imagePullPolicy: Always\n/);
});

test('kubectl run: a pod with enableServiceLinks, port protocol and pull policy by tag', async () => {
  const r = await kubectl(s, ['run', 'p1', '--image=nginx:1.27', '--port=8080']);
  assert.equal(r.code, 0, r.stderr);
  await assertDefaults(['pod', 'p1'], 'pod-p1.json');
});

test('a pod with limits only: requests from limits, quantities canonical, probe and volume defaults', async () => {
  await create('pod-limits.yaml', `apiVersion: v1
kind: Pod
metadata: {name: limits}
spec:
  containers:
  - name: app
    image: registry.k8s.io/pause:3.10
    resources: {limits: {cpu: 0.5, memory: 0.25Gi}}
    livenessProbe: {httpGet: {port: 8080}}
    volumeMounts: [{name: creds, mountPath: /creds}]
  volumes:
  - name: creds
    secret: {secretName: creds}
`);
  await assertDefaults(['pod', 'limits'], 'pod-limits.json');
});

test('a minimal Job and CronJob get batch/v1 defaults', async () => {
  await create('job.yaml', `apiVersion: batch/v1
kind: Job
metadata: {name: pi}
spec:
  template:
    spec:
      containers: [{name: pi, image: perl:5.34.0, command: [perl, -e, print 1]}]
      restartPolicy: Never
`);
  await assertDefaults(['job', 'pi'], 'job-pi.json');
  const r = await kubectl(s, ['create', 'cronjob', 'hello', '--image=busybox', '--schedule=*/5 * * * *', '--', 'echo', 'hi']);
  assert.equal(r.code, 0, r.stderr);
  await assertDefaults(['cronjob', 'hello'], 'cronjob-hello.json');
});

test('StatefulSet, DaemonSet and ReplicationController defaults, claim templates included', async () => {
  await create('sts.yaml', `apiVersion: apps/v1
kind: StatefulSet
metadata: {name: db}
spec:
  serviceName: db
  selector: {matchLabels: {app: db}}
  template:
    metadata: {labels: {app: db}}
    spec:
      containers: [{name: db, image: postgres:17}]
  volumeClaimTemplates:
  - metadata: {name: data}
    spec:
      accessModes: [ReadWriteOnce]
      resources: {requests: {storage: 1Gi}}
`);
  await assertDefaults(['statefulset', 'db'], 'statefulset-db.json');
  await create('ds.yaml', `apiVersion: apps/v1
kind: DaemonSet
metadata: {name: agent}
spec:
  selector: {matchLabels: {app: agent}}
  template:
    metadata: {labels: {app: agent}}
    spec:
      containers: [{name: agent, image: fluent/fluent-bit:3.2}]
      volumes:
      - name: scratch
      - name: logs
        hostPath: {path: /var/log}
`);
  await assertDefaults(['daemonset', 'agent'], 'daemonset-agent.json');
  await create('rc.yaml', `apiVersion: v1
kind: ReplicationController
metadata: {name: rc}
spec:
  template:
    metadata: {labels: {app: rc}}
    spec:
      containers: [{name: c, image: nginx:1.27, ports: [{containerPort: 80}]}]
`);
  await assertDefaults(['replicationcontroller', 'rc'], 'replicationcontroller-rc.json');
  // The RC's selector, defaulted from the template, is what its scale subresource reports.
  const scale = await kubectl(s, ['get', '--raw', '/api/v1/namespaces/default/replicationcontrollers/rc/scale']);
  assert.equal(scale.code, 0, scale.stderr);
  assert.deepEqual((JSON.parse(scale.stdout) as { spec: unknown }).spec, { replicas: 1 });
});

test('defaults hold through an update: a replaced object is defaulted again, given values stay', async () => {
  const obj = await getJSON(['deployment', 'web']);
  const spec = obj.spec as Record<string, unknown>;
  spec.strategy = { type: 'Recreate' };
  spec.revisionHistoryLimit = 3;
  delete spec.progressDeadlineSeconds;
  const r = await kubectl(s, ['replace', '-f', manifest(s, 'web-replace.json', JSON.stringify(obj))]);
  assert.equal(r.code, 0, r.stderr);
  const got = await getJSON(['deployment', 'web']);
  assertFields(got, { spec: { strategy: { type: 'Recreate' }, revisionHistoryLimit: 3, progressDeadlineSeconds: 600 } }, '');
  assert.equal(at(got, 'spec.strategy.rollingUpdate'), undefined);
});

test('mistakes are refused with the cluster messages, never a server error', async () => {
  const badType = await kubectl(s, ['create', '-f', manifest(s, 'bad-type.yaml', `apiVersion: v1
kind: Pod
metadata: {name: bad-type}
spec:
  terminationGracePeriodSeconds: "30"
  containers: [{name: c, image: nginx}]
`)]);
  assert.equal(badType.code, 1);
  assert.match(
    badType.stderr,
    /Error from server \(BadRequest\): error when creating ".*bad-type.yaml": Pod in version "v1" cannot be handled as a Pod: json: cannot unmarshal string into Go struct field PodSpec\.spec\.terminationGracePeriodSeconds of type int64/,
  );
  // A pod spec with nothing in it is defaulted (restartPolicy, dnsPolicy, ...) and then refused
  // for what it lacks, as a cluster refuses it.
  const empty = await kubectl(s, ['create', '-f', manifest(s, 'empty.yaml', 'apiVersion: v1\nkind: Pod\nmetadata: {name: empty}\nspec: {}\n')]);
  assert.equal(empty.code, 1);
  assert.match(empty.stderr, /The Pod "empty" is invalid: spec\.containers: Required value/);
  // Odd but well-typed shapes reach the defaulters without breaking them.
  const odd = await kubectl(s, ['create', '-f', manifest(s, 'odd.yaml', `apiVersion: apps/v1
kind: Deployment
metadata: {name: odd}
spec:
  selector: {matchLabels: {app: odd}}
  strategy: null
  template:
    metadata: {labels: {app: odd}}
    spec:
      containers: [{name: c, image: nginx, ports: null, env: [{name: A}], livenessProbe: null}]
      volumes: null
`)]);
  assert.equal(odd.code, 0, odd.stderr);
  assertFields(await getJSON(['deployment', 'odd']), { spec: { strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' } } } }, '');
});
