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
import { must, pairedCreates, serveInProcess, type Served } from './lib/in-process.ts';

const CREATES = Number(process.env.BENCH_CREATES ?? 1000);
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const CLIENTS = 16;

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
    const r = await pairedCreates(none, webhooks, { runs: RUNS, n: CREATES, clients: CLIENTS, afterRun: () => hooks.received.clear() });
    console.log(`ConfigMap creates, ${CLIENTS} clients, ${CREATES} per run, ${RUNS} runs (medians):`);
    console.log(`  no webhooks                          ${r.plain.toFixed(0)} creates/s`);
    console.log(`  1 mutating (JSONPatch) + 1 validating ${r.measured.toFixed(0)} creates/s`);
    console.log(`webhook overhead ratio: ${r.ratio.toFixed(2)}`);
  } finally {
    await none.stop();
    await webhooks.stop();
    await hooks.close();
    ca.remove();
  }
}

await main();
