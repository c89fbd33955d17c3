import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readYAML } from '../apimachinery/index.ts';
import { isLoopback, kubeconfigYAML, parseListen, parseServeArgs } from './serve.ts';

test('serve flags: defaults, both flag forms, plain HTTP on loopback only', () => {
  assert.deepEqual(parseServeArgs([]), { host: '127.0.0.1', port: 6443, dataDir: './data' });
  assert.deepEqual(parseServeArgs(['--listen', '127.0.0.1:0', '--data-dir=/tmp/x']), { host: '127.0.0.1', port: 0, dataDir: '/tmp/x' });
  assert.deepEqual(parseServeArgs(['--listen=[::1]:7000']), { host: '::1', port: 7000, dataDir: './data' });
  assert.equal(parseServeArgs(['--help']), 'help');
  assert.deepEqual(parseServeArgs(['--listen', '0.0.0.0:6443']), { host: '0.0.0.0', port: 6443, dataDir: './data' });
  assert.throws(() => parseServeArgs(['--plain-http', '--listen', '0.0.0.0:6443']), {
    message: 'refusing to serve plain HTTP on 0.0.0.0:6443: --plain-http has no TLS or authentication, so only loopback addresses (127.0.0.1, ::1, localhost) are allowed; serve HTTPS (drop --plain-http) to listen on 0.0.0.0',
  });
  assert.throws(() => parseServeArgs(['--plain-http', '--listen', '10.0.0.1:6443']), /refusing to serve plain HTTP/);
  assert.deepEqual(parseServeArgs(['--plain-http']), { host: '127.0.0.1', port: 6443, dataDir: './data', plainHTTP: true });
  assert.throws(() => parseServeArgs(['--bogus']), /unknown flag "--bogus"/);
  assert.throws(() => parseServeArgs(['--listen']), /needs a value/);
  assert.throws(() => parseListen('nohost'), /expected HOST:PORT/);
  assert.throws(() => parseListen('127.0.0.1:70000'), /invalid --listen port/);
  for (const h of ['127.0.0.1', '127.1.2.3', '::1', 'localhost']) assert.ok(isLoopback(h), h);
  for (const h of ['0.0.0.0', '::', '192.168.1.1', 'example.com']) assert.ok(!isLoopback(h), h);
});

test('the security flags: names as kube-apiserver spells them, their combinations checked', () => {
  assert.deepEqual(
    parseServeArgs(['--tls-cert-file', 'c.pem', '--tls-private-key-file=k.pem', '--client-ca-file', 'ca.pem', '--token-auth-file', 't.csv', '--anonymous-auth=false']),
    { host: '127.0.0.1', port: 6443, dataDir: './data', tlsCertFile: 'c.pem', tlsKeyFile: 'k.pem', clientCAFile: 'ca.pem', tokenAuthFile: 't.csv', anonymousAuth: false },
  );
  assert.deepEqual(parseServeArgs(['--tls-san', 'a.example.com,10.0.0.1', '--tls-san=b', '--anonymous-auth']), { host: '127.0.0.1', port: 6443, dataDir: './data', tlsSANs: ['a.example.com', '10.0.0.1', 'b'] });
  assert.throws(() => parseServeArgs(['--anonymous-auth=maybe']), { message: 'invalid argument "maybe" for "--anonymous-auth" flag: strconv.ParseBool: parsing "maybe": invalid syntax' });
  assert.throws(() => parseServeArgs(['--tls-cert-file', 'c.pem']), /--tls-cert-file and --tls-private-key-file go together/);
  assert.throws(() => parseServeArgs(['--plain-http', '--token-auth-file', 't.csv']), { message: '--token-auth-file cannot be used with --plain-http, which serves without TLS or authentication' });
  assert.throws(() => parseServeArgs(['--tls-cert-file', 'c', '--tls-private-key-file', 'k', '--tls-san', 'x']), /--tls-san names the certificate made in DIR\/pki/);
});

test('the kubeconfig over TLS embeds the CA and the admin certificate, not insecure-skip-tls-verify', () => {
  const kc = readYAML(kubeconfigYAML('https://127.0.0.1:1234', { ca: 'CA', clientCert: 'CERT', clientKey: 'KEY' })).value as any;
  assert.deepEqual(kc.clusters[0].cluster, { server: 'https://127.0.0.1:1234', 'certificate-authority-data': Buffer.from('CA').toString('base64') });
  assert.deepEqual(kc.users[0].user, { 'client-certificate-data': Buffer.from('CERT').toString('base64'), 'client-key-data': Buffer.from('KEY').toString('base64') });
  const noCreds = readYAML(kubeconfigYAML('https://127.0.0.1:1234', {})).value as any;
  assert.deepEqual(noCreds.clusters[0].cluster, { server: 'https://127.0.0.1:1234' });
  assert.deepEqual(noCreds.users[0].user, {});
});

test('the kubeconfig points at the server and lets client-node use plain http', () => {
  const kc = readYAML(kubeconfigYAML('http://127.0.0.1:1234')).value as any;
  assert.equal(kc['current-context'], 'crd-apiserver');
  assert.deepEqual(kc.clusters[0].cluster, { server: 'http://127.0.0.1:1234', 'insecure-skip-tls-verify': true });
  assert.equal(kc.contexts[0].context.namespace, 'default');
});
