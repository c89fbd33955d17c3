/**
 * Access to the ObjectMeta of objects held as plain JSON (what k8s.io/apimachinery's
 * `meta.Accessor` does for unstructured objects), plus the object helpers the registry needs:
 * deep copy, canonical JSON (keys sorted, as Go encodes unstructured maps) and semantic equality.
 */
import type { Obj } from './rest.ts';

// The JSON-value helpers live in apimachinery (depth-safe, one of each); re-exported for the registry.
export { deepCopyJSON as deepCopy } from '../apimachinery/index.ts';
export { canonicalJSON } from '../apimachinery/index.ts';
export { jsonEqual } from '../apimachinery/index.ts';

export type Meta = Record<string, unknown>;

/** The object's metadata map, created (and replaced when not a map) so callers can write to it. */
export function metaOf(obj: Obj): Meta {
  const m = obj.metadata;
  if (m !== null && typeof m === 'object' && !Array.isArray(m)) return m as Meta;
  const fresh: Meta = {};
  obj.metadata = fresh;
  return fresh;
}

/** A string field of metadata, '' when absent or not a string (as the Go accessors read it). */
export function metaString(obj: Obj, field: string): string {
  const m = obj.metadata as Meta | undefined;
  if (m === null || typeof m !== 'object') return '';
  const v = m[field];
  return typeof v === 'string' ? v : '';
}

export function getName(obj: Obj): string {
  return metaString(obj, 'name');
}

export function getNamespace(obj: Obj): string {
  return metaString(obj, 'namespace');
}

export function getUID(obj: Obj): string {
  return metaString(obj, 'uid');
}

export function getResourceVersion(obj: Obj): string {
  return metaString(obj, 'resourceVersion');
}

export function getGeneration(obj: Obj): number {
  const m = obj.metadata as Meta | undefined;
  const g = m && typeof m === 'object' ? m.generation : undefined;
  return typeof g === 'number' ? g : 0;
}

/** metadata.finalizers as strings (non-strings dropped: validation reports them). */
export function getFinalizers(obj: Obj): string[] {
  const m = obj.metadata as Meta | undefined;
  const f = m && typeof m === 'object' ? m.finalizers : undefined;
  return Array.isArray(f) ? f.filter((x): x is string => typeof x === 'string') : [];
}

/** metadata.labels as a string map (non-string values dropped: validation reports them). */
export function getLabels(obj: Obj): Record<string, string> {
  const m = obj.metadata as Meta | undefined;
  const l = m && typeof m === 'object' ? m.labels : undefined;
  const out: Record<string, string> = {};
  if (l !== null && typeof l === 'object' && !Array.isArray(l)) {
    for (const [k, v] of Object.entries(l as Record<string, unknown>)) if (typeof v === 'string') out[k] = v;
  }
  return out;
}

export function hasDeletionTimestamp(obj: Obj): boolean {
  const m = obj.metadata as Meta | undefined;
  return !!m && typeof m === 'object' && m.deletionTimestamp !== undefined && m.deletionTimestamp !== null;
}

/** Sets metadata.resourceVersion, keeping metadata's keys sorted (the stored order). */
export function setResourceVersion(obj: Obj, rv: string): void {
  const m = metaOf(obj);
  if (rv === '') {
    delete m.resourceVersion;
    return;
  }
  if (m.resourceVersion !== undefined) {
    m.resourceVersion = rv;
    return;
  }
  const out: Meta = {};
  let placed = false;
  for (const k of Object.keys(m)) {
    if (!placed && k > 'resourceVersion') {
      out.resourceVersion = rv;
      placed = true;
    }
    out[k] = m[k];
  }
  if (!placed) out.resourceVersion = rv;
  obj.metadata = out;
}
