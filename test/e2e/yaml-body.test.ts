/**
 * YAML request bodies through a real server process, against the YAML kubectl itself reads: the
 * same manifest applied with /usr/bin/kubectl (which converts it with the real sigs.k8s.io/yaml)
 * and posted as an `application/yaml` body must store the same object. Also what the server
 * answers for a YAML body's duplicate keys per fieldValidation, and for one nested too deeply.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { kubectl, startServer, type ServerProcess } from './harness.ts';

let s: ServerProcess;
const base = '/apis/yaml.example.com/v1/namespaces/default/things';

const crd = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'things.yaml.example.com' },
  spec: {
    group: 'yaml.example.com',
    scope: 'Namespaced',
    names: { plural: 'things', singular: 'thing', kind: 'Thing' },
    versions: [
      {
        name: 'v1',
        served: true,
        storage: true,
        schema: {
          openAPIV3Schema: {
            type: 'object',
            properties: {
              spec: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
              typed: { type: 'object', properties: { image: { type: 'string' }, replicas: { type: 'integer' } } },
            },
          },
        },
      },
    ],
  },
};

async function call(method: string, path: string, body?: string, contentType = 'application/yaml') {
  const res = await s.fetch(s.url + path, { method, body, headers: body === undefined ? {} : { 'Content-Type': contentType } });
  const text = await res.text();
  return { status: res.status, warning: res.headers.get('warning'), json: text ? JSON.parse(text) : undefined };
}

before(async () => {
  s = await startServer();
  const r = await call('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', JSON.stringify(crd), 'application/json');
  assert.equal(r.status, 201, JSON.stringify(r.json));
  for (let i = 0; i < 100 && (await call('GET', '/apis/yaml.example.com/v1')).status !== 200; i++) await new Promise((ok) => setTimeout(ok, 100));
});

after(async () => {
  await s.stop();
});

const scalars = `  dot: .
  clock: 12:30
  sexagesimal: 1:20:30
  octal: 0o17
  oldOctal: 017
  hex: 0x1F
  exp: 1e3
  big: 1e400
  yes: yes
  onOff: off
  tilde: ~
  date: 2001-12-14
  under: 1_000
  keys: {1: a, 1.5: b, true: c, 1e6: d}
  merged:
    <<: [{a: 1, b: 2}, {b: 3, c: 4}]
    c: 5
  quoted: "one
  two"
  binary: !!binary aGVsbG8=
`;

test('a YAML body stores what kubectl makes of the same YAML', async () => {
  const manifest = (name: string) => `apiVersion: yaml.example.com/v1\nkind: Thing\nmetadata:\n  name: ${name}\nspec:\n${scalars}`;
  const file = join(s.dir, 'thing.yaml');
  writeFileSync(file, manifest('by-kubectl'));
  const applied = await kubectl(s, ['create', '-f', file]);
  assert.equal(applied.code, 0, applied.stderr);
  const posted = await call('POST', base, manifest('by-body'));
  assert.equal(posted.status, 201, JSON.stringify(posted.json));
  const a = (await call('GET', `${base}/by-kubectl`)).json.spec;
  const b = (await call('GET', `${base}/by-body`)).json.spec;
  assert.deepEqual(b, a);
  // What go-yaml v2 makes of them (and not YAML 1.1's sexagesimal numbers or YAML 1.2's octal).
  assert.equal(b.dot, '.');
  assert.equal(b.clock, '12:30');
  assert.equal(b.sexagesimal, '1:20:30');
  assert.equal(b.octal, 15);
  assert.equal(b.quoted, 'one two');
});

test('duplicate keys in a YAML body: a strict decoding error under Strict, a warning under Warn, nothing under Ignore', async () => {
  const body = (name: string) => `apiVersion: yaml.example.com/v1\nkind: Thing\nmetadata:\n  name: ${name}\ntyped:\n  image: a\n  image: b\n  bogus: 1\n`;
  const strict = await call('POST', `${base}?fieldValidation=Strict`, body('strict'));
  assert.equal(strict.status, 400);
  assert.equal(strict.json.reason, 'BadRequest');
  assert.equal(
    strict.json.message,
    'Thing in version "v1" cannot be handled as a Thing: strict decoding error: yaml: unmarshal errors:\n  line 7: key "image" already set in map, unknown field "typed.bogus"',
  );
  assert.equal((await call('GET', `${base}/strict`)).status, 404);
  const warn = await call('POST', `${base}?fieldValidation=Warn`, body('warn'));
  assert.equal(warn.status, 201);
  assert.equal(warn.warning, '299 - "yaml: unmarshal errors:   line 7: key \\"image\\" already set in map", 299 - "unknown field \\"typed.bogus\\""');
  // The object keeps the last value, as the non-strict decode does.
  assert.equal(warn.json.typed.image, 'b');
  const ignore = await call('POST', `${base}?fieldValidation=Ignore`, body('ignore'));
  assert.equal(ignore.status, 201);
  assert.equal(ignore.warning, null);
});

test('a YAML body nested past go-yaml\'s limit is a 400 with its message, and nothing is written', async () => {
  const deep = `apiVersion: yaml.example.com/v1\nkind: Thing\nmetadata:\n  name: deep\nspec:\n  x: ${'['.repeat(10001)}${']'.repeat(10001)}\n`;
  const r = await call('POST', base, deep);
  assert.equal(r.status, 400);
  assert.match(r.json.message, /^the object provided is unrecognized \(must be of type Thing\): yaml: line 6: exceeded max depth of 10000 \(61706956/);
  assert.equal((await call('GET', `${base}/deep`)).status, 404);
  const nan = await call('POST', base, 'apiVersion: yaml.example.com/v1\nkind: Thing\nmetadata: {name: nan}\nspec: {x: .nan}\n');
  assert.equal(nan.status, 400);
  assert.match(nan.json.message, /: json: unsupported value: NaN \(/);
});
