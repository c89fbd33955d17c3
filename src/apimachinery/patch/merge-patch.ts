/**
 * JSON Merge Patch (RFC 7386) as Kubernetes applies it, with gopkg.in/evanphx/json-patch.v4's
 * MergePatch: an object patch merges recursively (null deletes a key; nulls inside values that
 * replace a non-object are pruned); an array patch replaces the whole document (its nested
 * objects pruned of nulls); a null or scalar patch is rejected with `Invalid JSON Patch`, which
 * kube-apiserver returns as a 400 BadRequest.
 *
 * Inputs are never mutated; the result shares no structure with them. Work is linear in the
 * size of the patch plus the parts of the document it touches. Every walk keeps its own stack,
 * so documents and patches as deep as the decoder allows (10000 levels) merge.
 */
import { deepCopyJSON } from '../json/copy.ts';
import { jsonEqual } from '../json/equal.ts';

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

/** pruneNulls: a copy without null object members, at every level (array elements stay, even null). */
function pruneNulls(v: unknown): unknown {
  const empty = (x: unknown): Obj | unknown[] | undefined => (Array.isArray(x) ? [] : isObject(x) ? {} : undefined);
  const top = empty(v);
  if (top === undefined) return v;
  // Pairs (source, its copy being filled).
  const work: unknown[] = [v, top];
  const fill = (x: unknown): unknown => {
    const c = empty(x);
    if (c === undefined) return x;
    work.push(x, c);
    return c;
  };
  while (work.length > 0) {
    const dst = work.pop() as Obj | unknown[];
    const src = work.pop() as Obj | unknown[];
    if (Array.isArray(src)) for (const e of src) (dst as unknown[]).push(fill(e));
    else for (const [k, e] of Object.entries(src)) if (e !== null) setOwn(dst as Obj, k, fill(e));
  }
  return top;
}

/**
 * mergeDocs: a new object, cur with patch applied (merge at every level where both sides hold
 * an object; a non-object on either side is replaced by the patch's value, pruned of nulls).
 */
function mergeDocs(cur: Obj, patch: Obj): Obj {
  const root: Obj = {};
  const work: Array<[Obj, Obj, Obj]> = [[root, cur, patch]];
  while (work.length > 0) {
    const [out, c, p] = work.pop()!;
    // Members the patch leaves alone are copied, so that the result is independent of cur.
    for (const [k, v] of Object.entries(c)) setOwn(out, k, Object.prototype.hasOwnProperty.call(p, k) ? v : deepCopyJSON(v));
    for (const [k, v] of Object.entries(p)) {
      if (v === null) {
        delete out[k];
        continue;
      }
      const cv = Object.prototype.hasOwnProperty.call(c, k) ? c[k] : undefined;
      if (!isObject(cv)) setOwn(out, k, pruneNulls(v));
      else if (!isObject(v)) setOwn(out, k, deepCopyJSON(v));
      else {
        const child: Obj = {};
        setOwn(out, k, child);
        work.push([child, cv, v]);
      }
    }
  }
  return root;
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
  const root: Obj = {};
  // Objects present on both sides are diffed level by level; a sub-patch left empty is dropped
  // once its own level is done, deepest first.
  const work: Array<[Obj, Obj, Obj]> = [[root, original, modified]];
  const made: Array<[Obj, string, Obj]> = [];
  while (work.length > 0) {
    const [out, o, m] = work.pop()!;
    for (const k of Object.keys(o)) {
      if (!Object.prototype.hasOwnProperty.call(m, k)) setOwn(out, k, null);
    }
    for (const [k, mv] of Object.entries(m)) {
      const has = Object.prototype.hasOwnProperty.call(o, k);
      const ov = has ? o[k] : undefined;
      if (has && isObject(ov) && isObject(mv)) {
        const sub: Obj = {};
        setOwn(out, k, sub);
        made.push([out, k, sub]);
        work.push([sub, ov, mv]);
      } else if (!has || !jsonEqual(ov, mv)) {
        setOwn(out, k, deepCopyJSON(mv));
      }
    }
  }
  // A child is always made after its parent: going backwards removes empty leaves first.
  for (let i = made.length - 1; i >= 0; i--) {
    const [parent, k, sub] = made[i]!;
    if (Object.keys(sub).length === 0) delete parent[k];
  }
  return root;
}
