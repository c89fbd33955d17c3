/**
 * The audit log of a real serve process following a policy file, driven by kubectl: levels per
 * rule (Secrets at Metadata without their data, ConfigMaps at RequestResponse, reads of nodes not
 * logged), the policy's omitStages, impersonation and the authorization annotations, rotation by
 * size keeping --audit-log-maxbackup backups, the legacy format, and a bad policy refusing to start.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { kubectl, startServer, type ServerProcess } from './harness.ts';

const root = new URL('../..', import.meta.url).pathname;

const policy = `apiVersion: audit.k8s.io/v1
kind: Policy
omitStages: [RequestReceived]
rules:
- level: None
  resources: [{group: "", resources: [nodes]}]
- level: None
  nonResourceURLs: ["/api*", "/apis*", "/openapi*", "/version"]
- level: Metadata
  resources: [{group: "", resources: [secrets]}]
- level: RequestResponse
  namespaces: [audited]
  resources: [{group: "", resources: [configmaps]}]
- level: Metadata
`;

let s: ServerProcess;
let dir: string;
let log: string;

async function k(args: string[], stdin?: string): Promise<string> {
  const r = await kubectl(s, args, stdin);
  assert.equal(r.code, 0, `kubectl ${args.join(' ')}: ${r.stderr}`);
  return r.stdout;
}

type Event = Record<string, any>;
const events = (file = log): Event[] =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as Event);
const allEvents = (): Event[] => readdirSync(dir).filter((n) => n.startsWith('audit')).flatMap((n) => events(join(dir, n)));

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'audit-e2e-'));
  log = join(dir, 'audit.log');
  writeFileSync(join(dir, 'policy.yaml'), policy);
  s = await startServer({ args: ['--audit-policy-file', join(dir, 'policy.yaml'), '--audit-log-path', log, '--audit-log-maxsize', '1', '--audit-log-maxbackup', '2'] });
  await k(['create', 'namespace', 'audited']);
});
after(async () => {
  await s?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

test('the log follows the policy: levels per rule, omitStages, no Secret data, nothing for None', async () => {
  assert.equal(statSync(log).mode & 0o777, 0o600);
  await k(['create', 'secret', 'generic', 'db', '-n', 'audited', '--from-literal=password=hunter2']);
  await k(['create', 'configmap', 'settings', '-n', 'audited', '--from-literal=mode=fast']);
  await k(['get', 'nodes']);
  const evs = events();
  assert.ok(evs.every((e) => e.stage === 'ResponseComplete'), 'RequestReceived is omitted by the policy');
  assert.ok(!evs.some((e) => e.objectRef?.resource === 'nodes'), 'reads of nodes are at None');
  assert.ok(!evs.some((e) => String(e.requestURI).startsWith('/api?') || e.requestURI === '/api' || e.requestURI === '/apis'), 'discovery is at None');
  const secret = evs.find((e) => e.objectRef?.resource === 'secrets' && e.verb === 'create')!;
  assert.equal(secret.level, 'Metadata');
  assert.deepEqual(secret.objectRef, { resource: 'secrets', namespace: 'audited', name: 'db', apiVersion: 'v1' });
  assert.equal(secret.requestObject, undefined);
  assert.equal(secret.responseObject, undefined);
  assert.doesNotMatch(readFileSync(log, 'utf8'), /hunter2|aHVudGVyMg/, 'no secret material in the log');
  assert.deepEqual(secret.annotations, { 'authorization.k8s.io/decision': 'allow', 'authorization.k8s.io/reason': '' });
  assert.match(secret.userAgent, /^kubectl\//);
  const cm = evs.find((e) => e.objectRef?.resource === 'configmaps' && e.verb === 'create')!;
  assert.equal(cm.level, 'RequestResponse');
  assert.deepEqual(cm.requestObject.data, { mode: 'fast' });
  assert.equal(cm.responseObject.metadata.name, 'settings');
  assert.deepEqual(cm.responseStatus, { metadata: {}, code: 201 });
  assert.equal(cm.apiVersion, 'audit.k8s.io/v1');
  assert.equal(cm.kind, 'Event');
});

test('impersonation: the requester, the impersonated user, and the denial', async () => {
  const r = await kubectl(s, ['get', 'configmaps', '-n', 'audited', '--as=jane', '--as-group=devs']);
  assert.notEqual(r.code, 0);
  const ev = events().findLast((e) => e.impersonatedUser !== undefined)!;
  // The requester is the kubeconfig's admin certificate (CN kubernetes-admin, O system:masters).
  assert.equal(ev.user.username, 'kubernetes-admin');
  assert.deepEqual(ev.impersonatedUser, { username: 'jane', groups: ['devs', 'system:authenticated'] });
  assert.equal(ev.annotations['authorization.k8s.io/decision'], 'forbid');
  assert.equal(ev.responseStatus.code, 403);
  assert.equal(ev.responseStatus.reason, 'Forbidden');
  assert.match(ev.responseStatus.message, /configmaps is forbidden: User "jane" cannot list resource "configmaps"/);
});

test('rotation: past --audit-log-maxsize the log moves to a backup; --audit-log-maxbackup are kept', async () => {
  const big = 'x'.repeat(300 * 1024);
  for (let i = 0; i < 8; i++) {
    await k(['create', '-f', '-'], JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `big-${i}`, namespace: 'audited' }, data: { blob: big } }));
  }
  const backups = readdirSync(dir).filter((n) => /^audit-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d\.\d{3}\.log$/.test(n));
  assert.equal(backups.length, 2, readdirSync(dir).join(' '));
  for (const f of [log, ...backups.map((b) => join(dir, b))]) assert.ok(statSync(f).size <= 1024 * 1024, f);
  const names = allEvents().filter((e) => e.verb === 'create' && e.objectRef?.resource === 'configmaps').map((e) => e.objectRef.name);
  assert.ok(names.includes('big-7'), 'the newest events are in the current file');
});

test('the legacy format, and a policy that does not load refuses to start', async () => {
  const ldir = mkdtempSync(join(tmpdir(), 'audit-legacy-'));
  try {
    writeFileSync(join(ldir, 'policy.yaml'), 'apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n- level: Metadata\n  resources: [{group: "", resources: [configmaps]}]\n');
    const legacy = await startServer({ dir: ldir, args: ['--audit-policy-file', join(ldir, 'policy.yaml'), '--audit-log-path', join(ldir, 'audit.log'), '--audit-log-format', 'legacy'] });
    try {
      const r = await kubectl(legacy, ['create', 'configmap', 'c', '-n', 'default']);
      assert.equal(r.code, 0, r.stderr);
      const lines = readFileSync(join(ldir, 'audit.log'), 'utf8').trim().split('\n');
      assert.equal(lines.length, 2, lines.join('\n'));
      assert.match(lines[0]!, /^\S+Z AUDIT: id="[0-9a-f-]{36}" stage="RequestReceived" ip="127\.0\.0\.1" method="create" user="kubernetes-admin" groups="\\"system:masters\\",\\"system:authenticated\\"" as="<self>" asgroups="<lookup>" user-agent="kubectl\/[^"]*" namespace="default" uri="\/api\/v1\/namespaces\/default\/configmaps\?fieldManager=kubectl-create&fieldValidation=Strict" response="<deferred>"$/);
      assert.match(lines[1]!, /stage="ResponseComplete" .* response="201"$/);
    } finally {
      await legacy.stop({ keep: true });
    }
    writeFileSync(join(ldir, 'bad.yaml'), 'apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n- level: Verbose\n');
    const bad = spawnSync(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'serve', '--listen', '127.0.0.1:0', '--data-dir', join(ldir, 'd2'), '--audit-policy-file', join(ldir, 'bad.yaml'), '--audit-log-path', join(ldir, 'x.log')], { cwd: root, encoding: 'utf8', timeout: 60000 });
    assert.equal(bad.status, 1);
    assert.equal(
      bad.stderr.trim(),
      `crd-apiserver serve: loading audit policy file: rules[0].level: Unsupported value: "Verbose": supported values: "None", "Metadata", "Request", "RequestResponse": from file ${join(ldir, 'bad.yaml')}`,
    );
    const fmt = spawnSync(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'serve', '--audit-log-path', 'x.log', '--audit-log-format', 'xml', '--audit-log-maxage', '-1'], { cwd: root, encoding: 'utf8', timeout: 60000 });
    assert.equal(fmt.status, 2);
    assert.match(fmt.stderr, /^crd-apiserver serve: invalid audit log format xml, allowed formats are "legacy,json"; --audit-log-maxage -1 can't be a negative number\n/);
  } finally {
    rmSync(ldir, { recursive: true, force: true });
  }
});
