/**
 * MutatingAdmissionPolicy against a real server process with kubectl, after Kubernetes'
 * test/integration/apiserver/cel/mutatingadmissionpolicy_test.go: an ApplyConfiguration policy
 * adding a label and a JSONPatch policy setting a default replica count, on a Deployment and on a
 * custom resource; the mutated object validated by its schema; a ValidatingAdmissionPolicy seeing
 * the final object; an atomic field refused with the cluster's message; failurePolicy Ignore; a
 * failing JSONPatch `test` leaving the object alone.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { crontabCRDYAML, kubectl, manifest, startServer, type ServerProcess } from './harness.ts';
import { applyOK, deploymentYAML } from './policy-fixtures.ts';

let s: ServerProcess;
before(async () => {
  s = await startServer();
  await apply('crd.yaml', crontabCRDYAML);
  const w = await kubectl(s, ['wait', '--for=condition=Established', 'crd/crontabs.stable.example.com']);
  assert.equal(w.code, 0, w.stderr);
});
after(async () => {
  await s.stop();
});

const apply = (name: string, yaml: string) => applyOK(s, name, yaml);

const policy = (name: string, body: string, binding = '') => `apiVersion: admissionregistration.k8s.io/v1beta1
kind: MutatingAdmissionPolicy
metadata:
  name: ${name}
spec:
${body}---
apiVersion: admissionregistration.k8s.io/v1beta1
kind: MutatingAdmissionPolicyBinding
metadata:
  name: ${name}-binding
spec:
  policyName: ${name}
${binding}`;

const rules = (ns: string, resources: string) => `  matchConstraints:
    namespaceSelector:
      matchLabels: {kubernetes.io/metadata.name: ${ns}}
    resourceRules:
    - apiGroups: ["apps", "stable.example.com"]
      apiVersions: ["v1"]
      operations: ["CREATE", "UPDATE"]
      resources: [${resources}]
`;

const deployment = (name: string, ns: string, replicas?: number) => deploymentYAML(name, ns, replicas === undefined ? {} : { replicas });

/** A `mutations:` list of one mutation of `patchType`, its expression a folded scalar. */
const mutations = (patchType: 'ApplyConfiguration' | 'JSONPatch', expression: string) =>
  `  mutations:\n  - patchType: ${patchType}\n    ${patchType === 'JSONPatch' ? 'jsonPatch' : 'applyConfiguration'}:\n      expression: >\n        ${expression}\n`;

/** Long enough for the policies' informers to see a change. */
const settle = () => new Promise((r) => setTimeout(r, 300));

const crontab = (name: string, ns: string) => `apiVersion: stable.example.com/v1
kind: CronTab
metadata:
  name: ${name}
  namespace: ${ns}
spec:
  cronSpec: "* * * * */5"
  image: my-awesome-cron-image
`;

async function getJSON(args: string[]): Promise<Record<string, any>> {
  const r = await kubectl(s, ['get', ...args, '-o', 'json']);
  assert.equal(r.code, 0, r.stderr);
  return JSON.parse(r.stdout) as Record<string, any>;
}

test('a label and a default replica count, on a Deployment and a custom resource', async () => {
  await kubectl(s, ['create', 'namespace', 'mut']);
  await apply(
    'label.yaml',
    policy(
      'add-label',
      `${rules('mut', '"deployments", "crontabs"')}  reinvocationPolicy: IfNeeded
${mutations('ApplyConfiguration', 'Object{metadata: Object.metadata{labels: {"mutated": "true"}}}')}`,
    ),
  );
  // Deployments default spec.replicas to 1 before admission; the policy raises the default.
  await apply(
    'replicas.yaml',
    policy(
      'default-replicas',
      `${rules('mut', '"deployments", "crontabs"')}  matchConditions:
  - name: no-replicas-asked
    expression: "!has(object.spec.replicas) || (object.kind == 'Deployment' && object.spec.replicas == 1)"
${mutations('JSONPatch', '[JSONPatch{op: "add", path: "/spec/replicas", value: 3}]')}`,
    ),
  );
  // A validating policy sees the final object: it requires what the mutations added.
  await apply(
    'vap.yaml',
    `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata:
  name: require-mutated
spec:
${rules('mut', '"deployments", "crontabs"')}  validations:
  - expression: "object.metadata.labels['mutated'] == 'true'"
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata:
  name: require-mutated-binding
spec:
  policyName: require-mutated
  validationActions: [Deny]
`,
  );
  await settle();
  await apply('d.yaml', deployment('web', 'mut'));
  const d = await getJSON(['-n', 'mut', 'deployment', 'web']);
  assert.equal(d.metadata.labels.mutated, 'true');
  assert.equal(d.spec.replicas, 3);
  await apply('ct.yaml', crontab('cron', 'mut'));
  const ct = await getJSON(['-n', 'mut', 'crontab', 'cron']);
  assert.equal(ct.metadata.labels.mutated, 'true');
  assert.equal(ct.spec.replicas, 3);
  // Replicas the user asked for are kept.
  await apply('d5.yaml', deployment('five', 'mut', 5));
  const five = await getJSON(['-n', 'mut', 'deployment', 'five']);
  assert.equal(five.spec.replicas, 5);
  assert.equal(five.metadata.labels.mutated, 'true');
});

test('refusals: an atomic field, a mutation the schema rejects; Ignore admits; a failing test op leaves the object', async () => {
  await kubectl(s, ['create', 'namespace', 'mut2']);
  await apply(
    'atomic.yaml',
    policy(
      'atomic-selector',
      `${rules('mut2', '"deployments"')}${mutations('ApplyConfiguration', 'Object{spec: Object.spec{selector: Object.spec.selector{matchLabels: {"l": "v"}}}}')}`,
    ),
  );
  await apply(
    'bad-type.yaml',
    policy(
      'bad-type',
      `${rules('mut2', '"crontabs"')}${mutations('JSONPatch', '[JSONPatch{op: "add", path: "/spec/replicas", value: "many"}]')}`,
    ),
  );
  await apply(
    'ignored.yaml',
    policy(
      'ignored',
      `${rules('mut2', '"crontabs"')}  failurePolicy: Ignore
${mutations('JSONPatch', '[JSONPatch{op: "remove", path: "/spec/missing"}]')}`,
    ),
  );
  await settle();
  const atomic = await kubectl(s, ['apply', '-f', manifest(s, 'd-atomic.yaml', deployment('web', 'mut2'))]);
  assert.equal(atomic.code, 1);
  assert.match(
    atomic.stderr,
    /The deployments "web" is invalid: : policy 'atomic-selector' with binding 'atomic-selector-binding' denied request: error applying patch: invalid ApplyConfiguration: may not mutate atomic arrays, maps or structs: \.spec\.selector/,
  );
  // The mutated custom resource is validated by its schema (replicas is an integer).
  const bad = await kubectl(s, ['apply', '-f', manifest(s, 'ct-bad.yaml', crontab('cron', 'mut2'))]);
  assert.equal(bad.code, 1);
  assert.match(bad.stderr, /spec\.replicas: Invalid value: "string": spec\.replicas in body must be of type integer: "string"/);
  await kubectl(s, ['delete', 'mutatingadmissionpolicybinding', 'bad-type-binding']);
  // A custom resource's apply configuration is typed with its CRD's schema.
  await apply(
    'undeclared.yaml',
    policy(
      'undeclared',
      `${rules('mut2', '"crontabs"')}${mutations('ApplyConfiguration', 'Object{spec: Object.spec{schedule: "daily"}}')}`,
    ),
  );
  await settle();
  const undeclared = await kubectl(s, ['apply', '-f', manifest(s, 'ct-undeclared.yaml', crontab('cron', 'mut2'))]);
  assert.equal(undeclared.code, 1);
  assert.match(undeclared.stderr, /denied request: error applying patch: failed to convert patch object to typed object: \.spec\.schedule: field not declared in schema/);
  await kubectl(s, ['delete', 'mutatingadmissionpolicybinding', 'undeclared-binding']);
  await apply(
    'test-op.yaml',
    policy(
      'guarded',
      `${rules('mut2', '"crontabs"')}${mutations('JSONPatch', '[JSONPatch{op: "test", path: "/spec/image", value: "other"}, JSONPatch{op: "add", path: "/spec/replicas", value: 7}]')}`,
    ),
  );
  await settle();
  await apply('ct-ok.yaml', crontab('cron', 'mut2'));
  const ct = await getJSON(['-n', 'mut2', 'crontab', 'cron']);
  assert.equal(ct.spec.replicas, undefined, 'the guarded patch was skipped');
  assert.equal(ct.spec.image, 'my-awesome-cron-image');
});
