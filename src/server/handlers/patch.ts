/**
 * PATCH bodies by content type, as the patch handler dispatches them: JSON patch (RFC 6902) and
 * JSON merge patch (RFC 7386) through apimachinery's patch modules; strategic merge patch only
 * for built-in kinds, where it is applied as a merge patch (Namespaces have no lists whose
 * strategy would differ for the fields clients patch); server-side apply is not yet served.
 */
import { newBadRequest } from '../../apimachinery/status.ts';
import { applyJSONPatch } from '../../apimachinery/patch/json-patch.ts';
import { applyMergePatch } from '../../apimachinery/patch/merge-patch.ts';
import type { Obj } from '../../registry/rest.ts';
import type { ServedResource } from '../served.ts';

/** The patch media types a resource accepts (the 415 message lists them). */
export function patchMediaTypes(s: ServedResource): string[] {
  const types = ['application/json-patch+json', 'application/merge-patch+json', 'application/apply-patch+yaml'];
  if (s.strategicMerge) types.push('application/strategic-merge-patch+json');
  return types;
}

function isObj(v: unknown): v is Obj {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** Applies a decoded patch document of media type `mt` to `current`; 400/422 for bad patches. */
export function applyPatch(mt: string, current: Obj, patch: unknown): Obj {
  let out: unknown;
  switch (mt) {
    case 'application/json-patch+json':
      if (!Array.isArray(patch)) throw newBadRequest('json: cannot unmarshal object into Go value of type jsonpatch.Patch');
      out = applyJSONPatch(current, patch);
      break;
    case 'application/merge-patch+json':
    case 'application/strategic-merge-patch+json':
      if (!isObj(patch)) {
        const what = Array.isArray(patch) ? 'array' : patch === null ? 'null' : typeof patch === 'string' ? 'string' : typeof patch;
        throw newBadRequest(`json: cannot unmarshal ${what} into Go value of type map[string]interface {}`);
      }
      out = applyMergePatch(current, patch);
      break;
    default:
      throw newBadRequest(`unsupported patch type ${JSON.stringify(mt)}`);
  }
  if (!isObj(out)) throw newBadRequest('the patched object is not a JSON object');
  return out;
}
