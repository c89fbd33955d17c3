/**
 * `crd-apiserver cel eval|check --env map` as real CLI processes: MutatingAdmissionPolicy's
 * mutation types — `Object{...}` apply configurations printed as the JSON they merge (type names
 * checked against field paths), `JSONPatch` lists with `jsonpatch.escapeKey` — over the admission
 * inputs and variables; the mutation types absent from `--env vap`.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runCLI } from '../../test/lib/cli.ts';

const root = new URL('../..', import.meta.url).pathname;

function cel(...args: string[]): { code: number | null; out: Record<string, unknown> } {
  const r = runCLI('cel', ...args);
  return { code: r.code, out: JSON.parse(r.stdout) as Record<string, unknown> };
}

const deployment = JSON.stringify({ object: { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', labels: { app: 'web' } }, spec: { replicas: 2 } }, params: { data: { team: 'a' } } });

test('map: an apply configuration prints as the object it merges, from the inputs and variables', () => {
  const expr = "Object{metadata: Object.metadata{labels: {'team': params.data.team}}, spec: Object.spec{replicas: variables.wanted}}";
  assert.deepEqual(cel('eval', expr, '--env', 'map', '--vars', deployment, '--variables', '{"wanted": "object.spec.replicas + 1"}'), {
    code: 0,
    out: { type: 'Object', value: { metadata: { labels: { team: 'a' } }, spec: { replicas: 3 } } },
  });
  assert.deepEqual(cel('check', "Object{spec: Object.spec{replicas: 1}}", '--env', 'map').out.type, 'Object');
});

test('map: a type name off its field path is upstream\'s type mismatch', () => {
  assert.deepEqual(cel('eval', 'Object{spec: Object.template{replicas: 1}}', '--env', 'map'), {
    code: 1,
    out: { error: 'type mismatch: unexpected type name "Object.template", expected "Object.spec", which matches field name path from root Object type' },
  });
});

test('map: JSONPatch lists, escapeKey, and Object values inside a patch', () => {
  const expr = "[JSONPatch{op: 'add', path: '/metadata/labels/' + jsonpatch.escapeKey('example.com/a~b'), value: object.metadata.name}, JSONPatch{op: 'replace', path: '/spec', value: Object.spec{replicas: 5}}]";
  assert.deepEqual(cel('eval', expr, '--env', 'map', '--vars', deployment), {
    code: 0,
    out: {
      type: 'list(JSONPatch)',
      value: [
        { op: 'add', path: '/metadata/labels/example.com~1a~0b', value: 'web' },
        { op: 'replace', path: '/spec', value: { replicas: 5 } },
      ],
    },
  });
  assert.match(String(cel('check', "JSONPatch{op: 'add', nope: 1}", '--env', 'map').out.error), /^compilation failed: ERROR: <input>:1:/);
});

test('the mutation types belong to map only; variables see none of them', () => {
  assert.match(String(cel('eval', 'Object{}', '--env', 'vap').out.error), /undeclared reference to 'Object'/);
  assert.match(String(cel('eval', "jsonpatch.escapeKey('a')", '--env', 'vap').out.error), /undeclared reference to 'jsonpatch'|found no matching overload/);
  const v = cel('eval', 'variables.o', '--env', 'map', '--variables', '{"o": "Object{}"}');
  assert.equal(v.code, 1);
  assert.match(String(v.out.error), /^composited variable "o" fails to compile: compilation failed: .*undeclared reference to 'Object'/s);
});
