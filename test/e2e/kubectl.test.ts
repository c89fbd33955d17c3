/**
 * kubectl against a real server process: CRD registration, the custom-resource verbs kubectl
 * uses, and the exact lines it prints.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { crontabCRDYAML, kubectl, manifest, startServer, type ServerProcess } from './harness.ts';

let s: ServerProcess;

const ct = (name: string, extra = '') => `apiVersion: stable.example.com/v1
kind: CronTab
metadata:
  name: ${name}
  labels:
    app: demo
spec:
  cronSpec: "* * * * */5"
  image: my-awesome-cron-image
  replicas: 1
${extra}`;

before(async () => {
  s = await startServer();
  const crd = manifest(s, 'crd.yaml', crontabCRDYAML);
  const r = await kubectl(s, ['apply', '-f', crd]);
  assert.equal(r.stdout, 'customresourcedefinition.apiextensions.k8s.io/crontabs.stable.example.com created\n', r.stderr);
  const w = await kubectl(s, ['wait', '--for=condition=Established', 'crd/crontabs.stable.example.com', '--timeout=20s']);
  assert.equal(w.stdout, 'customresourcedefinition.apiextensions.k8s.io/crontabs.stable.example.com condition met\n', w.stderr);
});

after(async () => {
  const code = await s.stop();
  assert.equal(code, 0, s.output());
});

test('apply creates, leaves unchanged, then configures', async () => {
  const f = manifest(s, 'ct.yaml', ct('my-ct'));
  assert.equal((await kubectl(s, ['apply', '-f', f])).stdout, 'crontab.stable.example.com/my-ct created\n');
  assert.equal((await kubectl(s, ['apply', '-f', f])).stdout, 'crontab.stable.example.com/my-ct unchanged\n');
  const f2 = manifest(s, 'ct2.yaml', ct('my-ct').replace('replicas: 1', 'replicas: 2'));
  const r = await kubectl(s, ['apply', '-f', f2]);
  assert.equal(r.stdout, 'crontab.stable.example.com/my-ct configured\n', r.stderr);
  const dry = await kubectl(s, ['apply', '--dry-run=server', '-f', f]);
  assert.equal(dry.stdout, 'crontab.stable.example.com/my-ct configured (server dry run)\n', dry.stderr);
  const y = await kubectl(s, ['get', 'ct', 'my-ct', '-o', 'jsonpath={.spec.replicas}']);
  assert.equal(y.stdout, '2');
});

test('get prints the printer columns, wide adds priority-1 columns, labels select', async () => {
  const g = await kubectl(s, ['get', 'crontabs']);
  const lines = g.stdout.trimEnd().split('\n');
  assert.match(lines[0]!, /^NAME\s+SPEC\s+REPLICAS\s+AGE$/);
  assert.match(lines[1]!, /^my-ct\s+\* \* \* \* \*\/5\s+2\s+\d+s$/);
  const wide = await kubectl(s, ['get', 'ct', '-o', 'wide']);
  assert.match(wide.stdout.split('\n')[0]!, /^NAME\s+SPEC\s+REPLICAS\s+IMAGE\s+AGE$/);
  assert.match(wide.stdout, /my-awesome-cron-image/);
  const sel = await kubectl(s, ['get', 'ct', '-l', 'app=demo', '-o', 'name']);
  assert.equal(sel.stdout, 'crontab.stable.example.com/my-ct\n');
  const none = await kubectl(s, ['get', 'ct', '-l', 'app=nope']);
  assert.equal(none.stderr, 'No resources found in default namespace.\n');
  const yaml = await kubectl(s, ['get', 'ct', 'my-ct', '-o', 'yaml']);
  assert.match(yaml.stdout, /^apiVersion: stable.example.com\/v1\nkind: CronTab\n/);
  assert.match(yaml.stdout, /  cronSpec: '\* \* \* \* \*\/5'\n/);
  const all = await kubectl(s, ['get', 'ct', '-A']);
  assert.match(all.stdout.split('\n')[1]!, /^default\s+my-ct\s+/);
});

test('create, conflicts and not-found errors print as from a real cluster', async () => {
  const f = manifest(s, 'ct-a.yaml', ct('ct-a'));
  assert.equal((await kubectl(s, ['create', '-f', f])).stdout, 'crontab.stable.example.com/ct-a created\n');
  const again = await kubectl(s, ['create', '-f', f]);
  assert.equal(again.code, 1);
  assert.equal(again.stderr, `Error from server (AlreadyExists): error when creating "${f}": crontabs.stable.example.com "ct-a" already exists\n`);
  const nf = await kubectl(s, ['get', 'ct', 'nope']);
  assert.equal(nf.stderr, 'Error from server (NotFound): crontabs.stable.example.com "nope" not found\n');
  const del = await kubectl(s, ['delete', 'ct', 'nope']);
  assert.equal(del.stderr, 'Error from server (NotFound): crontabs.stable.example.com "nope" not found\n');
});

test('a kind no CRD defines: kubectl validates what it can and reports the missing mapping', async () => {
  // kubectl looks the group-version up in /openapi/v3, falls back to /openapi/v2 (protobuf) and,
  // finding no schema, goes on to map the kind, as against a real cluster.
  const f = manifest(s, 'foo.yaml', 'apiVersion: example.com/v1\nkind: Foo\nmetadata:\n  name: x\nspec: {}\n');
  for (const verb of ['apply', 'create']) {
    const r = await kubectl(s, [verb, '-f', f]);
    assert.equal(r.code, 1);
    assert.equal(
      r.stderr,
      `error: resource mapping not found for name: "x" namespace: "" from "${f}": no matches for kind "Foo" in version "example.com/v1"\nensure CRDs are installed first\n`,
    );
  }
});

test('a CRD with fields its types do not have: Strict refuses, Warn warns and drops them', async () => {
  const f = manifest(
    s,
    'typo-crd.yaml',
    `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: typos.example.com
spec:
  group: example.com
  names: {kind: Typo, plural: typos}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schemas: {}
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec: {type: object, requird: [a]}
`,
  );
  const strict = await kubectl(s, ['apply', '-f', f]);
  assert.equal(strict.code, 1);
  assert.equal(
    strict.stderr,
    `Error from server (BadRequest): error when creating "${f}": CustomResourceDefinition in version "v1" cannot be handled as a CustomResourceDefinition: strict decoding error: unknown field "spec.versions[0].schema.openAPIV3Schema.properties.spec.requird", unknown field "spec.versions[0].schemas"\n`,
  );
  const warn = await kubectl(s, ['apply', '--validate=warn', '-f', f]);
  assert.equal(warn.stdout, 'customresourcedefinition.apiextensions.k8s.io/typos.example.com created\n');
  assert.match(warn.stderr, /Warning: unknown field "spec.versions\[0\].schemas"/);
  const got = JSON.parse((await kubectl(s, ['get', 'crd', 'typos.example.com', '-o', 'json'])).stdout);
  assert.equal(got.spec.versions[0].schemas, undefined);
  assert.deepEqual(got.spec.versions[0].schema.openAPIV3Schema.properties.spec, { type: 'object' });
  assert.equal((await kubectl(s, ['delete', 'crd', 'typos.example.com'])).code, 0);
});

test('unknown fields: Strict refuses, Warn warns and prunes them', async () => {
  const bad = manifest(s, 'bad.yaml', ct('my-bad').replace('  replicas: 1', '  replicas: 1\n  bogusField: x'));
  const strict = await kubectl(s, ['apply', '-f', bad]);
  assert.equal(strict.code, 1);
  assert.equal(
    strict.stderr,
    `Error from server (BadRequest): error when creating "${bad}": CronTab in version "v1" cannot be handled as a CronTab: strict decoding error: unknown field "spec.bogusField"\n`,
  );
  const warn = await kubectl(s, ['apply', '--validate=warn', '-f', bad]);
  assert.equal(warn.stdout, 'crontab.stable.example.com/my-bad created\n');
  assert.match(warn.stderr, /Warning: unknown field "spec.bogusField"/);
  const g = await kubectl(s, ['get', 'ct', 'my-bad', '-o', 'jsonpath={.spec}']);
  assert.doesNotMatch(g.stdout, /bogusField/);
});

test('chunked lists page through every object', async () => {
  for (const n of ['c1', 'c2', 'c3']) await kubectl(s, ['create', '-f', manifest(s, `${n}.yaml`, ct(n))]);
  const r = await kubectl(s, ['get', 'ct', '--chunk-size=1', '-o', 'name']);
  const names = r.stdout.trim().split('\n');
  for (const n of ['c1', 'c2', 'c3', 'my-ct']) assert.ok(names.includes(`crontab.stable.example.com/${n}`), r.stdout);
});

test('patch (merge and json), replace and scale', async () => {
  const m = await kubectl(s, ['patch', 'ct', 'my-ct', '--type=merge', '-p', '{"spec":{"image":"merged"}}']);
  assert.equal(m.stdout, 'crontab.stable.example.com/my-ct patched\n', m.stderr);
  const j = await kubectl(s, ['patch', 'ct', 'my-ct', '--type=json', '-p', '[{"op":"replace","path":"/spec/image","value":"jsoned"}]']);
  assert.equal(j.stdout, 'crontab.stable.example.com/my-ct patched\n', j.stderr);
  const smp = await kubectl(s, ['patch', 'ct', 'my-ct', '-p', '{"spec":{"image":"x"}}']);
  assert.equal(smp.code, 1);
  assert.match(smp.stderr, /UnsupportedMediaType|the body of the request was in an unknown format/);
  const rep = await kubectl(s, ['replace', '-f', manifest(s, 'rep.yaml', ct('my-ct').replace('my-awesome-cron-image', 'replaced'))]);
  assert.equal(rep.stdout, 'crontab.stable.example.com/my-ct replaced\n', rep.stderr);
  const sc = await kubectl(s, ['scale', 'ct', 'my-ct', '--replicas=3']);
  assert.equal(sc.stdout, 'crontab.stable.example.com/my-ct scaled\n', sc.stderr);
  const g = await kubectl(s, ['get', 'ct', 'my-ct', '-o', 'jsonpath={.spec.image} {.spec.replicas}']);
  assert.equal(g.stdout, 'replaced 3');
});

test('delete waits for finalizers to be removed', async () => {
  await kubectl(s, ['create', '-f', manifest(s, 'fin.yaml', ct('fin', '').replace('  labels:', '  finalizers: [example.com/hold]\n  labels:'))]);
  const pending = kubectl(s, ['delete', 'ct', 'fin', '--timeout=30s']);
  // The object lingers, marked for deletion, while its finalizer is there.
  let marked = '';
  for (let i = 0; i < 150 && marked === ''; i++) {
    await new Promise((r) => setTimeout(r, 100));
    marked = (await kubectl(s, ['get', 'ct', 'fin', '-o', 'jsonpath={.metadata.deletionTimestamp}'])).stdout;
  }
  assert.notEqual(marked, '');
  const p = await kubectl(s, ['patch', 'ct', 'fin', '--type=merge', '-p', '{"metadata":{"finalizers":null}}']);
  assert.equal(p.stdout, 'crontab.stable.example.com/fin patched\n', p.stderr);
  const d = await pending;
  assert.equal(d.stdout, 'crontab.stable.example.com "fin" deleted\n', d.stderr);
  assert.equal((await kubectl(s, ['get', 'ct', 'fin'])).code, 1);
});

test('explain, api-resources and diff use discovery and OpenAPI', async () => {
  const e = await kubectl(s, ['explain', 'crontab.spec']);
  assert.match(e.stdout, /KIND:\s+CronTab/);
  assert.match(e.stdout, /cronSpec\s+<string>\n\s+The cron schedule\./);
  const ar = await kubectl(s, ['api-resources', '--api-group=stable.example.com']);
  assert.match(ar.stdout, /\ncrontabs\s+ct\s+stable\.example\.com\/v1\s+true\s+CronTab\n/);
  const d1 = manifest(s, 'd1.yaml', ct('d1'));
  assert.equal((await kubectl(s, ['apply', '-f', d1])).stdout, 'crontab.stable.example.com/d1 created\n');
  const unchanged = await kubectl(s, ['diff', '-f', d1]);
  assert.equal(unchanged.code, 0, unchanged.stdout + unchanged.stderr);
  const changed = await kubectl(s, ['diff', '-f', manifest(s, 'd1e.yaml', ct('d1').replace('replicas: 1', 'replicas: 7'))]);
  assert.equal(changed.code, 1, changed.stderr);
  assert.match(changed.stdout, /\n-  replicas: 1\n\+  replicas: 7\n/);
});

test('namespaces: create, list, and no writes into a missing namespace', async () => {
  const c = await kubectl(s, ['create', 'namespace', 'team-a']);
  assert.equal(c.stdout, 'namespace/team-a created\n', c.stderr);
  const g = await kubectl(s, ['get', 'ns']);
  assert.match(g.stdout, /^NAME\s+STATUS\s+AGE\n/);
  assert.match(g.stdout, /\ndefault\s+Active\s+\d+s\n/);
  assert.match(g.stdout, /\nteam-a\s+Active\s+\d+s\n/);
  const missing = await kubectl(s, ['create', '-n', 'nope', '-f', manifest(s, 'ns-ct.yaml', ct('x'))]);
  assert.equal(missing.stderr, `Error from server (NotFound): error when creating "${s.dir}/ns-ct.yaml": namespaces "nope" not found\n`);
  const can = await kubectl(s, ['auth', 'can-i', 'create', 'crontabs']);
  assert.equal(can.stdout, 'yes\n', can.stderr);
});

test('deleting a namespace removes its custom resources, then the namespace', async () => {
  assert.equal((await kubectl(s, ['create', 'namespace', 'doomed'])).stdout, 'namespace/doomed created\n');
  const f = manifest(s, 'doomed-ct.yaml', ct('inside'));
  assert.equal((await kubectl(s, ['create', '-n', 'doomed', '-f', f])).stdout, 'crontab.stable.example.com/inside created\n');
  const d = await kubectl(s, ['delete', 'namespace', 'doomed', '--timeout=20s']);
  assert.equal(d.stdout, 'namespace "doomed" deleted\n', d.stderr);
  const g = await kubectl(s, ['get', 'ns', 'doomed']);
  assert.equal(g.stderr, 'Error from server (NotFound): namespaces "doomed" not found\n');
  const left = await kubectl(s, ['get', 'ct', '-n', 'doomed', '-o', 'name']);
  assert.equal(left.stdout, '');
});

test('a terminating namespace refuses new content until its last object is gone', async () => {
  await kubectl(s, ['create', 'namespace', 'closing']);
  const held = manifest(s, 'held.yaml', ct('held').replace('  labels:', '  finalizers: [example.com/hold]\n  labels:'));
  await kubectl(s, ['create', '-n', 'closing', '-f', held]);
  const d = await kubectl(s, ['delete', 'namespace', 'closing', '--wait=false']);
  assert.equal(d.stdout, 'namespace "closing" deleted\n');
  const f = manifest(s, 'late.yaml', ct('late'));
  const refused = await kubectl(s, ['create', '-n', 'closing', '-f', f]);
  assert.equal(
    refused.stderr,
    `Error from server (Forbidden): error when creating "${f}": crontabs.stable.example.com "late" is forbidden: unable to create new content in namespace closing because it is being terminated\n`,
  );
  const ns = await kubectl(s, ['get', 'ns', 'closing', '-o', 'jsonpath={.status.phase}']);
  assert.equal(ns.stdout, 'Terminating');
  await kubectl(s, ['patch', '-n', 'closing', 'ct', 'held', '--type=merge', '-p', '{"metadata":{"finalizers":null}}']);
  const w = await kubectl(s, ['wait', '--for=delete', 'namespace/closing', '--timeout=20s']);
  assert.equal(w.code, 0, w.stderr);
});

test('kubectl 1.28 reads v2beta1 aggregated discovery', async () => {
  const r = await new Promise<{ stdout: string; stderr: string }>((resolve) => {
    execFile(
      '/usr/lib/google-cloud-sdk/bin/kubectl.1.28',
      ['--kubeconfig', s.kubeconfig, '--cache-dir', `${s.dir}/kube-cache-128`, 'get', 'crontabs', 'my-ct', '-o', 'name'],
      { env: { ...process.env, HOME: s.dir } },
      (_e, stdout, stderr) => resolve({ stdout, stderr }),
    );
  });
  assert.equal(r.stdout, 'crontab.stable.example.com/my-ct\n', r.stderr);
});

test('deleting the CRD removes its objects and its resource type', async () => {
  const d = await kubectl(s, ['delete', 'crd', 'crontabs.stable.example.com', '--timeout=30s']);
  assert.equal(d.stdout, 'customresourcedefinition.apiextensions.k8s.io "crontabs.stable.example.com" deleted\n', d.stderr);
  // api-resources refreshes kubectl's discovery cache; the type is gone from it.
  const ar = await kubectl(s, ['api-resources', '--api-group=stable.example.com', '--no-headers']);
  assert.equal(ar.stdout, '');
  const g = await kubectl(s, ['get', 'crontabs']);
  assert.equal(g.code, 1);
  assert.equal(g.stderr, 'error: the server doesn\'t have a resource type "crontabs"\n');
});
