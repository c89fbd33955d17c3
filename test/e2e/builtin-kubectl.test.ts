/**
 * kubectl against built-in kinds on a real server process: apply (twice, with a changed container
 * list: strategic merge), get all, get across namespaces, explain, patch of each type, label,
 * annotate, set image, edit, and a namespace deletion taking its objects with it.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { kubectl, manifest, startServer, type ServerProcess } from './harness.ts';

let s: ServerProcess;
before(async () => {
  s = await startServer();
});
after(async () => {
  await s.stop();
});

const app = (image: string, sidecar: boolean) => `apiVersion: v1
kind: Namespace
metadata:
  name: shop
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: web-config
  namespace: shop
data:
  mode: production
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  namespace: shop
spec:
  replicas: 2
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web}
    spec:
      containers:
      - name: web
        image: ${image}
        ports: [{containerPort: 80}]
        resources: {limits: {cpu: 0.5, memory: 128Mi}}
${sidecar ? '      - name: log\n        image: busybox\n' : ''}---
apiVersion: v1
kind: Service
metadata:
  name: web
  namespace: shop
spec:
  selector: {app: web}
  ports: [{port: 80, targetPort: 80}]
`;

const k = async (...args: string[]) => {
  const r = await kubectl(s, args);
  assert.equal(r.code, 0, `kubectl ${args.join(' ')}: ${r.stderr}`);
  return r.stdout;
};

test('kubectl apply, get, explain, patch, label, annotate, set image and edit on built-in kinds', async () => {
  const f1 = manifest(s, 'app1.yaml', app('nginx:1.25', true));
  assert.match(await k('apply', '-f', f1), /deployment.apps\/web created/);
  const all = await k('get', 'all', '-n', 'shop');
  assert.match(all, /deployment.apps\/web/);
  assert.match(all, /service\/web/);
  assert.match(await k('get', 'deploy,svc,cm', '-A'), /shop\s+configmap\/web-config/);
  // Several kinds across namespaces, printed with their own columns (no pods here: only the others' blocks).
  const mixed = await k('get', 'pods,svc,cm', '-A');
  // The default namespace's `kubernetes` Service comes first, as on a cluster.
  assert.match(mixed, /^NAMESPACE\s+NAME\s+TYPE\s+CLUSTER-IP\s+EXTERNAL-IP\s+PORT\(S\)\s+AGE\ndefault\s+service\/kubernetes\s+ClusterIP\s+10\.96\.0\.1\s.*\nshop\s+service\/web\s/m);
  assert.match(mixed, /^NAMESPACE\s+NAME\s+DATA\s+AGE\n(.*\n)*shop\s+configmap\/web-config\s+\d+\s/m);
  assert.match(await k('explain', 'deployment.spec.strategy'), /Type of deployment. Can be "Recreate" or "RollingUpdate"/);

  // A second apply drops the sidecar and changes the image: the containers list merges by name.
  const f2 = manifest(s, 'app2.yaml', app('nginx:1.26', false));
  assert.match(await k('apply', '-f', f2), /deployment.apps\/web configured/);
  const images = await k('get', 'deploy', 'web', '-n', 'shop', '-o', 'jsonpath={.spec.template.spec.containers[*].name}={.spec.template.spec.containers[*].image} {.metadata.generation}');
  assert.equal(images, 'web=nginx:1.26 2');

  await k('patch', 'deploy', 'web', '-n', 'shop', '-p', '{"spec":{"template":{"spec":{"containers":[{"name":"extra","image":"redis"}]}}}}');
  await k('patch', 'cm', 'web-config', '-n', 'shop', '--type=merge', '-p', '{"data":{"tier":"front"}}');
  await k('patch', 'svc', 'web', '-n', 'shop', '--type=json', '-p', '[{"op":"replace","path":"/spec/ports/0/port","value":8080}]');
  await k('label', 'cm', 'web-config', '-n', 'shop', 'team=a');
  await k('annotate', 'svc', 'web', '-n', 'shop', 'owner=ops');
  await k('set', 'image', 'deploy/web', '-n', 'shop', 'extra=redis:7');
  const editor = join(s.dir, 'editor.sh');
  writeFileSync(editor, `#!/bin/sh\nsed -i 's/mode: production/mode: staging/' "$1"\n`);
  chmodSync(editor, 0o755);
  const edited = await kubectl(s, ['edit', 'cm', 'web-config', '-n', 'shop'], undefined, { EDITOR: editor, KUBE_EDITOR: editor });
  assert.equal(edited.code, 0, edited.stderr);

  assert.equal(
    await k('get', 'deploy', 'web', '-n', 'shop', '-o', 'jsonpath={.spec.template.spec.containers[*].name}={.spec.template.spec.containers[*].image}'),
    'extra web=redis:7 nginx:1.26',
  );
  assert.equal(await k('get', 'cm', 'web-config', '-n', 'shop', '-o', 'jsonpath={.data.mode} {.data.tier} {.metadata.labels.team}'), 'staging front a');
  assert.equal(await k('get', 'svc', 'web', '-n', 'shop', '-o', 'jsonpath={.spec.ports[0].port} {.metadata.annotations.owner}'), '8080 ops');

  // A mistake is refused with the decoder's message, as the patch handler words it.
  const bad = await kubectl(s, ['patch', 'deploy', 'web', '-n', 'shop', '--type=merge', '-p', '{"spec":{"replicas":"many"}}']);
  assert.equal(bad.code, 1);
  assert.match(bad.stderr, /The request is invalid: patch: Invalid value: ".*": json: cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas of type int32/);

  // Deleting the namespace deletes what is in it, built-in or not.
  await k('delete', 'namespace', 'shop', '--wait=true', '--timeout=30s');
  const left = await kubectl(s, ['get', 'deploy,svc,cm', '-A', '-o', 'name']);
  assert.doesNotMatch(left.stdout, /web/);
});
