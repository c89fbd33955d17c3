/**
 * JSONPatch mutations (k8s.io/apiserver pkg/admission/plugin/policy/mutating/patch
 * json_patch.go): the expression's list of `JSONPatch{op, path, from, value}` values becomes an
 * RFC 6902 patch applied to the object; a `test` operation that fails means the patch is not
 * applied at all (the object is returned unchanged), any other failure refuses.
 */
import { applyJSONPatch, JSONPatchError } from '../../../apimachinery/index.ts';
import { CelError, CelMap, type Val } from '../../../cel/index.ts';
import { patchObjectToJSON } from '../../../schema/index.ts';
import type { Obj } from '../../../registry/index.ts';
import { PatchError } from './apply-configuration.ts';

/** The RFC 6902 operations of a JSONPatch list value. */
export function jsonPatchOperations(v: Val): Obj[] {
  if (!Array.isArray(v)) throw new PatchError(`must evaluate to list(JSONPatch) but got ${typeof v}`);
  return v.map((item) => {
    if (!(item instanceof CelMap)) throw new PatchError('JSONPatch: each element must be a JSONPatch');
    const op: Obj = {};
    for (const k of ['op', 'path', 'from']) {
      const x = item.m.get(k);
      if (typeof x === 'string') op[k] = x;
    }
    if (item.m.has('value')) {
      const value = patchObjectToJSON(item.m.get('value')!, null);
      if (value instanceof CelError) throw new PatchError(value.message);
      op.value = value;
    }
    return op;
  });
}

/** The object with `ops` applied (the object itself when a `test` fails). Throws PatchError. */
export function applyJSONPatchMutation(object: Obj, ops: Obj[]): Obj {
  if (ops.length === 0) return object;
  try {
    return applyJSONPatch(object, ops) as Obj;
  } catch (e) {
    if (!(e instanceof JSONPatchError) && !(e instanceof Error)) throw e;
    // jsonpatch.ErrTestFailed: the patch's precondition did not hold.
    if (/: test failed$/.test(e.message)) return object;
    throw new PatchError(`JSON Patch: ${e.message}`);
  }
}
