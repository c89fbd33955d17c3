/**
 * The console's calls to the API server: same origin, with the credentials the page was loaded
 * with (the browser's, nothing added), as any other client. Failures come back as the server's
 * Status; watches are read as the stream of JSON lines the server writes.
 */

export interface Status {
  kind?: string;
  code?: number;
  reason?: string;
  message?: string;
  details?: { causes?: { field?: string; message?: string; reason?: string }[] };
}

/** A failed request: its Status (a synthesised one when the answer was not a Status). */
export class APIError extends Error {
  constructor(readonly status: Status) {
    super(status.message ?? `request failed (${status.code ?? 'no response'})`);
  }
}

async function failure(res: Response): Promise<APIError> {
  const text = await res.text();
  try {
    const s = JSON.parse(text) as Status;
    if (s && s.kind === 'Status') return new APIError(s);
  } catch {
    // not JSON
  }
  return new APIError({ code: res.status, message: `${res.status} ${res.statusText}: ${text.slice(0, 200)}` });
}

export const tableAccept = 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json';
export const discoveryAccept = 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json';

/** GET a JSON document. */
export async function getJSON<T = unknown>(path: string, accept = 'application/json', signal?: AbortSignal): Promise<T> {
  const res = await fetch(path, { headers: { Accept: accept }, credentials: 'same-origin', ...(signal ? { signal } : {}) });
  if (!res.ok) throw await failure(res);
  return (await res.json()) as T;
}

/** A write: the answer's object and warnings, or an APIError. */
export async function send(method: string, path: string, body: string, contentType: string): Promise<{ object: unknown; warnings: string[] }> {
  const res = await fetch(path, { method, body, headers: { 'Content-Type': contentType, Accept: 'application/json' }, credentials: 'same-origin' });
  if (!res.ok) throw await failure(res);
  const warnings = (res.headers.get('Warning') ?? '')
    .split(/,\s*(?=299 )/)
    .filter((w) => w !== '')
    .map((w) => w.replace(/^299 - "/, '').replace(/"$/, '').replace(/\\"/g, '"'));
  return { object: await res.json(), warnings };
}

/**
 * Follows a watch: calls onEvent for each event until the signal aborts or the stream ends
 * (resolves then; the caller decides whether to list and watch again).
 */
export async function watch(path: string, onEvent: (e: { type: string; object: unknown }) => void, signal: AbortSignal): Promise<void> {
  const res = await fetch(path, { headers: { Accept: 'application/json' }, credentials: 'same-origin', signal });
  if (!res.ok || res.body === null) throw await failure(res);
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  let buf = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buf += value;
    let nl: number;
    while ((nl = buf.indexOf('\n')) >= 0) {
      const line = buf.slice(0, nl).trim();
      buf = buf.slice(nl + 1);
      if (line !== '') onEvent(JSON.parse(line) as { type: string; object: unknown });
    }
  }
}

/** The URL path of a resource collection or object. */
export function resourcePath(r: { group: string; version: string; resource: string }, namespace?: string, name?: string): string {
  const base = r.group === '' ? `/api/${r.version}` : `/apis/${r.group}/${r.version}`;
  const ns = namespace ? `/namespaces/${encodeURIComponent(namespace)}` : '';
  return `${base}${ns}/${r.resource}${name !== undefined ? `/${encodeURIComponent(name)}` : ''}`;
}
