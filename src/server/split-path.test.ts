import { test } from 'node:test';
import assert from 'node:assert/strict';
import { splitPath } from './server.ts';

test('splitPath: segments without the trailing empty one, each unescaped where it has an escape', () => {
  assert.deepEqual(splitPath('/apis/stable.example.com/v1/namespaces/default/crontabs'), ['apis', 'stable.example.com', 'v1', 'namespaces', 'default', 'crontabs']);
  assert.deepEqual(splitPath('/api/v1/'), ['api', 'v1']);
  assert.deepEqual(splitPath('/'), []);
  assert.deepEqual(splitPath('/api/v1/namespaces/a%3Ab/configmaps/x%20y'), ['api', 'v1', 'namespaces', 'a:b', 'configmaps', 'x y']);
  // An escape that does not decode is kept as sent.
  assert.deepEqual(splitPath('/api/v1/namespaces/%zz/pods/a%2Fb'), ['api', 'v1', 'namespaces', '%zz', 'pods', 'a/b']);
});
