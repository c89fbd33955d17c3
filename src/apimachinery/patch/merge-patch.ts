/**
 * JSON Merge Patch (RFC 7386) as Kubernetes applies it, with gopkg.in/evanphx/json-patch.v4's
 * MergePatch: an object patch merges recursively (null deletes a key; nulls inside values that
 * replace a non-object are pruned); an array patch replaces the whole document (its nested
 * objects pruned of nulls); a null or scalar patch is rejected with `Invalid JSON Patch`, which
 * kube-apiserver returns as a 400 BadRequest.
 *
 * Inputs are never mutated; the result shares no structure with them. Work is linear in the
 * size of the patch plus the parts of the document it touches.
 */

export class MergePatchError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MergePatchError';
  }
}

/** jsonpatch.ErrBadJSONPatch */
export const ErrBadJSONPatch = 'Invalid JSON Patch';
/** jsonpatch.ErrBadJSONDoc */
export const ErrBadJSONDoc = 'Invalid JSON Document';

type Obj = Record<string, unknown>;

function isObject(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function setOwn(o: Obj, k: string, v: unknown): void {
  Object.defineProperty(o, k, { value: v, writable: true, enumerable: true, configurable: true });
}

/** pruneNulls: a copy without null object members, recursively (array elements stay, even null). */
function pruneNulls(v: unknown): unknown {
  if (Array.isArray(v)) return v.map((e) => (e === null ? null : pruneNulls(e)));
  if (isObject(v)) {
    const out: Obj = {};
    for (const [k, e] of Object.entries(v)) if (e !== null) setOwn(out, k, pruneNulls(e));
    return out;
  }
  return v;
}

/** A deep copy (JSON data only). */
function copy(v: unknown): unknown {
  return v === undefined ? v : structuredClone(v);
}

/** merge(cur, patch): both non-null. */
function merge(cur: unknown, patch: unknown): unknown {
  if (!isObject(cur)) return pruneNulls(patch);
  if (!isObject(patch)) return copy(patch);
  return mergeDocs(cur, patch);
}

/** mergeDocs: a new object, cur with patch applied. */
function mergeDocs(cur: Obj, patch: Obj): Obj {
  const out: Obj = {};
  for (const [k, v] of Object.entries(cur)) setOwn(out, k, v);
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) {
      delete out[k];
      continue;
    }
    const c = Object.prototype.hasOwnProperty.call(out, k) ? out[k] : undefined;
    setOwn(out, k, c === undefined || c === null ? pruneNulls(v) : merge(c, v));
  }
  // Untouched members still alias cur; copy them so that the result is independent.
  for (const k of Object.keys(out)) {
    if (!Object.prototype.hasOwnProperty.call(patch, k)) setOwn(out, k, copy(out[k]));
  }
  return out;
}

/** jsonpatch.MergePatch on parsed JSON; throws MergePatchError(ErrBadJSONPatch | ErrBadJSONDoc). */
export function applyMergePatch(doc: unknown, patch: unknown): unknown {
  if (doc === null || doc === undefined) throw new MergePatchError(ErrBadJSONDoc);
  if (patch === null || patch === undefined) throw new MergePatchError(ErrBadJSONPatch);
  if (isObject(doc) && isObject(patch)) return mergeDocs(doc, patch);
  if (isObject(patch)) return pruneNulls(patch);
  if (Array.isArray(patch)) return pruneNulls(patch);
  throw new MergePatchError(ErrBadJSONPatch);
}

/**
 * CreateMergePatch's object case: the merge patch that turns original into modified (null for
 * removed keys, nested objects diffed, everything else replaced whole).
 */
export function createMergePatch(original: Obj, modified: Obj): Obj {
  const out: Obj = {};
  for (const k of Object.keys(original)) {
    if (!Object.prototype.hasOwnProperty.call(modified, k)) setOwn(out, k, null);
  }
  for (const [k, mv] of Object.entries(modified)) {
    const has = Object.prototype.hasOwnProperty.call(original, k);
    const ov = has ? original[k] : undefined;
    if (has && isObject(ov) && isObject(mv)) {
      const sub = createMergePatch(ov, mv);
      if (Object.keys(sub).length > 0) setOwn(out, k, sub);
    } else if (!has || !deepEqual(ov, mv)) {
      setOwn(out, k, copy(mv));
    }
  }
  return out;
}

function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((x, i) => deepEqual(x, b[i]));
  if (isObject(a)) {
    if (!isObject(b)) return false;
    const ka = Object.keys(a);
    return ka.length === Object.keys(b).length && ka.every((k) => Object.prototype.hasOwnProperty.call(b, k) && deepEqual(a[k], b[k]));
  }
  return false;
}
