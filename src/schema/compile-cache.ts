/**
 * Compiled schema artefacts shared by content. Real CRD sets repeat themselves: a CRD's versions
 * often carry the same schema (Istio serves three identical ones), projects install the same CRD
 * under several groups, and one schema is compiled by the CRD write check, the served store and
 * the `validate` command alike. What is compiled from a schema depends only on the schema's JSON
 * and the compile options, so one compiled form serves every holder of an equal schema, for as long
 * as any holder is alive (the cache holds it weakly).
 */
import { createHash } from 'node:crypto';

const entries = new Map<string, WeakRef<object>>();
const registry = new FinalizationRegistry<string>((key) => {
  // Only the entry of the collected value: a new value may already live under the same key.
  if (entries.get(key)?.deref() === undefined) entries.delete(key);
});

/** The cache key of a JSON value under a kind of artefact and its options. */
export function contentKey(kind: string, json: unknown): string {
  return `${kind}\u0000${createHash('sha256').update(JSON.stringify(json) ?? 'undefined').digest('base64')}`;
}

/**
 * The artefact cached under `key`, else `build()`'s result, cached. Building must depend only on
 * what the key says (the schema's JSON and the options), and the artefact must not be mutated by
 * its holders.
 */
export function sharedByContent<T extends object>(key: string, build: () => T): T {
  const hit = entries.get(key)?.deref();
  if (hit !== undefined) return hit as T;
  const v = build();
  entries.set(key, new WeakRef(v));
  registry.register(v, key);
  return v;
}

/** How many artefacts are cached (for tests). */
export function sharedCount(): number {
  let n = 0;
  for (const r of entries.values()) if (r.deref() !== undefined) n++;
  return n;
}
