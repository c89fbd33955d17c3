/**
 * CRD conversion benchmark (`npm run bench:conversion`): what a conversion webhook costs a list,
 * in the same run. One in-process server (SQLite, loopback HTTP) with two CRDs of the same shape,
 * served at v1beta1 and v1 (storage): one with conversion strategy None, one with strategy
 * Webhook, its webhook a node:https server on loopback (a test CA's certificate, openssl) that
 * renames `spec.cronSpec` <-> `spec.schedule`. OBJECTS (default 1000) objects of each are created
 * at v1, then both are listed at v1beta1 — every object converted, the webhook's in one
 * ConversionReview — in back-to-back pairs BENCH_RUNS times (default 7) after an untimed warm-up.
 *
 * Ends with `conversion webhook list ratio: X` (the median over pairs of webhook list time over
 * None list time).
 */
import { makeTestCA } from '../test/lib/certs.ts';
import { startWebhookServer } from '../test/lib/webhook-server.ts';
import { httpCall } from './lib/http-call.ts';
import { serveInProcess, type Served } from './lib/in-process.ts';
import { median } from './lib/timing.ts';

const OBJECTS = Number(process.env.BENCH_OBJECTS ?? 1000);
const RUNS = Number(process.env.BENCH_RUNS ?? 7);
const G = 'bench.example.com';

type Obj = Record<string, any>;

async function must(s: Served, method: string, path: string, body?: unknown): Promise<string> {
  const r = await httpCall(s.agent, s.base, method, path, body);
  if (r.status >= 300) throw new Error(`${method} ${path}: ${r.status} ${r.text.slice(0, 500)}`);
  return r.text;
}

const schema = (field: string) => ({
  openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { [field]: { type: 'string' }, image: { type: 'string' }, replicas: { type: 'integer' } } } } },
});

function crd(plural: string, kind: string, conversion: Obj): Obj {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${plural}.${G}` },
    spec: {
      group: G,
      scope: 'Namespaced',
      names: { plural, singular: kind.toLowerCase(), kind },
      conversion,
      versions: [
        { name: 'v1beta1', served: true, storage: false, schema: schema('cronSpec') },
        { name: 'v1', served: true, storage: true, schema: schema('schedule') },
      ],
    },
  };
}

/** The bench's webhook: each object renamed to the desired version's field. */
function convertReview(review: Obj): Obj {
  const req = review.request as Obj;
  const toV1 = req.desiredAPIVersion === `${G}/v1`;
  const convertedObjects = (req.objects as Obj[]).map((o) => {
    const spec = { ...(o.spec as Obj) };
    if (toV1 && 'cronSpec' in spec) {
      spec.schedule = spec.cronSpec;
      delete spec.cronSpec;
    } else if (!toV1 && 'schedule' in spec) {
      spec.cronSpec = spec.schedule;
      delete spec.schedule;
    }
    return { ...o, apiVersion: req.desiredAPIVersion, spec };
  });
  return { apiVersion: review.apiVersion, kind: 'ConversionReview', response: { uid: req.uid, result: { status: 'Success' }, convertedObjects } };
}

async function waitServed(s: Served, plural: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    const r = await httpCall(s.agent, s.base, 'GET', `/apis/${G}/v1beta1/namespaces/default/${plural}?limit=1`);
    if (r.status === 200) return;
    await new Promise((res) => setTimeout(res, 50));
  }
  throw new Error(`${plural} never served`);
}

async function fill(s: Served, plural: string, kind: string): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      while (next < OBJECTS) {
        const i = next++;
        await must(s, 'POST', `/apis/${G}/v1/namespaces/default/${plural}`, {
          apiVersion: `${G}/v1`,
          kind,
          metadata: { name: `o-${i}`, labels: { app: 'bench', shard: String(i % 10) } },
          spec: { schedule: `${i % 60} * * * *`, image: `registry.example.com/app:${i}`, replicas: i % 5 },
        });
      }
    }),
  );
}

/** One list at v1beta1: its milliseconds, after checking the objects were converted. */
async function listMs(s: Served, plural: string): Promise<number> {
  const t0 = performance.now();
  const text = await must(s, 'GET', `/apis/${G}/v1beta1/namespaces/default/${plural}`);
  const ms = performance.now() - t0;
  const items = (JSON.parse(text) as { items: Obj[] }).items;
  if (items.length !== OBJECTS || items.some((o) => o.apiVersion !== `${G}/v1beta1`)) throw new Error(`${plural}: the list was not converted`);
  if (plural === 'hooks' && items.some((o) => !('cronSpec' in o.spec))) throw new Error('the webhook did not convert');
  return ms;
}

async function main(): Promise<void> {
  const ca = makeTestCA();
  const hooks = await startWebhookServer(ca.serving());
  hooks.on('/convert', (r) => ({ raw: { status: 200, body: JSON.stringify(convertReview(r as unknown as Obj)) } }));
  const s = await serveInProcess('bench-conversion-');
  try {
    await must(s, 'POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', crd('nones', 'None', { strategy: 'None' }));
    await must(
      s,
      'POST',
      '/apis/apiextensions.k8s.io/v1/customresourcedefinitions',
      crd('hooks', 'Hook', { strategy: 'Webhook', webhook: { conversionReviewVersions: ['v1'], clientConfig: { url: `${hooks.url}/convert`, caBundle: ca.caBundle } } }),
    );
    await waitServed(s, 'nones');
    await waitServed(s, 'hooks');
    await fill(s, 'nones', 'None');
    await fill(s, 'hooks', 'Hook');
    await listMs(s, 'nones');
    await listMs(s, 'hooks');
    const reviews = hooks.received.get('/convert') ?? [];
    if (reviews.length !== 1) throw new Error(`expected one review for the list, got ${reviews.length}`);
    const none: number[] = [];
    const webhook: number[] = [];
    const ratios: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      const a = await listMs(s, 'nones');
      const b = await listMs(s, 'hooks');
      none.push(a);
      webhook.push(b);
      ratios.push(b / a);
      hooks.received.clear();
    }
    console.log(`list of ${OBJECTS} objects at v1beta1 (stored at v1), ${RUNS} runs (medians):`);
    console.log(`  conversion None                   ${median(none).toFixed(1)} ms`);
    console.log(`  conversion Webhook (one review)   ${median(webhook).toFixed(1)} ms`);
    console.log(`conversion webhook list ratio: ${median(ratios).toFixed(2)}`);
  } finally {
    await s.stop();
    await hooks.close();
    ca.remove();
  }
}

await main();
