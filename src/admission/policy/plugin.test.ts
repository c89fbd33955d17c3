/**
 * The ValidatingAdmissionPolicy plugin over a real store: Equivalent matching across a CRD's
 * versions (the object seen at the matched version, `request.kind` the matched kind and
 * `request.requestKind` the request's), configuration errors under Fail and Ignore, a policy
 * change taking effect, and the audit annotations a request collects.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { StatusError } from '../../apimachinery/index.ts';
import { resourcePrefix, type AdmissionAttributes } from '../../registry/index.ts';
import { openTempStore, type TempStore } from '../../registry/testing.ts';
import { createAttributes, putDefaultNamespace, storedObjects } from '../testing.ts';
import { withAuditAnnotations } from './audit-annotations.ts';
import { validatingAdmissionPolicy, type ValidatingAdmissionPolicyPlugin } from './plugin.ts';

let t: TempStore;
let plugin: ValidatingAdmissionPolicyPlugin;
const G = 'admissionregistration.k8s.io';

const { put, del } = storedObjects(() => t.store);
const policyKey = (n: string) => resourcePrefix(G, 'validatingadmissionpolicies') + n;
const bindingKey = (n: string) => resourcePrefix(G, 'validatingadmissionpolicybindings') + n;

function attrs(over: Partial<AdmissionAttributes> = {}): AdmissionAttributes {
  return createAttributes({
    resource: { group: 'example.com', version: 'v2', resource: 'gadgets' },
    kind: { group: 'example.com', version: 'v2', kind: 'Gadget' },
    name: 'g1',
    object: { apiVersion: 'example.com/v2', kind: 'Gadget', metadata: { name: 'g1', namespace: 'default' }, spec: { size: 3 } },
    ...over,
  });
}

async function refusal(a: AdmissionAttributes): Promise<StatusError | undefined> {
  try {
    await plugin.validate!(a);
    return undefined;
  } catch (e) {
    if (e instanceof StatusError) return e;
    throw e;
  }
}

before(async () => {
  t = await openTempStore();
  await putDefaultNamespace({ put, del });
  await put(resourcePrefix('apiextensions.k8s.io', 'customresourcedefinitions') + 'gadgets.example.com', {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'gadgets.example.com' },
    spec: { group: 'example.com', scope: 'Namespaced', names: { plural: 'gadgets', kind: 'Gadget' }, versions: [{ name: 'v1', served: true, storage: true }, { name: 'v2', served: true }] },
  });
  plugin = validatingAdmissionPolicy(t.store);
  await plugin.synced;
});
after(async () => {
  plugin.stop();
  await t.close();
});

test('Equivalent: a v1 rule matches a v2 request, seen at v1', async () => {
  await put(policyKey('v1-only'), {
    metadata: { name: 'v1-only', resourceVersion: '1' },
    spec: {
      matchConstraints: { resourceRules: [{ apiGroups: ['example.com'], apiVersions: ['v1'], operations: ['CREATE'], resources: ['gadgets'] }] },
      validations: [{ expression: "object.apiVersion == 'example.com/v1' && request.kind.version == 'v1' && request.requestKind.version == 'v2' && object.spec.size < 3" }],
    },
  });
  await put(bindingKey('v1-only'), { metadata: { name: 'v1-only' }, spec: { policyName: 'v1-only', validationActions: ['Deny'] } });
  const e = await refusal(attrs());
  assert.ok(e);
  assert.equal(e.status.code, 422);
  assert.equal(e.status.message, `gadgets.example.com "g1" is forbidden: ValidatingAdmissionPolicy 'v1-only' with binding 'v1-only' denied request: failed expression: object.apiVersion == 'example.com/v1' && request.kind.version == 'v1' && request.requestKind.version == 'v2' && object.spec.size < 3`);
  // Exact: the v2 request does not match.
  await put(policyKey('v1-only'), {
    metadata: { name: 'v1-only', resourceVersion: '2' },
    spec: {
      matchConstraints: { matchPolicy: 'Exact', resourceRules: [{ apiGroups: ['example.com'], apiVersions: ['v1'], operations: ['CREATE'], resources: ['gadgets'] }] },
      validations: [{ expression: 'false' }],
    },
  });
  assert.equal(await refusal(attrs()), undefined);
  await del(bindingKey('v1-only'));
  await del(policyKey('v1-only'));
});

test('configuration errors refuse under Fail and pass under Ignore', async () => {
  const spec = (failurePolicy: string) => ({
    failurePolicy,
    paramKind: { apiVersion: 'example.com/v1', kind: 'Nothing' },
    matchConstraints: { resourceRules: [{ apiGroups: ['*'], apiVersions: ['*'], operations: ['*'], resources: ['*'] }] },
    validations: [{ expression: 'true' }],
  });
  await put(policyKey('bad-param'), { metadata: { name: 'bad-param', resourceVersion: '1' }, spec: spec('Fail') });
  await put(bindingKey('bad-param'), { metadata: { name: 'bad-param' }, spec: { policyName: 'bad-param', validationActions: ['Deny'], paramRef: { name: 'x', parameterNotFoundAction: 'Allow' } } });
  const e = await refusal(attrs());
  assert.equal(e?.status.message, `gadgets.example.com "g1" is forbidden: ValidatingAdmissionPolicy 'bad-param' denied request: failed to configure policy: failed to find resource referenced by paramKind: 'example.com/v1, Kind=Nothing'`);
  await put(policyKey('bad-param'), { metadata: { name: 'bad-param', resourceVersion: '2' }, spec: spec('Ignore') });
  assert.equal(await refusal(attrs()), undefined);
  await del(bindingKey('bad-param'));
  await del(policyKey('bad-param'));
});

test('a namespaced paramKind on a cluster-scoped request is a binding configuration error', async () => {
  await put(policyKey('ns-param'), {
    metadata: { name: 'ns-param', resourceVersion: '1' },
    spec: {
      paramKind: { apiVersion: 'v1', kind: 'ConfigMap' },
      matchConstraints: { resourceRules: [{ apiGroups: ['*'], apiVersions: ['*'], operations: ['*'], resources: ['*'] }] },
      validations: [{ expression: 'true' }],
    },
  });
  await put(bindingKey('ns-param'), { metadata: { name: 'ns-param' }, spec: { policyName: 'ns-param', validationActions: ['Deny'], paramRef: { name: 'x', parameterNotFoundAction: 'Allow' } } });
  const e = await refusal(attrs({ namespace: '', resource: { group: '', version: 'v1', resource: 'nodes' }, kind: { group: '', version: 'v1', kind: 'Node' }, name: 'n1', object: { metadata: { name: 'n1' } } }));
  assert.equal(e?.status.message, `nodes "n1" is forbidden: ValidatingAdmissionPolicy 'ns-param' with binding 'ns-param' denied request: failed to configure binding: cannot use namespaced paramRef in policy binding that matches cluster-scoped resources`);
  await del(bindingKey('ns-param'));
  await del(policyKey('ns-param'));
});

test('Audit and auditAnnotations reach the request sink; Warn adds a warning', async () => {
  await put(policyKey('audited'), {
    metadata: { name: 'audited', resourceVersion: '1' },
    spec: {
      matchConstraints: { resourceRules: [{ apiGroups: ['example.com'], apiVersions: ['*'], operations: ['CREATE'], resources: ['gadgets'] }] },
      validations: [{ expression: 'object.spec.size < 2', message: 'too big' }],
      auditAnnotations: [{ key: 'size', valueExpression: 'string(object.spec.size)' }],
    },
  });
  await put(bindingKey('audited'), { metadata: { name: 'audited' }, spec: { policyName: 'audited', validationActions: ['Audit', 'Warn'] } });
  const sink = new Map<string, string>();
  const a = attrs();
  await withAuditAnnotations(sink, () => plugin.validate!(a));
  assert.deepEqual(Object.fromEntries(sink), {
    'audited/size': '3',
    'validation.policy.admission.k8s.io/validation_failure': JSON.stringify([{ message: 'too big', policy: 'audited', binding: 'audited', expressionIndex: 0, validationActions: ['Audit', 'Warn'] }]),
  });
  assert.deepEqual(a.warnings, ["Validation failed for ValidatingAdmissionPolicy 'audited' with binding 'audited': too big"]);
  await del(bindingKey('audited'));
  await del(policyKey('audited'));
  assert.equal(await refusal(attrs()), undefined);
});
