/**
 * The defaults and Go JSON shape of built-in kinds other than pods and workloads, through kubectl
 * against a real server process: objects created with only their required fields read back with
 * the fields kube-apiserver 1.35 writes (each kind's Go defaulters, then what encoding/json always
 * writes; a new object has no status until one is written), including kubectl's own typed-client creates (protobuf), and an RBAC binding's
 * defaulted roleRef printed as a cluster prints it.
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
type O = Record<string, unknown>;
const getJSON = async (...args: string[]) => JSON.parse(await k('get', ...args, '-o', 'json')) as O;

const objects = `apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: data, namespace: default}
spec:
  accessModes: [ReadWriteOnce]
  resources: {requests: {storage: 1Gi}}
---
apiVersion: v1
kind: PersistentVolume
metadata: {name: pv1}
spec:
  capacity: {storage: 1Gi}
  accessModes: [ReadWriteOnce]
  hostPath: {path: /tmp/pv1}
---
apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata: {name: fast}
provisioner: example.com/fast
---
apiVersion: storage.k8s.io/v1
kind: CSIDriver
metadata: {name: csi.example.com}
spec: {}
---
apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata: {name: high}
value: 1000
---
apiVersion: networking.k8s.io/v1
kind: NetworkPolicy
metadata: {name: deny, namespace: default}
spec:
  podSelector: {}
  egress: [{ports: [{port: 53}]}]
---
apiVersion: v1
kind: Endpoints
metadata: {name: ep, namespace: default}
subsets: [{addresses: [{ip: 10.0.0.1}], ports: [{port: 80}]}]
---
apiVersion: discovery.k8s.io/v1
kind: EndpointSlice
metadata: {name: es, namespace: default}
addressType: IPv4
endpoints: [{addresses: [10.0.0.1]}]
ports: [{port: 80}]
---
apiVersion: flowcontrol.apiserver.k8s.io/v1
kind: PriorityLevelConfiguration
metadata: {name: batch}
spec:
  type: Limited
  limited: {limitResponse: {type: Queue, queuing: {}}}
---
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata: {name: pdb, namespace: default}
spec: {minAvailable: 1}
---
apiVersion: v1
kind: Event
metadata: {name: ev, namespace: default}
involvedObject: {kind: Pod, name: p, namespace: default}
reason: Started
`;

test('objects read back with their Go defaults and the fields encoding/json always writes', async () => {
  await k('apply', '-f', manifest(s, 'objects.yaml', objects));

  const pvc = await getJSON('pvc', 'data');
  assert.equal((pvc.spec as O).volumeMode, 'Filesystem');
  assert.deepEqual(pvc.status, { phase: 'Pending' });

  const pv = await getJSON('pv', 'pv1');
  assert.equal((pv.spec as O).persistentVolumeReclaimPolicy, 'Retain');
  assert.equal((pv.spec as O).volumeMode, 'Filesystem');
  assert.deepEqual((pv.spec as O).hostPath, { path: '/tmp/pv1', type: '' });
  // PrepareForCreate: Pending from the moment of creation.
  assert.deepEqual(Object.keys(pv.status as O).sort(), ['lastPhaseTransitionTime', 'phase']);
  assert.equal((pv.status as O).phase, 'Pending');
  assert.match(String((pv.status as O).lastPhaseTransitionTime), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  assert.match(await k('get', 'pv', 'pv1'), /^pv1\s+1Gi\s+RWO\s+Retain\s+Pending\s/m);

  const sc = await getJSON('storageclass', 'fast');
  assert.equal(sc.reclaimPolicy, 'Delete');
  assert.equal(sc.volumeBindingMode, 'Immediate');
  assert.match(await k('get', 'storageclass', 'fast'), /^fast\s+example.com\/fast\s+Delete\s+Immediate\s+false\s/m);

  assert.deepEqual((await getJSON('csidriver', 'csi.example.com')).spec, {
    attachRequired: true,
    podInfoOnMount: false,
    storageCapacity: false,
    fsGroupPolicy: 'ReadWriteOnceWithFSType',
    volumeLifecycleModes: ['Persistent'],
    requiresRepublish: false,
    seLinuxMount: false,
  });
  assert.equal((await getJSON('priorityclass', 'high')).preemptionPolicy, 'PreemptLowerPriority');

  const np = (await getJSON('networkpolicy', 'deny')).spec as O;
  assert.deepEqual(np.policyTypes, ['Ingress', 'Egress']);
  assert.deepEqual(np.egress, [{ ports: [{ port: 53, protocol: 'TCP' }] }]);

  assert.deepEqual((await getJSON('endpoints', 'ep')).subsets, [{ addresses: [{ ip: '10.0.0.1' }], ports: [{ port: 80, protocol: 'TCP' }] }]);
  const es = await getJSON('endpointslice', 'es');
  assert.deepEqual(es.ports, [{ port: 80, name: '', protocol: 'TCP' }]);
  assert.deepEqual(es.endpoints, [{ addresses: ['10.0.0.1'], conditions: {} }]);

  assert.deepEqual(((await getJSON('prioritylevelconfiguration', 'batch')).spec as O).limited, {
    nominalConcurrencyShares: 30,
    lendablePercent: 0,
    limitResponse: { type: 'Queue', queuing: { handSize: 8, queues: 64, queueLengthLimit: 50 } },
  });

  // A PodDisruptionBudget's status, once written, has the non-omitempty counts Go writes.
  await k('patch', 'pdb', 'pdb', '--subresource=status', '--type=merge', '-p', '{"status":{"observedGeneration":1}}');
  assert.deepEqual((await getJSON('pdb', 'pdb')).status, { observedGeneration: 1, disruptionsAllowed: 0, currentHealthy: 0, desiredHealthy: 0, expectedPods: 0 });

  // A core/v1 Event: its zero times are null, its reporting fields "".
  const ev = await getJSON('events', 'ev');
  assert.equal(ev.firstTimestamp, null);
  assert.equal(ev.lastTimestamp, null);
  assert.equal(ev.eventTime, null);
  assert.equal(ev.reportingComponent, '');
  assert.equal(ev.reportingInstance, '');
  assert.deepEqual(ev.source, {});
});

test('kubectl create (protobuf) of RBAC, secrets and config maps: the defaults and omitted empties', async () => {
  await k('create', 'clusterrole', 'reader', '--verb=get', '--resource=pods');
  await k('create', 'rolebinding', 'rb', '--clusterrole=reader', '--user=alice', '--group=devs', '--serviceaccount=default:bot');
  const rb = await getJSON('rolebinding', 'rb');
  assert.deepEqual(rb.roleRef, { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'reader' });
  assert.deepEqual(rb.subjects, [
    { apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: 'alice' },
    { apiGroup: 'rbac.authorization.k8s.io', kind: 'Group', name: 'devs' },
    { kind: 'ServiceAccount', name: 'bot', namespace: 'default' },
  ]);
  assert.match(await k('get', 'rolebinding', 'rb', '-o', 'wide'), /^rb\s+ClusterRole\/reader\s+\S+\s+alice\s+devs\s+default\/bot\s*$/m);

  // An aggregated ClusterRole has no rules of its own: Go writes its nil slice as null.
  await k('apply', '-f', manifest(s, 'agg.yaml', 'apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata: {name: agg}\naggregationRule: {clusterRoleSelectors: [{matchLabels: {team: storage}}]}\n'));
  const agg = await getJSON('clusterrole', 'agg');
  assert.ok('rules' in agg && agg.rules === null, JSON.stringify(agg));

  await k('create', 'secret', 'generic', 'empty');
  const secret = await getJSON('secret', 'empty');
  assert.equal(secret.type, 'Opaque');
  assert.ok(!('data' in secret), JSON.stringify(secret));

  await k('create', 'configmap', 'none');
  const cm = await getJSON('configmap', 'none');
  assert.deepEqual(Object.keys(cm).sort(), ['apiVersion', 'kind', 'metadata']);
  assert.ok(!('creationTimestamp' in (cm.metadata as O)) || typeof (cm.metadata as O).creationTimestamp === 'string');
});

test('a workload gets the non-pointer structs Go writes, and a PUT of it as read changes nothing', async () => {
  await k('create', 'deployment', 'web', '--image=nginx');
  const d = await getJSON('deployment', 'web');
  const containers = ((((d.spec as O).template as O).spec as O).containers as O[])!;
  assert.deepEqual(containers[0]!.resources, {});
  assert.ok(((d.spec as O).template as O).metadata !== undefined);
  const rv = (d.metadata as O).resourceVersion;
  await k('replace', '-f', manifest(s, 'web.json', JSON.stringify(d)));
  assert.equal(((await getJSON('deployment', 'web')).metadata as O).resourceVersion, rv);
});
