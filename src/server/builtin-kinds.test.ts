/**
 * Every built-in kind served from Kubernetes' OpenAPI answers create, get, list, watch and delete
 * over HTTP, with a minimal object made from its schema's required fields.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { call, startFixture, type Fixture } from './testing/fixtures.ts';
import { builtinResources, type BuiltinResource } from '../registry/index.ts';
import { openAPIDocument } from '../registry/index.ts';
import { kindSchema } from '../registry/index.ts';
import type { JSONSchemaProps } from '../schema/index.ts';

let f: Fixture;
before(async () => {
  f = await startFixture();
});
after(() => f.close());

/** A value satisfying `s`'s required fields (and nothing more). */
function minimal(s: JSONSchemaProps, depth = 0): unknown {
  if (s.enum && s.enum.length > 0) return s.enum[0];
  if (s['x-kubernetes-int-or-string'] || s['x-kubernetes-preserve-unknown-fields']) return s.type === 'object' ? {} : '1';
  switch (s.type) {
    case 'object': {
      const o: Record<string, unknown> = {};
      for (const k of s.required ?? []) o[k] = minimal(s.properties?.[k] ?? {}, depth + 1);
      return o;
    }
    case 'array':
      return (s.minItems ?? 0) > 0 || depth < 0 ? [minimal(s.items as JSONSchemaProps, depth + 1)] : [];
    case 'integer':
    case 'number':
      return 1;
    case 'boolean':
      return false;
    default:
      // Six fractional digits: a Time accepts them, a MicroTime (an Event's eventTime) needs them.
      return s.format === 'date-time' ? '2026-01-01T00:00:00.000000Z' : s.format === 'byte' ? 'eA==' : 'x';
  }
}

/** Specs for kinds whose native validation is served: the schema's required fields are not enough for them. */
const rules = { resourceRules: [{ apiGroups: ['apps'], apiVersions: ['v1'], operations: ['CREATE'], resources: ['deployments'] }] };
const validSpecs: Record<string, Record<string, unknown>> = {
  validatingadmissionpolicies: { matchConstraints: rules, validations: [{ expression: 'true' }] },
  validatingadmissionpolicybindings: { policyName: 'p', validationActions: ['Deny'] },
  mutatingadmissionpolicies: { matchConstraints: rules, mutations: [{ patchType: 'JSONPatch', jsonPatch: { expression: "[JSONPatch{op: 'test', path: '/metadata/name', value: object.metadata.name}]" } }] },
  mutatingadmissionpolicybindings: { policyName: 'p' },
  services: { ports: [{ port: 80 }] },
  // Defaulted into a spec of its own (matchingPrecedence), whose required reference the schema then asks for.
  flowschemas: { priorityLevelConfiguration: { name: 'p' } },
  // Go writes the spec struct, and its schema requires parentRef (as the cluster's validation does).
  ipaddresses: { parentRef: { resource: 'services', name: 's', namespace: 'default' } },
};

/** Pods and the kinds with pod templates (native validation served): a template the kind accepts. */
const podSpec = (restartPolicy: string) => ({ restartPolicy, containers: [{ name: 'c', image: 'busybox' }] });
const template = (restartPolicy = 'Always') => ({ metadata: { labels: { app: 't' } }, spec: podSpec(restartPolicy) });
const selector = { matchLabels: { app: 't' } };
const workloadFields: Record<string, Record<string, unknown>> = {
  '/pods': { spec: podSpec('Always') },
  '/podtemplates': { template: template() },
  '/replicationcontrollers': { spec: { selector: { app: 't' }, template: template() } },
  'apps/deployments': { spec: { selector, template: template() } },
  'apps/replicasets': { spec: { selector, template: template() } },
  'apps/statefulsets': { spec: { selector, template: template() } },
  'apps/daemonsets': { spec: { selector, template: template() } },
  'batch/jobs': { spec: { template: { spec: podSpec('Never') } } },
  'batch/cronjobs': { spec: { schedule: '0 * * * *', jobTemplate: { spec: { template: { spec: podSpec('OnFailure') } } } } },
};

/** Fields (top level) that make a valid object of the other kinds whose native validation is served. */
const validFields: Record<string, Record<string, unknown>> = {
  '/persistentvolumeclaims': { spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } },
  '/persistentvolumes': { spec: { accessModes: ['ReadWriteOnce'], capacity: { storage: '1Gi' }, hostPath: { path: '/tmp/t' } } },
  'resource.k8s.io/resourceslices': { spec: { driver: 'gpu.example.com', pool: { name: 'p', resourceSliceCount: 1 }, allNodes: true } },
  'autoscaling/horizontalpodautoscalers': { spec: { scaleTargetRef: { kind: 'Deployment', name: 'web' }, maxReplicas: 2 } },
  'discovery.k8s.io/endpointslices': { addressType: 'IPv4' },
  'events.k8s.io/events': { reportingController: 'example.com/c', reportingInstance: 'c-1', action: 'Test', reason: 'Tested', type: 'Normal' },
  'networking.k8s.io/ingressclasses': { spec: { controller: 'example.com/ingress' } },
  'networking.k8s.io/ingresses': { spec: { defaultBackend: { service: { name: 'web', port: { number: 80 } } } } },
  'rbac.authorization.k8s.io/clusterrolebindings': { roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'view' } },
  'rbac.authorization.k8s.io/rolebindings': { roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'view' } },
};

function objectFor(r: BuiltinResource): Record<string, unknown> {
  const s = kindSchema(openAPIDocument(r.group, r.version).doc, r.schemaName);
  const o = minimal(s) as Record<string, unknown>;
  if (validSpecs[r.resource]) o.spec = validSpecs[r.resource];
  Object.assign(o, workloadFields[`${r.group}/${r.resource}`]);
  Object.assign(o, validFields[`${r.group}/${r.resource}`] ?? {});
  return { ...o, apiVersion: r.group === '' ? r.version : `${r.group}/${r.version}`, kind: r.kind, metadata: { name: `t-${r.resource}` } };
}

function path(r: BuiltinResource, name?: string): string {
  const base = r.group === '' ? `/api/${r.version}` : `/apis/${r.group}/${r.version}`;
  return `${base}${r.namespaced ? '/namespaces/default' : ''}/${r.resource}${name ? `/${name}` : ''}`;
}

/** The first watch event after `rv` (a watch from the list's resourceVersion sees the delete). */
function firstEvent(url: string): Promise<{ type: string; object: { metadata: { name: string } } }> {
  return new Promise((resolve, reject) => {
    const req = request(url, (res) => {
      let buf = '';
      res.on('data', (c: Buffer) => {
        buf += c.toString();
        const nl = buf.indexOf('\n');
        if (nl >= 0) {
          resolve(JSON.parse(buf.slice(0, nl)));
          req.destroy();
        }
      });
    });
    req.on('error', (e) => ((e as NodeJS.ErrnoException).code === 'ECONNRESET' ? undefined : reject(e)));
    req.end();
  });
}

test('every built-in kind: create, get, list, watch and delete', async () => {
  const rs = builtinResources().filter((r) => !(r.group === '' && r.resource === 'namespaces'));
  assert.ok(rs.length >= 55);
  const failures: string[] = [];
  for (const r of rs) {
    const obj = objectFor(r);
    const name = (obj.metadata as { name: string }).name;
    const c = await call(f.base, 'POST', path(r), obj);
    if (c.status !== 201) {
      failures.push(`${r.group}/${r.resource} create: ${c.status} ${c.json?.message}`);
      continue;
    }
    const g = await call(f.base, 'GET', path(r, name));
    assert.equal(g.json.kind, r.kind, r.resource);
    const l = await call(f.base, 'GET', path(r));
    assert.equal(l.json.kind, `${r.kind}List`);
    assert.ok(l.json.items.some((i: { metadata: { name: string } }) => i.metadata.name === name), r.resource);
    const ev = firstEvent(`${f.base}${path(r)}?watch=true&resourceVersion=${l.json.metadata.resourceVersion}`);
    // Background: ReplicationControllers and Jobs would otherwise orphan, keeping the object until the collector frees it.
    const d = await call(f.base, 'DELETE', path(r, name) + '?propagationPolicy=Background');
    assert.equal(d.status, 200, `${r.resource}: ${d.text}`);
    const e = await ev;
    assert.deepEqual([e.type, e.object.metadata.name], ['DELETED', name], r.resource);
    assert.equal((await call(f.base, 'GET', path(r, name))).status, 404);
  }
  assert.deepEqual(failures, []);
});

test('built-in kinds decode as their types: unknown fields per fieldValidation, schema errors 422, status kept off creates', async () => {
  const cm = await call(f.base, 'POST', '/api/v1/namespaces/default/configmaps?fieldValidation=Strict', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' }, data: { a: 'b' }, junk: 1 });
  assert.equal(cm.status, 400);
  assert.equal(cm.json.message, 'ConfigMap in version "v1" cannot be handled as a ConfigMap: strict decoding error: unknown field "junk"');
  const dep = {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web' },
    spec: { selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'nginx', image: 'nginx', resources: { limits: { cpu: 0.5 } } }] } } },
    status: { replicas: 9 },
  };
  const c = await call(f.base, 'POST', '/apis/apps/v1/namespaces/default/deployments', dep);
  assert.equal(c.status, 201, c.text);
  assert.equal(c.json.status, undefined);
  assert.equal(c.json.metadata.generation, 1);
  // Nodes are the exception: a kubelet registers its node with its status (nodeStrategy).
  const node = await call(f.base, 'POST', '/api/v1/nodes', { apiVersion: 'v1', kind: 'Node', metadata: { name: 'n1' }, status: { capacity: { pods: '110' } } });
  assert.equal(node.status, 201, node.text);
  assert.deepEqual(node.json.status.capacity, { pods: '110' });
  assert.deepEqual(node.json.status.allocatable, { pods: '110' }, 'SetDefaults_NodeStatus');
  const bad = await call(f.base, 'POST', '/apis/apps/v1/namespaces/default/deployments', { ...dep, metadata: { name: 'web2' }, spec: { ...dep.spec, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ image: 'x' }] } } } });
  assert.equal(bad.status, 422);
  assert.match(bad.json.message, /^Deployment\.apps "web2" is invalid: spec\.template\.spec\.containers\[0\]\.name: Required value/);
  // Strategic merge patch: containers merge by name.
  const p = await call(f.base, 'PATCH', '/apis/apps/v1/namespaces/default/deployments/web', { spec: { template: { spec: { containers: [{ name: 'sidecar', image: 'busybox' }] } } } }, { 'Content-Type': 'application/strategic-merge-patch+json' });
  assert.equal(p.status, 200, p.text);
  assert.deepEqual(p.json.spec.template.spec.containers.map((x: { name: string }) => x.name), ['sidecar', 'nginx']);
  assert.equal(p.json.metadata.generation, 2);
  // Field selectors of the kind.
  await call(f.base, 'POST', '/api/v1/namespaces/default/secrets', { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's1' }, type: 'Opaque' });
  await call(f.base, 'POST', '/api/v1/namespaces/default/secrets', { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's2' }, type: 'kubernetes.io/tls', data: { 'tls.crt': 'eA==', 'tls.key': 'eA==' } });
  const sel = await call(f.base, 'GET', '/api/v1/namespaces/default/secrets?fieldSelector=type%3DOpaque');
  assert.deepEqual(sel.json.items.map((i: { metadata: { name: string } }) => i.metadata.name), ['s1']);
  // kubectl explain reads the document Kubernetes ships.
  const doc = await call(f.base, 'GET', '/openapi/v3/apis/apps/v1');
  assert.match(doc.json.components.schemas['io.k8s.api.apps.v1.DeploymentStrategy'].description, /replace existing pods/);
});

test('deleting a namespace removes the built-in objects in it before the namespace goes', async () => {
  assert.equal((await call(f.base, 'POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'doomed' } })).status, 201);
  assert.equal((await call(f.base, 'POST', '/api/v1/namespaces/doomed/configmaps', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' } })).status, 201);
  assert.equal((await call(f.base, 'POST', '/apis/rbac.authorization.k8s.io/v1/namespaces/doomed/roles', { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', metadata: { name: 'r' } })).status, 201);
  assert.equal((await call(f.base, 'DELETE', '/api/v1/namespaces/doomed')).status, 200);
  const refused = await call(f.base, 'POST', '/api/v1/namespaces/doomed/configmaps', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'd' } });
  assert.equal(refused.status, 403);
  for (let i = 0; i < 100 && (await call(f.base, 'GET', '/api/v1/namespaces/doomed')).status !== 404; i++) await new Promise((r) => setTimeout(r, 100));
  assert.equal((await call(f.base, 'GET', '/api/v1/namespaces/doomed')).status, 404);
  assert.equal((await call(f.base, 'GET', '/api/v1/namespaces/doomed/configmaps/c')).status, 404);
  assert.equal((await call(f.base, 'GET', '/apis/rbac.authorization.k8s.io/v1/namespaces/doomed/roles/r')).status, 404);
});
