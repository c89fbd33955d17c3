import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readYAML } from '../apimachinery/index.ts';
import { isLoopback, kubeconfigYAML, parseListen, parseServeArgs } from './serve.ts';

test('serve flags: defaults, both flag forms, loopback only', () => {
  assert.deepEqual(parseServeArgs([]), { host: '127.0.0.1', port: 6443, dataDir: './data' });
  assert.deepEqual(parseServeArgs(['--listen', '127.0.0.1:0', '--data-dir=/tmp/x']), { host: '127.0.0.1', port: 0, dataDir: '/tmp/x' });
  assert.deepEqual(parseServeArgs(['--listen=[::1]:7000']), { host: '::1', port: 7000, dataDir: './data' });
  assert.equal(parseServeArgs(['--help']), 'help');
  assert.throws(() => parseServeArgs(['--listen', '0.0.0.0:6443']), /refusing to listen on 0\.0\.0\.0:6443: only loopback addresses/);
  assert.throws(() => parseServeArgs(['--listen', '10.0.0.1:6443']), /refusing to listen/);
  assert.throws(() => parseServeArgs(['--bogus']), /unknown flag "--bogus"/);
  assert.throws(() => parseServeArgs(['--listen']), /needs a value/);
  assert.throws(() => parseListen('nohost'), /expected HOST:PORT/);
  assert.throws(() => parseListen('127.0.0.1:70000'), /invalid --listen port/);
  for (const h of ['127.0.0.1', '127.1.2.3', '::1', 'localhost']) assert.ok(isLoopback(h), h);
  for (const h of ['0.0.0.0', '::', '192.168.1.1', 'example.com']) assert.ok(!isLoopback(h), h);
});

test('the kubeconfig points at the server and lets client-node use plain http', () => {
  const kc = readYAML(kubeconfigYAML('http://127.0.0.1:1234')).value as any;
  assert.equal(kc['current-context'], 'crd-apiserver');
  assert.deepEqual(kc.clusters[0].cluster, { server: 'http://127.0.0.1:1234', 'insecure-skip-tls-verify': true });
  assert.equal(kc.contexts[0].context.namespace, 'default');
});
