/**
 * The admission policy kinds with kubectl against a real server process: ValidatingAdmissionPolicy
 * and its binding created and read back with upstream's defaults, the status controller's
 * observedGeneration and typeChecking (a mistyped expression's warning in `kubectl get -o yaml`),
 * MutatingAdmissionPolicy served at v1beta1 and v1 from one storage
 * (discovery, explain), and invalid objects refused with the messages a cluster prints.
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

const policies = `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata:
  name: replica-limit
spec:
  paramKind: {apiVersion: v1, kind: ConfigMap}
  matchConstraints:
    resourceRules:
    - apiGroups: [apps]
      apiVersions: [v1]
      operations: [CREATE, UPDATE]
      resources: [deployments]
  validations:
  - expression: "object.spec.replicas <= int(params.data.max)"
    reason: Invalid
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata:
  name: replica-limit-binding
spec:
  policyName: replica-limit
  validationActions: [Deny]
  paramRef: {name: limits, namespace: default}
  matchResources: {}
---
apiVersion: admissionregistration.k8s.io/v1beta1
kind: MutatingAdmissionPolicy
metadata:
  name: add-label
spec:
  matchConstraints:
    resourceRules:
    - apiGroups: [apps]
      apiVersions: [v1]
      operations: [CREATE]
      resources: [deployments]
  mutations:
  - patchType: ApplyConfiguration
    applyConfiguration:
      expression: "Object{metadata: Object.metadata{labels: {'team': 'a'}}}"
---
apiVersion: admissionregistration.k8s.io/v1
kind: MutatingAdmissionPolicyBinding
metadata:
  name: add-label-binding
spec:
  policyName: add-label
`;

const json = async (args: string[]) => {
  const r = await kubectl(s, [...args, '-o', 'json']);
  assert.equal(r.code, 0, r.stderr);
  return JSON.parse(r.stdout) as Record<string, any>;
};

test('kubectl creates policies and bindings and reads them back with the defaults a cluster sets', async () => {
  const r = await kubectl(s, ['apply', '-f', manifest(s, 'policies.yaml', policies)]);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /validatingadmissionpolicy.admissionregistration.k8s.io\/replica-limit created/);
  assert.match(r.stdout, /mutatingadmissionpolicy.admissionregistration.k8s.io\/add-label created/);
  const vap = await json(['get', 'validatingadmissionpolicy', 'replica-limit']);
  assert.equal(vap.spec.failurePolicy, 'Fail');
  assert.deepEqual(vap.spec.matchConstraints.namespaceSelector, {});
  assert.equal(vap.spec.matchConstraints.matchPolicy, 'Equivalent');
  assert.equal(vap.spec.matchConstraints.resourceRules[0].scope, '*');
  assert.equal(vap.metadata.generation, 1);
  const binding = await json(['get', 'validatingadmissionpolicybinding', 'replica-limit-binding']);
  assert.equal(binding.spec.paramRef.parameterNotFoundAction, 'Deny');
  assert.deepEqual(binding.spec.matchResources, { matchPolicy: 'Equivalent', namespaceSelector: {}, objectSelector: {} });
  // The status controller observes each generation.
  let observed: unknown;
  for (let i = 0; i < 50 && observed !== 1; i++) {
    observed = (await json(['get', 'validatingadmissionpolicy', 'replica-limit'])).status?.observedGeneration;
    if (observed !== 1) await new Promise((res) => setTimeout(res, 100));
  }
  assert.equal(observed, 1);
});

test('the status controller type-checks expressions against the matched kinds: kubectl get -o yaml shows the warnings', async () => {
  const crd = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: crontabs.stable.example.com}
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
            properties:
              cronSpec: {type: string}
`;
  const policy = `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata:
  name: mistyped
spec:
  matchConstraints:
    resourceRules:
    - apiGroups: [apps]
      apiVersions: [v1]
      operations: [CREATE]
      resources: [deployments]
    - apiGroups: [stable.example.com]
      apiVersions: [v1]
      operations: [CREATE]
      resources: [crontabs]
  validations:
  - expression: "object.spec.replicas > 1"
  - expression: "object.metadata.name != ''"
    messageExpression: "'replicas: ' + object.spec.replicas"
`;
  let r = await kubectl(s, ['apply', '-f', manifest(s, 'crontab-crd.yaml', crd)]);
  assert.equal(r.code, 0, r.stderr);
  r = await kubectl(s, ['apply', '-f', manifest(s, 'mistyped.yaml', policy)]);
  assert.equal(r.code, 0, r.stderr);
  let out = '';
  for (let i = 0; i < 50 && !out.includes('typeChecking'); i++) {
    const g = await kubectl(s, ['get', 'validatingadmissionpolicy', 'mistyped', '-o', 'yaml']);
    assert.equal(g.code, 0, g.stderr);
    out = g.stdout;
    if (!out.includes('typeChecking')) await new Promise((res) => setTimeout(res, 100));
  }
  // Each warning names the kind it failed for; the CronTab schema has no spec.replicas.
  assert.ok(
    out.includes(`  typeChecking:
    expressionWarnings:
    - fieldRef: spec.validations[0].expression
      warning: |
        stable.example.com/v1, Kind=CronTab: ERROR: <input>:1:12: undefined field 'replicas'
         | object.spec.replicas > 1
         | ...........^
    - fieldRef: spec.validations[1].messageExpression
      warning: |
        apps/v1, Kind=Deployment: ERROR: <input>:1:14: found no matching overload for '_+_' applied to '(string, int)'
         | 'replicas: ' + object.spec.replicas
         | .............^

        stable.example.com/v1, Kind=CronTab: ERROR: <input>:1:27: undefined field 'replicas'
         | 'replicas: ' + object.spec.replicas
         | ..........................^
`),
    out,
  );
});

test('MutatingAdmissionPolicy is served at v1beta1 and v1 from one storage, with discovery and explain', async () => {
  const beta = await json(['get', 'mutatingadmissionpolicies.v1beta1.admissionregistration.k8s.io', 'add-label']);
  const v1 = await json(['get', 'mutatingadmissionpolicies.v1.admissionregistration.k8s.io', 'add-label']);
  assert.equal(beta.apiVersion, 'admissionregistration.k8s.io/v1beta1');
  assert.equal(v1.apiVersion, 'admissionregistration.k8s.io/v1');
  assert.equal(v1.metadata.uid, beta.metadata.uid);
  assert.equal(v1.spec.reinvocationPolicy, 'Never');
  assert.equal(v1.spec.failurePolicy, 'Fail');
  const mb = await json(['get', 'mutatingadmissionpolicybinding', 'add-label-binding']);
  assert.equal(mb.apiVersion, 'admissionregistration.k8s.io/v1');
  const res = await kubectl(s, ['api-resources', '--api-group', 'admissionregistration.k8s.io', '-o', 'name']);
  assert.equal(res.code, 0, res.stderr);
  for (const r of ['mutatingadmissionpolicies', 'mutatingadmissionpolicybindings', 'validatingadmissionpolicies', 'validatingadmissionpolicybindings']) {
    assert.match(res.stdout, new RegExp(`^${r}\\.admissionregistration\\.k8s\\.io$`, 'm'));
  }
  const versions = await kubectl(s, ['api-versions']);
  assert.match(versions.stdout, /^admissionregistration\.k8s\.io\/v1beta1$/m);
  const explain = await kubectl(s, ['explain', 'mutatingadmissionpolicies.spec.reinvocationPolicy', '--api-version', 'admissionregistration.k8s.io/v1beta1']);
  assert.equal(explain.code, 0, explain.stderr);
  assert.match(explain.stdout, /reinvocationPolicy/);
  const explainV1 = await kubectl(s, ['explain', 'mutatingadmissionpolicies.spec.mutations.patchType', '--api-version', 'admissionregistration.k8s.io/v1']);
  assert.equal(explainV1.code, 0, explainV1.stderr);
  assert.match(explainV1.stdout, /ApplyConfiguration/);
});

test('invalid policy objects are refused with the messages a cluster prints', async () => {
  const bad = `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata:
  name: both
spec:
  policyName: replica-limit
  validationActions: [Deny, Warn]
`;
  const r = await kubectl(s, ['create', '-f', manifest(s, 'bad-binding.yaml', bad)]);
  assert.notEqual(r.code, 0);
  assert.equal(
    r.stderr.trim(),
    'The ValidatingAdmissionPolicyBinding "both" is invalid: spec.validationActions: Invalid value: ["Deny","Warn"]: must not contain both Deny and Warn (repeating the same validation failure information in the API response and headers serves no purpose)',
  );
  const badPolicy = `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata:
  name: broken
spec:
  matchConstraints:
    resourceRules:
    - apiGroups: [apps]
      apiVersions: [v1]
      operations: [CREATE]
      resources: ["*/*", deployments]
  validations:
  - expression: "true"
    message: "two\\nlines"
`;
  const p = await kubectl(s, ['apply', '-f', manifest(s, 'bad-policy.yaml', badPolicy)]);
  assert.notEqual(p.code, 0);
  assert.equal(
    p.stderr,
    `The ValidatingAdmissionPolicy "broken" is invalid: \n* spec.matchConstraints.resourceRules[0].resources: Invalid value: ["*/*","deployments"]: if '*/*' is present, must not specify other resources\n* spec.validations[0].message: Invalid value: "two\\nlines": must not contain line breaks\n`,
  );
  const badMutating = `apiVersion: admissionregistration.k8s.io/v1beta1
kind: MutatingAdmissionPolicy
metadata:
  name: deletes
spec:
  matchConstraints:
    resourceRules:
    - {apiGroups: [""], apiVersions: [v1], operations: [DELETE], resources: [pods]}
  mutations:
  - patchType: JSONPatch
`;
  const m = await kubectl(s, ['create', '-f', manifest(s, 'bad-map.yaml', badMutating)]);
  assert.notEqual(m.code, 0);
  assert.match(m.stderr, /The MutatingAdmissionPolicy "deletes" is invalid: \n\* spec.matchConstraints.resourceRules.operations: Unsupported value: "DELETE": supported values: "\*", "CREATE", "UPDATE"\n\* spec.mutations\[0\].jsonPatch: Required value: must be specified when patchType is JSONPatch/);
  // A refused update leaves the stored policy as it was; a spec change counts a generation.
  const patch = await kubectl(s, ['patch', 'validatingadmissionpolicy', 'replica-limit', '--type=merge', '-p', '{"spec":{"failurePolicy":"Sometimes"}}']);
  assert.notEqual(patch.code, 0);
  assert.match(patch.stderr, /spec.failurePolicy: Unsupported value: "Sometimes": supported values: "Fail", "Ignore"/);
  const ok = await kubectl(s, ['patch', 'validatingadmissionpolicy', 'replica-limit', '--type=merge', '-p', '{"spec":{"failurePolicy":"Ignore"}}']);
  assert.equal(ok.code, 0, ok.stderr);
  assert.equal((await json(['get', 'validatingadmissionpolicy', 'replica-limit'])).metadata.generation, 2);
});
