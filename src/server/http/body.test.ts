import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import type { IncomingMessage } from 'node:http';
import { decodeJSON, decodeObjectBody, JSONSyntaxError, readBody, summarizeData } from './body.ts';
import { Query } from './query.ts';
import { StatusError } from '../../apimachinery/index.ts';

const code = (n: number) => (e: unknown) => e instanceof StatusError && e.code === n;

test('readBody caps bodies at the limit with 413', async () => {
  const small = Readable.from([Buffer.from('abc'), Buffer.from('def')]) as unknown as IncomingMessage;
  (small as { headers?: object }).headers = {};
  assert.equal((await readBody(small, 10)).toString(), 'abcdef');
  const big = Readable.from([Buffer.alloc(8), Buffer.alloc(8)]) as unknown as IncomingMessage;
  (big as { headers?: object }).headers = {};
  await assert.rejects(readBody(big, 10), (e: unknown) => code(413)(e) && (e as StatusError).message === 'Request entity too large: limit is 10');
});

test('decodeObjectBody takes JSON and YAML, reports duplicates, refuses other types', () => {
  assert.deepEqual(decodeObjectBody(Buffer.from('{"a":1,"a":2}'), 'application/json', false), { value: { a: 2 }, duplicates: ['a'] });
  assert.deepEqual(decodeObjectBody(Buffer.from('a: 1\nb: [x]\n'), 'application/yaml; charset=utf-8', false).value, { a: 1, b: ['x'] });
  assert.deepEqual(decodeObjectBody(Buffer.from('{"a":true}'), undefined, false).value, { a: true });
  assert.throws(
    () => decodeObjectBody(Buffer.from('{"a":'), 'application/json', false),
    (e: unknown) => e instanceof JSONSyntaxError && e.message === 'unexpected end of JSON input',
  );
  assert.throws(
    () => decodeObjectBody(Buffer.from('{x}'), 'application/json', false),
    (e: unknown) => e instanceof JSONSyntaxError && e.message === "invalid character 'x' looking for beginning of object key string",
  );
  assert.equal(summarizeData(Buffer.from('{"kind":"CronTab","metadata":{"name":"x"}}')), '{"kind":"CronTab","metadata":{ ...');
  assert.equal(summarizeData(Buffer.from([1, 2])), '0102');
  assert.throws(() => decodeObjectBody(Buffer.from('x'), 'text/plain', false), code(415));
  assert.throws(() => decodeObjectBody(Buffer.from('k8s\0'), 'application/vnd.kubernetes.protobuf', false), code(415));
});

test('query booleans convert as kube-apiserver converts options, pretty as strconv.ParseBool', () => {
  const q = new Query(new URLSearchParams('watch=True&a=1&b=0&c=FALSE&d=f&e=&limit=5&n=abc&pretty=yes&p2=t'));
  assert.equal(q.bool('watch'), true);
  assert.equal(q.bool('a'), true);
  assert.equal(q.bool('b'), false);
  assert.equal(q.bool('c'), false);
  assert.equal(q.bool('d'), true);
  assert.equal(q.bool('e'), true);
  assert.equal(q.bool('missing'), undefined);
  assert.equal(q.goBool('pretty'), false);
  assert.equal(q.goBool('p2'), true);
  assert.equal(q.int('limit'), 5);
  assert.throws(() => q.int('n'), (e: unknown) => code(400)(e) && (e as StatusError).message === 'strconv.ParseInt: parsing "abc": invalid syntax');
});

test('decodeJSON finds duplicates whatever the spacing, and none in bodies without them', () => {
  const dups = (text: string) => decodeJSON(text).duplicates;
  // The spacing between a key and its colon does not hide a duplicate.
  assert.deepEqual(dups('{"a" :1, "a"\n\t:2}'), ['a']);
  assert.deepEqual(dups('{ "spec": { "x": [ {"k": 1, "k" : 2} ], "x": 3 } }'), ['spec.x[0].k', 'spec.x']);
  // String values that look like keys, or hold colons, change nothing.
  assert.deepEqual(dups('{"a":"\\":","b":"t:1","c":{"a":"\\" :"}}'), []);
  assert.deepEqual(dups('{"a":"x\\":","a":1}'), ['a']);
  // A key may end in backslashes (an even run before its closing quote): its duplicate is found.
  assert.deepEqual(dups('{"a\\\\":1,"a\\\\":2}'), ['a\\']);
  assert.deepEqual(dups('{"q\\\\\\"":1,"d":"\\"x\\": 1","q\\\\\\"":2}'), ['q\\"']);
  assert.deepEqual(dups('{"__proto__":1,"__proto__":2}'), ['__proto__']);
  assert.deepEqual(dups('{"metadata":{"name":"a","labels":{"app":"b"}},"spec":{"cronSpec":"* * * * */5","replicas":1}}'), []);
  assert.deepEqual(dups('[{"a":1},{"a":1}]'), []);
  assert.deepEqual(dups('[{"a":1,"a":1}]'), ['[0].a']);
});
