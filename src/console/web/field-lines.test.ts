/** Status causes located in the edited YAML: each field path at the line of its node. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fieldPathSegments, locateStatus } from './field-lines.ts';

const yaml = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  labels:
    app.kubernetes.io/name: web
spec:
  replicas: -1
  template:
    spec:
      containers:
      - name: a
        image: ""
`;

test('field paths split into keys and indices, bracketed keys kept whole', () => {
  assert.deepEqual(fieldPathSegments('spec.template.spec.containers[0].image'), ['spec', 'template', 'spec', 'containers', 0, 'image']);
  assert.deepEqual(fieldPathSegments('metadata.labels[app.kubernetes.io/name]'), ['metadata', 'labels', 'app.kubernetes.io/name']);
});

test('each cause is placed at its field\'s line, or its nearest existing ancestor\'s', () => {
  const located = locateStatus(yaml, {
    message: 'Deployment.apps "web" is invalid',
    details: {
      causes: [
        { field: 'spec.replicas', message: 'Invalid value: -1: must be greater than or equal to 0' },
        { field: 'spec.template.spec.containers[0].image', message: 'Required value' },
        { field: 'metadata.labels[app.kubernetes.io/name]', message: 'Invalid value' },
        { field: 'spec.template.spec.volumes[0]', message: 'missing' },
      ],
    },
  });
  // A missing volumes list: its parent, the pod spec's map, which begins at `containers:`.
  assert.deepEqual(
    located.map((l) => l.line),
    [8, 13, 6, 11],
  );
  assert.equal(located[0]!.message, 'spec.replicas: Invalid value: -1: must be greater than or equal to 0');
});

test('a decode error without causes is placed at the line it names', () => {
  assert.deepEqual(locateStatus('a: 1\nb: [\n', { message: 'error converting YAML to JSON: yaml: line 3: did not find expected node content' }), [
    { message: 'error converting YAML to JSON: yaml: line 3: did not find expected node content', line: 3 },
  ]);
  assert.equal(locateStatus(yaml, { message: 'conflict' })[0]!.line, 1);
});
