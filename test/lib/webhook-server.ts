/**
 * Admission webhook servers for tests, on node:https over a test CA's serving certificate: each
 * path answers AdmissionReviews with a handler (allow, deny, patch, hang, misbehave) and records
 * every review it received, so a test can assert what the API server sent.
 */
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { ServingCertificate } from './certs.ts';

export type Review = { apiVersion?: string; kind?: string; request: Record<string, unknown> & { uid: string } };

/** What a handler answers: a response object (uid and review envelope filled in), or a raw reply. */
export type Answer = Record<string, unknown> | { raw: { status: number; body: string; contentType?: string } } | { hang: true };

export interface WebhookServer {
  /** `https://127.0.0.1:<port>`. */
  url: string;
  port: number;
  /** Every review received, by path, in order. */
  received: Map<string, Review[]>;
  /** Sets the handler of `path`. */
  on(path: string, handler: (review: Review) => Answer | Promise<Answer>): void;
  close(): Promise<void>;
}

/** `patch` as a mutating webhook returns it: base64 of the JSON patch. */
export const jsonPatch = (ops: unknown[]) => ({ patchType: 'JSONPatch', patch: Buffer.from(JSON.stringify(ops)).toString('base64') });

/** Starts a webhook server on 127.0.0.1 (a free port unless `port` is given). */
export async function startWebhookServer(cert: ServingCertificate, port = 0): Promise<WebhookServer> {
  const handlers = new Map<string, (review: Review) => Answer | Promise<Answer>>();
  const received = new Map<string, Review[]>();
  const hanging = new Set<() => void>();
  const server: Server = createServer({ cert: cert.cert, key: cert.key }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void (async () => {
        const path = (req.url ?? '/').split('?')[0]!;
        let review: Review;
        try {
          review = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Review;
        } catch {
          res.writeHead(400).end('not JSON');
          return;
        }
        const list = received.get(path) ?? [];
        list.push(review);
        received.set(path, list);
        const handler = handlers.get(path) ?? (() => ({ allowed: true }));
        const answer = await handler(review);
        if ('hang' in answer) {
          hanging.add(() => res.destroy());
          return;
        }
        if ('raw' in answer) {
          const raw = answer.raw as { status: number; body: string; contentType?: string };
          res.writeHead(raw.status, { 'Content-Type': raw.contentType ?? 'application/json' }).end(raw.body);
          return;
        }
        const body = { apiVersion: review.apiVersion, kind: 'AdmissionReview', response: { uid: review.request.uid, ...answer } };
        res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(body));
      })();
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const bound = (server.address() as AddressInfo).port;
  return {
    url: `https://127.0.0.1:${bound}`,
    port: bound,
    received,
    on: (path, handler) => void handlers.set(path, handler),
    close: () =>
      new Promise<void>((resolve) => {
        for (const h of hanging) h();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
