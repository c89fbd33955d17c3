/**
 * Serving the console's files under /console/: the console page at `/console/`, the CEL
 * playground at `/console/cel`, their scripts and styles under `/console/assets/`. Asset names
 * carry their content hash, so they are cached for a year as immutable; the pages are not cached
 * (each carries its response's style nonce). Every response carries a content security policy
 * that allows only this origin's scripts, styles and API (no inline script, no eval, no frames).
 */
import { createHash, randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { newMethodNotAllowed, newNotFound, newServiceUnavailable } from '../apimachinery/index.ts';
import { bundleFile, ensureBundle, NONCE_PLACEHOLDER } from './bundle.ts';

/**
 * The policy of every console response: this origin only, nothing inline, nothing framed. The
 * editor's style sheets are the one exception, each page's carrying the nonce of its response.
 */
export function contentSecurityPolicy(styleNonce?: string): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
    `style-src 'self'${styleNonce ? ` 'nonce-${styleNonce}'` : ''}`,
    "connect-src 'self'",
    "img-src 'self' data:",
    "font-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

const types: Record<string, string> = {
  html: 'text/html; charset=utf-8',
  js: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
  png: 'image/png',
  svg: 'image/svg+xml',
  txt: 'text/plain; charset=utf-8',
};

/** The bundle file a console path names: pages by their route, assets by their name. */
function fileFor(rest: string[]): string | undefined {
  if (rest.length === 0) return 'index.html';
  if (rest.length === 1 && rest[0] === 'cel') return 'cel.html';
  if (rest.length === 2 && rest[0] === 'assets' && /^[A-Za-z0-9_.-]+$/.test(rest[1]!) && !rest[1]!.startsWith('.')) return `assets/${rest[1]}`;
  return undefined;
}

/**
 * Serves a request whose path starts with `/console`; `segs` are the path's segments, `console`
 * first. Throws Status errors (404 for a file the console does not have, 405 for anything but
 * GET and HEAD, 503 when the bundle is missing and cannot be built).
 */
export async function serveConsole(req: IncomingMessage, res: ServerResponse, segs: string[], trailingSlash: boolean): Promise<void> {
  const method = req.method ?? 'GET';
  if (method !== 'GET' && method !== 'HEAD') throw newMethodNotAllowed('the server does not allow this method on the requested resource');
  if (segs.length === 1 && !trailingSlash) {
    // Relative asset URLs resolve against the directory: `/console` is `/console/`.
    res.writeHead(301, { Location: '/console/', 'Content-Type': 'text/plain; charset=utf-8', 'Content-Security-Policy': contentSecurityPolicy() });
    res.end('Moved Permanently: /console/\n');
    return;
  }
  const rel = fileFor(segs.slice(1));
  if (rel === undefined) throw newNotFound({ group: '', resource: '' }, '');
  let dir: string;
  try {
    dir = await ensureBundle();
  } catch (e) {
    throw newServiceUnavailable(e instanceof Error ? e.message : String(e));
  }
  const file = bundleFile(dir, rel);
  if (file === undefined) throw newNotFound({ group: '', resource: '' }, '');
  const ext = rel.slice(rel.lastIndexOf('.') + 1);
  const common = { 'X-Content-Type-Options': 'nosniff', 'Referrer-Policy': 'no-referrer', 'Cross-Origin-Opener-Policy': 'same-origin' };
  if (ext === 'html') {
    // A page is never cached: each response has its own nonce.
    const nonce = randomBytes(18).toString('base64');
    const body = Buffer.from(file.body.toString('utf8').replaceAll(NONCE_PLACEHOLDER, nonce));
    res.writeHead(200, { ...common, 'Content-Type': types.html!, 'Cache-Control': 'no-store', 'Content-Security-Policy': contentSecurityPolicy(nonce), 'Content-Length': String(body.length) });
    res.end(method === 'HEAD' ? undefined : body);
    return;
  }
  // Assets are named by their content's hash: cached for a year, never revalidated.
  const etag = `"${createHash('sha256').update(file.body).digest('base64url').slice(0, 27)}"`;
  const headers: Record<string, string> = {
    ...common,
    'Content-Type': types[ext] ?? 'application/octet-stream',
    'Cache-Control': 'public, max-age=31536000, immutable',
    ETag: etag,
    'Content-Security-Policy': contentSecurityPolicy(),
  };
  if (req.headers['if-none-match'] === etag) {
    res.writeHead(304, headers);
    res.end();
    return;
  }
  headers['Content-Length'] = String(file.body.length);
  res.writeHead(200, headers);
  res.end(method === 'HEAD' ? undefined : file.body);
}
