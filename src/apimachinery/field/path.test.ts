import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Path } from './path.ts';

test('paths print as field.Path.String()', () => {
  assert.equal(Path.of('spec').toString(), 'spec');
  assert.equal(Path.of('spec', 'ports').index(0).child('name').toString(), 'spec.ports[0].name');
  assert.equal(Path.of('metadata').child('labels').key('app.kubernetes.io/name').toString(), 'metadata.labels[app.kubernetes.io/name]');
  assert.equal(Path.of('a').index(1).index(2).key('k').child('b', 'c').toString(), 'a[1][2][k].b.c');
  assert.equal(Path.root().child('spec').toString(), 'spec');
  assert.equal(Path.root().toString(), '');
});

test('paths are immutable', () => {
  const base = Path.of('spec');
  const a = base.child('a');
  const b = base.child('b');
  assert.equal(base.toString(), 'spec');
  assert.equal(a.toString(), 'spec.a');
  assert.equal(b.toString(), 'spec.b');
});
