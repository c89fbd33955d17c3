/**
 * The write path's shortcut through ObjectMeta coercion: for metadata in the shape clients send
 * (known fields of the right JSON types, no owner references or managed fields), the canonical
 * encoding that decodeObjectMeta + encodeObjectMeta would produce, built in one pass without the
 * general decoder. Anything else answers undefined and goes through the decoder, which stays the
 * reference (its error messages, unknown fields, malformed-field dropping). The result is a fresh
 * object that shares no map or list with the caller's metadata, unless the caller owns that
 * metadata and asks for it to be reused: metadata that is already canonical but for a missing
 * `creationTimestamp` (what clients send: name, namespace, sorted labels) is then brought to the
 * canonical form in place, which allocates nothing on the write path.
 */
import { formatRFC3339, parseRFC3339 } from '../apimachinery/index.ts';
import { isObject as isObjectImport } from './value.ts';

// Bound once: under the CommonJS interop tsx runs sources with, each use of an imported name is a getter call.
const isObject = isObjectImport;

const parse = parseRFC3339;
const format = formatRFC3339;

// encodeObjectMeta's field order: a field's rank is its place in it (-1: not a field it writes).
const CREATION = 7;
function rankOf(k: string): number {
  switch (k) {
    case 'name':
      return 0;
    case 'generateName':
      return 1;
    case 'namespace':
      return 2;
    case 'selfLink':
      return 3;
    case 'uid':
      return 4;
    case 'resourceVersion':
      return 5;
    case 'generation':
      return 6;
    case 'creationTimestamp':
      return CREATION;
    case 'deletionTimestamp':
      return 8;
    case 'deletionGracePeriodSeconds':
      return 9;
    case 'labels':
      return 10;
    case 'annotations':
      return 11;
    case 'finalizers':
      return 12;
    default:
      return -1;
  }
}

/**
 * encodeObjectMeta(decodeObjectMeta(md).meta) for metadata the decoder would accept without error
 * and without dropping anything; undefined when md is anything else (the caller decodes it).
 * With `reuse` (md belongs to the caller's object, which is being decoded), md itself is answered
 * when its fields are already the canonical ones in the canonical order (no nulls, empty values
 * or unsorted maps to drop or rewrite), with `creationTimestamp: null` put in its place when
 * missing. MUTATES md then; otherwise md is left alone.
 */
export function canonicalObjectMeta(md: unknown, reuse = false): Record<string, unknown> | undefined {
  if (!isObject(md)) return undefined;
  // Whether md is canonical so far: fields in rank order, each value as the encoding writes it.
  let same = reuse;
  let last = -1;
  let hasCreation = false;
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
    if (same) {
      const r = rankOf(k);
      // Out of order, or a value the encoding omits or rewrites (checked per field below).
      if (r <= last || v === null || v === '') same = false;
      else last = r;
    }
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
        if (v === 0) same = false; // omitted
        generation = v as number;
        continue;
      case 'deletionGracePeriodSeconds':
        if (v === null) continue;
        if (!Number.isSafeInteger(v)) return undefined;
        grace = (v as number) + 0; // -0 decodes as 0
        if (Object.is(v, -0)) same = false;
        continue;
      case 'creationTimestamp':
      case 'deletionTimestamp': {
        if (v === null) continue;
        if (typeof v !== 'string') return undefined;
        const t = parse(v);
        if (!t.ok) return undefined;
        const f = format(t.epochMs);
        if (f !== v) same = false;
        if (k === 'creationTimestamp') {
          creationTimestamp = f;
          hasCreation = true;
        } else deletionTimestamp = f;
        continue;
      }
      case 'labels':
      case 'annotations': {
        if (v === null) continue;
        const m = stringMap(v, same);
        if (m === undefined) return undefined;
        if (m === null) {
          same = false;
          continue;
        }
        if (m !== v) same = false;
        if (k === 'labels') labels = m;
        else annotations = m;
        continue;
      }
      case 'finalizers': {
        if (v === null) continue;
        if (!Array.isArray(v)) return undefined;
        for (let i = 0; i < v.length; i++) if (typeof v[i] !== 'string') return undefined;
        if (v.length === 0) same = false;
        finalizers = v as string[];
        continue;
      }
      default:
        // Owner references, managed fields and unknown fields: the decoder's job.
        return undefined;
    }
  }
  if (same) {
    if (!hasCreation) insertCreationTimestamp(md, last);
    return md;
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
 * Puts `creationTimestamp: null` into canonical metadata md at its place in the field order: the
 * fields after it (labels, annotations, ...) are taken out from the last one and put back after
 * it (deleting an object's last property keeps it a fast object; another would not).
 */
function insertCreationTimestamp(md: Record<string, unknown>, last: number): void {
  if (last > CREATION) {
    // Canonical metadata has no undefined values: a field is there when its value is defined.
    const dt = md.deletionTimestamp;
    const grace = md.deletionGracePeriodSeconds;
    const labels = md.labels;
    const annotations = md.annotations;
    const finalizers = md.finalizers;
    if (finalizers !== undefined) delete md.finalizers;
    if (annotations !== undefined) delete md.annotations;
    if (labels !== undefined) delete md.labels;
    if (grace !== undefined) delete md.deletionGracePeriodSeconds;
    if (dt !== undefined) delete md.deletionTimestamp;
    md.creationTimestamp = null;
    if (dt !== undefined) md.deletionTimestamp = dt;
    if (grace !== undefined) md.deletionGracePeriodSeconds = grace;
    if (labels !== undefined) md.labels = labels;
    if (annotations !== undefined) md.annotations = annotations;
    if (finalizers !== undefined) md.finalizers = finalizers;
    return;
  }
  md.creationTimestamp = null;
}

/**
 * A map[string]string as the decoder builds it (keys inserted in sorted order, null values as
 * ""): a copy (v itself with `reuse`, when its keys are sorted); null for an empty map
 * (omitted); undefined for a value that is not a string (left to the decoder, which reports it
 * or, for null, writes "").
 */
function stringMap(v: unknown, reuse: boolean): Record<string, string> | undefined | null {
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
  if (sorted) return reuse ? (v as Record<string, string>) : { ...(v as Record<string, string>) };
  const out: Record<string, string> = {};
  for (const k of Object.keys(v).sort()) out[k] = v[k] as string;
  return out;
}
