/**
 * The write path's shortcut through ObjectMeta coercion: for metadata in the shape clients send
 * (known fields of the right JSON types, no owner references or managed fields), the canonical
 * encoding that decodeObjectMeta + encodeObjectMeta would produce, built in one pass without the
 * general decoder. Anything else answers undefined and goes through the decoder, which stays the
 * reference (its error messages, unknown fields, malformed-field dropping). The result is always a
 * fresh object: the caller's metadata and its maps are never shared with it.
 */
import { formatRFC3339, parseRFC3339 } from '../apimachinery/index.ts';
import { isObject as isObjectImport } from './value.ts';

// Bound once: under the CommonJS interop tsx runs sources with, each use of an imported name is a getter call.
const isObject = isObjectImport;

const parse = parseRFC3339;
const format = formatRFC3339;

/**
 * encodeObjectMeta(decodeObjectMeta(md).meta) for metadata the decoder would accept without error
 * and without dropping anything; undefined when md is anything else (the caller decodes it).
 */
export function canonicalObjectMeta(md: unknown): Record<string, unknown> | undefined {
  if (!isObject(md)) return undefined;
  let name, generateName, namespace, selfLink, uid, resourceVersion: string | undefined;
  let generation: number | undefined;
  let creationTimestamp: string | null = null;
  let deletionTimestamp: string | undefined;
  let grace: number | undefined;
  let labels: Record<string, string> | undefined;
  let annotations: Record<string, string> | undefined;
  let finalizers: string[] | undefined;
  for (const k in md) {
    const v = md[k];
    switch (k) {
      case 'name':
      case 'generateName':
      case 'namespace':
      case 'selfLink':
      case 'uid':
      case 'resourceVersion': {
        if (v === null) continue;
        if (typeof v !== 'string') return undefined;
        if (k === 'name') name = v;
        else if (k === 'generateName') generateName = v;
        else if (k === 'namespace') namespace = v;
        else if (k === 'selfLink') selfLink = v;
        else if (k === 'uid') uid = v;
        else resourceVersion = v;
        continue;
      }
      case 'generation':
        if (v === null) continue;
        if (!Number.isSafeInteger(v)) return undefined;
        generation = v as number;
        continue;
      case 'deletionGracePeriodSeconds':
        if (v === null) continue;
        if (!Number.isSafeInteger(v)) return undefined;
        grace = (v as number) + 0; // -0 decodes as 0
        continue;
      case 'creationTimestamp':
      case 'deletionTimestamp': {
        if (v === null) continue;
        if (typeof v !== 'string') return undefined;
        const t = parse(v);
        if (!t.ok) return undefined;
        if (k === 'creationTimestamp') creationTimestamp = format(t.epochMs);
        else deletionTimestamp = format(t.epochMs);
        continue;
      }
      case 'labels':
      case 'annotations': {
        if (v === null) continue;
        const m = stringMap(v);
        if (m === undefined) return undefined;
        if (m === null) continue;
        if (k === 'labels') labels = m;
        else annotations = m;
        continue;
      }
      case 'finalizers': {
        if (v === null) continue;
        if (!Array.isArray(v)) return undefined;
        for (let i = 0; i < v.length; i++) if (typeof v[i] !== 'string') return undefined;
        finalizers = v as string[];
        continue;
      }
      default:
        // Owner references, managed fields and unknown fields: the decoder's job.
        return undefined;
    }
  }
  // encodeObjectMeta's field order and omitempty.
  const out: Record<string, unknown> = {};
  if (name) out.name = name;
  if (generateName) out.generateName = generateName;
  if (namespace) out.namespace = namespace;
  if (selfLink) out.selfLink = selfLink;
  if (uid) out.uid = uid;
  if (resourceVersion) out.resourceVersion = resourceVersion;
  if (generation) out.generation = generation;
  out.creationTimestamp = creationTimestamp;
  if (deletionTimestamp) out.deletionTimestamp = deletionTimestamp;
  if (grace !== undefined) out.deletionGracePeriodSeconds = grace;
  if (labels !== undefined) out.labels = labels;
  if (annotations !== undefined) out.annotations = annotations;
  if (finalizers !== undefined && finalizers.length > 0) out.finalizers = finalizers.slice();
  return out;
}

/**
 * A map[string]string as the decoder builds it (keys inserted in sorted order, null values as
 * ""): a copy; null for an empty map (omitted); undefined for a value that is not a string (left
 * to the decoder, which reports it or, for null, writes "").
 */
function stringMap(v: unknown): Record<string, string> | undefined | null {
  if (!isObject(v)) return undefined;
  let prev: string | undefined;
  let sorted = true;
  let n = 0;
  for (const k in v) {
    const e = v[k];
    // A "__proto__" key is lost by the decoder's assignment; the spread would keep it.
    if (typeof e !== 'string' || k === '__proto__') return undefined;
    if (prev !== undefined && !(prev < k)) sorted = false;
    prev = k;
    n++;
  }
  if (n === 0) return null;
  // Keys enumerated in sorted order come out of a spread in the same order a sorted insertion gives.
  if (sorted) return { ...(v as Record<string, string>) };
  const out: Record<string, string> = {};
  for (const k of Object.keys(v).sort()) out[k] = v[k] as string;
  return out;
}
