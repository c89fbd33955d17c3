/**
 * Strategic merge patch (`application/strategic-merge-patch+json`) for built-in kinds, as
 * kube-apiserver applies it: k8s.io/apimachinery/pkg/util/strategicpatch with merge keys and
 * strategies from the kind's OpenAPI v3 schema.
 *
 *   const schema = OpenAPIV3PatchMeta.forKind(appsV1Doc, { group: 'apps', version: 'v1', kind: 'Deployment' });
 *   const patched = strategicMergePatch(current, patch, schema);   // throws StrategicMergePatchError
 */
import { errBadJSONDoc, fromPanic, StrategicMergePatchError } from './errors.ts';
import { GoPanic, isMap, setOwn, type JSONMap } from './go-value.ts';
import { mergeMap } from './merge.ts';
import type { PatchMetaLookup } from './meta.ts';

export { StrategicMergePatchError } from './errors.ts';
export type { StatusCode } from './errors.ts';
export { OpenAPIV3PatchMeta } from './meta.ts';
export { goSprint } from './go-value.ts';
export type { LookupResult, OpenAPIDocument, OpenAPISchema, PatchMeta, PatchMetaLookup } from './meta.ts';

/**
 * A deep copy of JSON data that keeps keys such as `__proto__` as plain members. Iterative, since
 * a request may nest 10000 levels deep.
 */
function copyJSON(v: unknown): unknown {
  const shell = (e: unknown): unknown => (Array.isArray(e) ? new Array(e.length) : isMap(e) ? {} : e);
  const root = shell(v);
  const todo: Array<[unknown, unknown]> = root === v ? [] : [[v, root]];
  while (todo.length > 0) {
    const [src, dst] = todo.pop()!;
    if (Array.isArray(src)) {
      const out = dst as unknown[];
      for (let i = 0; i < src.length; i++) {
        const e = src[i];
        out[i] = shell(e);
        if (out[i] !== e) todo.push([e, out[i]]);
      }
    } else {
      const out = dst as JSONMap;
      for (const [k, e] of Object.entries(src as JSONMap)) {
        const c = shell(e);
        setOwn(out, k, c);
        if (c !== e) todo.push([e, c]);
      }
    }
  }
  return root;
}

/**
 * StrategicMergeMapPatchUsingLookupPatchMeta: `patch` applied to `original` (the current object
 * as JSON data). Neither input is changed; the result shares nothing with them. A patch that is
 * null is an empty patch; one that is not an object is rejected as upstream's JSON decoder rejects
 * it. Every failure is a StrategicMergePatchError carrying upstream's message and the HTTP status
 * to answer with.
 */
export function strategicMergePatch(original: JSONMap, patch: unknown, schema: PatchMetaLookup): JSONMap {
  return applyStrategicMergePatch(original, patch, schema).object;
}

/**
 * strategicMergePatch, also answering the patch as upstream leaves it after merging (directives
 * and the lists they ordered removed, nulls dropped from values taken whole): kube-apiserver's
 * patch handler prints that map with `%+v` (goSprint) when the patched object then fails to
 * decode (`patch: Invalid value: "map[...]": ...`). The two may share structure, as upstream's
 * do: print the patch before changing the object.
 */
export function applyStrategicMergePatch(
  original: JSONMap,
  patch: unknown,
  schema: PatchMetaLookup,
): { object: JSONMap; patch: JSONMap } {
  if (patch === null || patch === undefined) return { object: copyJSON(original) as JSONMap, patch: {} };
  if (!isMap(patch)) {
    const kind = Array.isArray(patch) ? 'array' : typeof patch === 'string' ? 'string' : typeof patch === 'boolean' ? 'bool' : 'number';
    throw new StrategicMergePatchError(`json: cannot unmarshal ${kind} into Go value of type map[string]interface {}`, 400);
  }
  const p = copyJSON(patch) as JSONMap;
  try {
    return { object: mergeMap(copyJSON(original) as JSONMap, p, schema), patch: p };
  } catch (e) {
    if (e instanceof GoPanic) throw fromPanic(e);
    throw e;
  }
}

/**
 * StrategicMergePatchUsingLookupPatchMeta on JSON text: `invalid JSON document` (400) when either
 * text is not a JSON object (or null); otherwise as strategicMergePatch.
 */
export function strategicMergePatchJSON(original: string, patch: string, schema: PatchMetaLookup): JSONMap {
  const decode = (text: string): JSONMap => {
    let v: unknown;
    try {
      v = JSON.parse(text);
    } catch {
      throw errBadJSONDoc();
    }
    if (v === null) return {};
    if (!isMap(v)) throw errBadJSONDoc();
    return v;
  };
  const o = decode(original);
  return strategicMergePatch(o, decode(patch), schema);
}
