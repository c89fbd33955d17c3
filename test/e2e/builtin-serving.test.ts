/**
 * The built-in kinds' serving beyond plain CRUD, against a real server process with kubectl and
 * @kubernetes/client-node: the workloads' scale subresource (`kubectl scale`, discovery, the
 * Scale's selector and its validation), autoscaling/v1 HorizontalPodAutoscalers over the v2
 * storage, one Event storage read as core/v1 and events.k8s.io/v1, the `default` ServiceAccount
 * of every namespace, and type errors answered as the decoder's 400.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { AppsV1Api, AutoscalingV1Api, CoreV1Api, EventsV1Api, KubeConfig } from '@kubernetes/client-node';
import { kubectl, manifest, startServer, type ServerProcess } from './harness.ts';

let s: ServerProcess;
let kc: KubeConfig;
before(async () => {
  s = await startServer();
  kc = new KubeConfig();
  kc.loadFromFile(s.kubeconfig);
});
after(async () => {
  assert.equal(await s.stop(), 0, s.output());
});

const k = async (...args: string[]) => {
  const r = await kubectl(s, args);
  assert.equal(r.code, 0, `kubectl ${args.join(' ')}: ${r.stderr}`);
  return r.stdout;
};

/** A raw request to the server: status and parsed body. */
async function call(method: string, path: string, body?: unknown, contentType = 'application/json'): Promise<{ status: number; body: any }> {
  const res = await s.fetch(`${s.url}${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': contentType },
    ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
  });
  const text = await res.text();
  return { status: res.status, body: text === '' ? undefined : JSON.parse(text) };
}

const workloads = `apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: default}
spec:
  replicas: 2
  selector:
    matchLabels: {app: web}
    matchExpressions: [{key: tier, operator: In, values: [front, edge]}]
  template:
    metadata: {labels: {app: web, tier: front}}
    spec: {containers: [{name: web, image: nginx}]}
---
apiVersion: apps/v1
kind: StatefulSet
metadata: {name: db, namespace: default}
spec:
  selector: {matchLabels: {app: db}}
  serviceName: db
  template:
    metadata: {labels: {app: db}}
    spec: {containers: [{name: db, image: postgres}]}
---
apiVersion: apps/v1
kind: ReplicaSet
metadata: {name: rs, namespace: default}
spec:
  replicas: 1
  selector: {matchLabels: {app: rs}}
  template:
    metadata: {labels: {app: rs}}
    spec: {containers: [{name: c, image: busybox}]}
---
apiVersion: v1
kind: ReplicationController
metadata: {name: rc, namespace: default}
spec:
  replicas: 1
  selector: {b: two, a: one}
  template:
    metadata: {labels: {a: one, b: two}}
    spec: {containers: [{name: c, image: busybox}]}
`;

test('the workloads serve autoscaling/v1 Scale: kubectl scale, discovery, selector, validation', async () => {
  await k('apply', '-f', manifest(s, 'workloads.yaml', workloads));
  assert.match(await k('scale', 'deployment', 'web', '--replicas=3'), /deployment.apps\/web scaled/);
  assert.equal(await k('get', 'deploy', 'web', '-o', 'jsonpath={.spec.replicas}'), '3');
  assert.match(await k('scale', 'statefulset', 'db', '--replicas=0'), /statefulset.apps\/db scaled/);
  assert.match(await k('scale', 'rs/rs', 'rc/rc', '--replicas=4'), /replicaset.apps\/rs scaled\s+replicationcontroller\/rc scaled/);
  // --current-replicas is a precondition kubectl checks on the Scale it reads.
  const wrong = await kubectl(s, ['scale', 'deployment', 'web', '--current-replicas=5', '--replicas=1']);
  assert.notEqual(wrong.code, 0);
  assert.match(wrong.stderr, /Expected replicas to be 5, was 3/);

  const scale = (await call('GET', '/apis/apps/v1/namespaces/default/deployments/web/scale')).body;
  assert.equal(scale.kind, 'Scale');
  assert.equal(scale.apiVersion, 'autoscaling/v1');
  assert.deepEqual(scale.spec, { replicas: 3 });
  assert.deepEqual(scale.status, { replicas: 0, selector: 'app=web,tier in (edge,front)' });
  // A StatefulSet without spec.replicas was defaulted to one (and then scaled to zero).
  assert.deepEqual((await call('GET', '/apis/apps/v1/namespaces/default/statefulsets/db/scale')).body.spec, { replicas: 0 });
  assert.equal((await call('GET', '/api/v1/namespaces/default/replicationcontrollers/rc/scale')).body.status.selector, 'a=one,b=two');

  // Discovery lists the subresource with its kind and verbs.
  const apps = (await call('GET', '/apis/apps/v1')).body;
  const sub = apps.resources.find((r: { name: string }) => r.name === 'deployments/scale');
  assert.deepEqual({ group: sub.group, version: sub.version, kind: sub.kind, verbs: sub.verbs }, { group: 'autoscaling', version: 'v1', kind: 'Scale', verbs: ['get', 'patch', 'update'] });

  // ValidateScale, then the uid precondition, as upstream.
  const neg = await call('PATCH', '/apis/apps/v1/namespaces/default/deployments/web/scale', { spec: { replicas: -1 } }, 'application/merge-patch+json');
  assert.equal(neg.status, 422);
  assert.equal(neg.body.message, 'Scale.autoscaling "web" is invalid: spec.replicas: Invalid value: -1: must be greater than or equal to 0');
  const uid = await call('PUT', '/apis/apps/v1/namespaces/default/deployments/web/scale', { apiVersion: 'autoscaling/v1', kind: 'Scale', metadata: { name: 'web', uid: 'other' }, spec: { replicas: 1 } });
  assert.equal(uid.status, 409);
  assert.match(uid.body.message, /^Operation cannot be fulfilled on deployments\/scale.apps "web": Precondition failed: UID in precondition: other, UID in object meta: /);
  const stale = await call('PUT', '/apis/apps/v1/namespaces/default/deployments/web/scale', { apiVersion: 'autoscaling/v1', kind: 'Scale', metadata: { name: 'web', resourceVersion: '1' }, spec: { replicas: 1 } });
  assert.equal(stale.status, 409);
  assert.equal(stale.body.message, 'Operation cannot be fulfilled on deployments.apps "web": the object has been modified; please apply your changes to the latest version and try again');
  assert.equal((await call('GET', '/apis/apps/v1/namespaces/default/deployments/missing/scale')).body.message, 'deployments.apps "missing" not found');

  // client-node's typed scale calls.
  const apps1 = kc.makeApiClient(AppsV1Api);
  const read = await apps1.readNamespacedReplicaSetScale({ name: 'rs', namespace: 'default' });
  assert.equal(read.spec?.replicas, 4);
  const replaced = await apps1.replaceNamespacedReplicaSetScale({ name: 'rs', namespace: 'default', body: { ...read, spec: { replicas: 2 } } });
  assert.equal(replaced.spec?.replicas, 2);
  assert.equal((await apps1.readNamespacedReplicaSet({ name: 'rs', namespace: 'default' })).spec?.replicas, 2);
});

/** Polls kubectl until `check` holds on its output (controllers act asynchronously). */
async function eventually(args: string[], check: (out: string) => boolean): Promise<string> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const r = await kubectl(s, args);
    if (r.code === 0 && check(r.stdout)) return r.stdout;
    if (Date.now() > deadline) assert.fail(`kubectl ${args.join(' ')} never satisfied the check: ${r.stdout}${r.stderr}`);
    await new Promise((res) => setTimeout(res, 100));
  }
}

test('every namespace has a default ServiceAccount, recreated when deleted', async () => {
  await eventually(['get', 'serviceaccounts', '-A', '-o', 'name'], (out) => out.split('\n').filter((l) => l === 'serviceaccount/default').length >= 4);
  await k('apply', '-f', manifest(s, 'ns.yaml', 'apiVersion: v1\nkind: Namespace\nmetadata: {name: team}\n'));
  const uid = await eventually(['get', 'sa', 'default', '-n', 'team', '-o', 'jsonpath={.metadata.uid}'], (out) => out !== '');
  assert.match(await k('delete', 'sa', 'default', '-n', 'team'), /serviceaccount "default" deleted/);
  await eventually(['get', 'sa', 'default', '-n', 'team', '-o', 'jsonpath={.metadata.uid}'], (out) => out !== '' && out !== uid);
});

test('a built-in body of a wrong type answers the decoder\'s 400, not a schema error', async () => {
  const f = manifest(s, 'bad-types.yaml', 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: ports}\ndata: {port: 8080}\n');
  const r = await kubectl(s, ['apply', '-f', f]);
  assert.notEqual(r.code, 0);
  assert.match(r.stderr, /Error from server \(BadRequest\): error when creating ".*bad-types.yaml": ConfigMap in version "v1" cannot be handled as a ConfigMap: json: cannot unmarshal number into Go struct field ConfigMap.data of type string/);
  const d = await call('POST', '/apis/apps/v1/namespaces/default/deployments', { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'typed' }, spec: { replicas: 'x' } });
  assert.equal(d.status, 400);
  assert.equal(d.body.message, 'Deployment in version "v1" cannot be handled as a Deployment: json: cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas of type int32');
  // A patch whose result does not decode is the patch handler's 422 on `patch`.
  const p = await call('PATCH', '/apis/apps/v1/namespaces/default/deployments/web', { spec: { replicas: 'x' } }, 'application/merge-patch+json');
  assert.equal(p.status, 422);
  assert.equal(p.body.details.causes[0].field, 'patch');
  assert.match(p.body.details.causes[0].message, /json: cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas of type int32$/);
});

test('core/v1 and events.k8s.io/v1 Events are one storage, with upstream\'s field mapping', async () => {
  await k('apply', '-f', manifest(s, 'event.yaml', `apiVersion: v1
kind: Event
metadata: {name: pulled, namespace: default}
involvedObject: {kind: Pod, name: web-1, namespace: default}
reason: Pulled
message: Successfully pulled image
source: {component: kubelet, host: node-1}
count: 3
firstTimestamp: "2026-01-02T03:04:05Z"
lastTimestamp: "2026-01-02T03:05:05Z"
reportingComponent: kubelet
type: Normal
`));
  const asNew = JSON.parse(await k('get', 'events.events.k8s.io', 'pulled', '-o', 'json'));
  assert.equal(asNew.apiVersion, 'events.k8s.io/v1');
  assert.deepEqual(
    [asNew.regarding, asNew.note, asNew.reportingController, asNew.deprecatedSource, asNew.deprecatedCount, asNew.deprecatedFirstTimestamp, asNew.deprecatedLastTimestamp, asNew.reason, asNew.type],
    [{ kind: 'Pod', name: 'web-1', namespace: 'default' }, 'Successfully pulled image', 'kubelet', { component: 'kubelet', host: 'node-1' }, 3, '2026-01-02T03:04:05Z', '2026-01-02T03:05:05Z', 'Pulled', 'Normal'],
  );
  assert.equal(asNew.involvedObject, undefined);

  // Written as events.k8s.io/v1 (client-node), read as core/v1; its schema's rules hold.
  const events = kc.makeApiClient(EventsV1Api);
  await events.createNamespacedEvent({
    namespace: 'default',
    body: { metadata: { name: 'scheduled' }, eventTime: '2026-01-02T03:04:05.123456Z' as never, regarding: { kind: 'Pod', name: 'web-2' }, note: 'assigned', reason: 'Scheduled', action: 'Binding', reportingController: 'scheduler', reportingInstance: 'scheduler-1', type: 'Normal' },
  });
  const core = await kc.makeApiClient(CoreV1Api).readNamespacedEvent({ name: 'scheduled', namespace: 'default' });
  assert.deepEqual([core.involvedObject.name, core.message, core.reportingComponent, core.action], ['web-2', 'assigned', 'scheduler', 'Binding']);
  assert.match(await k('get', 'events', '-o', 'name'), /event\/pulled\nevent\/scheduled/);
  assert.match(await k('get', 'events.events.k8s.io', '-o', 'name'), /event.events.k8s.io\/pulled\nevent.events.k8s.io\/scheduled/);
  const noTime = await call('POST', '/apis/events.k8s.io/v1/namespaces/default/events', { apiVersion: 'events.k8s.io/v1', kind: 'Event', metadata: { name: 'late' }, regarding: {} });
  assert.equal(noTime.status, 422);
  assert.equal(noTime.body.message, 'Event "late" is invalid: [eventTime: Required value, type: Invalid value: "": has invalid value: ]');
  const wrong = await call('POST', '/apis/events.k8s.io/v1/namespaces/default/events?fieldValidation=Strict', { apiVersion: 'events.k8s.io/v1', kind: 'Event', metadata: { name: 'x' }, message: 'core name' });
  assert.equal(wrong.status, 400);
  assert.equal(wrong.body.message, 'Event in version "v1" cannot be handled as a Event: strict decoding error: unknown field "message"');

  // Through events.k8s.io an event's note and count are fixed (ValidateEventUpdate for its group);
  // a merge patch through core/v1 changes them; delete through one removes it from both.
  const fixed = await call('PATCH', '/apis/events.k8s.io/v1/namespaces/default/events/pulled', { note: 'pulled again', deprecatedCount: 4 }, 'application/merge-patch+json');
  assert.equal(fixed.status, 422);
  assert.match(fixed.body.message, /^Event "pulled" is invalid: \[.*message: Invalid value: "pulled again": field is immutable.*count: Invalid value: 4: field is immutable/);
  await call('PATCH', '/api/v1/namespaces/default/events/pulled', { message: 'pulled again', count: 4 }, 'application/merge-patch+json');
  assert.equal(await k('get', 'event', 'pulled', '-o', 'jsonpath={.message} {.count} {.involvedObject.name}'), 'pulled again 4 web-1');
  await k('delete', 'events.events.k8s.io', 'pulled');
  assert.equal((await call('GET', '/api/v1/namespaces/default/events/pulled')).status, 404);
});

test('autoscaling/v1 HorizontalPodAutoscalers are served beside v2 from one storage, converted', async () => {
  await k('apply', '-f', manifest(s, 'hpa-v1.yaml', `apiVersion: autoscaling/v1
kind: HorizontalPodAutoscaler
metadata: {name: web, namespace: default}
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}
  minReplicas: 1
  maxReplicas: 5
  targetCPUUtilizationPercentage: 50
`));
  const v2 = JSON.parse(await k('get', 'hpa.v2.autoscaling', 'web', '-o', 'json'));
  assert.deepEqual(v2.spec.metrics, [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 50 } } }]);
  // A v2 metric v1 cannot express is kept in v1's annotation and survives a v1 client's update.
  await call('PATCH', '/apis/autoscaling/v2/namespaces/default/horizontalpodautoscalers/web', { spec: { metrics: [...v2.spec.metrics, { type: 'Pods', pods: { metric: { name: 'qps' }, target: { type: 'AverageValue', averageValue: '1k' } } }] } }, 'application/merge-patch+json');
  const api = kc.makeApiClient(AutoscalingV1Api);
  const v1 = await api.readNamespacedHorizontalPodAutoscaler({ name: 'web', namespace: 'default' });
  assert.equal(v1.spec?.targetCPUUtilizationPercentage, 50);
  assert.equal(v1.metadata?.annotations?.['autoscaling.alpha.kubernetes.io/metrics'], '[{"type":"Pods","pods":{"metricName":"qps","targetAverageValue":"1k"}}]');
  await api.replaceNamespacedHorizontalPodAutoscaler({ name: 'web', namespace: 'default', body: { ...v1, spec: { ...v1.spec!, maxReplicas: 7, targetCPUUtilizationPercentage: 60 } } });
  const after = JSON.parse(await k('get', 'hpa.v2.autoscaling', 'web', '-o', 'json'));
  assert.equal(after.spec.maxReplicas, 7);
  assert.deepEqual(after.spec.metrics.map((m: { type: string }) => m.type), ['Pods', 'Resource']);
  assert.equal(after.spec.metrics[1].resource.target.averageUtilization, 60);
  assert.equal(after.metadata.annotations['autoscaling.alpha.kubernetes.io/metrics'], undefined);

  // Status through v1's status subresource lands as v2's current metrics.
  const st = await call('PATCH', '/apis/autoscaling/v1/namespaces/default/horizontalpodautoscalers/web/status', { status: { currentReplicas: 2, desiredReplicas: 2, currentCPUUtilizationPercentage: 42 } }, 'application/merge-patch+json');
  assert.equal(st.status, 200, JSON.stringify(st.body));
  assert.equal(await k('get', 'hpa.v2.autoscaling', 'web', '-o', 'jsonpath={.status.currentMetrics[0].resource.current.averageUtilization}'), '42');

  // Discovery: both versions, v2 preferred; the OpenAPI document of v1; kubectl explain of a v1-only field.
  const group = (await call('GET', '/apis/autoscaling')).body;
  assert.deepEqual([group.preferredVersion.version, group.versions.map((v: { version: string }) => v.version)], ['v2', ['v2', 'v1']]);
  const v1list = (await call('GET', '/apis/autoscaling/v1')).body.resources;
  assert.deepEqual(v1list.map((r: { name: string }) => r.name), ['horizontalpodautoscalers', 'horizontalpodautoscalers/status']);
  // One storage: the same storage version hash in both versions.
  assert.equal(v1list[0].storageVersionHash, (await call('GET', '/apis/autoscaling/v2')).body.resources[0].storageVersionHash);
  assert.ok((await call('GET', '/openapi/v3/apis/autoscaling/v1')).body.components.schemas['io.k8s.api.autoscaling.v1.HorizontalPodAutoscaler']);
  assert.match(await k('explain', 'hpa.spec.targetCPUUtilizationPercentage', '--api-version=autoscaling/v1'), /target average CPU utilization/);
});
