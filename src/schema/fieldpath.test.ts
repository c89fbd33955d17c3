// validFieldPath: rule fieldPaths resolved against a structural schema (after Kubernetes'
// TestValidFieldPath cases).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { validFieldPath } from './fieldpath.ts';
import { newStructural } from './structural.ts';

const s = newStructural({
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      properties: { 'a.b': { type: 'string' }, list: { type: 'array', items: { type: 'string' } } },
    },
    labels: { type: 'object', additionalProperties: { type: 'string' } },
  },
});

test('valid paths resolve to field paths and schemas', () => {
  const cases: [string, string][] = [
    ['.spec', 'spec'],
    [".spec['a.b']", 'spec.a.b'],
    ['.spec.list', 'spec.list'],
    ['.labels.foo', 'labels[foo]'],
    [".labels['x/y']", 'labels[x/y]'],
  ];
  for (const [p, want] of cases) {
    const r = validFieldPath(p, s);
    assert.equal(r.error, undefined, p);
    assert.equal(r.path!.toString(), want, p);
  }
  assert.equal((validFieldPath('.spec.list', s) as { schema: { type: string } }).schema.type, 'array');
});

test('invalid paths say why', () => {
  const cases: [string, string][] = [
    ['.spec.missing', 'does not refer to a valid field'],
    ['spec', 'expected [ or . but got: spec'],
    ['.spec[0]', 'expected single quoted string but got 0'],
    ['.spec.list.x', 'does not refer to a valid field'],
    ['.spec.', 'unexpected end of JSON path'],
  ];
  for (const [p, want] of cases) assert.equal(validFieldPath(p, s).error, want, p);
  assert.equal(validFieldPath(".spec['a.b']", s, false).error, 'array notation is not allowed');
});
