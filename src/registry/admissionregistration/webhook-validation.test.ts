/**
 * Webhook configuration validation (upstream's validation_test.go vectors) and the webhooks' v1
 * defaults.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Obj } from '../rest.ts';
import { validateMutatingWebhookConfiguration, validateValidatingWebhookConfiguration } from './webhook-validation.ts';
import { admissionPolicyDefaults } from './defaults.ts';
import { runValidationVectors, withObjectMeta } from './validation-vectors.ts';

test('webhook configuration validation (upstream validation_test.go vectors)', () => {
  runValidationVectors('webhook-validation.json', 'webhook configuration validation', 120, {
    ValidatingWebhookConfiguration: withObjectMeta(validateValidatingWebhookConfiguration),
    MutatingWebhookConfiguration: withObjectMeta(validateMutatingWebhookConfiguration),
  });
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
