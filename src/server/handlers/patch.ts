/**
 * PATCH bodies by content type, as k8s.io/apiserver's patch handler applies them: JSON patch
 * (RFC 6902) and JSON merge patch (RFC 7386) through apimachinery's patch modules, with the
 * handler's error mapping (an undecodable patch is 400, a failing JSON patch 422, more than
 * 10000 operations 413). Strategic merge patch is accepted for built-in kinds only, with the
 * merge keys and strategies of the kind's OpenAPI; server-side apply is not served yet.
 */
import { failureStatus, newBadRequest, newInvalid, newRequestEntityTooLarge, StatusError } from '../../apimachinery/index.ts';
import { applyJSONPatch, decodeJSONPatch, JSONPatchError, MaxJSONPatchOperations } from '../../apimachinery/index.ts';
import { applyMergePatch, MergePatchError } from '../../apimachinery/index.ts';
import { strategicMergePatch, StrategicMergePatchError } from '../../apimachinery/index.ts';
import { maxNestingDepth, nestingDepthError, valueDepth } from '../../apimachinery/index.ts';
import { canonicalJSON } from '../../apimachinery/index.ts';
import { invalid } from '../../apimachinery/index.ts';
import type { Obj } from '../../registry/index.ts';
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

function goKind(v: unknown): string {
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'string') return 'string';
  if (typeof v === 'number') return 'number';
  if (typeof v === 'boolean') return 'bool';
  return 'object';
}

/** NewGenericServerResponse(422, ...): how the handler reports a JSON patch that cannot apply. */
function patchApplyError(message: string): StatusError {
  return new StatusError(
    failureStatus(422, 'Invalid', 'the server rejected our request due to an error in our request', {
      causes: [{ reason: 'UnexpectedServerResponse', message }],
    }),
  );
}

/** Applies a decoded patch document of media type `mt` to `current`. */
export function applyPatch(served: ServedResource, mt: string, current: Obj, patch: unknown): Obj {
  let out: unknown;
  switch (mt) {
    case 'application/json-patch+json': {
      let ops;
      try {
        ops = decodeJSONPatch(patch);
      } catch (e) {
        throw newBadRequest(e instanceof Error ? e.message : String(e));
      }
      if (ops.length > MaxJSONPatchOperations) {
        throw newRequestEntityTooLarge(`The allowed maximum operations in a JSON patch is ${MaxJSONPatchOperations}, got ${ops.length}`);
      }
      try {
        out = applyJSONPatch(current, ops);
      } catch (e) {
        if (e instanceof JSONPatchError) throw patchApplyError(e.message);
        throw e;
      }
      // Operations can move or copy a subtree below another: the result may nest deeper than
      // any decoded body. Upstream the patched JSON then fails to decode, which the patcher
      // reports as an invalid `patch`.
      if (valueDepth(out) > maxNestingDepth) {
        const text = canonicalJSON(out);
        throw newInvalid({ group: '', kind: '' }, '', [
          invalid('patch', text, `couldn't get version/kind; json parse error: ${nestingDepthError(text)}`),
        ]);
      }
      break;
    }
    case 'application/strategic-merge-patch+json':
      try {
        out = strategicMergePatch(current, patch, served.patchMeta!());
      } catch (e) {
        if (e instanceof StrategicMergePatchError) throw e.code === 422 ? patchApplyError(e.message) : newBadRequest(e.message);
        throw e;
      }
      break;
    case 'application/merge-patch+json':
      try {
        out = applyMergePatch(current, patch);
      } catch (e) {
        if (e instanceof MergePatchError) throw newBadRequest(e.message);
        throw e;
      }
      break;
    default:
      throw newBadRequest(`unsupported patch type ${JSON.stringify(mt)}`);
  }
  if (!isObj(out)) throw newBadRequest(`json: cannot unmarshal ${goKind(out)} into Go value of type map[string]interface {}`);
  return out;
}
