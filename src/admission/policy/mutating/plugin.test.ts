/**
 * The MutatingAdmissionPolicy plugin over a real store: reinvocation (IfNeeded runs again after a
 * later policy changed the object, Never does not), a ConfigMap param, a custom resource merged
 * with its CRD's schema and defaulted again after the mutation, failurePolicy Fail and Ignore, and
 * a policy change taking effect.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { StatusError } from '../../../apimachinery/index.ts';
import { resourcePrefix, type AdmissionAttributes, type Obj } from '../../../registry/index.ts';
import { openTempStore, type TempStore } from '../../../registry/testing.ts';
import { createAttributes, putDefaultNamespace, settle, storedObjects } from '../../testing.ts';
import { mutatingAdmissionPolicy, type MutatingAdmissionPolicyPlugin } from './plugin.ts';

let t: TempStore;
let plugin: MutatingAdmissionPolicyPlugin;
const G = 'admissionregistration.k8s.io';

const { put, del } = storedObjects(() => t.store);
const rules = [{ apiGroups: ['example.com'], apiVersions: ['v1'], operations: ['CREATE'], resources: ['gadgets'] }];

async function policy(name: string, spec: Obj, binding: Obj = {}): Promise<void> {
  await put(resourcePrefix(G, 'mutatingadmissionpolicies') + name, { metadata: { name }, spec: { matchConstraints: { resourceRules: rules }, ...spec } });
  await put(resourcePrefix(G, 'mutatingadmissionpolicybindings') + name, { metadata: { name }, spec: { policyName: name, ...binding } });
}
async function remove(name: string): Promise<void> {
  await del(resourcePrefix(G, 'mutatingadmissionpolicies') + name);
  await del(resourcePrefix(G, 'mutatingadmissionpolicybindings') + name);
}
const applyConfig = (expression: string) => ({ patchType: 'ApplyConfiguration', applyConfiguration: { expression } });
const jsonPatch = (expression: string) => ({ patchType: 'JSONPatch', jsonPatch: { expression } });

function attrs(spec: Obj = { size: 3 }): AdmissionAttributes {
  return createAttributes({
    resource: { group: 'example.com', version: 'v1', resource: 'gadgets' },
    kind: { group: 'example.com', version: 'v1', kind: 'Gadget' },
    name: 'g1',
    object: { apiVersion: 'example.com/v1', kind: 'Gadget', metadata: { name: 'g1', namespace: 'default' }, spec },
  });
}

async function admitted(a = attrs()): Promise<Obj> {
  await plugin.admit!(a);
  return a.object!;
}

before(async () => {
  t = await openTempStore();
  await putDefaultNamespace({ put, del });
  await put(resourcePrefix('apiextensions.k8s.io', 'customresourcedefinitions') + 'gadgets.example.com', {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'gadgets.example.com' },
    spec: {
      group: 'example.com',
      scope: 'Namespaced',
      names: { plural: 'gadgets', kind: 'Gadget' },
      versions: [
        {
          name: 'v1',
          served: true,
          storage: true,
          schema: {
            openAPIV3Schema: {
              type: 'object',
              properties: {
                spec: {
                  type: 'object',
                  properties: {
                    size: { type: 'integer' },
                    color: { type: 'string' },
                    extra: { type: 'object', properties: { shade: { type: 'string', default: 'light' }, tone: { type: 'string' } } },
                    ports: { type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['name'], items: { type: 'object', required: ['name'], properties: { name: { type: 'string' }, port: { type: 'integer' } } } },
                    tags: { type: 'array', items: { type: 'string' } },
                  },
                },
              },
            },
          },
        },
      ],
    },
  });
  await put(resourcePrefix('', 'configmaps') + 'default/colors', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'colors', namespace: 'default' }, data: { color: 'blue' } });
  plugin = mutatingAdmissionPolicy(t.store);
  await plugin.synced;
});
after(async () => {
  plugin.stop();
  await t.close();
});

test('a custom resource: listType=map merged by key, defaults applied after the mutation, atomic lists refused', async () => {
  await policy('ports', { mutations: [applyConfig(`Object{spec: Object.spec{ports: [Object.spec.ports{name: "b", port: 2}], extra: Object.spec.extra{tone: "dark"}}}`)] });
  await settle();
  const o = await admitted(attrs({ size: 1, ports: [{ name: 'a', port: 1 }] }));
  assert.deepEqual(o.spec, { size: 1, ports: [{ name: 'a', port: 1 }, { name: 'b', port: 2 }], extra: { tone: 'dark', shade: 'light' } });
  await remove('ports');
  await policy('tags', { mutations: [applyConfig(`Object{spec: Object.spec{tags: ["x"]}}`)] });
  await settle();
  await assert.rejects(admitted(), (e: unknown) => {
    assert.ok(e instanceof StatusError);
    assert.equal(e.status.code, 422);
    assert.equal(e.status.details?.causes?.[0]?.message, "policy 'tags' with binding 'tags' denied request: error applying patch: invalid ApplyConfiguration: may not mutate atomic arrays, maps or structs: .spec.tags");
    return true;
  });
  // Under Ignore the error is skipped and the object admitted unchanged.
  await policy('tags', { failurePolicy: 'Ignore', mutations: [applyConfig(`Object{spec: Object.spec{tags: ["x"]}}`)] });
  await settle();
  assert.deepEqual((await admitted()).spec, { size: 3 });
  await remove('tags');
});

test('reinvocation: IfNeeded runs again after a later policy changed the object; Never does not', async () => {
  // "a-copy" copies the color into a label; "b-color" (after it, by name) sets the color.
  const copy = (reinvocationPolicy: string) => ({
    reinvocationPolicy,
    mutations: [applyConfig(`Object{metadata: Object.metadata{labels: {"color": has(object.spec.color) ? object.spec.color : "none"}}}`)],
  });
  await policy('b-color', { mutations: [applyConfig(`Object{spec: Object.spec{color: "red"}}`)] });
  await policy('a-copy', copy('Never'));
  await settle();
  let o = await admitted();
  assert.deepEqual([(o.metadata as Obj).labels, (o.spec as Obj).color], [{ color: 'none' }, 'red']);
  await policy('a-copy', copy('IfNeeded'));
  await settle();
  o = await admitted();
  assert.deepEqual([(o.metadata as Obj).labels, (o.spec as Obj).color], [{ color: 'red' }, 'red']);
  await remove('a-copy');
  await remove('b-color');
});

test('params: one mutation per param, from a ConfigMap', async () => {
  await policy(
    'param',
    { paramKind: { apiVersion: 'v1', kind: 'ConfigMap' }, mutations: [jsonPatch(`[JSONPatch{op: "add", path: "/spec/color", value: params.data.color}]`)] },
    { paramRef: { name: 'colors', parameterNotFoundAction: 'Deny' } },
  );
  await settle();
  assert.equal(((await admitted()).spec as Obj).color, 'blue');
  await remove('param');
});

test('a policy change takes effect; matchConditions select', async () => {
  await policy('sized', { matchConditions: [{ name: 'big', expression: 'object.spec.size > 2' }], mutations: [jsonPatch(`[JSONPatch{op: "replace", path: "/spec/size", value: 2}]`)] });
  await settle();
  assert.equal(((await admitted()).spec as Obj).size, 2);
  assert.equal(((await admitted(attrs({ size: 1 }))).spec as Obj).size, 1);
  await policy('sized', { mutations: [jsonPatch(`[JSONPatch{op: "replace", path: "/spec/size", value: 9}]`)] });
  await settle();
  assert.equal(((await admitted()).spec as Obj).size, 9);
  await remove('sized');
});
