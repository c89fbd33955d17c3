/**
 * A `fetch` for servers whose certificates the process does not trust by default: the same call
 * shape and `Response` as the global fetch (which on Node 20 takes no CA or client certificate),
 * carried by node:https with an agent that trusts `ca` and presents `cert`/`key`. For tests that
 * make raw requests to a TLS server started by the harness.
 */
import { Agent, request } from 'node:https';
import { Readable } from 'node:stream';

export interface ClientTLS {
  /** PEM of the CA that signed the server's certificate. */
  ca: string;
  /** PEM of the client certificate and key to present, if any. */
  cert?: string;
  key?: string;
}

function headerPairs(h: RequestInit['headers']): [string, string][] {
  if (h === undefined) return [];
  if (h instanceof Headers) return [...h.entries()];
  if (Array.isArray(h)) return h.map(([k, v]) => [k!, v!]);
  return Object.entries(h as Record<string, string>);
}

async function bodyBytes(body: RequestInit['body']): Promise<Buffer | undefined> {
  if (body === undefined || body === null) return undefined;
  if (typeof body === 'string') return Buffer.from(body);
  if (body instanceof Uint8Array) return Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  if (body instanceof ArrayBuffer) return Buffer.from(body);
  return Buffer.from(await new Response(body).arrayBuffer());
}

/** A fetch over TLS with `tls`; `agent` is the https.Agent it uses (for node:https requests of one's own). */
export function tlsFetch(tls: ClientTLS): { fetch: typeof fetch; agent: Agent } {
  const agent = new Agent({ keepAlive: true, ca: tls.ca, ...(tls.cert !== undefined ? { cert: tls.cert, key: tls.key } : {}) });
  const f = async (input: string | URL | Request, init: RequestInit = {}): Promise<Response> => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const headers: Record<string, string> = {};
    for (const [k, v] of headerPairs(init.headers)) headers[k.toLowerCase()] = v;
    const body = await bodyBytes(init.body);
    if (body !== undefined) headers['content-length'] = String(body.length);
    const send = (retried: boolean) => new Promise<Response>((resolve, reject) => {
      const req = request(url, { method: init.method ?? 'GET', headers, agent, ...(init.signal ? { signal: init.signal } : {}) }, (res) => {
        const h = new Headers();
        for (const [k, v] of Object.entries(res.headers)) {
          if (v === undefined) continue;
          for (const one of Array.isArray(v) ? v : [v]) h.append(k, one);
        }
        const status = res.statusCode ?? 0;
        const noBody = status === 204 || status === 304 || init.method === 'HEAD';
        if (noBody) res.resume();
        resolve(new Response(noBody ? null : (Readable.toWeb(res) as ReadableStream), { status, statusText: res.statusMessage ?? '', headers: h }));
      });
      req.on('error', (e: NodeJS.ErrnoException) => {
        // A kept-alive socket the server closed as idle just as this request went out: the
        // request never reached it, so it is sent once more on a new connection (as node's docs
        // advise for req.reusedSocket, and as browsers do).
        if (!retried && req.reusedSocket && (e.code === 'ECONNRESET' || e.code === 'EPIPE')) resolve(send(true));
        else reject(new TypeError('fetch failed', { cause: e }));
      });
      req.end(body);
    });
    return send(false);
  };
  return { fetch: f as typeof fetch, agent };
}
