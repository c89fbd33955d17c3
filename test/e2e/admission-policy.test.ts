/**
 * ValidatingAdmissionPolicy against a real server process with kubectl, after Kubernetes'
 * test/integration/apiserver/cel/validatingadmissionpolicy_test.go: a Deny binding refusing a
 * Deployment with the cluster's message and code, a Warn binding printing kubectl's `Warning:` and
 * admitting, an Audit binding and auditAnnotations written to `--audit-log-path`, a ConfigMap param
 * whose change takes effect at once, a custom resource as the target, messageExpression and
 * reason, dry-run requests evaluated, and the policy kinds themselves exempt.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { kubectl, manifest } from './harness.ts';
import { applyOK, deploymentYAML } from './policy-fixtures.ts';
import { startAuditedServer, type AuditedServer } from './policy-server.ts';

let s: AuditedServer;

before(async () => {
  s = await startAuditedServer();
});
after(async () => {
  await s.stop();
});

const deployment = (name: string, replicas: number, ns = 'default', labels = '') => deploymentYAML(name, ns, { replicas, labels });

const policy = (name: string, body: string) => `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata:
  name: ${name}
spec:
${body}`;

const binding = (name: string, policyName: string, actions: string, extra = '') => `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata:
  name: ${name}
spec:
  policyName: ${policyName}
  validationActions: [${actions}]
${extra}`;

const apply = (name: string, yaml: string) => applyOK(s, name, yaml);

const auditEvents = () => s.auditEvents();

test('Deny: the cluster message and 422 Invalid; dry-run is evaluated too; a compliant object is created', async () => {
  await kubectl(s, ['create', 'namespace', 'deny-ns']);
  await apply(
    'deny.yaml',
    policy(
      'replicalimit-policy.example.com',
      `  failurePolicy: Fail
  matchConstraints:
    resourceRules:
    - apiGroups: ["apps"]
      apiVersions: ["v1"]
      operations: ["CREATE", "UPDATE"]
      resources: ["deployments"]
  validations:
  - expression: "object.spec.replicas <= 5"
`,
    ) +
      '---\n' +
      binding(
        'replicalimit-binding-test.example.com',
        'replicalimit-policy.example.com',
        'Deny',
        `  matchResources:
    namespaceSelector:
      matchLabels: {kubernetes.io/metadata.name: deny-ns}
`,
      ),
  );
  const denied = await kubectl(s, ['apply', '-f', manifest(s, 'd1.yaml', deployment('big', 7, 'deny-ns'))]);
  assert.equal(denied.code, 1);
  assert.match(
    denied.stderr,
    // kubectl apply prints a 422 with causes as a cluster's answer prints: the cause has no field.
    /The deployments "big" is invalid: : ValidatingAdmissionPolicy 'replicalimit-policy\.example\.com' with binding 'replicalimit-binding-test\.example\.com' denied request: failed expression: object\.spec\.replicas <= 5/,
  );
  const raw = await kubectl(s, ['create', '--dry-run=server', '-o', 'json', '-f', manifest(s, 'd1b.yaml', deployment('big', 7, 'deny-ns'))]);
  assert.equal(raw.code, 1, 'a dry run is refused as well');
  assert.match(raw.stderr, /denied request: failed expression/);
  // Outside the binding's namespace the policy does not apply.
  const elsewhere = await kubectl(s, ['apply', '-f', manifest(s, 'd2.yaml', deployment('big', 7, 'default'))]);
  assert.equal(elsewhere.code, 0, elsewhere.stderr);
  const ok = await kubectl(s, ['apply', '-f', manifest(s, 'd3.yaml', deployment('small', 3, 'deny-ns'))]);
  assert.equal(ok.code, 0, ok.stderr);
  // An update past the limit is refused; the stored object keeps its replicas. The scale
  // subresource is not `deployments` (a rule must name `deployments/scale`), so it passes.
  const patched = await kubectl(s, ['-n', 'deny-ns', 'patch', 'deployment', 'small', '-p', '{"spec":{"replicas":9}}']);
  assert.equal(patched.code, 1);
  assert.match(patched.stderr, /denied request/);
  const got = await kubectl(s, ['-n', 'deny-ns', 'get', 'deployment', 'small', '-o', 'jsonpath={.spec.replicas}']);
  assert.equal(got.stdout, '3');
  // The Status as a client sees it: code 422, reason Invalid, the message as a cause.
  const ev = auditEvents().find((e) => (e.responseStatus as { code?: number }).code === 422 && String(e.requestURI).includes('/namespaces/deny-ns/deployments'));
  assert.ok(ev, 'the denial is in the audit log');
  const rs = ev.responseStatus as { reason: string; details: { causes: { message: string }[] } };
  assert.equal(rs.reason, 'Invalid');
  assert.match(rs.details.causes[0]!.message, /^ValidatingAdmissionPolicy 'replicalimit-policy\.example\.com'/);
});

test('Warn: kubectl prints the warning and the object is admitted; messageExpression and reason', async () => {
  await kubectl(s, ['create', 'namespace', 'warn-ns']);
  await apply(
    'warn.yaml',
    policy(
      'warn-policy.example.com',
      `  matchConstraints:
    namespaceSelector:
      matchLabels: {kubernetes.io/metadata.name: warn-ns}
    resourceRules:
    - apiGroups: ["apps"]
      apiVersions: ["v1"]
      operations: ["CREATE"]
      resources: ["deployments"]
  validations:
  - expression: "object.spec.replicas < 2"
    messageExpression: "'replicas must be below 2, got ' + string(object.spec.replicas)"
    reason: Forbidden
`,
    ) +
      '---\n' +
      binding('warn-binding.example.com', 'warn-policy.example.com', 'Warn'),
  );
  const r = await kubectl(s, ['apply', '-f', manifest(s, 'w1.yaml', deployment('warned', 3, 'warn-ns'))]);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stderr, /Warning: Validation failed for ValidatingAdmissionPolicy 'warn-policy\.example\.com' with binding 'warn-binding\.example\.com': replicas must be below 2, got 3/);
  assert.match(r.stdout, /deployment\.apps\/warned created/);
  // The same policy bound with Deny: the validation's reason and its code (403 for Forbidden).
  await apply('warn-deny.yaml', binding('warn-deny-binding.example.com', 'warn-policy.example.com', 'Deny'));
  const d = await kubectl(s, ['apply', '-f', manifest(s, 'w2.yaml', deployment('refused', 3, 'warn-ns'))]);
  assert.equal(d.code, 1);
  assert.match(d.stderr, /denied request: replicas must be below 2, got 3/);
  const ev = auditEvents().findLast((e) => String(e.requestURI).includes('/namespaces/warn-ns/deployments') && (e.responseStatus as { code: number }).code >= 400);
  assert.equal((ev?.responseStatus as { code: number; reason: string }).code, 403);
  assert.equal((ev?.responseStatus as { reason: string }).reason, 'Forbidden');
});

test('Audit: the validation failure and auditAnnotations are written to the audit log', async () => {
  await kubectl(s, ['create', 'namespace', 'audit-ns']);
  await apply(
    'audit.yaml',
    policy(
      'audit-policy.example.com',
      `  matchConstraints:
    namespaceSelector:
      matchLabels: {kubernetes.io/metadata.name: audit-ns}
    resourceRules:
    - apiGroups: ["apps"]
      apiVersions: ["v1"]
      operations: ["CREATE"]
      resources: ["deployments"]
  validations:
  - expression: "object.spec.replicas < 2"
    message: "too many replicas"
  auditAnnotations:
  - key: replicas
    valueExpression: "'replicas ' + string(object.spec.replicas)"
`,
    ) +
      '---\n' +
      binding('audit-binding.example.com', 'audit-policy.example.com', 'Audit'),
  );
  const r = await kubectl(s, ['apply', '-f', manifest(s, 'a1.yaml', deployment('audited', 4, 'audit-ns'))]);
  assert.equal(r.code, 0, r.stderr);
  const ev = auditEvents().findLast((e) => String(e.requestURI).includes('/namespaces/audit-ns/deployments') && e.verb === 'create');
  assert.ok(ev, 'an event for the create');
  assert.equal(ev.level, 'Metadata');
  assert.equal(ev.apiVersion, 'audit.k8s.io/v1');
  const ann = ev.annotations as Record<string, string>;
  assert.equal(ann['audit-policy.example.com/replicas'], 'replicas 4');
  assert.deepEqual(JSON.parse(ann['validation.policy.admission.k8s.io/validation_failure']!), [
    { message: 'too many replicas', policy: 'audit-policy.example.com', binding: 'audit-binding.example.com', expressionIndex: 0, validationActions: ['Audit'] },
  ]);
});

test('params: a ConfigMap param, a change taking effect, selectors, parameterNotFoundAction', async () => {
  await kubectl(s, ['create', 'namespace', 'param-ns']);
  await kubectl(s, ['-n', 'param-ns', 'create', 'configmap', 'limits', '--from-literal=maxReplicas=3']);
  await apply(
    'param.yaml',
    policy(
      'param-policy.example.com',
      `  paramKind: {apiVersion: v1, kind: ConfigMap}
  matchConstraints:
    namespaceSelector:
      matchLabels: {kubernetes.io/metadata.name: param-ns}
    resourceRules:
    - apiGroups: ["apps"]
      apiVersions: ["v1"]
      operations: ["CREATE", "UPDATE"]
      resources: ["deployments"]
  validations:
  - expression: "object.spec.replicas <= int(params.data.maxReplicas)"
    messageExpression: "'at most ' + params.data.maxReplicas + ' replicas'"
`,
    ) +
      '---\n' +
      binding('param-binding.example.com', 'param-policy.example.com', 'Deny', `  paramRef:\n    name: limits\n    parameterNotFoundAction: Deny\n`),
  );
  const d = await kubectl(s, ['apply', '-f', manifest(s, 'p1.yaml', deployment('p', 5, 'param-ns'))]);
  assert.equal(d.code, 1);
  assert.match(d.stderr, /denied request: at most 3 replicas/);
  await kubectl(s, ['-n', 'param-ns', 'patch', 'configmap', 'limits', '--type=merge', '-p', '{"data":{"maxReplicas":"6"}}']);
  const ok = await kubectl(s, ['apply', '-f', manifest(s, 'p2.yaml', deployment('p', 5, 'param-ns'))]);
  assert.equal(ok.code, 0, ok.stderr);
  // The param gone: parameterNotFoundAction Deny refuses.
  await kubectl(s, ['-n', 'param-ns', 'delete', 'configmap', 'limits']);
  const gone = await kubectl(s, ['apply', '-f', manifest(s, 'p3.yaml', deployment('q', 1, 'param-ns'))]);
  assert.equal(gone.code, 1);
  assert.match(gone.stderr, /ValidatingAdmissionPolicy 'param-policy\.example\.com' with binding 'param-binding\.example\.com' denied request: failed to configure binding: no params found for policy binding with `Deny` parameterNotFoundAction/);
  // One evaluation per param a selector picks: the strictest one refuses.
  await kubectl(s, ['-n', 'param-ns', 'create', 'configmap', 'l1', '--from-literal=maxReplicas=4']);
  await kubectl(s, ['-n', 'param-ns', 'create', 'configmap', 'l2', '--from-literal=maxReplicas=2']);
  await kubectl(s, ['-n', 'param-ns', 'label', 'configmap', 'l1', 'l2', 'tier=limits']);
  await apply('param-sel.yaml', binding('param-binding.example.com', 'param-policy.example.com', 'Deny', `  paramRef:\n    selector:\n      matchLabels: {tier: limits}\n    parameterNotFoundAction: Allow\n`));
  const sel = await kubectl(s, ['apply', '-f', manifest(s, 'p4.yaml', deployment('r', 3, 'param-ns'))]);
  assert.equal(sel.code, 1);
  assert.match(sel.stderr, /denied request: at most 2 replicas/);
  const fits = await kubectl(s, ['apply', '-f', manifest(s, 'p5.yaml', deployment('r', 2, 'param-ns'))]);
  assert.equal(fits.code, 0, fits.stderr);
});

test('a custom resource as the target, with variables; the policy kinds are exempt', async () => {
  await apply(
    'crd.yaml',
    `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.vap.example.com
spec:
  group: vap.example.com
  scope: Namespaced
  names: {plural: widgets, singular: widget, kind: Widget}
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
              color: {type: string}
`,
  );
  await kubectl(s, ['wait', '--for=condition=Established', 'crd/widgets.vap.example.com']);
  await apply(
    'crd-policy.yaml',
    policy(
      'widget-color.example.com',
      `  matchConstraints:
    resourceRules:
    - apiGroups: ["vap.example.com"]
      apiVersions: ["*"]
      operations: ["CREATE", "UPDATE"]
      resources: ["widgets"]
  variables:
  - name: color
    expression: "has(object.spec.color) ? object.spec.color : 'none'"
  - name: allowed
    expression: "variables.color in ['red', 'green']"
  validations:
  - expression: "variables.allowed"
    messageExpression: "'color ' + variables.color + ' is not allowed'"
`,
    ) +
      '---\n' +
      binding('widget-color-binding.example.com', 'widget-color.example.com', 'Deny'),
  );
  const widget = (name: string, color: string) => `apiVersion: vap.example.com/v1\nkind: Widget\nmetadata: {name: ${name}, namespace: default}\nspec: {color: ${color}}\n`;
  const bad = await kubectl(s, ['apply', '-f', manifest(s, 'wb.yaml', widget('blue', 'blue'))]);
  assert.equal(bad.code, 1);
  assert.match(bad.stderr, /The widgets "blue" is invalid: : ValidatingAdmissionPolicy 'widget-color\.example\.com' with binding 'widget-color-binding\.example\.com' denied request: color blue is not allowed/);
  const good = await kubectl(s, ['apply', '-f', manifest(s, 'wg.yaml', widget('red', 'red'))]);
  assert.equal(good.code, 0, good.stderr);
  // A policy matching everything does not apply to the policy kinds themselves.
  await apply(
    'all.yaml',
    policy('deny-all.example.com', `  matchConstraints:\n    resourceRules:\n    - {apiGroups: ["*"], apiVersions: ["*"], operations: ["*"], resources: ["*"]}\n  validations:\n  - expression: "false"\n`) +
      '---\n' +
      binding('deny-all-binding.example.com', 'deny-all.example.com', 'Deny'),
  );
  const cm = await kubectl(s, ['create', 'configmap', 'anything']);
  assert.equal(cm.code, 1);
  assert.match(cm.stderr, /ValidatingAdmissionPolicy 'deny-all\.example\.com' with binding 'deny-all-binding\.example\.com' denied request: failed expression: false/);
  const del = await kubectl(s, ['delete', 'validatingadmissionpolicybinding', 'deny-all-binding.example.com']);
  assert.equal(del.code, 0, del.stderr);
  const after = await kubectl(s, ['create', 'configmap', 'anything']);
  assert.equal(after.code, 0, after.stderr);
});

test('matchPolicy Equivalent on built-in kinds: autoscaling/v1 rules judge and mutate HorizontalPodAutoscalers of either version as v1 objects', async () => {
  await apply(
    'hpa-policy.yaml',
    policy(
      'hpa-equivalent.example.com',
      `  matchConstraints:
    resourceRules:
    - {apiGroups: [autoscaling], apiVersions: [v1], operations: [CREATE], resources: [horizontalpodautoscalers]}
  validations:
  - expression: "object.apiVersion == 'autoscaling/v1' && object.spec.targetCPUUtilizationPercentage <= 80"
    messageExpression: "'utilization over 80 as ' + object.apiVersion"
`,
    ) +
      '---\n' +
      binding('hpa-equivalent-binding.example.com', 'hpa-equivalent.example.com', 'Deny'),
  );
  await apply(
    'hpa-map.yaml',
    `apiVersion: admissionregistration.k8s.io/v1
kind: MutatingAdmissionPolicy
metadata: {name: hpa-cap.example.com}
spec:
  matchConstraints:
    resourceRules:
    - {apiGroups: [autoscaling], apiVersions: [v1], operations: [CREATE], resources: [horizontalpodautoscalers]}
  mutations:
  - patchType: ApplyConfiguration
    applyConfiguration:
      expression: "Object{spec: Object.spec{maxReplicas: 3}}"
---
apiVersion: admissionregistration.k8s.io/v1
kind: MutatingAdmissionPolicyBinding
metadata: {name: hpa-cap-binding.example.com}
spec: {policyName: hpa-cap.example.com}
`,
  );
  const target = 'scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}';
  const v1 = (name: string, cpu: number) => `apiVersion: autoscaling/v1\nkind: HorizontalPodAutoscaler\nmetadata: {name: ${name}, namespace: default}\nspec:\n  ${target}\n  maxReplicas: 10\n  targetCPUUtilizationPercentage: ${cpu}\n`;
  const v2 = (name: string, cpu: number) =>
    `apiVersion: autoscaling/v2\nkind: HorizontalPodAutoscaler\nmetadata: {name: ${name}, namespace: default}\nspec:\n  ${target}\n  maxReplicas: 10\n  metrics:\n  - {type: Resource, resource: {name: cpu, target: {type: Utilization, averageUtilization: ${cpu}}}}\n`;
  /** A dry-run create, retried while the policies' caches catch up (until `done`). */
  const dryRun = async (file: string, yaml: string, done: (r: { code: number | null; stdout: string; stderr: string }) => boolean) => {
    let r = { code: null as number | null, stdout: '', stderr: '' };
    for (let i = 0; i < 50; i++) {
      r = await kubectl(s, ['create', '--dry-run=server', '-o', 'json', '-f', manifest(s, file, yaml)]);
      if (done(r)) break;
      await new Promise((res) => setTimeout(res, 100));
    }
    return r;
  };
  const refusal = /ValidatingAdmissionPolicy 'hpa-equivalent\.example\.com' with binding 'hpa-equivalent-binding\.example\.com' denied request: utilization over 80 as autoscaling\/v1/;
  for (const [file, yaml] of [['hpa-v1-hot.yaml', v1('hot', 90)], ['hpa-v2-hot.yaml', v2('hot', 90)]] as const) {
    const r = await dryRun(file, yaml, (x) => x.code !== 0);
    assert.match(r.stderr, refusal, file);
  }
  // Mutated as a v1 object, answered as the v2 object it was sent as.
  const r = await dryRun('hpa-v2-cool.yaml', v2('cool', 50), (x) => x.code === 0 && (JSON.parse(x.stdout) as { spec: { maxReplicas: number } }).spec.maxReplicas === 3);
  assert.equal(r.code, 0, r.stderr);
  const created = JSON.parse(r.stdout) as Record<string, any>;
  assert.equal(created.apiVersion, 'autoscaling/v2');
  assert.equal(created.spec.maxReplicas, 3);
  assert.equal(created.spec.metrics[0].resource.target.averageUtilization, 50);
  for (const [kind, name] of [['validatingadmissionpolicybinding', 'hpa-equivalent-binding.example.com'], ['mutatingadmissionpolicybinding', 'hpa-cap-binding.example.com']]) {
    const d = await kubectl(s, ['delete', kind!, name!]);
    assert.equal(d.code, 0, d.stderr);
  }
});

test('HorizontalPodAutoscalers are admitted at the version of the request: matchPolicy Exact, and requestKind under Equivalent', async () => {
  await apply(
    'hpa-exact.yaml',
    policy(
      'hpa-exact.example.com',
      `  matchConstraints:
    matchPolicy: Exact
    resourceRules:
    - {apiGroups: [autoscaling], apiVersions: [v1], operations: [CREATE], resources: [horizontalpodautoscalers]}
  validations:
  - expression: "false"
    messageExpression: "'exact ' + request.kind.version + ' from ' + request.requestKind.version + ' as ' + object.apiVersion"
`,
    ) +
      '---\n' +
      binding('hpa-exact-binding.example.com', 'hpa-exact.example.com', 'Deny') +
      '---\n' +
      policy(
        'hpa-v2-seen.example.com',
        `  matchConstraints:
    resourceRules:
    - {apiGroups: [autoscaling], apiVersions: [v2], operations: [CREATE], resources: [horizontalpodautoscalers]}
  validations:
  - expression: "object.metadata.name != 'probe'"
    messageExpression: "'equivalent ' + request.kind.version + ' from ' + request.requestKind.version + ' as ' + object.apiVersion"
`,
      ) +
      '---\n' +
      binding('hpa-v2-seen-binding.example.com', 'hpa-v2-seen.example.com', 'Deny'),
  );
  const target = 'scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}';
  const hpa = (version: string, name: string) =>
    `apiVersion: autoscaling/${version}\nkind: HorizontalPodAutoscaler\nmetadata: {name: ${name}, namespace: default}\nspec:\n  ${target}\n  maxReplicas: 10\n`;
  const create = async (file: string, yaml: string, want: RegExp) => {
    let r = { code: null as number | null, stdout: '', stderr: '' };
    for (let i = 0; i < 50 && !want.test(r.stderr); i++) {
      r = await kubectl(s, ['create', '--dry-run=server', '-f', manifest(s, file, yaml)]);
      await new Promise((res) => setTimeout(res, 100));
    }
    return r;
  };
  // Exact: a v1 request matches its v1 rule, as v1; a v2 request does not match it.
  const v1 = await create('exact-v1.yaml', hpa('v1', 'x'), /exact/);
  assert.match(v1.stderr, /denied request: exact v1 from v1 as autoscaling\/v1/);
  const v2 = await create('exact-v2.yaml', hpa('v2', 'probe'), /equivalent/);
  assert.doesNotMatch(v2.stderr, /exact/);
  assert.match(v2.stderr, /denied request: equivalent v2 from v2 as autoscaling\/v2/);
  // Equivalent: a v1 request matched by a v2 rule is seen at v2 and requested at v1.
  const d = await kubectl(s, ['delete', 'validatingadmissionpolicybinding', 'hpa-exact-binding.example.com']);
  assert.equal(d.code, 0, d.stderr);
  const seen = await create('seen-v1.yaml', hpa('v1', 'probe'), /equivalent/);
  assert.match(seen.stderr, /denied request: equivalent v2 from v1 as autoscaling\/v2/);
  const d2 = await kubectl(s, ['delete', 'validatingadmissionpolicybinding', 'hpa-v2-seen-binding.example.com']);
  assert.equal(d2.code, 0, d2.stderr);
});
