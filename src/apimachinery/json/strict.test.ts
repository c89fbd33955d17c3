import { test } from 'node:test';
import assert from 'node:assert/strict';
import { findDuplicateFields } from './strict.ts';

test('findDuplicateFields reports nested duplicate keys with Kubernetes paths', () => {
  const cases: Array<{ name: string; input: string; expected: string[] }> = [
    { name: 'none', input: '{"a":1,"b":{"c":[1,2]}}', expected: [] },
    { name: 'top level', input: '{"a":1,"a":2}', expected: ['a'] },
    { name: 'nested', input: '{"spec":{"cronSpec":"x","image":"y","cronSpec":"z"}}', expected: ['spec.cronSpec'] },
    { name: 'in array', input: '{"items":[{"a":1},{"a":1,"a":2}]}', expected: ['items[1].a'] },
    { name: 'escaped key', input: '{"a\\"b":1,"a\\"b":2, "s":"x\\\\"}', expected: ['a"b'] },
    { name: 'strings with braces', input: '{"a":"}{,\\"","a":[ ] , "b" : { } }', expected: ['a'] },
    { name: 'whitespace', input: ' { "x" : { "y" : 1 , "y" : true } } ', expected: ['x.y'] },
  ];
  for (const c of cases) assert.deepEqual(findDuplicateFields(c.input), c.expected, c.name);
});

test('findDuplicateFields walks bodies nested as deep as the decoder allows', () => {
  const n = 9998;
  const text = '{"a":'.repeat(n) + '[{"b":1,"b":2}]' + '}'.repeat(n);
  assert.deepEqual(findDuplicateFields(text), [`${'a.'.repeat(n)}`.slice(0, -1) + '[0].b']);
  const arrays = '['.repeat(n) + '{"x":[],"x":{}}' + ']'.repeat(n);
  assert.deepEqual(findDuplicateFields(arrays), ['[0]'.repeat(n) + '.x']);
});
