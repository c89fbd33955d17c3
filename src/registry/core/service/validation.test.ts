/**
 * Kubernetes' Service validation tables as data (testdata/k8s-native/service/validation.json,
 * from validation_test.go): each case tweaks makeValidService and counts the errors
 * ValidateServiceCreate (with ObjectMeta, as the strategy runs it) or
 * validateServiceExternalTrafficPolicy reports. Plus the exact texts kubectl prints for a few.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { errorString, nameIsDNS1035Label } from '../../../apimachinery/index.ts';
import { validateObjectMetaWith } from '../../objectmeta-checks.ts';
import type { Obj } from '../../rest.ts';
import { applyTweaks, type Tweak } from './tweak.ts';
import { validateServiceCreate, validateServiceExternalTrafficPolicy, validateServiceStatusUpdate, validateServiceUpdate } from './validation.ts';

interface Case {
  name: string;
  tweak: Tweak[];
  numErrs: number;
}
const doc = JSON.parse(readFileSync(new URL('../../../../testdata/k8s-native/service/validation.json', import.meta.url), 'utf8')) as {
  base: Obj;
  create: Case[];
  externalTrafficPolicy: Case[];
};
const make = (c: Case) => applyTweaks(structuredClone(doc.base), c.tweak);
const validateCreate = (o: Obj) => [...validateObjectMetaWith(o, true, nameIsDNS1035Label), ...validateServiceCreate(o)];

test('TestValidateServiceCreate vectors', () => {
  assert.ok(doc.create.length >= 150, `only ${doc.create.length} cases`);
  const failed: string[] = [];
  for (const c of doc.create) {
    const errs = validateCreate(make(c));
    if (errs.length !== c.numErrs) failed.push(`${c.name}: want ${c.numErrs}, got ${errs.length}: ${errs.map(errorString).join('; ')}`);
  }
  assert.deepEqual(failed, []);
  console.log(`service create: ${doc.create.length} passed, 0 skipped`);
});

test('TestValidateServiceExternalTrafficPolicy vectors', () => {
  assert.ok(doc.externalTrafficPolicy.length >= 10);
  for (const c of doc.externalTrafficPolicy) {
    const errs = validateServiceExternalTrafficPolicy(make(c));
    assert.equal(errs.length, c.numErrs, `${c.name}: ${errs.map(errorString).join('; ')}`);
  }
});

test('messages as kube-apiserver prints them', () => {
  const svc = (tw: Tweak[]) => validateCreate(applyTweaks(structuredClone(doc.base), tw)).map(errorString);
  assert.deepEqual(svc([['push', 'spec.ports', { name: '', protocol: 'TCP', port: 8675, targetPort: 1 }]]), [
    'spec.ports[1].name: Required value',
    'spec.ports[1]: Duplicate value: {"Name":"","Protocol":"TCP","AppProtocol":null,"Port":8675,"TargetPort":0,"NodePort":0}',
  ]);
  assert.deepEqual(svc([['set', 'spec.clusterIP', '10.0.0.10'], ['set', 'spec.clusterIPs', ['10.0.0.1']]]), [
    'spec.clusterIPs: Invalid value: ["10.0.0.1"]: first value must match `clusterIP`',
  ]);
  assert.deepEqual(svc([['set', 'spec.type', 'Foo']]), ['spec.type: Unsupported value: "Foo": supported values: "ClusterIP", "ExternalName", "LoadBalancer", "NodePort"']);
  assert.deepEqual(svc([['set', 'spec.ports.0.nodePort', 30001]]), ["spec.ports[0].nodePort: Forbidden: may not be used when `type` is 'ClusterIP'"]);
  assert.deepEqual(svc([['set', 'spec.externalIPs', ['127.0.0.1']], ['set', 'spec.externalTrafficPolicy', 'Cluster']]), [
    'spec.externalIPs[0]: Invalid value: "127.0.0.1": may not be in the loopback range (127.0.0.0/8, ::1/128)',
  ]);
});

test('ValidateServiceUpdate: clusterIPs and ipFamilies may not change; ValidateServiceStatusUpdate: ingress only for LoadBalancers', () => {
  const old = applyTweaks(structuredClone(doc.base), [
    ['set', 'spec.clusterIP', '10.0.0.1'],
    ['set', 'spec.clusterIPs', ['10.0.0.1']],
    ['set', 'spec.ipFamilies', ['IPv4']],
    ['set', 'spec.ipFamilyPolicy', 'SingleStack'],
  ]);
  const changed = applyTweaks(structuredClone(old), [['set', 'spec.clusterIP', '10.0.0.2'], ['set', 'spec.clusterIPs', ['10.0.0.2']]]);
  assert.deepEqual(validateServiceUpdate(changed, old).map(errorString), ['spec.clusterIPs[0]: Invalid value: ["10.0.0.2"]: may not change once set']);
  const fam = applyTweaks(structuredClone(old), [['set', 'spec.ipFamilies', ['IPv6']], ['set', 'spec.clusterIP', '10.0.0.1']]);
  assert.deepEqual(validateServiceUpdate(fam, old).map(errorString), [
    'spec.ipFamilies[0]: Invalid value: ["IPv6"]: may not change once set',
    'spec.clusterIPs[0]: Invalid value: "10.0.0.1": expected an IPv6 value as indicated by `ipFamilies[0]`',
  ]);
  assert.deepEqual(validateServiceUpdate(structuredClone(old), old), []);
  const lb = applyTweaks(structuredClone(old), [['set', 'status', { loadBalancer: { ingress: [{ ip: '1.2.3.4' }] } }]]);
  assert.deepEqual(validateServiceStatusUpdate(lb, old).map(errorString), ["status.loadBalancer.ingress: Forbidden: may only be used when `spec.type` is 'LoadBalancer'"]);
  const lb2 = applyTweaks(structuredClone(lb), [['set', 'spec.type', 'LoadBalancer']]);
  assert.deepEqual(validateServiceStatusUpdate(lb2, old).map(errorString), ['status.loadBalancer.ingress[0].ipMode: Required value: must be specified when `ip` is set']);
});
