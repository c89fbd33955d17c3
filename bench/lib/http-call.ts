/**
 * One JSON request over a keep-alive agent, as the benches make it: Content-Length and a single
 * end() (like Go clients, and no chunked trailer left to Nagle); the answer's status and text.
 * An `https:` base goes over TLS with an https.Agent (which carries the CA and client certificate).
 */
import { request, type Agent } from 'node:http';
import { request as secureRequest, type Agent as SecureAgent } from 'node:https';

export function httpCall(
  agent: Agent | SecureAgent,
  base: string,
  method: string,
  path: string,
  body?: unknown,
  accept = 'application/json',
  contentType = 'application/json',
  extraHeaders: Record<string, string> = {},
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const data = body === undefined ? undefined : JSON.stringify(body);
    const headers: Record<string, string | number> = { Accept: accept, ...extraHeaders };
    if (data !== undefined) {
      headers['Content-Type'] = contentType;
      headers['Content-Length'] = Buffer.byteLength(data);
    }
    const send = base.startsWith('https:') ? secureRequest : request;
    const req = send(base + path, { method, agent: agent as Agent, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString() }));
    });
    req.on('error', reject);
    req.end(data);
  });
}
