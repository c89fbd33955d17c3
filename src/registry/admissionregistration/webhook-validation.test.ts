import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { aggregateString, nameIsDNSSubdomain, type FieldError } from '../../apimachinery/index.ts';
import { validateObjectMetaWith } from '../objectmeta-checks.ts';
import type { Obj } from '../rest.ts';
import { validateMutatingWebhookConfiguration, validateValidatingWebhookConfiguration } from './webhook-validation.ts';
import { admissionPolicyDefaults } from './defaults.ts';

interface Case {
  kind: string;
  name: string;
  object: Obj;
  oldObject?: Obj;
  expectedError: string;
}
const vectors = JSON.parse(readFileSync(new URL('../../../testdata/k8s/admissionregistration/webhook-validation.json', import.meta.url), 'utf8')) as {
  count: number;
  cases: Case[];
  skipped: { kind: string; name: string; reason: string }[];
};

const validators: Record<string, (obj: Obj, old?: Obj) => FieldError[]> = {
  ValidatingWebhookConfiguration: (o, old) => [...validateObjectMetaWith(o, false, nameIsDNSSubdomain), ...validateValidatingWebhookConfiguration(o, old)],
  MutatingWebhookConfiguration: (o, old) => [...validateObjectMetaWith(o, false, nameIsDNSSubdomain), ...validateMutatingWebhookConfiguration(o, old)],
};

test('webhook configuration validation (upstream validation_test.go vectors)', () => {
  assert.ok(vectors.cases.length >= 120, `only ${vectors.cases.length} cases`);
  assert.equal(vectors.count, vectors.cases.length);
  const failures: string[] = [];
  for (const c of vectors.cases) {
    const validate = validators[c.kind];
    assert.ok(validate, `no validator for ${c.kind}`);
    const errs = validate(structuredClone(c.object), c.oldObject && structuredClone(c.oldObject));
    const got = errs.length === 0 ? '' : aggregateString(errs);
    const ok = c.expectedError === '' ? errs.length === 0 : got.includes(c.expectedError);
    if (!ok) failures.push(`${c.kind} "${c.name}":\n  want ${JSON.stringify(c.expectedError)}\n  got  ${JSON.stringify(got)}`);
  }
  for (const s of vectors.skipped) assert.ok(s.reason.length > 0, `${s.kind} "${s.name}" is skipped without a reason`);
  console.log(`webhook configuration validation: ${vectors.cases.length - failures.length} passed, ${failures.length} failed, ${vectors.skipped.length} skipped`);
  assert.deepEqual(failures, []);
});

test('webhook defaults: failurePolicy, matchPolicy, selectors, timeout, reinvocation, rule scope, service port', () => {
  const hook = () => ({ name: 'a.b.c', clientConfig: { service: { namespace: 'ns', name: 'svc' } }, rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'] }] });
  const m: Obj = { webhooks: [hook()] };
  admissionPolicyDefaults('admissionregistration.k8s.io', 'mutatingwebhookconfigurations')!(m);
  assert.deepEqual(m.webhooks, [
    {
      ...hook(),
      clientConfig: { service: { namespace: 'ns', name: 'svc', port: 443 } },
      rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'], scope: '*' }],
      failurePolicy: 'Fail',
      matchPolicy: 'Equivalent',
      namespaceSelector: {},
      objectSelector: {},
      timeoutSeconds: 10,
      reinvocationPolicy: 'Never',
    },
  ]);
  const v: Obj = { webhooks: [{ ...hook(), failurePolicy: 'Ignore', timeoutSeconds: 3 }] };
  admissionPolicyDefaults('admissionregistration.k8s.io', 'validatingwebhookconfigurations')!(v);
  const w = (v.webhooks as Obj[])[0]!;
  assert.equal(w.failurePolicy, 'Ignore');
  assert.equal(w.timeoutSeconds, 3);
  assert.equal(w.reinvocationPolicy, undefined, 'validating webhooks have no reinvocationPolicy');
  // sideEffects and admissionReviewVersions have no v1 default: they are required.
  assert.equal(w.sideEffects, undefined);
  assert.equal(w.admissionReviewVersions, undefined);
});
