/**
 * The pod-template-hash of a Deployment's ReplicaSets (kube-controller-manager's
 * controller.ComputeHash): FNV-32a over the pod template, then the collision count as 8
 * little-endian bytes, its decimal value encoded with apimachinery's SafeEncodeString alphabet.
 *
 * Upstream hashes the spew dump of the Go struct; here the template is hashed as JSON with
 * sorted keys, so a name is stable and collision-counted the same way, but not the same string
 * a cluster would pick for the same template.
 */
import type { Obj } from '../../rest.ts';

/** rand.SafeEncodeString's alphabet: no vowels (no words) and no look-alike characters. */
const alphanums = 'bcdfghjklmnpqrstvwxz2456789';

/** rand.SafeEncodeString: each byte of `s` mapped onto the alphabet. */
export function safeEncodeString(s: string): string {
  let out = '';
  for (const b of Buffer.from(s, 'utf8')) out += alphanums[b % alphanums.length];
  return out;
}

/** JSON with object keys sorted: the same template always gives the same bytes. */
function canonicalJSON(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonicalJSON).join(',')}]`;
  if (v !== null && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    const keys = Object.keys(o).filter((k) => o[k] !== undefined).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJSON(o[k])}`).join(',')}}`;
  }
  return JSON.stringify(v);
}

function fnv32a(bytes: Uint8Array, h = 0x811c9dc5): number {
  for (const b of bytes) {
    h ^= b;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

/** ComputeHash(template, collisionCount). */
export function computeHash(template: Obj | undefined, collisionCount?: number): string {
  let h = fnv32a(Buffer.from(canonicalJSON(template ?? {}), 'utf8'));
  if (collisionCount !== undefined) {
    const extra = new Uint8Array(8);
    new DataView(extra.buffer).setUint32(0, collisionCount >>> 0, true);
    h = fnv32a(extra, h);
  }
  return safeEncodeString(String(h));
}
