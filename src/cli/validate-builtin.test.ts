/**
 * `validate` on built-in kinds next to custom resources: a directory mixing Deployments, Services,
 * ConfigMaps, a Namespace and CronTabs is judged offline (the real CLI process) and by a real
 * `serve` process answering `--dry-run=server` creates (dryRun=All, fieldValidation=Strict) of the
 * same documents; each offline verdict must be the server's answer, Status for Status.
 */
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer, type ServerProcess } from '../../test/e2e/harness.ts';
import { runCLI } from '../../test/lib/cli.ts';
import { fetchRetry } from '../../test/lib/fetch-retry.ts';

const dir = mkdtempSync(join(tmpdir(), 'validate-builtin-'));

const crd = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: crontabs.stable.example.com
spec:
  group: stable.example.com
  scope: Namespaced
  names: {plural: crontabs, singular: crontab, kind: CronTab}
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            required: [cronSpec]
            x-kubernetes-validations:
            - rule: "self.replicas <= 5 || self.cronSpec.startsWith('@')"
              message: "more than 5 replicas need a named schedule"
            properties:
              cronSpec: {type: string, maxLength: 20}
              replicas: {type: integer, minimum: 1, maximum: 10}
`;

/** Each document with the resource path it is created at (namespace default, as kubectl's context). */
const documents: { path: string; yaml: string }[] = [
  {
    path: '/apis/apps/v1/namespaces/default/deployments',
    yaml: `apiVersion: apps/v1
kind: Deployment
metadata: {name: web, labels: {app: web}}
spec:
  replicas: 2
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers:
      - name: web
        image: nginx:1.27
        ports: [{containerPort: 80}]
`,
  },
  {
    path: '/apis/apps/v1/namespaces/default/deployments',
    yaml: `apiVersion: apps/v1
kind: Deployment
metadata: {name: typo}
spec:
  replicas: "three"
  selector: {matchLabels: {app: typo}}
  template:
    metadata: {labels: {app: typo}}
    spec:
      containers:
      - name: web
        image: nginx
        imagePullPolcy: Always
`,
  },
  {
    path: '/apis/apps/v1/namespaces/default/deployments',
    yaml: `apiVersion: apps/v1
kind: Deployment
metadata: {name: Bad_Name}
spec:
  selector: {matchLabels: {app: x}}
  template:
    metadata: {labels: {app: x}}
    spec: {containers: [{name: x, image: x}]}
`,
  },
  {
    path: '/api/v1/namespaces/default/services',
    yaml: `apiVersion: v1
kind: Service
metadata: {name: web}
spec:
  selector: {app: web}
  ports: [{port: 80, targetPort: 8080, protocol: TCP}]
`,
  },
  {
    path: '/api/v1/namespaces/default/services',
    yaml: `apiVersion: v1
kind: Service
metadata: {name: broken}
spec:
  ports: [{port: "eighty"}]
  sessionAffinityConfig: {clientIP: {timeoutSeconds: 10}}
  extra: true
`,
  },
  {
    path: '/api/v1/namespaces/default/configmaps',
    yaml: `apiVersion: v1
kind: ConfigMap
metadata: {name: settings}
data: {mode: fast, level: "3"}
`,
  },
  {
    path: '/api/v1/namespaces/default/configmaps',
    yaml: `apiVersion: v1
kind: ConfigMap
metadata: {name: numbers, labels: {"bad label": x}}
data: {count: 3}
`,
  },
  {
    path: '/api/v1/namespaces',
    yaml: `apiVersion: v1
kind: Namespace
metadata: {name: team-a}
`,
  },
  {
    path: '/apis/stable.example.com/v1/namespaces/default/crontabs',
    yaml: `apiVersion: stable.example.com/v1
kind: CronTab
metadata: {name: nightly}
spec: {cronSpec: "0 3 * * *", replicas: 3}
`,
  },
  {
    path: '/apis/stable.example.com/v1/namespaces/default/crontabs',
    yaml: `apiVersion: stable.example.com/v1
kind: CronTab
metadata: {name: busy}
spec: {cronSpec: "*/5 * * * *", replicas: 8}
`,
  },
  {
    path: '/apis/stable.example.com/v1/namespaces/default/crontabs',
    yaml: `apiVersion: stable.example.com/v1
kind: CronTab
metadata: {name: empty}
spec: {replicas: 20}
`,
  },
];

const crdFile = join(dir, 'crds', 'crontab.yaml');
const manifests = join(dir, 'manifests');
mkdirSync(join(dir, 'crds'));
mkdirSync(join(manifests, 'apps'), { recursive: true });
writeFileSync(crdFile, crd);
// Built-in kinds in one file, custom resources in another, in a subdirectory: the order of the
// offline verdicts is the order of the files (sorted) and of the documents in them.
const builtins = documents.filter((d) => !d.path.includes('crontabs'));
const custom = documents.filter((d) => d.path.includes('crontabs'));
writeFileSync(join(manifests, 'apps', 'builtin.yaml'), builtins.map((d) => d.yaml).join('---\n'));
writeFileSync(join(manifests, 'crontabs.yaml'), custom.map((d) => d.yaml).join('---\n'));
const ordered = [...builtins, ...custom];

let server: ServerProcess | undefined;

before(async () => {
  server = await startServer({ args: ['--plain-http'] });
  const url = server.url;
  const created = await fetchRetry(`${url}/apis/apiextensions.k8s.io/v1/customresourcedefinitions`, { method: 'POST', headers: { 'Content-Type': 'application/yaml' }, body: crd });
  assert.equal(created.status, 201, await created.text());
  // Served once the list answers.
  for (let i = 0; i < 500; i++) {
    if ((await fetchRetry(`${url}/apis/stable.example.com/v1/crontabs`)).status === 200) return;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error('the CRD was not served in time');
});

after(async () => {
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** What the server answers a `kubectl create --dry-run=server --validate=strict` of the document: Success or its Status. */
async function serverVerdict(d: { path: string; yaml: string }): Promise<unknown> {
  const r = await fetchRetry(`${server!.url}${d.path}?dryRun=All&fieldValidation=Strict`, { method: 'POST', headers: { 'Content-Type': 'application/yaml' }, body: d.yaml });
  const body = (await r.json()) as Record<string, unknown>;
  if (r.status === 201) return { status: 'Success' };
  return body;
}

test('built-in kinds and custom resources in one directory: each offline verdict is the server dry-run answer', async () => {
  const r = runCLI('validate', '--crds', crdFile, '-o', 'json', manifests);
  assert.equal(r.code, 1, r.stderr);
  const offline = r.stdout.trim().split('\n').map((l) => JSON.parse(l) as { file: string; document: number; status: Record<string, unknown> });
  assert.equal(offline.length, ordered.length);
  let invalid = 0;
  for (const [i, d] of ordered.entries()) {
    const want = await serverVerdict(d);
    assert.deepEqual(offline[i]!.status, want, `document ${i + 1}:\n${d.yaml}`);
    if ((want as { status?: string }).status !== 'Success') invalid++;
  }
  // Every kind gets both verdicts: one valid Deployment, Service, ConfigMap, Namespace and
  // CronTab, and six refused (the decoder's 400s, ObjectMeta, schema and CEL rule 422s).
  assert.equal(invalid, 6, 'expected 6 invalid documents');
  const messages = offline.map((o) => String(o.status.message ?? ''));
  for (const want of [
    // A value of the wrong type fails the decoder before the unknown fields are reported.
    'Deployment in version "v1" cannot be handled as a Deployment: json: cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas of type int32',
    'Deployment.apps "Bad_Name" is invalid: metadata.name: Invalid value: "Bad_Name": a lowercase RFC 1123 subdomain',
    'Service in version "v1" cannot be handled as a Service: json: cannot unmarshal string into Go struct field ServicePort.spec.ports.port of type int32',
    'ConfigMap in version "v1" cannot be handled as a ConfigMap: json: cannot unmarshal number into Go struct field ConfigMap.data of type string',
    'CronTab.stable.example.com "busy" is invalid: spec: Invalid value: more than 5 replicas need a named schedule',
  ]) {
    assert.ok(messages.some((m) => m.startsWith(want)), `${want}\nnot among:\n${messages.join('\n')}`);
  }
});

test('built-in kinds need no --crds; a kind nothing serves is still an error', () => {
  const f = join(dir, 'plain.yaml');
  writeFileSync(f, `${documents[0]!.yaml}---\n${documents[5]!.yaml}---\napiVersion: stable.example.com/v1\nkind: CronTab\nmetadata: {name: x}\n`);
  const r = runCLI('validate', f);
  assert.equal(r.code, 1, r.stdout + r.stderr);
  assert.match(r.stdout, /3 documents: 2 valid, 1 invalid/);
  assert.match(r.stdout, /CronTab\/x: no CRD given with --crds serves kind "CronTab" in version "stable.example.com\/v1"/);
});
