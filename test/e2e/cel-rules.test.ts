/**
 * x-kubernetes-validations end to end through kubectl: rule failures on create and update print
 * Kubernetes' messages (message, messageExpression, reason, fieldPath, transition rules), and a CRD
 * whose rule does not compile, or costs too much, is refused when it is written.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { kubectl, manifest, startServer, type ServerProcess } from './harness.ts';

let s: ServerProcess;

const crd = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.com}
spec:
  group: example.com
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
            x-kubernetes-validations:
            - rule: "self.minReplicas <= self.maxReplicas"
              # string(int) has no size bound, so concatenating it would exceed the cost budget (as upstream).
              messageExpression: "self.minReplicas > 100 ? 'minReplicas is far too high' : 'minReplicas must not exceed maxReplicas'"
              fieldPath: ".minReplicas"
            - rule: "!has(self.owner) || self.owner.startsWith('team-')"
              message: "owner must name a team"
              reason: FieldValueForbidden
              fieldPath: ".owner"
            properties:
              minReplicas: {type: integer}
              maxReplicas: {type: integer}
              owner: {type: string}
              size:
                type: integer
                x-kubernetes-validations:
                - rule: "self >= oldSelf"
                  message: "size may not shrink"
`;

const widget = (name: string, spec: string) => `apiVersion: example.com/v1
kind: Widget
metadata: {name: ${name}}
spec: ${spec}
`;

before(async () => {
  s = await startServer();
  const r = await kubectl(s, ['apply', '-f', manifest(s, 'crd.yaml', crd)]);
  assert.equal(r.code, 0, r.stderr);
  const w = await kubectl(s, ['wait', '--for=condition=Established', 'crd/widgets.example.com', '--timeout=20s']);
  assert.equal(w.code, 0, w.stderr);
});

after(async () => {
  const code = await s.stop();
  assert.equal(code, 0, s.output());
});

test('a failing rule prints its messageExpression at its fieldPath', async () => {
  const r = await kubectl(s, ['create', '-f', manifest(s, 'a.yaml', widget('a', '{minReplicas: 5, maxReplicas: 2}'))]);
  assert.equal(r.code, 1);
  assert.equal(
    r.stderr,
    'The Widget "a" is invalid: spec.minReplicas: Invalid value: minReplicas must not exceed maxReplicas\n',
  );
});

test('reason FieldValueForbidden prints as Forbidden; several failures print as a list', async () => {
  const r = await kubectl(s, ['create', '-f', manifest(s, 'b.yaml', widget('b', '{minReplicas: 5, maxReplicas: 2, owner: bob}'))]);
  assert.equal(r.code, 1);
  assert.equal(
    r.stderr,
    'The Widget "b" is invalid: \n' +
      '* spec.minReplicas: Invalid value: minReplicas must not exceed maxReplicas\n' +
      '* spec.owner: Forbidden: owner must name a team\n',
  );
});

test('transition rules apply on update only', async () => {
  const f = manifest(s, 'c.yaml', widget('c', '{minReplicas: 1, maxReplicas: 2, size: 5}'));
  assert.equal((await kubectl(s, ['apply', '-f', f])).stdout, 'widget.example.com/c created\n');
  const shrunk = manifest(s, 'c2.yaml', widget('c', '{minReplicas: 1, maxReplicas: 2, size: 3}'));
  const r = await kubectl(s, ['apply', '-f', shrunk]);
  assert.equal(r.code, 1);
  assert.match(r.stderr, /The Widget "c" is invalid: spec\.size: Invalid value: 3: size may not shrink/);
  const grown = manifest(s, 'c3.yaml', widget('c', '{minReplicas: 1, maxReplicas: 2, size: 7}'));
  assert.equal((await kubectl(s, ['apply', '-f', grown])).stdout, 'widget.example.com/c configured\n');
});

test('a CRD whose rule does not compile is refused with the compiler message', async () => {
  const bad = crd.replace('widgets.example.com', 'gadgets.example.com').replace('plural: widgets, singular: widget, kind: Widget', 'plural: gadgets, singular: gadget, kind: Gadget').replace('self.owner.startsWith', 'self.ownr.startsWith');
  const r = await kubectl(s, ['create', '-f', manifest(s, 'bad-crd.yaml', bad)]);
  assert.equal(r.code, 1);
  assert.match(r.stderr, /The CustomResourceDefinition "gadgets\.example\.com" is invalid: spec\.validation\.openAPIV3Schema\.properties\[spec\]\.x-kubernetes-validations\[1\]\.rule: Invalid value: .*compilation failed: ERROR: <input>:1:\d+: undefined field 'ownr'/);
});

test('a CRD whose rule costs too much is refused with the cost message', async () => {
  const costly = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: costlies.example.com}
spec:
  group: example.com
  scope: Namespaced
  names: {plural: costlies, kind: Costly}
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
              items:
                type: array
                items: {type: string}
                x-kubernetes-validations:
                - rule: "self.all(x, self.all(y, x != y || x == y))"
`;
  const r = await kubectl(s, ['create', '-f', manifest(s, 'costly.yaml', costly)]);
  assert.equal(r.code, 1);
  assert.match(r.stderr, /x-kubernetes-validations\[0\]\.rule: Forbidden: estimated rule cost exceeds budget by factor of (more than 100x|[\d.]+x) \(try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared\)/);
});
