/**
 * `validate --policies ... --output json` with MutatingAdmissionPolicies, as a real CLI process:
 * each document's line carries the object after the mutating policies (an apply configuration on
 * a Deployment, a JSONPatch on a ConfigMap, a document no policy matches), the mutated object
 * equal in what the policies set to what a real `serve` process holding the same policies answers
 * for a dry-run create, and no object for a document whose mutation was refused.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { kubectl, manifest, startServer, type ServerProcess } from './harness.ts';
import { runCLI } from '../lib/cli.ts';

let s: ServerProcess;

const policies = `apiVersion: admissionregistration.k8s.io/v1beta1
kind: MutatingAdmissionPolicy
metadata: {name: add-team}
spec:
  matchConstraints:
    resourceRules: [{apiGroups: [apps], apiVersions: [v1], operations: [CREATE], resources: [deployments]}]
  mutations:
  - patchType: ApplyConfiguration
    applyConfiguration: {expression: 'Object{metadata: Object.metadata{labels: {"team": "core"}}, spec: Object.spec{replicas: 2}}'}
---
apiVersion: admissionregistration.k8s.io/v1beta1
kind: MutatingAdmissionPolicyBinding
metadata: {name: add-team}
spec: {policyName: add-team}
---
apiVersion: admissionregistration.k8s.io/v1beta1
kind: MutatingAdmissionPolicy
metadata: {name: stamp}
spec:
  matchConstraints:
    resourceRules: [{apiGroups: [""], apiVersions: [v1], operations: [CREATE], resources: [configmaps]}]
  mutations:
  - patchType: JSONPatch
    jsonPatch: {expression: '[JSONPatch{op: "add", path: "/metadata/annotations/" + jsonpatch.escapeKey("example.com/stamped-by"), value: object.metadata.name}]'}
---
apiVersion: admissionregistration.k8s.io/v1beta1
kind: MutatingAdmissionPolicyBinding
metadata: {name: stamp}
spec: {policyName: stamp}
`;

const deployment = `apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec: {containers: [{name: c, image: nginx}]}
`;
const configMap = `apiVersion: v1
kind: ConfigMap
metadata: {name: cm, annotations: {a: b}}
data: {a: b}
`;
// No annotations map to add to: the JSONPatch fails and the policy (failurePolicy Fail) refuses.
const emptyConfigMap = `apiVersion: v1
kind: ConfigMap
metadata: {name: empty}
`;
const secret = `apiVersion: v1
kind: Secret
metadata: {name: s}
stringData: {k: v}
`;

before(async () => {
  s = await startServer();
  const r = await kubectl(s, ['apply', '-f', manifest(s, 'policies.yaml', policies)]);
  assert.equal(r.code, 0, r.stderr);
});
after(async () => {
  await s.stop();
});

function validate(...args: string[]) {
  const r = runCLI('validate', ...args);
  return { code: r.code, lines: r.stdout.trim().split('\n').map((l) => JSON.parse(l) as Record<string, any>), stderr: r.stderr };
}

/** The server's dry-run create of `yaml`, retried while the policies' caches catch up. */
async function serverDryRun(name: string, yaml: string): Promise<Record<string, any>> {
  const file = manifest(s, name, yaml);
  for (let i = 0; ; i++) {
    const r = await kubectl(s, ['create', '--dry-run=server', '-o', 'json', '-f', file]);
    assert.equal(r.code, 0, r.stderr);
    const o = JSON.parse(r.stdout) as Record<string, any>;
    if (o.metadata?.labels?.team !== undefined || o.metadata?.annotations?.['example.com/stamped-by'] !== undefined || i >= 30) return o;
    await new Promise((res) => setTimeout(res, 100));
  }
}

test('--output json prints each document with the object the mutating policies left', async () => {
  const inputs = manifest(s, 'docs.yaml', [deployment, configMap, emptyConfigMap, secret].join('---\n'));
  const r = validate('--policies', join(s.dir, 'policies.yaml'), '--output', 'json', inputs);
  assert.equal(r.code, 1, r.stderr);
  const [dep, cm, empty, sec] = r.lines;
  assert.equal(r.lines.length, 4);

  assert.deepEqual(dep!.status, { status: 'Success' });
  assert.equal(dep!.object.kind, 'Deployment');
  assert.deepEqual(dep!.object.metadata.labels, { team: 'core' });
  assert.equal(dep!.object.spec.replicas, 2);
  const serverDep = await serverDryRun('deployment.yaml', deployment);
  assert.deepEqual(dep!.object.metadata.labels, serverDep.metadata.labels);
  assert.deepEqual(dep!.object.spec.replicas, serverDep.spec.replicas);

  assert.deepEqual(cm!.status, { status: 'Success' });
  assert.deepEqual(cm!.object.metadata.annotations, { a: 'b', 'example.com/stamped-by': 'cm' });
  assert.deepEqual(cm!.object.metadata.annotations, (await serverDryRun('configmap.yaml', configMap)).metadata.annotations);

  // Refused by the mutating policy: a Status, and no object.
  assert.equal(empty!.status.code, 422);
  assert.match(empty!.status.message, /^configmaps "empty" is forbidden: policy 'stamp' with binding 'stamp' denied request: JSON Patch: add operation does not apply: /);
  assert.equal(empty!.object, undefined);

  // Matched by no policy: the object as admission saw it, unchanged by policies.
  assert.deepEqual(sec!.status, { status: 'Success' });
  assert.equal(sec!.object.kind, 'Secret');
  assert.equal(sec!.object.metadata.labels, undefined);
});

test('without mutating policies no object is printed', () => {
  const vap = manifest(
    s,
    'vap.yaml',
    `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {name: v}
spec:
  matchConstraints:
    resourceRules: [{apiGroups: [""], apiVersions: [v1], operations: [CREATE], resources: [configmaps]}]
  validations: [{expression: "true"}]
`,
  );
  const r = validate('--policies', vap, '--output', 'json', manifest(s, 'cm-only.yaml', configMap));
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(r.lines, [{ file: join(s.dir, 'cm-only.yaml'), document: 1, status: { status: 'Success' } }]);
});
