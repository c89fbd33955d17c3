/**
 * Server-side apply against a real server process, as kube-apiserver answers it: kubectl apply
 * --server-side (create, unchanged re-apply, conflicts and their exit code, --force-conflicts,
 * --dry-run=server, --field-manager, status subresource), the migration from client-side apply,
 * client-side apply on server-side applied objects, apply on a CRD, a Namespace, a Deployment, a
 * ConfigMap and a custom resource (two managers sharing a list-map item), the request errors
 * with upstream's statuses and messages, and client-node and the Python dynamic client applying
 * and hitting a conflict. One server for the file.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { CoreV1Api, KubeConfig, PatchStrategy, setHeaderOptions } from '@kubernetes/client-node';
import { kubectl, manifest, startServer, type ServerProcess } from './harness.ts';

let s: ServerProcess;

const widgetCRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.apply.example.com
spec:
  group: apply.example.com
  scope: Namespaced
  names: {plural: widgets, singular: widget, kind: Widget}
  versions:
  - name: v1
    served: true
    storage: true
    subresources:
      status: {}
      scale: {specReplicasPath: .spec.size, statusReplicasPath: .status.replicas}
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              size: {type: integer}
              color: {type: string, default: blue}
              ports:
                type: array
                x-kubernetes-list-type: map
                x-kubernetes-list-map-keys: [name]
                items:
                  type: object
                  required: [name]
                  properties:
                    name: {type: string}
                    port: {type: integer}
              tags:
                type: array
                x-kubernetes-list-type: set
                items: {type: string}
          status:
            type: object
            properties:
              phase: {type: string}
              replicas: {type: integer}
`;

before(async () => {
  s = await startServer();
  const r = await kubectl(s, ['apply', '--server-side', '-f', manifest(s, 'widget-crd.yaml', widgetCRD)]);
  assert.equal(r.code, 0, r.stderr);
  const w = await kubectl(s, ['wait', '--for=condition=Established', 'crd/widgets.apply.example.com', '--timeout=20s']);
  assert.equal(w.code, 0, w.stderr);
});

after(async () => {
  assert.equal(await s.stop(), 0, s.output());
});

async function getJSON(args: string[]): Promise<any> {
  const r = await kubectl(s, ['get', ...args, '-o', 'json', '--show-managed-fields']);
  assert.equal(r.code, 0, r.stderr);
  return JSON.parse(r.stdout);
}

async function call(method: string, path: string, body: string, contentType: string): Promise<{ status: number; json: any }> {
  const res = await s.fetch(`${s.url}${path}`, { method, body, headers: { 'content-type': contentType } });
  const text = await res.text();
  return { status: res.status, json: JSON.parse(text) };
}

const entry = (o: { manager: string; operation: string; fields: unknown; subresource?: string; apiVersion?: string }) => ({
  manager: o.manager,
  operation: o.operation,
  apiVersion: o.apiVersion ?? 'v1',
  fieldsType: 'FieldsV1',
  fieldsV1: o.fields,
  ...(o.subresource ? { subresource: o.subresource } : {}),
});

/** managedFields without their times (which the tests cannot know; entries a client wrote itself may have none). */
function managed(obj: any): unknown[] {
  return (obj.metadata.managedFields ?? []).map((e: any) => {
    if (e.time !== undefined) assert.match(e.time, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    const { time: _t, ...rest } = e;
    return rest;
  });
}

const cm = (data: Record<string, string>, name = 'ssa-cm') =>
  `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\n  namespace: default\ndata:\n${Object.entries(data)
    .map(([k, v]) => `  ${k}: "${v}"`)
    .join('\n')}\n`;

test('kubectl apply --server-side creates, re-applies unchanged, conflicts, forces, dry-runs', async () => {
  const f = manifest(s, 'cm.yaml', cm({ a: '1', b: '2' }));
  let r = await kubectl(s, ['apply', '--server-side', '-f', f]);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout.trim(), 'configmap/ssa-cm serverside-applied');
  const created = await getJSON(['cm', 'ssa-cm']);
  assert.deepEqual(managed(created), [entry({ manager: 'kubectl', operation: 'Apply', fields: { 'f:data': { 'f:a': {}, 'f:b': {} } } })]);

  // Unchanged: nothing written, the resourceVersion stays.
  r = await kubectl(s, ['apply', '--server-side', '-f', f]);
  assert.equal(r.code, 0, r.stderr);
  assert.equal((await getJSON(['cm', 'ssa-cm'])).metadata.resourceVersion, created.metadata.resourceVersion);

  // Another manager setting a value kubectl owns differently: a conflict, exit code 1.
  const other = manifest(s, 'cm-other.yaml', cm({ a: '9' }));
  r = await kubectl(s, ['apply', '--server-side', '--field-manager=other', '-f', other]);
  assert.equal(r.code, 1);
  assert.ok(
    r.stderr.startsWith('error: Apply failed with 1 conflict: conflict with "kubectl": .data.a\nPlease review the fields above--they currently have other managers.'),
    r.stderr,
  );
  assert.equal((await getJSON(['cm', 'ssa-cm'])).data.a, '1');

  // The same value is shared ownership, no conflict.
  r = await kubectl(s, ['apply', '--server-side', '--field-manager=sharer', '-f', manifest(s, 'cm-share.yaml', cm({ a: '1' }))]);
  assert.equal(r.code, 0, r.stderr);

  // --dry-run=server: the forced answer comes back, nothing is stored.
  r = await kubectl(s, ['apply', '--server-side', '--field-manager=other', '--force-conflicts', '--dry-run=server', '-f', other, '-o', 'json']);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(JSON.parse(r.stdout).data.a, '9');
  assert.equal((await getJSON(['cm', 'ssa-cm'])).data.a, '1');

  // --force-conflicts takes the field over from both owners.
  r = await kubectl(s, ['apply', '--server-side', '--field-manager=other', '--force-conflicts', '-f', other]);
  assert.equal(r.code, 0, r.stderr);
  const forced = await getJSON(['cm', 'ssa-cm']);
  assert.equal(forced.data.a, '9');
  assert.deepEqual(managed(forced), [
    entry({ manager: 'kubectl', operation: 'Apply', fields: { 'f:data': { 'f:b': {} } } }),
    entry({ manager: 'other', operation: 'Apply', fields: { 'f:data': { 'f:a': {} } } }),
  ]);

  // A merge patch is recorded as an Update of its manager (kubectl's default for patch).
  r = await kubectl(s, ['patch', 'cm', 'ssa-cm', '--type=merge', '-p', '{"data":{"c":"3"}}']);
  assert.equal(r.code, 0, r.stderr);
  const patched = await getJSON(['cm', 'ssa-cm']);
  assert.deepEqual(managed(patched).at(-1), entry({ manager: 'kubectl-patch', operation: 'Update', fields: { 'f:data': { 'f:c': {} } } }));

  // kubectl applying without b: b goes (nobody else owns it).
  r = await kubectl(s, ['apply', '--server-side', '-f', manifest(s, 'cm-nob.yaml', cm({ a: '9' }))]);
  assert.equal(r.code, 0, r.stderr);
  const dropped = await getJSON(['cm', 'ssa-cm']);
  assert.deepEqual(dropped.data, { a: '9', c: '3' });

  // --show-managed-fields prints them; without it kubectl hides them.
  const shown = await kubectl(s, ['get', 'cm', 'ssa-cm', '-o', 'yaml', '--show-managed-fields']);
  assert.match(shown.stdout, /managedFields:\n  - apiVersion: v1\n    fieldsType: FieldsV1\n    fieldsV1:\n/);
  const hidden = await kubectl(s, ['get', 'cm', 'ssa-cm', '-o', 'yaml']);
  assert.doesNotMatch(hidden.stdout, /managedFields/);
});

test('migrating from client-side apply, and client-side apply after server-side apply', async () => {
  let r = await kubectl(s, ['apply', '-f', manifest(s, 'csa.yaml', cm({ a: '1', b: '2' }, 'csa-cm'))]);
  assert.equal(r.code, 0, r.stderr);
  const csa = await getJSON(['cm', 'csa-cm']);
  assert.deepEqual(managed(csa), [
    entry({
      manager: 'kubectl-client-side-apply',
      operation: 'Update',
      fields: {
        'f:data': { '.': {}, 'f:a': {}, 'f:b': {} },
        'f:metadata': { 'f:annotations': { '.': {}, 'f:kubectl.kubernetes.io/last-applied-configuration': {} } },
      },
    }),
  ]);
  // kubectl moves the client-side apply's fields to its apply managers (a JSON patch of
  // managedFields, recorded as sent), then applies without b.
  r = await kubectl(s, ['apply', '--server-side', '-f', manifest(s, 'csa2.yaml', cm({ a: '1' }, 'csa-cm'))]);
  assert.equal(r.code, 0, r.stderr);
  const migrated = await getJSON(['cm', 'csa-cm']);
  assert.deepEqual(migrated.data, { a: '1' });
  assert.deepEqual(
    managed(migrated).map((e: any) => `${e.manager}/${e.operation}`),
    ['kubectl-last-applied/Apply', 'kubectl/Apply'],
  );
  assert.deepEqual(
    (managed(migrated) as any[]).find((e) => e.manager === 'kubectl').fieldsV1,
    { 'f:data': { 'f:a': {} } },
  );
  // Client-side apply keeps working on it.
  r = await kubectl(s, ['apply', '-f', manifest(s, 'csa3.yaml', cm({ a: '5', d: '4' }, 'csa-cm'))]);
  assert.equal(r.code, 0, r.stderr);
  const after = await getJSON(['cm', 'csa-cm']);
  assert.deepEqual(after.data, { a: '5', d: '4' });
  assert.ok(managed(after).some((e: any) => e.manager === 'kubectl-client-side-apply' && e.operation === 'Update'));
});

test('apply on a CRD, a Namespace and a Deployment; containers merge by name between managers', async () => {
  const crd = await getJSON(['crd', 'widgets.apply.example.com']);
  const mine = managed(crd).filter((e: any) => e.manager === 'kubectl') as any[];
  assert.equal(mine.length, 1);
  assert.equal(mine[0].operation, 'Apply');
  assert.equal(mine[0].apiVersion, 'apiextensions.k8s.io/v1');
  assert.ok(mine[0].fieldsV1['f:spec']['f:versions'], JSON.stringify(mine[0].fieldsV1));

  let r = await kubectl(s, ['apply', '--server-side', '-f', manifest(s, 'ns.yaml', 'apiVersion: v1\nkind: Namespace\nmetadata:\n  name: ssa-ns\n  labels: {team: a}\n')]);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout.trim(), 'namespace/ssa-ns serverside-applied');
  const ns = await getJSON(['ns', 'ssa-ns']);
  assert.deepEqual(managed(ns), [entry({ manager: 'kubectl', operation: 'Apply', fields: { 'f:metadata': { 'f:labels': { 'f:team': {} } } } })]);

  const deploy = (containers: string) => `apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: default}
spec:
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers:
${containers}`;
  r = await kubectl(s, ['apply', '--server-side', '-f', manifest(s, 'd1.yaml', deploy('      - {name: app, image: nginx:1}\n'))]);
  assert.equal(r.code, 0, r.stderr);
  r = await kubectl(s, ['apply', '--server-side', '--field-manager=sidecar-injector', '-f', manifest(s, 'd2.yaml', deploy('      - {name: proxy, image: envoy:1}\n'))]);
  assert.equal(r.code, 0, r.stderr);
  const d = await getJSON(['deploy', 'web']);
  assert.deepEqual(
    d.spec.template.spec.containers.map((c: any) => `${c.name}=${c.image}`),
    ['app=nginx:1', 'proxy=envoy:1'],
  );
  const sidecar = (managed(d) as any[]).find((e) => e.manager === 'sidecar-injector');
  assert.deepEqual(sidecar.fieldsV1['f:spec']['f:template']['f:spec']['f:containers'], { 'k:{"name":"proxy"}': { '.': {}, 'f:image': {}, 'f:name': {} } });
  assert.equal(sidecar.apiVersion, 'apps/v1');
  // Setting the other manager's image conflicts on exactly that field.
  r = await kubectl(s, ['apply', '--server-side', '-f', manifest(s, 'd3.yaml', deploy('      - {name: app, image: nginx:1}\n      - {name: proxy, image: envoy:2}\n'))]);
  assert.equal(r.code, 1);
  assert.match(r.stderr, /^error: Apply failed with 1 conflict: conflict with "sidecar-injector": \.spec\.template\.spec\.containers\[name="proxy"\]\.image\n/);
});

test('two managers share a list-map item of a custom resource; defaults are owned by nobody', async () => {
  const widget = (manager: string, ports: string) =>
    kubectl(s, [
      'apply',
      '--server-side',
      `--field-manager=${manager}`,
      '-f',
      manifest(s, `w-${manager}.yaml`, `apiVersion: apply.example.com/v1\nkind: Widget\nmetadata: {name: w1, namespace: default}\nspec:\n  ports:\n${ports}`),
    ]);
  let r = await widget('alice', '  - {name: http, port: 80}\n');
  assert.equal(r.code, 0, r.stderr);
  r = await widget('bob', '  - {name: http, port: 80}\n  - {name: https, port: 443}\n');
  assert.equal(r.code, 0, r.stderr);
  let w = await getJSON(['widget', 'w1']);
  assert.equal(w.spec.color, 'blue');
  const fields = Object.fromEntries((managed(w) as any[]).map((e) => [e.manager, e.fieldsV1]));
  assert.deepEqual(fields.alice, { 'f:spec': { 'f:ports': { 'k:{"name":"http"}': { '.': {}, 'f:name': {}, 'f:port': {} } } } });
  assert.deepEqual(Object.keys(fields.bob['f:spec']['f:ports']), ['k:{"name":"http"}', 'k:{"name":"https"}']);
  // Alice lets go of the item: bob still owns it, so it stays.
  r = await kubectl(s, ['apply', '--server-side', '--field-manager=alice', '-f', manifest(s, 'w-alice2.yaml', 'apiVersion: apply.example.com/v1\nkind: Widget\nmetadata: {name: w1, namespace: default}\nspec: {size: 1}\n')]);
  assert.equal(r.code, 0, r.stderr);
  w = await getJSON(['widget', 'w1']);
  assert.deepEqual(w.spec.ports, [{ name: 'http', port: 80 }, { name: 'https', port: 443 }]);
  // Bob lets go of https: nobody owns it, so it is removed.
  r = await widget('bob', '  - {name: http, port: 80}\n');
  assert.equal(r.code, 0, r.stderr);
  w = await getJSON(['widget', 'w1']);
  assert.deepEqual(w.spec.ports, [{ name: 'http', port: 80 }]);

  // The status subresource applies too (and owns status only), never creating.
  const st = await call(
    'PATCH',
    '/apis/apply.example.com/v1/namespaces/default/widgets/w1/status?fieldManager=status-writer',
    JSON.stringify({ apiVersion: 'apply.example.com/v1', kind: 'Widget', metadata: { name: 'w1' }, status: { phase: 'Ready' } }),
    'application/apply-patch+yaml',
  );
  assert.equal(st.status, 200, JSON.stringify(st.json));
  assert.equal(st.json.status.phase, 'Ready');
  const sw = st.json.metadata.managedFields.find((e: any) => e.manager === 'status-writer');
  assert.deepEqual({ sub: sw.subresource, fields: sw.fieldsV1 }, { sub: 'status', fields: { 'f:status': { 'f:phase': {} } } });
  const missing = await call(
    'PATCH',
    '/apis/apply.example.com/v1/namespaces/default/widgets/nope/status?fieldManager=status-writer',
    JSON.stringify({ apiVersion: 'apply.example.com/v1', kind: 'Widget', metadata: { name: 'nope' }, status: { phase: 'Ready' } }),
    'application/apply-patch+yaml',
  );
  assert.equal(missing.status, 404);
  assert.equal(missing.json.message, 'widgets.apply.example.com "nope" not found');
});

test('a Scale applies to the replicas of its resource and conflicts with their owner', async () => {
  const base = '/apis/apply.example.com/v1/namespaces/default/widgets';
  const created = await call('PATCH', `${base}/w2?fieldManager=owner`, JSON.stringify({ apiVersion: 'apply.example.com/v1', kind: 'Widget', metadata: { name: 'w2' }, spec: { size: 1 } }), 'application/apply-patch+yaml');
  assert.equal(created.status, 201, JSON.stringify(created.json));
  const scale = (manager: string, replicas: number, force = false) =>
    call('PATCH', `${base}/w2/scale?fieldManager=${manager}${force ? '&force=true' : ''}`, JSON.stringify({ apiVersion: 'autoscaling/v1', kind: 'Scale', metadata: { name: 'w2' }, spec: { replicas } }), 'application/apply-patch+yaml');
  let r = await scale('autoscaler', 3);
  assert.equal(r.status, 409);
  assert.equal(r.json.message, 'Apply failed with 1 conflict: conflict with "owner": .spec.size');
  r = await scale('autoscaler', 3, true);
  assert.equal(r.status, 200, JSON.stringify(r.json));
  assert.deepEqual([r.json.kind, r.json.spec], ['Scale', { replicas: 3 }]);
  const w = await getJSON(['widget', 'w2']);
  assert.equal(w.spec.size, 3);
  const e = (managed(w) as any[]).find((x) => x.manager === 'autoscaler');
  assert.deepEqual(e, entry({ manager: 'autoscaler', operation: 'Apply', apiVersion: 'apply.example.com/v1', subresource: 'scale', fields: { 'f:spec': { 'f:size': {} } } }));
  r = await call('PATCH', `${base}/w2/scale?fieldManager=autoscaler`, JSON.stringify({ apiVersion: 'apply.example.com/v1', kind: 'Widget', metadata: { name: 'w2' } }), 'application/apply-patch+yaml');
  assert.equal(r.status, 400);
  assert.equal(r.json.message, 'invalid object type: apply.example.com/v1, Kind=Widget');
  const missing = await call('PATCH', `${base}/nope/scale?fieldManager=autoscaler`, JSON.stringify({ apiVersion: 'autoscaling/v1', kind: 'Scale', metadata: { name: 'nope' }, spec: { replicas: 1 } }), 'application/apply-patch+yaml');
  assert.equal(missing.status, 404);
});

test('kinds served over another version\'s storage apply in their own version', async () => {
  const hpa = {
    apiVersion: 'autoscaling/v1',
    kind: 'HorizontalPodAutoscaler',
    metadata: { name: 'h1', namespace: 'default' },
    spec: { scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }, minReplicas: 1, maxReplicas: 4, targetCPUUtilizationPercentage: 60 },
  };
  const r = await call('PATCH', '/apis/autoscaling/v1/namespaces/default/horizontalpodautoscalers/h1?fieldManager=scaler', JSON.stringify(hpa), 'application/apply-patch+yaml');
  assert.equal(r.status, 201, JSON.stringify(r.json));
  assert.equal(r.json.spec.targetCPUUtilizationPercentage, 60);
  const e = r.json.metadata.managedFields.find((x: any) => x.manager === 'scaler');
  assert.equal(e.apiVersion, 'autoscaling/v1');
  assert.deepEqual(Object.keys(e.fieldsV1['f:spec']).sort(), ['f:maxReplicas', 'f:minReplicas', 'f:scaleTargetRef', 'f:targetCPUUtilizationPercentage']);
  // Read through v2, the same object (its v1 fields converted).
  const v2 = await getJSON(['hpa.v2.autoscaling', 'h1']);
  assert.equal(v2.spec.metrics[0].resource.target.averageUtilization, 60);
  const again = await call('PATCH', '/apis/autoscaling/v1/namespaces/default/horizontalpodautoscalers/h1?fieldManager=other', JSON.stringify({ ...hpa, spec: { ...hpa.spec, maxReplicas: 9 } }), 'application/apply-patch+yaml');
  assert.equal(again.status, 409);
  assert.equal(again.json.message, 'Apply failed with 1 conflict: conflict with "scaler": .spec.maxReplicas');
  // At autoscaling/v2 the v1 manager's fields are compared at v1, through the shared storage's conversion.
  const v2Apply = (manager: string, maxReplicas: number, force = false) =>
    call(
      'PATCH',
      `/apis/autoscaling/v2/namespaces/default/horizontalpodautoscalers/h1?fieldManager=${manager}${force ? '&force=true' : ''}`,
      JSON.stringify({ apiVersion: 'autoscaling/v2', kind: 'HorizontalPodAutoscaler', metadata: { name: 'h1', namespace: 'default' }, spec: { scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }, maxReplicas } }),
      'application/apply-patch+yaml',
    );
  const atV2 = await v2Apply('v2-applier', 7);
  assert.equal(atV2.status, 409);
  assert.equal(atV2.json.message, 'Apply failed with 1 conflict: conflict with "scaler": .spec.maxReplicas');
  const forced = await v2Apply('v2-applier', 7, true);
  assert.equal(forced.status, 200, JSON.stringify(forced.json));
  const scaler = forced.json.metadata.managedFields.find((x: any) => x.manager === 'scaler');
  assert.equal(scaler.apiVersion, 'autoscaling/v1');
  assert.deepEqual(Object.keys(scaler.fieldsV1['f:spec']).sort(), ['f:minReplicas', 'f:scaleTargetRef', 'f:targetCPUUtilizationPercentage']);
});

test('apply request errors: statuses and messages as upstream', async () => {
  const path = '/api/v1/namespaces/default/configmaps/err-cm';
  const body = JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'err-cm' }, data: { a: 'b' } });
  const apply = 'application/apply-patch+yaml';

  let r = await call('PATCH', path, body, apply);
  assert.equal(r.status, 422);
  assert.equal(r.json.message, 'PatchOptions.meta.k8s.io "" is invalid: fieldManager: Required value: is required for apply patch');

  r = await call('PATCH', `${path}?force=true`, '{"data":{"a":"b"}}', 'application/merge-patch+json');
  assert.equal(r.status, 422);
  assert.equal(r.json.message, 'PatchOptions.meta.k8s.io "" is invalid: force: Forbidden: may not be specified for non-apply patch');

  r = await call('PATCH', `${path}?fieldManager=m`, 'a: b: c', apply);
  assert.equal(r.status, 400);
  assert.equal(r.json.message, 'error encoding patch: yaml: mapping values are not allowed in this context');

  r = await call('PATCH', `${path}?fieldManager=m`, '[1]', apply);
  assert.equal(r.status, 400);
  assert.equal(r.json.message, 'error decoding patch: error unmarshaling JSON: while decoding JSON: json: cannot unmarshal array into Go value of type map[string]interface {}');

  r = await call('PATCH', `${path}?fieldManager=m`, JSON.stringify({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 'err-cm' } }), apply);
  assert.equal(r.status, 400, JSON.stringify(r.json));
  assert.match(r.json.message, /^invalid object type: \/v1, Kind=Secret$/);

  r = await call('PATCH', `${path}?fieldManager=m`, JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'other' } }), apply);
  assert.equal(r.status, 400);
  assert.equal(r.json.message, 'the name of the object (other) does not match the name on the URL (err-cm)');

  r = await call('PATCH', `${path}?fieldManager=m`, JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'err-cm', namespace: 'kube-system' } }), apply);
  assert.equal(r.status, 400);
  assert.equal(r.json.message, 'the namespace of the provided object does not match the namespace sent on the request');

  r = await call('PATCH', `${path}?fieldManager=m`, JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'err-cm', uid: '1234' } }), apply);
  assert.equal(r.status, 409);
  assert.equal(r.json.message, 'Operation cannot be fulfilled on configmaps "err-cm": uid mismatch: the provided object specified uid 1234, and no existing object was found');

  r = await call(
    'PATCH',
    `${path}?fieldManager=m`,
    JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'err-cm', managedFields: [{ manager: 'x', operation: 'Apply' }] } }),
    apply,
  );
  assert.equal(r.status, 400);
  assert.equal(r.json.message, 'metadata.managedFields must be nil');

  r = await call('PATCH', `${path}?fieldManager=m`, JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'err-cm' }, junk: 1 }), apply);
  assert.equal(r.status, 500);
  assert.equal(r.json.message, 'failed to create typed patch object (/err-cm; /v1, Kind=ConfigMap): .junk: field not declared in schema');

  // Duplicate keys: refused under Strict (after the apply succeeded), warned under Warn.
  r = await call('PATCH', `${path}?fieldManager=m&fieldValidation=Strict`, 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: err-cm\ndata:\n  a: b\n  a: c\n', apply);
  assert.equal(r.status, 400);
  assert.equal(r.json.message, 'error strict decoding patch: error converting YAML to JSON: yaml: unmarshal errors:\n  line 7: key "a" already set in map');
  const warned = await s.fetch(`${s.url}${path}?fieldManager=m`, {
    method: 'PATCH',
    body: 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: err-cm\ndata:\n  a: b\n  a: c\n',
    headers: { 'content-type': apply },
  });
  assert.equal(warned.status, 201);
  assert.equal(warned.headers.get('warning'), '299 - "line 7: key \\"a\\" already set in map"');
  assert.equal(((await warned.json()) as any).data.a, 'c');
  // Nothing else was written by the refused requests.
  const list = await getJSON(['cm', '-n', 'default', '--field-selector=metadata.name=other']);
  assert.equal(list.items.length, 0);
});

test('client-node applies and hits a conflict', async () => {
  const kc = new KubeConfig();
  kc.loadFromFile(s.kubeconfig);
  const core = kc.makeApiClient(CoreV1Api);
  const body = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'js-cm', namespace: 'default' }, data: { k: 'v1' } };
  const applied = await core.patchNamespacedConfigMap(
    { name: 'js-cm', namespace: 'default', body, fieldManager: 'js-a' },
    setHeaderOptions('Content-Type', PatchStrategy.ServerSideApply),
  );
  assert.equal(applied.data?.k, 'v1');
  assert.deepEqual(applied.metadata?.managedFields?.map((e) => `${e.manager}/${e.operation}`), ['js-a/Apply']);
  await assert.rejects(
    core.patchNamespacedConfigMap(
      { name: 'js-cm', namespace: 'default', body: { ...body, data: { k: 'v2' } }, fieldManager: 'js-b' },
      setHeaderOptions('Content-Type', PatchStrategy.ServerSideApply),
    ),
    (e: any) => e.code === 409 && JSON.parse(e.body).message === 'Apply failed with 1 conflict: conflict with "js-a": .data.k',
  );
  const forced = await core.patchNamespacedConfigMap(
    { name: 'js-cm', namespace: 'default', body: { ...body, data: { k: 'v2' } }, fieldManager: 'js-b', force: true },
    setHeaderOptions('Content-Type', PatchStrategy.ServerSideApply),
  );
  assert.equal(forced.data?.k, 'v2');
});

const python = ['python3', '/usr/bin/python3'].find((exe) => spawnSync(exe, ['-c', 'import kubernetes.dynamic'], { encoding: 'utf8' }).status === 0);

test('the Python dynamic client applies and hits a conflict', { skip: python ? false : 'install python3-kubernetes' }, () => {
  const script = String.raw`
import json, sys
from kubernetes import client, config
from kubernetes.dynamic import DynamicClient
from kubernetes.dynamic.exceptions import ConflictError
config.load_kube_config(config_file=sys.argv[1])
dyn = DynamicClient(client.ApiClient())
cms = dyn.resources.get(api_version='v1', kind='ConfigMap')
body = {'apiVersion': 'v1', 'kind': 'ConfigMap', 'metadata': {'name': 'py-cm', 'namespace': 'default'}, 'data': {'k': 'v1'}}
path = cms.path(name='py-cm', namespace='default')
# This client version encodes only JSON content types itself (DynamicClient.server_side_apply fails
# before sending), so the apply body goes as text under the apply content type.
def apply(manager, force=None):
    return dyn.request('patch', path, body=json.dumps(body), content_type='application/apply-patch+yaml', field_manager=manager, force_conflicts=force)
out = {}
r = apply('py-a')
out['applied'] = r.data.k
out['managers'] = [e.manager + '/' + e.operation for e in r.metadata.managedFields]
body['data']['k'] = 'v2'
try:
    apply('py-b')
    out['conflict'] = 'none'
except ConflictError as e:
    out['conflict'] = json.loads(e.body)['message']
out['forced'] = apply('py-b', True).data.k
print(json.dumps(out))
`;
  const r = spawnSync(python!, ['-c', script, s.kubeconfig], { encoding: 'utf8', timeout: 60000 });
  assert.equal(r.status, 0, r.stderr);
  assert.deepEqual(JSON.parse(r.stdout), {
    applied: 'v1',
    managers: ['py-a/Apply'],
    conflict: 'Apply failed with 1 conflict: conflict with "py-a": .data.k',
    forced: 'v2',
  });
});
