/**
 * Strategic merge patches of real built-in objects (Deployment, Service) against kube-apiserver
 * 1.35's OpenAPI v3 schemas: merge keys and strategies as the documents declare them.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { applyStrategicMergePatch, goSprint, OpenAPIV3PatchMeta, strategicMergePatch, type OpenAPIDocument } from './index.ts';

const docs = new URL('../../../../vendor/k8s-openapi/1.35/', import.meta.url);
const load = (p: string) => JSON.parse(readFileSync(new URL(p, docs), 'utf8')) as OpenAPIDocument;
const deploymentSchema = OpenAPIV3PatchMeta.forKind(load('apis/apps/v1.json'), { group: 'apps', version: 'v1', kind: 'Deployment' })!;
const serviceSchema = OpenAPIV3PatchMeta.forKind(load('api/v1.json'), { group: '', version: 'v1', kind: 'Service' })!;

type Obj = Record<string, unknown>;

function deployment(podSpec: Obj, spec: Obj = {}): Obj {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web', namespace: 'default', labels: { app: 'web', tier: 'front' }, finalizers: ['a/one'] },
    spec: {
      replicas: 2,
      selector: { matchLabels: { app: 'web' } },
      template: { metadata: { labels: { app: 'web' } }, spec: podSpec },
      ...spec,
    },
  };
}
const podPatch = (podSpec: Obj): Obj => ({ spec: { template: { spec: podSpec } } });
const podSpecOf = (d: Obj) => ((d.spec as Obj).template as Obj).spec as Obj;
const apply = (d: Obj, p: Obj) => strategicMergePatch(d, p, deploymentSchema);

const containers = [
  { name: 'app', image: 'app:1', env: [{ name: 'A', value: '1' }, { name: 'B', value: '2' }], ports: [{ containerPort: 80, name: 'http' }, { containerPort: 443, name: 'https' }] },
  { name: 'sidecar', image: 'sidecar:1' },
];

test('lookups find the kinds by x-kubernetes-group-version-kind', () => {
  assert.ok(deploymentSchema && serviceSchema);
  assert.equal(OpenAPIV3PatchMeta.forKind(load('api/v1.json'), { group: '', version: 'v1', kind: 'Nope' }), undefined);
  const { meta } = deploymentSchema.lookupPatchMetadataForStruct('spec').schema.lookupPatchMetadataForStruct('template').schema
    .lookupPatchMetadataForStruct('spec').schema.lookupPatchMetadataForSlice('volumes');
  assert.deepEqual(meta, { strategies: ['merge', 'retainKeys'], mergeKey: 'name' });
});

test('containers merge by name: the named one changes, the others stay in place', () => {
  const out = apply(deployment({ containers }), podPatch({ containers: [{ name: 'sidecar', image: 'sidecar:2' }] }));
  assert.deepEqual(podSpecOf(out).containers, [containers[0], { name: 'sidecar', image: 'sidecar:2' }]);
});

test('a new container without $setElementOrder goes first, as upstream orders patch items before server-only ones', () => {
  const out = apply(deployment({ containers }), podPatch({ containers: [{ name: 'init', image: 'init:1' }] }));
  assert.deepEqual((podSpecOf(out).containers as Obj[]).map((c) => c.name), ['init', 'app', 'sidecar']);
});

test('$setElementOrder/containers orders the merged list', () => {
  const out = apply(
    deployment({ containers }),
    podPatch({
      '$setElementOrder/containers': [{ name: 'sidecar' }, { name: 'app' }, { name: 'new' }],
      containers: [{ name: 'new', image: 'new:1' }],
    }),
  );
  assert.deepEqual((podSpecOf(out).containers as Obj[]).map((c) => c.name), ['sidecar', 'app', 'new']);
});

test('env merges by name inside the container; $patch: delete removes one; null deletes a field', () => {
  const out = apply(
    deployment({ containers }),
    podPatch({ containers: [{ name: 'app', image: null, env: [{ name: 'B', value: '3' }, { name: 'A', $patch: 'delete' }, { name: 'C', value: '4' }] }] }),
  );
  const app = (podSpecOf(out).containers as Obj[])[0]!;
  assert.equal(app.image, undefined);
  assert.deepEqual(app.env, [{ name: 'B', value: '3' }, { name: 'C', value: '4' }]);
});

test('container ports merge by containerPort', () => {
  const out = apply(deployment({ containers }), podPatch({ containers: [{ name: 'app', ports: [{ containerPort: 443, name: 'tls' }] }] }));
  assert.deepEqual((podSpecOf(out).containers as Obj[])[0]!.ports, [{ containerPort: 80, name: 'http' }, { containerPort: 443, name: 'tls' }]);
});

test('volumes merge by name, and $retainKeys in an item clears the volume source it does not list', () => {
  const volumes = [{ name: 'data', configMap: { name: 'cm' } }, { name: 'cache', emptyDir: {} }];
  const merged = apply(deployment({ containers, volumes }), podPatch({ volumes: [{ name: 'data', emptyDir: { medium: 'Memory' } }] }));
  assert.deepEqual(podSpecOf(merged).volumes, [{ name: 'data', configMap: { name: 'cm' }, emptyDir: { medium: 'Memory' } }, volumes[1]]);
  const retained = apply(
    deployment({ containers, volumes }),
    podPatch({ volumes: [{ name: 'data', $retainKeys: ['emptyDir', 'name'], emptyDir: { medium: 'Memory' } }] }),
  );
  assert.deepEqual(podSpecOf(retained).volumes, [{ name: 'data', emptyDir: { medium: 'Memory' } }, volumes[1]]);
});

test('tolerations (no patch strategy) are replaced whole', () => {
  const tolerations = [{ key: 'a', operator: 'Exists' }, { key: 'b', operator: 'Exists' }];
  const out = apply(deployment({ containers, tolerations }), podPatch({ tolerations: [{ key: 'c', operator: 'Exists', effect: 'NoSchedule' }] }));
  assert.deepEqual(podSpecOf(out).tolerations, [{ key: 'c', operator: 'Exists', effect: 'NoSchedule' }]);
});

test('$patch: replace in a list replaces it; on a map replaces the map', () => {
  const out = apply(
    deployment({ containers }),
    { spec: { selector: { matchLabels: { $patch: 'replace', run: 'web' } }, template: { spec: { containers: [{ $patch: 'replace' }, { name: 'only', image: 'only:1' }] } } } },
  );
  assert.deepEqual((out.spec as Obj).selector, { matchLabels: { run: 'web' } });
  assert.deepEqual(podSpecOf(out).containers, [{ name: 'only', image: 'only:1' }]);
});

test('$patch: delete on a map removes its content', () => {
  const out = apply(deployment({ containers }), { metadata: { labels: { $patch: 'delete' } } });
  assert.deepEqual((out.metadata as Obj).labels, {});
});

test('finalizers: a primitive list with merge strategy; $deleteFromPrimitiveList removes', () => {
  const added = apply(deployment({ containers }), { metadata: { finalizers: ['b/two', 'a/one'] } });
  assert.deepEqual((added.metadata as Obj).finalizers, ['b/two', 'a/one']);
  const appended = apply(deployment({ containers }), { metadata: { finalizers: ['b/two'] } });
  assert.deepEqual((appended.metadata as Obj).finalizers, ['b/two', 'a/one']);
  const removed = apply(deployment({ containers }), { metadata: { '$deleteFromPrimitiveList/finalizers': ['a/one'] } });
  assert.deepEqual((removed.metadata as Obj).finalizers, []);
  const ordered = apply(deployment({ containers }), {
    metadata: { '$setElementOrder/finalizers': ['a/one', 'b/two'], finalizers: ['b/two'] },
  });
  assert.deepEqual((ordered.metadata as Obj).finalizers, ['a/one', 'b/two']);
});

test('spec.strategy has the retainKeys strategy: $retainKeys drops rollingUpdate when switching to Recreate', () => {
  const d = deployment({ containers }, { strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: 0 } } });
  const plain = apply(d, { spec: { strategy: { type: 'Recreate' } } });
  assert.deepEqual((plain.spec as Obj).strategy, { type: 'Recreate', rollingUpdate: { maxSurge: 1, maxUnavailable: 0 } });
  const retained = apply(d, { spec: { strategy: { $retainKeys: ['type'], type: 'Recreate' } } });
  assert.deepEqual((retained.spec as Obj).strategy, { type: 'Recreate' });
});

test('null deletes a label; replicas and other scalars are replaced; the input is left alone', () => {
  const d = deployment({ containers });
  const before = JSON.stringify(d);
  const out = apply(d, { metadata: { labels: { tier: null, new: 'x' } }, spec: { replicas: 5 } });
  assert.deepEqual((out.metadata as Obj).labels, { app: 'web', new: 'x' });
  assert.equal((out.spec as Obj).replicas, 5);
  assert.equal(JSON.stringify(d), before);
  assert.notEqual(podSpecOf(out).containers, containers);
});

test('Service ports merge by port', () => {
  const svc = {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name: 's' },
    spec: { selector: { app: 'web' }, ports: [{ port: 80, targetPort: 8080, name: 'http' }, { port: 443, targetPort: 8443, name: 'https' }] },
  };
  const out = strategicMergePatch(svc, { spec: { ports: [{ port: 443, targetPort: 9443 }, { port: 53, protocol: 'UDP', name: 'dns' }] } }, serviceSchema);
  assert.deepEqual((out.spec as Obj).ports, [
    { port: 80, targetPort: 8080, name: 'http' },
    { port: 443, targetPort: 9443, name: 'https' },
    { port: 53, protocol: 'UDP', name: 'dns' },
  ]);
});

test('the patch as upstream leaves it: directives and ordered lists consumed, nulls kept where they deleted', () => {
  const d = deployment({ containers: [{ name: 'app', image: 'app:1' }] }, { strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1 } } });
  const { object, patch } = applyStrategicMergePatch(d, {
    metadata: { labels: { new: 'x', tier: null } },
    spec: {
      strategy: { $retainKeys: ['type'], type: 'Recreate' },
      template: { spec: { '$setElementOrder/containers': [{ name: 'app' }], containers: [{ name: 'app', image: 'app:2' }] } },
    },
  }, deploymentSchema);
  assert.deepEqual((object.metadata as Obj).labels, { app: 'web', new: 'x' });
  assert.deepEqual(podSpecOf(object).containers, [{ name: 'app', image: 'app:2' }]);
  assert.equal(
    goSprint(patch),
    'map[metadata:map[labels:map[new:x tier:<nil>]] spec:map[strategy:map[type:Recreate] template:map[spec:map[]]]]',
  );
});

test('the kubectl patch task of the Kubernetes documentation: containers merged (new first), tolerations replaced, retainKeys', () => {
  // kubernetes.io/docs/tasks/manage-kubernetes-objects/update-api-object-kubectl-patch/
  const demo = {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'patch-demo' },
    spec: {
      replicas: 2,
      selector: { matchLabels: { app: 'nginx' } },
      template: {
        metadata: { labels: { app: 'nginx' } },
        spec: { containers: [{ name: 'patch-demo-ctr', image: 'nginx' }], tolerations: [{ effect: 'NoSchedule', key: 'dedicated', value: 'test-team' }] },
      },
    },
  };
  const withRedis = apply(demo, podPatch({ containers: [{ name: 'patch-demo-ctr-2', image: 'redis' }] }));
  assert.deepEqual(podSpecOf(withRedis).containers, [{ name: 'patch-demo-ctr-2', image: 'redis' }, { name: 'patch-demo-ctr', image: 'nginx' }]);
  const tolerated = apply(withRedis, podPatch({ tolerations: [{ effect: 'NoSchedule', key: 'disktype', value: 'ssd' }] }));
  assert.deepEqual(podSpecOf(tolerated).tolerations, [{ effect: 'NoSchedule', key: 'disktype', value: 'ssd' }]);
  const rolling = { ...demo, spec: { ...demo.spec, strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' } } } };
  const recreate = apply(rolling, { spec: { strategy: { $retainKeys: ['type'], type: 'Recreate' } } });
  assert.deepEqual((recreate.spec as Obj).strategy, { type: 'Recreate' });
});
