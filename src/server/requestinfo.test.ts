import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseRequestInfo } from './requestinfo.ts';
import { Query } from './http/query.ts';

const seg = (p: string) => p.split('/').filter((s, i) => i > 0);
const q = (s = '') => new Query(new URLSearchParams(s));

test('parseRequestInfo follows RequestInfoFactory', () => {
  assert.deepEqual(parseRequestInfo('GET', seg('/apis/stable.example.com/v1/namespaces/default/crontabs'), q()), {
    group: 'stable.example.com', version: 'v1', namespace: 'default', resource: 'crontabs', verb: 'list',
  });
  assert.deepEqual(parseRequestInfo('GET', seg('/apis/stable.example.com/v1/namespaces/default/crontabs'), q('watch=True')), {
    group: 'stable.example.com', version: 'v1', namespace: 'default', resource: 'crontabs', verb: 'watch',
  });
  assert.deepEqual(parseRequestInfo('PATCH', seg('/apis/g/v1/namespaces/ns/crontabs/x/scale'), q()), {
    group: 'g', version: 'v1', namespace: 'ns', resource: 'crontabs', name: 'x', subresource: 'scale', verb: 'patch',
  });
  assert.deepEqual(parseRequestInfo('GET', seg('/api/v1/namespaces/foo'), q()), {
    group: '', version: 'v1', resource: 'namespaces', name: 'foo', verb: 'get',
  });
  assert.deepEqual(parseRequestInfo('PUT', seg('/api/v1/namespaces/foo/finalize'), q()), {
    group: '', version: 'v1', resource: 'namespaces', name: 'foo', subresource: 'finalize', verb: 'update',
  });
  assert.deepEqual(parseRequestInfo('DELETE', seg('/apis/g/v1/widgets'), q()), {
    group: 'g', version: 'v1', resource: 'widgets', verb: 'deletecollection',
  });
  assert.equal(parseRequestInfo('GET', seg('/apis/g/v1'), q()), undefined);
  assert.equal(parseRequestInfo('GET', seg('/apis/g/v1/namespaces/ns/r/n/s/extra'), q()), undefined);
});
