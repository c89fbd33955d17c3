/**
 * kubectl's tables for built-in kinds against a real server process: objects are created with
 * `kubectl apply`, given a status through the status subresource (`kubectl patch --subresource
 * status`), and `kubectl get` must print the lines a cluster prints for them — pods (READY,
 * STATUS from container states, RESTARTS with the last restart's age), deployments with `-o wide`,
 * services, core and events.k8s.io Events, `get all`, and kinds without a printer (Roles:
 * NAME / CREATED AT). Ages that depend on when the test runs are matched as `<age>` (a few seconds).
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { kubectl, manifest, startServer, type ServerProcess } from './harness.ts';

let s: ServerProcess;
before(async () => {
  s = await startServer();
});
after(async () => {
  await s.stop();
});

const k = async (...args: string[]) => {
  const r = await kubectl(s, args);
  assert.equal(r.code, 0, `kubectl ${args.join(' ')}: ${r.stderr}`);
  return r.stdout;
};

/** An RFC 3339 time `days` ago: ages of days stay the same while the test runs. */
const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString().replace(/\.\d{3}Z$/, 'Z');

/**
 * Asserts kubectl's output is exactly `expected` (lines), where `<age>` stands for an age of
 * seconds (`0s` .. `99s`); the padding after it is kubectl's, so it is matched as spaces.
 */
function assertLines(out: string, expected: string[]): void {
  const lines = out.replace(/\n$/, '').split('\n');
  assert.equal(lines.length, expected.length, `lines of:\n${out}`);
  expected.forEach((e, i) => {
    const pieces = e.split('<age>').map((p, j) => {
      const escaped = p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      return j > 0 ? escaped.replace(/^ +/, ' +') : escaped;
    });
    const re = new RegExp('^' + pieces.join('\\d{1,2}s') + '$');
    assert.match(lines[i]!, re, `line ${i + 1} of:\n${out}`);
  });
}

const objects = `apiVersion: v1
kind: Namespace
metadata:
  name: tables
---
apiVersion: v1
kind: Pod
metadata:
  name: web-0
  namespace: tables
  labels: {app: web}
spec:
  nodeName: node-a
  containers:
  - name: web
    image: nginx:1.27
  - name: log
    image: busybox:1.36
---
apiVersion: v1
kind: Pod
metadata:
  name: setup
  namespace: tables
spec:
  initContainers:
  - name: migrate
    image: migrate:2
  containers:
  - name: app
    image: app:1
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  namespace: tables
spec:
  replicas: 3
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web}
    spec:
      containers:
      - name: web
        image: nginx:1.27
      - name: log
        image: busybox:1.36
---
apiVersion: v1
kind: Service
metadata:
  name: web
  namespace: tables
spec:
  type: NodePort
  selector: {app: web}
  clusterIP: 10.96.0.20
  clusterIPs: [10.96.0.20]
  ports:
  - {name: http, port: 80, targetPort: 80, nodePort: 30080, protocol: TCP}
  - {name: metrics, port: 9090, targetPort: 9090, nodePort: 30090, protocol: TCP}
---
apiVersion: v1
kind: Service
metadata:
  name: db
  namespace: tables
spec:
  type: ExternalName
  externalName: db.example.com
---
apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata:
  name: reader
  namespace: tables
rules:
- apiGroups: [""]
  resources: [pods]
  verbs: [get, list]
`;

const events = () => `apiVersion: v1
kind: Event
metadata:
  name: web-0.backoff
  namespace: tables
involvedObject:
  apiVersion: v1
  kind: Pod
  name: web-0
  namespace: tables
  fieldPath: spec.containers{log}
reason: BackOff
message: Back-off restarting failed container log
type: Warning
source: {component: kubelet, host: node-a}
firstTimestamp: "${daysAgo(3)}"
lastTimestamp: "${daysAgo(2)}"
count: 4
---
apiVersion: events.k8s.io/v1
kind: Event
metadata:
  name: web.scaled
  namespace: tables
eventTime: "${daysAgo(1).replace('Z', '.000000Z')}"
regarding:
  apiVersion: apps/v1
  kind: Deployment
  name: web
  namespace: tables
reason: ScalingReplicaSet
note: Scaled up replica set web-5d8f to 3
type: Normal
action: Scale
reportingController: deployment-controller
reportingInstance: controller-0
`;

test('kubectl get prints the columns kube-apiserver prints for built-in kinds', async () => {
  await k('apply', '-f', manifest(s, 'objects.yaml', objects));
  await k('apply', '-f', manifest(s, 'events.yaml', events()));

  // Statuses as the kubelet and the controllers would write them, through the status subresource.
  const status = (kind: string, name: string, body: unknown) =>
    k('patch', kind, name, '-n', 'tables', '--subresource', 'status', '--type', 'merge', '-p', JSON.stringify({ status: body }));
  await status('pod', 'web-0', {
    phase: 'Running',
    podIP: '10.244.1.7',
    podIPs: [{ ip: '10.244.1.7' }],
    conditions: [{ type: 'Ready', status: 'False' }],
    containerStatuses: [
      { name: 'web', image: 'nginx:1.27', imageID: '', ready: true, restartCount: 0, started: true, state: { running: { startedAt: daysAgo(10) } } },
      {
        name: 'log',
        image: 'busybox:1.36',
        imageID: '',
        ready: false,
        restartCount: 3,
        started: false,
        state: { waiting: { reason: 'CrashLoopBackOff' } },
        lastState: { terminated: { exitCode: 1, reason: 'Error', finishedAt: daysAgo(10) } },
      },
    ],
  });
  await status('pod', 'setup', {
    phase: 'Pending',
    initContainerStatuses: [{ name: 'migrate', image: 'migrate:2', imageID: '', ready: false, restartCount: 0, state: { waiting: { reason: 'ImagePullBackOff' } } }],
  });
  // The Deployment's status is the deployment controller's, counted from its ReplicaSet's, which
  // is written here as the ReplicaSet controller would.
  let rsName = '';
  for (let i = 0; i < 200 && rsName === ''; i++) {
    rsName = await k('get', 'rs', '-n', 'tables', '-l', 'app=web', '-o', 'jsonpath={.items[0].metadata.name}');
    if (rsName === '') await new Promise((r) => setTimeout(r, 50));
  }
  await status('rs', rsName, { replicas: 3, readyReplicas: 1, availableReplicas: 1 });
  for (let i = 0; i < 200; i++) {
    if ((await k('get', 'deploy', 'web', '-n', 'tables', '-o', 'jsonpath={.status.updatedReplicas}/{.status.availableReplicas}')) === '3/1') break;
    await new Promise((r) => setTimeout(r, 50));
  }

  assertLines(await k('get', 'pods', '-n', 'tables'), [
    'NAME    READY   STATUS                  RESTARTS      AGE',
    'setup   0/1     Init:ImagePullBackOff   0             <age>',
    'web-0   1/2     CrashLoopBackOff        3 (10d ago)   <age>',
  ]);
  assertLines(await k('get', 'pods', '-n', 'tables', '-o', 'wide'), [
    'NAME    READY   STATUS                  RESTARTS      AGE   IP           NODE     NOMINATED NODE   READINESS GATES',
    'setup   0/1     Init:ImagePullBackOff   0             <age>   <none>       <none>   <none>           <none>',
    'web-0   1/2     CrashLoopBackOff        3 (10d ago)   <age>   10.244.1.7   node-a   <none>           <none>',
  ]);
  assertLines(await k('get', 'deploy', '-n', 'tables', '-o', 'wide'), [
    'NAME   READY   UP-TO-DATE   AVAILABLE   AGE   CONTAINERS   IMAGES                    SELECTOR',
    'web    1/3     3            1           <age>   web,log      nginx:1.27,busybox:1.36   app=web',
  ]);
  assertLines(await k('get', 'svc', '-n', 'tables'), [
    'NAME   TYPE           CLUSTER-IP   EXTERNAL-IP      PORT(S)                       AGE',
    'db     ExternalName   <none>       db.example.com   <none>                        <age>',
    'web    NodePort       10.96.0.20   <none>           80:30080/TCP,9090:30090/TCP   <age>',
  ]);
  assertLines(await k('get', 'svc', 'web', '-n', 'tables', '-o', 'wide'), [
    'NAME   TYPE       CLUSTER-IP   EXTERNAL-IP   PORT(S)                       AGE   SELECTOR',
    'web    NodePort   10.96.0.20   <none>        80:30080/TCP,9090:30090/TCP   <age>   app=web',
  ]);
  // core/v1 and events.k8s.io/v1 Events are one storage: each list has both.
  assertLines(await k('get', 'events', '-n', 'tables'), [
    'LAST SEEN   TYPE      REASON              OBJECT           MESSAGE',
    '2d          Warning   BackOff             pod/web-0        Back-off restarting failed container log',
    '24h         Normal    ScalingReplicaSet   deployment/web   Scaled up replica set web-5d8f to 3',
  ]);
  const wideEvents = [
    'LAST SEEN   TYPE      REASON              OBJECT           SUBOBJECT              SOURCE                                MESSAGE                                    FIRST SEEN   COUNT   NAME',
    '2d          Warning   BackOff             pod/web-0        spec.containers{log}   kubelet, node-a                       Back-off restarting failed container log   3d           4       web-0.backoff',
    '24h         Normal    ScalingReplicaSet   deployment/web                          deployment-controller, controller-0   Scaled up replica set web-5d8f to 3        24h          1       web.scaled',
  ];
  assertLines(await k('get', 'events', '-n', 'tables', '-o', 'wide'), wideEvents);
  // events.k8s.io Events print through the same printer, read back into core/v1's fields.
  assertLines(await k('get', 'events.v1.events.k8s.io', '-n', 'tables', '-o', 'wide'), wideEvents);

  const all = await k('get', 'all', '-n', 'tables');
  const blocks = all.replace(/\n$/, '').split('\n\n');
  // The deployment controller's ReplicaSet, with the status written for it above.
  assert.match(all, /\nreplicaset\.apps\/web-[bcdfghjklmnpqrstvwxz2456789]+ +3 +3 +1 +/);
  const block = (header: RegExp) => blocks.find((b) => header.test(b)) ?? assert.fail(`no block ${header} in:\n${all}`);
  assertLines(block(/^NAME +READY +STATUS/), [
    'NAME        READY   STATUS                  RESTARTS      AGE',
    'pod/setup   0/1     Init:ImagePullBackOff   0             <age>',
    'pod/web-0   1/2     CrashLoopBackOff        3 (10d ago)   <age>',
  ]);
  assertLines(block(/^NAME +TYPE +CLUSTER-IP/), [
    'NAME          TYPE           CLUSTER-IP   EXTERNAL-IP      PORT(S)                       AGE',
    'service/db    ExternalName   <none>       db.example.com   <none>                        <age>',
    'service/web   NodePort       10.96.0.20   <none>           80:30080/TCP,9090:30090/TCP   <age>',
  ]);
  assertLines(block(/^NAME +READY +UP-TO-DATE/), ['NAME                  READY   UP-TO-DATE   AVAILABLE   AGE', 'deployment.apps/web   1/3     3            1           <age>']);

  // A kind upstream has no printer for keeps the default table.
  const roles = await k('get', 'roles', '-n', 'tables');
  assert.match(roles, /^NAME +CREATED AT\nreader +\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ\n$/);
});

test('the server sends the printer columns in the Table, wide ones with priority 1', async () => {
  const res = await s.fetch(`${s.url}/api/v1/namespaces/tables/pods`, { headers: { accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' } });
  assert.equal(res.status, 200);
  const table = (await res.json()) as { columnDefinitions: Array<{ name: string; type: string; priority: number; description: string }>; rows: Array<{ cells: unknown[]; object: { kind: string } }> };
  assert.deepEqual(
    table.columnDefinitions.map((c) => `${c.name}:${c.type}:${c.priority}`),
    ['Name:string:0', 'Ready:string:0', 'Status:string:0', 'Restarts:string:0', 'Age:string:0', 'IP:string:1', 'Node:string:1', 'Nominated Node:string:1', 'Readiness Gates:string:1'],
  );
  assert.equal(table.columnDefinitions[5]!.description, 'podIP address allocated to the pod. Routable at least within the cluster. Empty if not yet allocated.');
  assert.deepEqual(table.rows.map((r) => r.object.kind), ['PartialObjectMetadata', 'PartialObjectMetadata']);
  assert.deepEqual(table.rows[1]!.cells.slice(0, 4), ['web-0', '1/2', 'CrashLoopBackOff', '3 (10d ago)']);
});
