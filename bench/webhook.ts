/**
 * Admission webhook benchmark (`npm run bench:webhook`): what one validating and one mutating
 * webhook cost a write, in the same run. Two servers (each its own SQLite store, over loopback
 * HTTP): one without webhooks, one with a MutatingWebhookConfiguration (a JSONPatch adding a
 * label) and a ValidatingWebhookConfiguration (allowing) on every ConfigMap create, both served by
 * a node:https webhook server on loopback with a test CA's certificate (openssl). CREATES
 * ConfigMaps are created with 16 concurrent clients on each, in back-to-back pairs BENCH_RUNS
 * times (default 5) after an untimed warm-up; medians reported.
 *
 * Ends with `webhook overhead ratio: X` (creates/s with webhooks over creates/s without).
 */
import { makeTestCA } from '../test/lib/certs.ts';
import { jsonPatch, startWebhookServer, type WebhookServer } from '../test/lib/webhook-server.ts';
import { httpCall } from './lib/http-call.ts';
import { serveInProcess, type Served } from './lib/in-process.ts';
import { median } from './lib/timing.ts';

const CREATES = Number(process.env.BENCH_CREATES ?? 1000);
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const CLIENTS = 16;

async function must(s: Served, method: string, path: string, body?: unknown): Promise<string> {
  const r = await httpCall(s.agent, s.base, method, path, body);
  if (r.status >= 300) throw new Error(`${method} ${path}: ${r.status} ${r.text}`);
  return r.text;
}

const G = '/apis/admissionregistration.k8s.io/v1';

/** One mutating and one validating webhook on ConfigMap creates in `default`. */
async function installWebhooks(s: Served, hooks: WebhookServer, caBundle: string): Promise<void> {
  const webhook = (name: string, path: string) => ({
    name,
    clientConfig: { url: `${hooks.url}${path}`, caBundle },
    rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] }],
    namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'default' } },
    sideEffects: 'None',
    admissionReviewVersions: ['v1'],
  });
  await must(s, 'POST', `${G}/mutatingwebhookconfigurations`, { apiVersion: 'admissionregistration.k8s.io/v1', kind: 'MutatingWebhookConfiguration', metadata: { name: 'bench' }, webhooks: [webhook('label.bench.example.com', '/mutate')] });
  await must(s, 'POST', `${G}/validatingwebhookconfigurations`, { apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingWebhookConfiguration', metadata: { name: 'bench' }, webhooks: [webhook('allow.bench.example.com', '/validate')] });
}

let seq = 0;

/** `n` ConfigMap creates with CLIENTS concurrent clients; creates per second. */
async function creates(s: Served, n: number): Promise<number> {
  let next = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      while (next++ < n) {
        const name = `bench-${seq++}`;
        await must(s, 'POST', '/api/v1/namespaces/default/configmaps', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { a: '1', b: '2', c: '3' } });
      }
    }),
  );
  return n / ((performance.now() - t0) / 1000);
}

async function main(): Promise<void> {
  const ca = makeTestCA();
  const hooks = await startWebhookServer(ca.serving());
  hooks.on('/mutate', () => ({ allowed: true, ...jsonPatch([{ op: 'add', path: '/metadata/labels', value: { webhook: 'seen' } }]) }));
  hooks.on('/validate', () => ({ allowed: true }));
  const none = await serveInProcess('bench-webhook-');
  const webhooks = await serveInProcess('bench-webhook-');
  try {
    await installWebhooks(webhooks, hooks, ca.caBundle);
    // A labelled create proves both webhooks are in force before anything is timed.
    const text = await must(webhooks, 'POST', '/api/v1/namespaces/default/configmaps', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'probe' } });
    const labels = (JSON.parse(text) as { metadata: { labels?: Record<string, string> } }).metadata.labels;
    if (labels?.webhook !== 'seen' || (hooks.received.get('/validate')?.length ?? 0) !== 1) throw new Error(`the webhooks were not called: ${text}`);
    await creates(none, 200);
    await creates(webhooks, 200);
    const rNone: number[] = [];
    const rHooks: number[] = [];
    const ratios: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      const a = await creates(none, CREATES);
      const b = await creates(webhooks, CREATES);
      rNone.push(a);
      rHooks.push(b);
      ratios.push(b / a);
      hooks.received.clear();
    }
    console.log(`ConfigMap creates, ${CLIENTS} clients, ${CREATES} per run, ${RUNS} runs (medians):`);
    console.log(`  no webhooks                          ${median(rNone).toFixed(0)} creates/s`);
    console.log(`  1 mutating (JSONPatch) + 1 validating ${median(rHooks).toFixed(0)} creates/s`);
    console.log(`webhook overhead ratio: ${median(ratios).toFixed(2)}`);
  } finally {
    await none.stop();
    await webhooks.stop();
    await hooks.close();
    ca.remove();
  }
}

await main();
