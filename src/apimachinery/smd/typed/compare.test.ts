/**
 * Compare's shortcuts against what the full walk reports: equal subtrees change nothing, but a
 * member that is undefined on both sides is still the walk's error; a one-sided value (a create)
 * adds every node, list items by key, a duplicated key as one path.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseSchema } from '../schema/schema.ts';
import { TypedValue } from './typed.ts';

const schema = parseSchema(`
types:
- name: obj
  map:
    fields:
    - name: spec
      type: {namedType: spec}
    - name: items
      type:
        list:
          elementType: {namedType: item}
          elementRelationship: associative
          keys: [name]
- name: spec
  map:
    elementType: {scalar: string}
- name: item
  map:
    fields:
    - name: name
      type: {scalar: string}
    - name: value
      type: {scalar: string}
`);
const tv = (v: unknown) => new TypedValue(v, schema, { namedType: 'obj' });

test('equal values change nothing; an undefined member is still an error', () => {
  const c = tv({ spec: { a: 'x' }, items: [{ name: 'a', value: '1' }] }).compare(tv({ spec: { a: 'x' }, items: [{ name: 'a', value: '1' }] }));
  assert.equal(c.added.empty() && c.removed.empty() && c.modified.empty(), true);
  assert.throws(() => tv({ spec: { a: undefined } }).compare(tv({ spec: { a: undefined } })), /: \.spec: at least one of lhs and rhs must be provided$/);
});

test('a value compared with nothing adds every node, items by key, a duplicated key as one path', () => {
  const c = tv({}).compare(tv({ spec: { b: 'y', a: 'x' }, items: [{ name: 'z', value: '1' }, { name: 'd' }, { name: 'd', value: '2' }] }));
  assert.equal(c.added.toString(), ['.items', '.spec', '.items[name="d"]', '.items[name="z"]', '.items[name="z"].name', '.items[name="z"].value', '.spec.a', '.spec.b'].join('\n'));
});
