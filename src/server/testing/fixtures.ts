/**
 * Test fixtures for the HTTP layer: an ApiServer in this process over the served binary's
 * backend on a temporary SQLite file, a tiny HTTP client, and CRD manifests. Used by the server's
 * tests and the benchmarks.
 */
import type { Store } from '../../storage/index.ts';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'node:http';
import { openBackend } from '../backend.ts';
import { ApiServer, type ApiServerDeps } from '../server.ts';

export interface Fixture {
  server: ApiServer;
  base: string;
  /** The store under the server, to check what was written. */
  store: Store;
  close(): Promise<void>;
}

type Handle = ApiServer['handle'];

/**
 * Starts a server on 127.0.0.1:0 over a fresh SQLite file; `limits` as serve passes them, `wrap`
 * around its handler (the audit filter).
 */
export async function startFixture(opts: { limits?: ApiServerDeps['limits']; wrap?: (h: Handle) => Handle } = {}): Promise<Fixture> {
  const dir = mkdtempSync(join(tmpdir(), 'crd-apiserver-test-'));
  const backend = await openBackend(dir);
  const server = new ApiServer({ ...backend.deps, ...(opts.limits ? { limits: opts.limits } : {}) });
  if (opts.wrap) server.handle = opts.wrap(server.handle.bind(server));
  const { port } = await server.listen('127.0.0.1', 0);
  return {
    server,
    base: `http://127.0.0.1:${port}`,
    store: backend.store,
    async close() {
      await server.close();
      await backend.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  json: any;
}

/** One HTTP request; `body` objects are sent as JSON. */
export function call(base: string, method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const data = body === undefined ? undefined : Buffer.isBuffer(body) ? body : Buffer.from(typeof body === 'string' ? body : JSON.stringify(body));
    const h: Record<string, string> = { ...headers };
    if (data && !h['Content-Type']) h['Content-Type'] = 'application/json';
    if (data) h['Content-Length'] = String(data.length);
    const req = request(base + path, { method, headers: h }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let json: unknown;
        try {
          json = JSON.parse(text);
        } catch {
          json = undefined;
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json });
      });
    });
    req.on('error', reject);
    if (data) req.write(data);
    req.end();
  });
}

/** A CRD's names (spec.names): the plural names the CRD (`<plural>.<group>`). */
export interface CRDNames {
  plural: string;
  singular?: string;
  kind: string;
  listKind?: string;
  shortNames?: string[];
  categories?: string[];
}

/**
 * A namespaced CRD serving and storing one version, v1, whose schema is an object with
 * `properties`; `version` adds to that version (subresources, printer columns).
 */
export function crdManifest(group: string, names: CRDNames, properties: Record<string, unknown>, version: Record<string, unknown> = {}) {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${names.plural}.${group}` },
    spec: {
      group,
      scope: 'Namespaced',
      names,
      versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', properties } }, ...version }],
    },
  };
}

/** The CronTab CRD of the Kubernetes docs, with printer columns, status and scale. */
export const crontabCRD = crdManifest(
  'stable.example.com',
  { plural: 'crontabs', singular: 'crontab', kind: 'CronTab', shortNames: ['ct'], categories: ['all'] },
  {
    spec: {
      type: 'object',
      properties: { cronSpec: { type: 'string' }, image: { type: 'string' }, replicas: { type: 'integer' } },
    },
    status: { type: 'object', properties: { replicas: { type: 'integer' } } },
  },
  {
    subresources: { status: {}, scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas' } },
    additionalPrinterColumns: [
      { name: 'Spec', type: 'string', jsonPath: '.spec.cronSpec' },
      { name: 'Replicas', type: 'integer', jsonPath: '.spec.replicas' },
      { name: 'Image', type: 'string', jsonPath: '.spec.image', priority: 1 },
      { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
    ],
  },
);

/** Waits until `fn` resolves truthy (polling), or fails after `ms`. */
export async function eventually<T>(fn: () => Promise<T | undefined | false>, ms = 15000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** A fixture server with crontabCRD created and its group served. */
export async function startCrontabFixture(): Promise<Fixture> {
  const f = await startFixture();
  const r = await call(f.base, 'POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', crontabCRD);
  if (r.status !== 201) throw new Error(`creating the CronTab CRD: ${r.status} ${r.text}`);
  await eventually(async () => (await call(f.base, 'GET', '/apis/stable.example.com/v1')).status === 200);
  return f;
}
