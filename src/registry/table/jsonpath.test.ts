import { test } from 'node:test';
import assert from 'node:assert/strict';
import { findResults, parseJSONPath, printResult } from './jsonpath.ts';

const obj = {
  metadata: { name: 'x', labels: { 'app.kubernetes.io/name': 'demo' } },
  spec: { replicas: 3, image: 'img', ports: [{ name: 'a', port: 1 }, { name: 'b', port: 2 }] },
  status: {
    conditions: [
      { type: 'Ready', status: 'True' },
      { type: 'Synced', status: 'False' },
    ],
  },
};

test('findResults evaluates client-go JSONPath expressions', () => {
  const cases: Array<{ path: string; expected: unknown[] }> = [
    { path: '{.spec.replicas}', expected: [3] },
    { path: '{.spec.missing}', expected: [] },
    { path: '{.spec.ports[0].name}', expected: ['a'] },
    { path: '{.spec.ports[-1].port}', expected: [2] },
    { path: '{.spec.ports[*].name}', expected: ['a', 'b'] },
    { path: '{.spec.ports[0:2].port}', expected: [1, 2] },
    { path: '{.status.conditions[?(@.type=="Ready")].status}', expected: ['True'] },
    { path: "{.status.conditions[?(@.type=='Synced')].status}", expected: ['False'] },
    { path: '{.spec.ports[?(@.port>1)].name}', expected: ['b'] },
    { path: '{.spec.ports[?(@.name)].port}', expected: [1, 2] },
    { path: "{.metadata.labels['app.kubernetes.io/name']}", expected: ['demo'] },
    { path: '{.metadata.labels.app\\.kubernetes\\.io/name}', expected: ['demo'] },
    { path: '{..port}', expected: [1, 2] },
    { path: '{$.metadata.name}', expected: ['x'] },
  ];
  for (const c of cases) assert.deepEqual(findResults(parseJSONPath(c.path), obj)[0], c.expected, c.path);
});

test('index errors throw, so the table cell becomes nil', () => {
  assert.throws(() => findResults(parseJSONPath('{.spec.ports[5]}'), obj), /array index out of bounds: index 5, length 2/);
  assert.throws(() => parseJSONPath('{.spec.ports[0}'), /unclosed array/);
});

test('printResult prints as PrintResults does', () => {
  assert.equal(printResult('s'), 's');
  assert.equal(printResult(3), '3');
  assert.equal(printResult(1.5), '1.5');
  assert.equal(printResult(true), 'true');
  assert.equal(printResult({ b: 1, a: '<x>' }), '{"a":"\\u003cx\\u003e","b":1}');
  assert.equal(printResult(['a', 1]), '["a",1]');
});
