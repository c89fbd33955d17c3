/**
 * ValidatingAdmissionPolicy type checking: upstream's typechecking_test.go tables as data
 * (testdata/k8s/admission-typechecking), then the served kinds' schemas — a built-in kind with its
 * ObjectMeta, a CRD version, a ConfigMap param — the limit on the kinds one rule contributes, and
 * the status the controller derives from the warnings.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { newStructural, type JSONSchemaProps } from '../../schema/index.ts';
import type { Obj } from '../rest.ts';
import { desiredPolicyStatus } from './status-controller.ts';
import { MAX_TYPES_TO_CHECK, admissionPolicyTypeChecker, gvkString, servedKindResolver, typeCheckPolicy, typesToCheck, type KindResolver } from './type-checker.ts';

const vectors = JSON.parse(readFileSync(new URL('../../../testdata/k8s/admission-typechecking/typechecking.json', import.meta.url), 'utf8')) as {
  extractTypeNames: { name: string; policy: Obj; expected: string[] }[];
  typeCheck: { name: string; policy: Obj; schema: JSONSchemaProps | null; expect: { length?: number; fieldRefs?: string[]; contains?: string } }[];
  skipped: { name: string; reason: string }[];
};

/** buildTypeChecker's REST mapper, and a resolver answering `schema` for every kind. */
function fakeResolver(schema: JSONSchemaProps | null): KindResolver {
  const mapped: Record<string, string> = { '/v1/pods': 'Pod', 'apps/v1/deployments': 'Deployment' };
  return {
    kindsFor: (group, version, resource) => {
      const kind = mapped[`${group}/${version}/${resource}`];
      return kind === undefined ? [] : [{ group, version, kind }];
    },
    schemaOf: () => (schema === null ? undefined : newStructural(schema)),
  };
}

test('the kinds a policy names (typechecking_test.go TestExtractTypeNames)', () => {
  assert.ok(vectors.extractTypeNames.length >= 6);
  for (const c of vectors.extractTypeNames) assert.deepEqual(typesToCheck(c.policy, fakeResolver(null)).map(gvkString), c.expected, c.name);
});

test('type-checking warnings (typechecking_test.go TestTypeCheck)', () => {
  assert.ok(vectors.typeCheck.length >= 17);
  for (const c of vectors.typeCheck) {
    const warnings = typeCheckPolicy(c.policy, fakeResolver(c.schema));
    const { length, fieldRefs, contains } = c.expect;
    if (length !== undefined) assert.equal(warnings.length, length, `${c.name}: ${JSON.stringify(warnings)}`);
    if (fieldRefs !== undefined) assert.deepEqual(warnings.map((w) => w.fieldRef), fieldRefs, c.name);
    if (contains !== undefined) {
      assert.ok(warnings.length > 0, c.name);
      for (const w of warnings) assert.ok(w.warning.includes(contains), `${c.name}: ${w.warning}`);
    }
  }
  console.log(`typechecking vectors: ${vectors.extractTypeNames.length + vectors.typeCheck.length} run, ${vectors.skipped.length} skipped`);
});

const policy = (rules: Obj[], validations: Obj[], extra: Obj = {}): Obj => ({
  apiVersion: 'admissionregistration.k8s.io/v1',
  kind: 'ValidatingAdmissionPolicy',
  metadata: { name: 'p', generation: 1 },
  spec: { matchConstraints: { resourceRules: rules.map((r) => ({ operations: ['CREATE'], ...r })) }, validations, ...extra },
});
const deployments = { apiGroups: ['apps'], apiVersions: ['v1'], resources: ['deployments'] };

test('built-in kinds are checked against their OpenAPI schema, ObjectMeta included', () => {
  const warnings = typeCheckPolicy(
    policy([deployments], [
      { expression: "object.foo == 'bar'" },
      { expression: "object.spec.replicas > 1 && object.metadata.labels['app'] == 'x' && object.metadata.creationTimestamp < timestamp('2030-01-01T00:00:00Z')" },
      { expression: 'true', messageExpression: "object.spec.replicas + '!'" },
    ]),
    servedKindResolver([]),
  );
  assert.deepEqual(warnings, [
    { fieldRef: 'spec.validations[0].expression', warning: "apps/v1, Kind=Deployment: ERROR: <input>:1:7: undefined field 'foo'\n | object.foo == 'bar'\n | ......^\n" },
    {
      fieldRef: 'spec.validations[2].messageExpression',
      warning: "apps/v1, Kind=Deployment: ERROR: <input>:1:22: found no matching overload for '_+_' applied to '(int, string)'\n | object.spec.replicas + '!'\n | .....................^\n",
    },
  ]);
});

const crd: Obj = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'crontabs.stable.example.com' },
  spec: {
    group: 'stable.example.com',
    scope: 'Namespaced',
    names: { plural: 'crontabs', singular: 'crontab', kind: 'CronTab' },
    versions: [
      { name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { cronSpec: { type: 'string' }, replicas: { type: 'integer' } } } } } } },
      { name: 'v2', served: false, storage: false, schema: { openAPIV3Schema: { type: 'object' } } },
    ],
  },
};

test('custom resources are checked against their served versions, with params typed by their kind', () => {
  const r = servedKindResolver([crd]);
  assert.deepEqual(r.kindsFor('stable.example.com', 'v2', 'crontabs'), []);
  const rule = { apiGroups: ['stable.example.com'], apiVersions: ['v1', 'v2'], resources: ['crontabs'] };
  const warnings = typeCheckPolicy(
    policy(
      [rule],
      [
        { expression: "object.spec.cronSpec == params.data['cron'] && object.metadata.namespace != ''" },
        { expression: 'object.spec.replicas == params.data.max' },
        { expression: "object.spec.schedule == ''" },
      ],
      { paramKind: { apiVersion: 'v1', kind: 'ConfigMap' } },
    ),
    r,
  );
  assert.deepEqual(
    warnings.map((w) => [w.fieldRef, w.warning.split('\n')[0]]),
    [
      ['spec.validations[1].expression', "stable.example.com/v1, Kind=CronTab: ERROR: <input>:1:22: found no matching overload for '_==_' applied to '(int, string)'"],
      ['spec.validations[2].expression', "stable.example.com/v1, Kind=CronTab: ERROR: <input>:1:12: undefined field 'schedule'"],
    ],
  );
});

test('one rule contributes at most 10 kinds; wildcards and subresources are not checked', () => {
  const resources = ['configmaps', 'endpoints', 'events', 'limitranges', 'namespaces', 'nodes', 'persistentvolumeclaims', 'persistentvolumes', 'pods', 'replicationcontrollers', 'secrets', 'services'];
  const kinds = typesToCheck(policy([{ apiGroups: [''], apiVersions: ['v1'], resources }], []), servedKindResolver([]));
  assert.equal(kinds.length, MAX_TYPES_TO_CHECK);
  assert.ok(!kinds.some((k) => k.kind === 'Service' || k.kind === 'Secret'), 'the last resources in sorted order are left out');
  assert.deepEqual(typesToCheck(policy([{ apiGroups: ['*'], apiVersions: ['v1'], resources: ['pods'] }, { apiGroups: [''], apiVersions: ['v1'], resources: ['pods/status'] }], []), servedKindResolver([])), []);
});

test('the status controller records the warnings, and an empty typeChecking when there are none', async () => {
  const checker = admissionPolicyTypeChecker(async () => [crd]);
  const bad = await desiredPolicyStatus(policy([deployments], [{ expression: 'object.nope' }]), checker);
  assert.equal(bad.observedGeneration, 1);
  const tc = bad.typeChecking as { expressionWarnings: { fieldRef: string; warning: string }[] };
  assert.equal(tc.expressionWarnings.length, 1);
  assert.match(tc.expressionWarnings[0]!.warning, /^apps\/v1, Kind=Deployment: ERROR: <input>:1:7: undefined field 'nope'/);
  assert.deepEqual((await desiredPolicyStatus(policy([deployments], [{ expression: 'object.spec.replicas > 0' }]), checker)).typeChecking, {});
});
