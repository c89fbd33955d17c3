/**
 * Authentication benchmark (`npm run bench:auth`): what TLS and authentication cost a write, in
 * the same run. Two real `serve` processes, each on its own SQLite store: one over HTTPS (the
 * certificates it makes) where a `--token-auth-file` user, bound to the `edit` ClusterRole in one
 * namespace, creates ConfigMaps — so every request is a TLS record, a bearer token looked up and
 * an RBAC decision —, and one with `--plain-http` where every request is the admin's. CREATES
 * creates with 16 keep-alive clients on each, in back-to-back pairs BENCH_RUNS times (default 5)
 * after an untimed warm-up; medians reported. Then new connections per second: GET /version with
 * one request per connection (a full TLS handshake each over HTTPS), 16 at a time, on both.
 *
 * Ends with `auth overhead ratio: X` (HTTPS token-user creates/s over plain-HTTP admin creates/s;
 * goal >= 0.7) after `TLS handshakes/s: X`.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { Agent } from 'node:http';
import { Agent as SecureAgent } from 'node:https';
import { tmpdir } from 'node:os';
import { createSecureContext } from 'node:tls';
import { join } from 'node:path';
import { httpCall } from './lib/http-call.ts';
import { median, pool, startServer } from './lib/serve.ts';

const CREATES = Number(process.env.BENCH_CREATES ?? 1000);
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const CLIENTS = 16;
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 400);
const TOKEN = 'bench-token-0123456789abcdef';

interface Target {
  name: string;
  base: string;
  agent: Agent | SecureAgent;
  headers: Record<string, string>;
  /** A fresh agent without keep-alive, for the connection rate. */
  oneShot: () => Agent | SecureAgent;
}

async function must(t: Target, method: string, path: string, body?: unknown, agent = t.agent, headers = t.headers): Promise<void> {
  const r = await httpCall(agent, t.base, method, path, body, 'application/json', 'application/json', headers);
  if (r.status >= 300) throw new Error(`${t.name}: ${method} ${path}: ${r.status} ${r.text}`);
}

let serial = 0;
async function creates(t: Target, n: number): Promise<number> {
  const run = ++serial;
  const { ms } = await pool(n, CLIENTS, (i) => must(t, 'POST', '/api/v1/namespaces/bench/configmaps', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `cm-${run}-${i}` }, data: { k: 'v' } }));
  return (n / ms) * 1000;
}

async function connectionsPerSecond(t: Target): Promise<number> {
  const agent = t.oneShot();
  const { ms } = await pool(CONNECTIONS, CLIENTS, () => must(t, 'GET', '/version', undefined, agent, {}));
  agent.destroy();
  return (CONNECTIONS / ms) * 1000;
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-auth-'));
  writeFileSync(join(dir, 'tokens.csv'), `${TOKEN},bench-user,1000\n`);
  const tls = await startServer(join(dir, 'tls'), ['--token-auth-file', join(dir, 'tokens.csv')]);
  const plain = await startServer(join(dir, 'plain'));
  try {
    const pki = (f: string) => readFileSync(join(dir, 'tls', 'pki', f));
    const ca = pki('ca.crt');
    const user: Target = {
      name: 'https token user',
      base: tls.base,
      agent: new SecureAgent({ keepAlive: true, ca }),
      headers: { Authorization: `Bearer ${TOKEN}` },
      // One client context for every connection (an agent given `ca` builds one per connection,
      // which would make the client the bottleneck); sessions are not resumed, so each is a full handshake.
      oneShot: () => new SecureAgent({ keepAlive: false, maxCachedSessions: 0, secureContext: createSecureContext({ ca }) }),
    };
    const admin: Target = { ...user, name: 'https admin', agent: new SecureAgent({ keepAlive: true, ca, cert: pki('admin.crt'), key: pki('admin.key') }), headers: {} };
    const open: Target = { name: 'plain-http admin', base: plain.base, agent: new Agent({ keepAlive: true }), headers: {}, oneShot: () => new Agent({ keepAlive: false }) };
    for (const t of [admin, open]) await must(t, 'POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'bench' } });
    await must(admin, 'POST', '/apis/rbac.authorization.k8s.io/v1/namespaces/bench/rolebindings', {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'RoleBinding',
      metadata: { name: 'bench-edit' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'edit' },
      subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: 'bench-user' }],
    });
    // The binding reaches the authorizer through its watch.
    for (let i = 0; ; i++) {
      const r = await httpCall(user.agent, user.base, 'GET', '/api/v1/namespaces/bench/configmaps', undefined, 'application/json', 'application/json', user.headers);
      if (r.status === 200) break;
      if (i > 200) throw new Error(`the token user is still refused: ${r.text}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    console.log(`auth bench: ${CREATES} ConfigMap creates x ${RUNS} pairs, ${CLIENTS} clients, Node ${process.version}`);
    await creates(user, Math.min(200, CREATES));
    await creates(open, Math.min(200, CREATES));
    const a: number[] = [];
    const b: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      // Alternate which goes first, so that a drift in load falls on both.
      if (i % 2 === 0) {
        a.push(await creates(user, CREATES));
        b.push(await creates(open, CREATES));
      } else {
        b.push(await creates(open, CREATES));
        a.push(await creates(user, CREATES));
      }
      console.log(`  pair ${i + 1}: https token user ${a[i]!.toFixed(0)}/s, plain-http admin ${b[i]!.toFixed(0)}/s`);
    }
    const tlsConn: number[] = [];
    const plainConn: number[] = [];
    for (let i = 0; i < 3; i++) {
      tlsConn.push(await connectionsPerSecond(user));
      plainConn.push(await connectionsPerSecond(open));
    }
    console.log(`https token user creates/s (median): ${median(a).toFixed(0)}`);
    console.log(`plain-http admin creates/s (median): ${median(b).toFixed(0)}`);
    console.log(`plain-http new connections/s (median): ${median(plainConn).toFixed(0)}`);
    console.log(`TLS handshakes/s: ${median(tlsConn).toFixed(0)}`);
    console.log(`auth overhead ratio: ${(median(a) / median(b)).toFixed(2)}`);
  } finally {
    await Promise.all([tls.stop(), plain.stop()]);
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
