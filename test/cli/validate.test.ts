/**
 * `crd-apiserver validate` end to end: the real CLI process, real CRDs (Gateway API, cert-manager)
 * and manifests written to a temp dir; exit codes, `file:line:column` output and the Status JSON.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCLI } from '../lib/cli.ts';

const root = new URL('../..', import.meta.url).pathname;
const gatewayCRDs = join(root, 'testdata/crds/gateway-api/crds');

const validate = (...args: string[]) => runCLI('validate', ...args);

const dir = mkdtempSync(join(tmpdir(), 'validate-'));
const crdFile = join(dir, 'crd.yaml');
writeFileSync(
  crdFile,
  `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: crontabs.stable.example.com
spec:
  group: stable.example.com
  scope: Namespaced
  names: {plural: crontabs, singular: crontab, kind: CronTab}
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
              cronSpec: {type: string}
              replicas: {type: integer, minimum: 1, maximum: 10}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: not-a-crd}
`,
);

test('valid manifests exit 0 and say so', () => {
  const f = join(dir, 'good.yaml');
  writeFileSync(f, 'apiVersion: stable.example.com/v1\nkind: CronTab\nmetadata:\n  name: ok\nspec:\n  replicas: 3\n');
  const r = validate('--crds', crdFile, f);
  assert.equal(r.code, 0, r.stdout + r.stderr);
  assert.match(r.stdout, /1 documents: 1 valid, 0 invalid/);
  assert.match(r.stderr, /note: skipping .*crd\.yaml \(document 2\): not an apiextensions\.k8s\.io\/v1 CustomResourceDefinition \(v1 ConfigMap\)/);
});

test('invalid fields are reported with file:line:column and the Kubernetes message, exit 1', () => {
  const f = join(dir, 'bad.yaml');
  writeFileSync(f, 'apiVersion: stable.example.com/v1\nkind: CronTab\nmetadata:\n  name: x\nspec:\n  replicas: 20\n');
  const r = validate('--crds', crdFile, f);
  assert.equal(r.code, 1);
  assert.ok(
    r.stdout.includes(`${f}:6:13: spec.replicas: Invalid value: 20: spec.replicas in body should be less than or equal to 10`),
    r.stdout,
  );
  assert.ok(r.stdout.includes(`CronTab.stable.example.com "x" is invalid: spec.replicas: Invalid value: 20`), r.stdout);
});

test('--output json prints the Status kube-apiserver would return, per document', () => {
  const f = join(dir, 'multi.yaml');
  writeFileSync(
    f,
    'apiVersion: stable.example.com/v1\nkind: CronTab\nmetadata: {name: a}\nspec: {replicas: 1}\n---\n' +
      'apiVersion: stable.example.com/v1\nkind: CronTab\nmetadata: {name: b}\nspec: {replicas: 0, bogus: true}\n',
  );
  const r = validate('--crds', crdFile, '--output', 'json', f);
  assert.equal(r.code, 1);
  const lines = r.stdout.trim().split('\n').map((l) => JSON.parse(l));
  assert.equal(lines.length, 2);
  assert.deepEqual(lines[0].status, { status: 'Success' });
  assert.equal(lines[1].status.code, 400);
  assert.equal(lines[1].status.reason, 'BadRequest');
  assert.equal(
    lines[1].status.message,
    'CronTab in version "v1" cannot be handled as a CronTab: strict decoding error: unknown field "spec.bogus"',
  );
});

test('a kind no CRD defines is an error, never a silent pass', () => {
  const f = join(dir, 'unknown.yaml');
  writeFileSync(f, 'apiVersion: other.example.com/v1\nkind: Widget\nmetadata: {name: w}\n');
  const r = validate('--crds', crdFile, f);
  assert.equal(r.code, 1);
  assert.match(r.stdout, /Widget\/w: no CRD given with --crds serves kind "Widget" in version "other.example.com\/v1"/);
});

test('unusable input exits 2 with a clear message', () => {
  const bad = join(dir, 'broken.yaml');
  writeFileSync(bad, 'a: [1, 2\n');
  let r = validate('--crds', crdFile, bad);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /broken\.yaml:2:1: error converting YAML to JSON: yaml: line 2: /);
  r = validate('--crds', crdFile, join(dir, 'missing.yaml'));
  assert.equal(r.code, 2);
  assert.match(r.stderr, /cannot read .*missing\.yaml: no such file or directory/);
  r = validate('--crds', crdFile);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /no manifests given/);
});

test('an invalid CRD is unusable input, reported with the API server message', () => {
  const f = join(dir, 'badcrd.yaml');
  writeFileSync(
    f,
    'apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata: {name: wrong.example.com}\n' +
      'spec: {group: example.com, scope: Namespaced, names: {plural: things, kind: Thing}, versions: [{name: v1, served: true, storage: true, schema: {openAPIV3Schema: {type: object}}}]}\n',
  );
  const r = validate('--crds', f, join(dir, 'good.yaml'));
  assert.equal(r.code, 2);
  assert.match(r.stderr, /metadata\.name: Invalid value: "wrong\.example\.com": must be spec\.names\.plural\+"\."\+spec\.group/);
});

test('directories are read recursively; Gateway API examples validate against the Gateway API CRDs', () => {
  const sub = join(dir, 'tree', 'nested');
  mkdirSync(sub, { recursive: true });
  writeFileSync(
    join(sub, 'route.yaml'),
    'apiVersion: gateway.networking.k8s.io/v1beta1\nkind: HTTPRoute\nmetadata: {name: r}\nspec:\n  parentRefs: [{name: gw}]\n  rules:\n  - backendRefs: [{name: svc, port: 8080}]\n',
  );
  const r = validate('--crds', gatewayCRDs, join(dir, 'tree'));
  assert.equal(r.code, 0, r.stdout + r.stderr);
  assert.match(r.stdout, /1 documents: 1 valid, 0 invalid/);
});

test('every Gateway API example under invalid/ is rejected offline, CEL rule messages included', () => {
  const r = validate('--crds', gatewayCRDs, join(root, 'testdata/crds/gateway-api/invalid'));
  assert.equal(r.code, 1);
  const m = /(\d+) documents: 0 valid, (\d+) invalid/.exec(r.stdout);
  assert.ok(m && m[1] === m[2] && Number(m[1]) >= 20, r.stdout);
  assert.match(r.stdout, /spec\.rules\[0\]: Invalid value: RequestRedirect filter must not be used together with backendRefs/);
});

test('--old judges a document as an update of its old object: transition rules run', () => {
  const crd = join(dir, 'widgets.yaml');
  writeFileSync(
    crd,
    `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.com}
spec:
  group: example.com
  scope: Namespaced
  names: {plural: widgets, kind: Widget}
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
              size: {type: integer, x-kubernetes-validations: [{rule: "self >= oldSelf", message: "size may not shrink"}]}
              mode: {type: string, x-kubernetes-validations: [{rule: "self == oldSelf", message: "mode is immutable", reason: FieldValueForbidden}]}
`,
  );
  const oldF = join(dir, 'widget-old.yaml');
  const newF = join(dir, 'widget-new.yaml');
  writeFileSync(oldF, 'apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w}\nspec: {size: 5, mode: a}\n');
  writeFileSync(newF, 'apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w}\nspec: {size: 3, mode: b}\n');
  // Without --old it is a create: transition rules do not apply.
  assert.equal(validate('--crds', crd, newF).code, 0);
  const r = validate('--crds', crd, '--old', oldF, '-o', 'json', newF);
  assert.equal(r.code, 1, r.stdout + r.stderr);
  const st = JSON.parse(r.stdout.trim()).status;
  assert.equal(st.code, 422);
  // Fields in the order of the JSON kubectl sends (sigs.k8s.io/yaml sorts keys).
  assert.equal(st.message, 'Widget.example.com "w" is invalid: [spec.mode: Forbidden: mode is immutable, spec.size: Invalid value: 3: size may not shrink]');
  assert.deepEqual(
    st.details.causes.map((c: { reason: string; field: string }) => `${c.reason} ${c.field}`),
    ['FieldValueForbidden spec.mode', 'FieldValueInvalid spec.size'],
  );
  // An unchanged object passes its own transition rules.
  assert.equal(validate('--crds', crd, '--old', oldF, oldF).code, 0);
});

test('scalars are read as kubectl reads them: `.`, `12:30` and `1:20:30` are strings, `0o17` an integer', () => {
  const f = join(dir, 'scalars.yaml');
  writeFileSync(f, 'apiVersion: stable.example.com/v1\nkind: CronTab\nmetadata: {name: s}\nspec:\n  cronSpec: 12:30\n  replicas: 0o7\n---\n' +
    'apiVersion: stable.example.com/v1\nkind: CronTab\nmetadata: {name: t}\nspec: {cronSpec: 1:20:30}\n---\n' +
    'apiVersion: stable.example.com/v1\nkind: CronTab\nmetadata: {name: u}\nspec: {cronSpec: .}\n');
  const r = validate('--crds', crdFile, f);
  assert.equal(r.code, 0, r.stdout + r.stderr);
  assert.match(r.stdout, /3 documents: 3 valid, 0 invalid/);
});

test('a multi-line quoted scalar closing at its parent\'s indentation is read, as kubectl reads it', () => {
  const f = join(dir, 'quoted.yaml');
  writeFileSync(f, 'apiVersion: stable.example.com/v1\nkind: CronTab\nmetadata:\n  name: q\nspec:\n  cronSpec: "*/5 * * *\n  *"\n');
  const r = validate('--crds', crdFile, f);
  assert.equal(r.code, 0, r.stdout + r.stderr);
});

test('a duplicate key fails its own document with the Strict error the server gives; the others are judged', () => {
  const f = join(dir, 'dupkey.yaml');
  writeFileSync(f, 'apiVersion: stable.example.com/v1\nkind: CronTab\nmetadata: {name: a}\nspec: {replicas: 1}\n---\n' +
    'apiVersion: stable.example.com/v1\nkind: CronTab\nmetadata:\n  name: b\nspec:\n  replicas: 2\n  replicas: 3\n');
  const r = validate('--crds', crdFile, '-o', 'json', f);
  assert.equal(r.code, 1, r.stdout + r.stderr);
  const lines = r.stdout.trim().split('\n').map((l) => JSON.parse(l));
  assert.deepEqual(lines.map((l) => l.document), [1, 2]);
  assert.deepEqual(lines[0].status, { status: 'Success' });
  assert.equal(lines[1].status.code, 400);
  assert.equal(
    lines[1].status.message,
    'CronTab in version "v1" cannot be handled as a CronTab: strict decoding error: yaml: unmarshal errors:\n  line 7: key "replicas" already set in map',
  );
  const text = validate('--crds', crdFile, f);
  assert.ok(text.stdout.includes(`  ${f}:12:13: key "replicas" already set in map`), text.stdout);
});

test('an unreadable file or document gets its own error, the rest are judged, and the exit status is 2', () => {
  const broken = join(dir, 'broken2.yaml');
  writeFileSync(broken, 'apiVersion: stable.example.com/v1\nkind: CronTab\nmetadata: {name: fine}\nspec: {replicas: 20}\n---\na: [1, 2\n---\n' +
    'apiVersion: stable.example.com/v1\nkind: CronTab\nmetadata: {name: deep}\nspec: {x: ' + '['.repeat(10001) + ']'.repeat(10001) + '}\n');
  const good = join(dir, 'good.yaml');
  const r = validate('--crds', crdFile, broken, join(dir, 'nope.yaml'), good);
  assert.equal(r.code, 2, r.stdout + r.stderr);
  assert.match(r.stdout, /2 documents: 1 valid, 1 invalid, 3 unreadable/);
  assert.ok(r.stdout.includes(`  ${broken}:4:18: spec.replicas: Invalid value: 20`), r.stdout);
  assert.match(r.stderr, /broken2\.yaml:7:1: error converting YAML to JSON: yaml: line 2: /);
  assert.match(r.stderr, /broken2\.yaml:11:10010: error converting YAML to JSON: yaml: line 4: exceeded max depth of 10000/);
  assert.match(r.stderr, /cannot read .*nope\.yaml: no such file or directory/);
  const j = validate('--crds', crdFile, '-o', 'json', broken);
  const docs = j.stdout.trim().split('\n').map((l) => JSON.parse(l));
  assert.deepEqual(docs.map((d) => [d.document, d.status.code ?? d.status.status]), [[1, 422], [2, 400], [3, 400]]);
  assert.equal(docs[2].status.message, 'error converting YAML to JSON: yaml: line 4: exceeded max depth of 10000');
  // A file that cannot be read at all gets its own line too (at the end: none of its documents was judged).
  const m = validate('--crds', crdFile, '-o', 'json', join(dir, 'nope.yaml'), good);
  assert.equal(m.code, 2, m.stdout + m.stderr);
  const lines = m.stdout.trim().split('\n').map((l) => JSON.parse(l));
  assert.deepEqual(lines.map((d) => [d.file, d.document, d.status.code ?? d.status.status]), [
    [good, 1, 'Success'], [join(dir, 'nope.yaml'), undefined, 400]]);
  assert.match(lines[1].status.message, /^cannot read .*nope\.yaml: no such file or directory$/);
});

test('a document holding only comments is a Success, as in kubectl-validate', () => {
  const f = join(dir, 'comments.yaml');
  writeFileSync(f, '# nothing here yet\n---\napiVersion: stable.example.com/v1\nkind: CronTab\nmetadata: {name: c}\n');
  const r = validate('--crds', crdFile, '-o', 'json', f);
  assert.equal(r.code, 0, r.stdout + r.stderr);
  const lines = r.stdout.trim().split('\n').map((l) => JSON.parse(l));
  assert.deepEqual(lines, [
    { file: f, document: 1, status: { status: 'Success' } },
    { file: f, document: 2, status: { status: 'Success' } },
  ]);
});
