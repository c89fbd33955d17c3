/**
 * kubectl against the native validation of ConfigMap, Secret, RBAC, PriorityClass,
 * PodDisruptionBudget, StorageClass, IngressClass, PersistentVolumeClaim, Ingress,
 * NetworkPolicy, HorizontalPodAutoscaler and Event on a real server process: valid objects are
 * stored and read back, and mistakes are refused with the messages a cluster prints.
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

async function apply(name: string, yaml: string) {
  return kubectl(s, ['apply', '-f', manifest(s, name, yaml)]);
}

async function ok(args: string[], stdin?: string): Promise<string> {
  const r = await kubectl(s, args, stdin);
  assert.equal(r.code, 0, `kubectl ${args.join(' ')}: ${r.stderr}`);
  return r.stdout;
}

test('a ConfigMap key with a space is refused with the cluster message', async () => {
  const r = await apply('cm-space.yaml', 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: spaced, namespace: default}\ndata:\n  "bad key": x\n');
  assert.notEqual(r.code, 0);
  assert.match(
    r.stderr,
    /The ConfigMap "spaced" is invalid: data\[bad key\]: Invalid value: "bad key": a valid config key must consist of alphanumeric characters, '-', '_' or '\.' \(e\.g\. 'key\.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '\[-\._a-zA-Z0-9\]\+'\)/,
  );
  const get = await kubectl(s, ['get', 'configmap', 'spaced']);
  assert.notEqual(get.code, 0, 'the refused ConfigMap was stored');
});

test('an immutable ConfigMap: data edits refused, metadata edits allowed', async () => {
  const cm = (value: string) => `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: frozen, namespace: default}\nimmutable: true\ndata: {mode: ${value}}\n`;
  assert.equal((await apply('cm-frozen.yaml', cm('a'))).code, 0);
  const r = await apply('cm-frozen.yaml', cm('b'));
  assert.notEqual(r.code, 0);
  assert.match(r.stderr, /The ConfigMap "frozen" is invalid: data: Forbidden: field is immutable when `immutable` is set/);
  const unset = await kubectl(s, ['patch', 'configmap', 'frozen', '-p', '{"immutable":false}']);
  assert.equal(unset.stderr.trim(), 'The ConfigMap "frozen" is invalid: immutable: Forbidden: field is immutable when `immutable` is set');
  await ok(['label', 'configmap', 'frozen', 'tier=web']);
  assert.equal(await ok(['get', 'configmap', 'frozen', '-o', 'jsonpath={.data.mode} {.metadata.labels.tier}']), 'a web');
});

test('a Secret type change is refused; its type-required keys are checked', async () => {
  await ok(['create', 'secret', 'generic', 'plain', '--from-literal=user=admin']);
  assert.equal(await ok(['get', 'secret', 'plain', '-o', 'jsonpath={.type}']), 'Opaque');
  const r = await kubectl(s, ['patch', 'secret', 'plain', '-p', '{"type":"kubernetes.io/basic-auth"}']);
  assert.equal(
    r.stderr.trim(),
    'The Secret "plain" is invalid: \n* type: Invalid value: "kubernetes.io/basic-auth": field is immutable\n* data[username]: Required value\n* data[password]: Required value',
  );
  const tls = await apply('tls.yaml', 'apiVersion: v1\nkind: Secret\nmetadata: {name: cert, namespace: default}\ntype: kubernetes.io/tls\nstringData: {tls.crt: x}\n');
  assert.match(tls.stderr, /The Secret "cert" is invalid: data\[tls\.key\]: Required value/);
  const docker = await apply('docker.yaml', 'apiVersion: v1\nkind: Secret\nmetadata: {name: pull, namespace: default}\ntype: kubernetes.io/dockerconfigjson\nstringData: {.dockerconfigjson: "not json"}\n');
  assert.match(docker.stderr, /The Secret "pull" is invalid: data\[\.dockerconfigjson\]: Invalid value: "<secret contents redacted>": invalid character 'o' in literal null \(expecting 'u'\)/);
  await ok(['create', 'secret', 'docker-registry', 'regcred', '--docker-server=registry.example.com', '--docker-username=u', '--docker-password=p']);
});

test('an immutable Secret keeps its data', async () => {
  assert.equal((await apply('sec-frozen.yaml', 'apiVersion: v1\nkind: Secret\nmetadata: {name: frozen, namespace: default}\nimmutable: true\nstringData: {k: v1}\n')).code, 0);
  const r = await apply('sec-frozen.yaml', 'apiVersion: v1\nkind: Secret\nmetadata: {name: frozen, namespace: default}\nimmutable: true\nstringData: {k: v2}\n');
  assert.match(r.stderr, /The Secret "frozen" is invalid: data: Forbidden: field is immutable when `immutable` is set/);
  assert.equal(await ok(['get', 'secret', 'frozen', '-o', 'jsonpath={.data.k}']), Buffer.from('v1').toString('base64'));
});

test('a RoleBinding roleRef change is refused; rules and subjects are checked', async () => {
  await ok(['create', 'role', 'reader', '--verb=get,list', '--resource=pods']);
  await ok(['create', 'rolebinding', 'readers', '--role=reader', '--user=alice']);
  const r = await kubectl(s, ['patch', 'rolebinding', 'readers', '--type=merge', '-p', '{"roleRef":{"kind":"ClusterRole","name":"view"}}']);
  assert.equal(
    r.stderr.trim(),
    'The RoleBinding "readers" is invalid: roleRef: Invalid value: {"APIGroup":"rbac.authorization.k8s.io","Kind":"ClusterRole","Name":"view"}: cannot change roleRef',
  );
  assert.equal(await ok(['get', 'rolebinding', 'readers', '-o', 'jsonpath={.roleRef.kind}/{.roleRef.name}']), 'Role/reader');
  const noVerbs = await kubectl(s, ['patch', 'role', 'reader', '--type=json', '-p', '[{"op":"remove","path":"/rules/0/verbs"}]']);
  assert.equal(noVerbs.stderr.trim(), 'The Role "reader" is invalid: rules[0].verbs: Required value: verbs must contain at least one value');
  const urls = await apply('role-urls.yaml', 'apiVersion: rbac.authorization.k8s.io/v1\nkind: Role\nmetadata: {name: urls, namespace: default}\nrules:\n- verbs: [get]\n  nonResourceURLs: [/healthz]\n');
  assert.match(urls.stderr, /The Role "urls" is invalid: rules\[0\]\.nonResourceURLs: Invalid value: \["\/healthz"\]: namespaced rules cannot apply to non-resource URLs/);
  const crb = await apply(
    'crb.yaml',
    'apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRoleBinding\nmetadata: {name: bad}\nroleRef: {apiGroup: rbac.authorization.k8s.io, kind: Role, name: reader}\nsubjects:\n- {kind: ServiceAccount, name: default}\n',
  );
  assert.match(crb.stderr, /The ClusterRoleBinding "bad" is invalid: \n\* roleRef\.kind: Unsupported value: "Role": supported values: "ClusterRole"\n\* subjects\[0\]\.namespace: Required value/);
  await ok(['create', 'clusterrole', 'health', '--verb=get', '--non-resource-url=/healthz']);
});

test('PriorityClass, PodDisruptionBudget, StorageClass and IngressClass: valid ones stored, mistakes refused', async () => {
  const pc = await apply('pc.yaml', 'apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: system-mine}\nvalue: 10\n');
  assert.match(pc.stderr, /The PriorityClass "system-mine" is invalid: metadata\.name: Forbidden: priority class names with 'system-' prefix are reserved for system use only\. error: system-mine is not a known system priority class/);
  await ok(['create', 'priorityclass', 'high', '--value=1000']);
  const value = await kubectl(s, ['patch', 'priorityclass', 'high', '-p', '{"value":2000}']);
  assert.equal(value.stderr.trim(), 'The PriorityClass "high" is invalid: value: Forbidden: may not be changed in an update.');

  const pdb = await apply('pdb.yaml', 'apiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata: {name: web, namespace: default}\nspec:\n  minAvailable: 1\n  maxUnavailable: "120%"\n  selector: {matchLabels: {app: web}}\n');
  assert.match(
    pdb.stderr,
    /The PodDisruptionBudget "web" is invalid: \n\* spec: Invalid value: \{"MinAvailable":1,"Selector":\{"matchLabels":\{"app":"web"\}\},"MaxUnavailable":"120%","UnhealthyPodEvictionPolicy":null\}: minAvailable and maxUnavailable cannot be both set\n\* spec\.maxUnavailable: Invalid value: "120%": must not be greater than 100%/,
  );
  await ok(['create', 'poddisruptionbudget', 'web', '--selector=app=web', '--min-available=50%']);

  const sc = 'apiVersion: storage.k8s.io/v1\nkind: StorageClass\nmetadata: {name: fast}\nprovisioner: example.com/ssd\nparameters: {tier: "1"}\nreclaimPolicy: Retain\n';
  assert.equal((await apply('sc.yaml', sc)).code, 0);
  const scEdit = await apply('sc.yaml', sc.replace('tier: "1"', 'tier: "2"'));
  assert.match(scEdit.stderr, /The StorageClass "fast" is invalid: parameters: Forbidden: updates to parameters are forbidden\./);

  const ic = await apply('ic.yaml', 'apiVersion: networking.k8s.io/v1\nkind: IngressClass\nmetadata: {name: nginx}\nspec: {controller: nginx}\n');
  assert.match(ic.stderr, /The IngressClass "nginx" is invalid: spec\.controller: Invalid value: "nginx": must be a domain-prefixed path \(such as "acme\.io\/foo"\)/);
});

test('a PersistentVolumeClaim spec edit is refused with the diff of its spec; a bad claim never stored', async () => {
  const pvc = (mode: string) =>
    `apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: data, namespace: default}\nspec:\n  accessModes: [${mode}]\n  volumeMode: Filesystem\n  resources: {requests: {storage: 1Gi}}\n`;
  assert.equal((await apply('pvc.yaml', pvc('ReadWriteOnce'))).code, 0);
  const r = await apply('pvc.yaml', pvc('ReadWriteMany'));
  assert.ok(
    r.stderr.includes(
      'PersistentVolumeClaim "data" is invalid: spec: Forbidden: spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims\n@@ -1,6 +1,6 @@\n {\n  "AccessModes": [\n-  "ReadWriteOnce"\n+  "ReadWriteMany"\n  ],\n  "Selector": null,\n  "Resources": {\n',
    ),
    r.stderr,
  );
  const bad = await apply('pvc-bad.yaml', 'apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: nostorage, namespace: default}\nspec:\n  accessModes: [ReadWriteOncePod, ReadWriteOnce]\n');
  assert.match(
    bad.stderr,
    /The PersistentVolumeClaim "nostorage" is invalid: \n\* spec\.accessModes: Forbidden: may not use ReadWriteOncePod with other access modes\n\* spec\.resources\[storage\]: Required value/,
  );
});

test('Ingress, NetworkPolicy, HorizontalPodAutoscaler and Event mistakes refused; the ingress-class annotation warned about', async () => {
  const ing = await apply(
    'ing.yaml',
    'apiVersion: networking.k8s.io/v1\nkind: Ingress\nmetadata: {name: web, namespace: default}\nspec:\n  rules:\n  - host: web.example.com\n    http:\n      paths:\n      - path: /\n        backend: {service: {name: web, port: {number: 80}}}\n',
  );
  assert.match(ing.stderr, /The Ingress "web" is invalid: spec\.rules\[0\]\.http\.paths\[0\]\.pathType: Required value: pathType must be specified/);
  const warned = await apply(
    'ing-ok.yaml',
    'apiVersion: networking.k8s.io/v1\nkind: Ingress\nmetadata: {name: web, namespace: default, annotations: {kubernetes.io/ingress.class: nginx}}\nspec:\n  defaultBackend: {service: {name: web, port: {name: http}}}\n',
  );
  assert.equal(warned.code, 0, warned.stderr);
  assert.match(warned.stderr, /Warning: annotation "kubernetes\.io\/ingress\.class" is deprecated, please use 'spec\.ingressClassName' instead/);

  const np = await apply(
    'np.yaml',
    'apiVersion: networking.k8s.io/v1\nkind: NetworkPolicy\nmetadata: {name: deny, namespace: default}\nspec:\n  podSelector: {}\n  ingress:\n  - from:\n    - ipBlock: {cidr: 10.0.0.0/8, except: [192.168.0.0/16]}\n    ports:\n    - {port: 80, endPort: 70}\n',
  );
  assert.match(
    np.stderr,
    /The NetworkPolicy "deny" is invalid: \n\* spec\.ingress\[0\]\.ports\[0\]\.endPort: Invalid value: 70: must be greater than or equal to `port`\n\* spec\.ingress\[0\]\.from\[0\]\.ipBlock\.except\[0\]: Invalid value: "192\.168\.0\.0\/16": must be a strict subset of `cidr`/,
  );

  const hpa = await apply(
    'hpa.yaml',
    'apiVersion: autoscaling/v2\nkind: HorizontalPodAutoscaler\nmetadata: {name: web, namespace: default}\nspec:\n  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}\n  minReplicas: 5\n  maxReplicas: 2\n',
  );
  assert.match(hpa.stderr, /The HorizontalPodAutoscaler "web" is invalid: spec\.maxReplicas: Invalid value: 2: must be greater than or equal to `minReplicas`/);

  const ev = await apply('ev.yaml', 'apiVersion: v1\nkind: Event\nmetadata: {name: e1, namespace: default}\ninvolvedObject: {kind: Pod, name: p, namespace: other}\nreason: Started\n');
  assert.match(ev.stderr, /The Event "e1" is invalid: involvedObject\.namespace: Invalid value: "other": does not match event\.namespace/);
});
