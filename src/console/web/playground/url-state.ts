/**
 * The playground's state in the page's URL (the fragment, so it never reaches a server's logs):
 * the environment, the expression, the input documents and the schema node, as base64url JSON,
 * so a link reproduces what the sender saw. A schema loaded from the server is kept by its CRD's
 * name rather than its text.
 */
import type { EnvName, PlaygroundInput } from './evaluate.ts';

export interface PlaygroundState extends PlaygroundInput {
  /** The CRD the schema came from (with a server): loaded again by name. */
  crd?: string;
}

const envs: readonly EnvName[] = ['crd', 'vap', 'map', 'dra', 'plain'];

function toBase64URL(s: string): string {
  const bytes = new TextEncoder().encode(s);
  let bin = '';
  for (const b of bytes) bin += String.fromCharCode(b);
  return btoa(bin).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64URL(s: string): string {
  const bin = atob(s.replace(/-/g, '+').replace(/_/g, '/'));
  return new TextDecoder().decode(Uint8Array.from(bin, (c) => c.charCodeAt(0)));
}

/** The fragment (`#s=...`) for a state. */
export function encodeState(st: PlaygroundState): string {
  const docs = { ...st.docs };
  if (st.crd !== undefined) delete docs.schema;
  const o: Record<string, unknown> = { e: st.env, x: st.expression, d: docs };
  if (st.node) o.n = st.node;
  if (st.version) o.v = st.version;
  if (st.crd) o.c = st.crd;
  return `#s=${toBase64URL(JSON.stringify(o))}`;
}

/** The state a fragment holds, or undefined when it holds none (or a damaged one). */
export function decodeState(hash: string): PlaygroundState | undefined {
  const m = /(?:^#|&)s=([A-Za-z0-9_-]+)/.exec(hash);
  if (!m) return undefined;
  try {
    const o = JSON.parse(fromBase64URL(m[1]!)) as { e?: string; x?: unknown; d?: Record<string, unknown>; n?: unknown; v?: unknown; c?: unknown };
    const env = envs.find((e) => e === o.e) ?? 'plain';
    const docs: Record<string, string> = {};
    for (const [k, v] of Object.entries(o.d ?? {})) if (typeof v === 'string') docs[k] = v;
    return {
      env,
      expression: typeof o.x === 'string' ? o.x : '',
      docs,
      ...(typeof o.n === 'string' ? { node: o.n } : {}),
      ...(typeof o.v === 'string' ? { version: o.v } : {}),
      ...(typeof o.c === 'string' ? { crd: o.c } : {}),
    };
  } catch {
    return undefined;
  }
}
