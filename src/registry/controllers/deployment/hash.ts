/**
 * The pod-template-hash of a Deployment's ReplicaSets (kube-controller-manager's
 * controller.ComputeHash): FNV-32a over go-spew's `%#v` of the template's Go value
 * (hash-spew.ts), then the collision count as 8 little-endian bytes, the decimal sum encoded with
 * apimachinery's SafeEncodeString alphabet. The same template gives the string a cluster gives
 * (`web-68d995574f` for `kubectl create deployment web --image=nginx`), checked against the Go
 * code's results in testdata/k8s-native/pod-template-hash/.
 */
import type { Obj } from '../../rest.ts';
import { spewPodTemplate } from './hash-spew.ts';

/** rand.SafeEncodeString's alphabet: no vowels (no words) and no look-alike characters. */
const alphanums = 'bcdfghjklmnpqrstvwxz2456789';

/** rand.SafeEncodeString: each byte of `s` mapped onto the alphabet. */
export function safeEncodeString(s: string): string {
  let out = '';
  for (const b of Buffer.from(s, 'utf8')) out += alphanums[b % alphanums.length];
  return out;
}

function fnv32a(bytes: Uint8Array, h = 0x811c9dc5): number {
  for (let i = 0; i < bytes.length; i++) {
    h ^= bytes[i]!;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

/** ComputeHash(template, collisionCount): the template as the server stored it (JSON). */
export function computeHash(template: Obj | undefined, collisionCount?: number): string {
  let h = fnv32a(Buffer.from(spewPodTemplate(template ?? {}), 'utf8'));
  if (collisionCount !== undefined) {
    const extra = new Uint8Array(8);
    new DataView(extra.buffer).setUint32(0, collisionCount >>> 0, true);
    h = fnv32a(extra, h);
  }
  return safeEncodeString(String(h));
}
