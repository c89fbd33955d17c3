/**
 * Node affinity in a pod spec (validateNodeAffinity): the required selector's label values are
 * checked unless the stored spec already had bad ones, preferred terms' label values never, and
 * field expressions (matchFields) always, with upstream's paths and messages.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Path, errorString } from '../../../apimachinery/index.ts';
import { podUpdateValidation, validateAffinity } from './scheduling.ts';
import { servedPodValidation } from './values.ts';

const path = Path.of('spec').child('affinity');
const texts = (affinity: unknown, opts = servedPodValidation) => validateAffinity(affinity, path, opts).map(errorString);
const labelValueMsg =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";

const required = (term: unknown) => ({ nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [term] } } });
const preferred = (term: unknown, weight = 10) => ({ nodeAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [{ weight, preference: term }] } });
const badValue = { matchExpressions: [{ key: 'zone', operator: 'In', values: ['-bad-'] }] };
const reqPath = 'spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0]';

test('a required term with an invalid label value is refused; the same in a preferred term is allowed', () => {
  assert.deepEqual(texts(required(badValue)), [`${reqPath}.matchExpressions[0].values[0]: Invalid value: "-bad-": ${labelValueMsg}`]);
  assert.deepEqual(texts(preferred(badValue)), []);
});

test('an update keeps an invalid label value the stored spec already had', () => {
  const oldSpec = { affinity: required(badValue) };
  const opts = podUpdateValidation(servedPodValidation, oldSpec);
  assert.equal(opts.allowInvalidLabelValueInRequiredNodeAffinity, true);
  assert.deepEqual(texts(required(badValue), opts), []);
  // A stored spec without bad values gives no such allowance.
  assert.equal(podUpdateValidation(servedPodValidation, { affinity: required({ matchExpressions: [{ key: 'zone', operator: 'Exists' }] }) }), servedPodValidation);
});

test('field expressions name metadata.name only, with In or NotIn and one node name, in required and preferred terms', () => {
  const fields = { matchFields: [
    { key: 'metadata.namespace', operator: 'In', values: ['a'] },
    { key: 'metadata.name', operator: 'Exists' },
    { key: 'metadata.name', operator: 'In', values: ['a', 'b'] },
    { key: 'metadata.name', operator: 'NotIn', values: ['Not_A_Node'] },
  ] };
  const want = (p: string) => [
    `${p}.matchFields[0].key: Invalid value: "metadata.namespace": not a valid field selector key`,
    `${p}.matchFields[1].operator: Invalid value: "Exists": not a valid selector operator`,
    `${p}.matchFields[2].values: Required value: must be only one value when \`operator\` is 'In' or 'NotIn' for node field selector`,
    `${p}.matchFields[3].values[0]: Invalid value: "Not_A_Node": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`,
  ];
  assert.deepEqual(texts(required(fields)), want(reqPath));
  assert.deepEqual(texts(preferred(fields)), want('spec.affinity.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].preference'));
});

test('a required selector needs a term; a preferred term its weight in 1-100', () => {
  assert.deepEqual(texts({ nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [] } } }), [
    'spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms: Required value: must have at least one node selector term',
  ]);
  assert.deepEqual(texts(preferred({}, 0)), ['spec.affinity.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].weight: Invalid value: 0: must be in the range 1-100']);
});
