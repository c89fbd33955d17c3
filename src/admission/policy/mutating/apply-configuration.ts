/**
 * ApplyConfiguration mutations (k8s.io/apiserver pkg/admission/plugin/policy/mutating/patch
 * smd.go's ApplyStructuredMergeDiff): the apply configuration typed with the object's schema
 * (undeclared fields refused), refused when it sets an atomic list, map or struct (a mutation
 * may only add to or change granular fields), then merged over the object by server-side apply's
 * merge — associative lists by key, maps by field.
 */
import { resolveMergeType, TypedError, type MergeAtom, type MergeSchema, type MergeTypeRef, type TypeConverter } from '../../../apimachinery/index.ts';
import type { Obj } from '../../../registry/index.ts';

/** A mutation that could not be applied, worded as upstream's patcher words it. */
export class PatchError extends Error {}

const isObject = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

/** findAtomics: the paths (`.spec.selector`, `.a[0].b`) where `v` sets an atomic value. */
function findAtomics(path: string, s: MergeSchema, tr: MergeTypeRef, v: unknown): string[] {
  const a: MergeAtom | undefined = resolveMergeType(s, tr);
  if (a === undefined) return [];
  if (isObject(v) && a.map !== undefined) {
    if (a.map.elementRelationship === 'atomic') return [path];
    const out: string[] = [];
    for (const [k, x] of Object.entries(v)) {
      const f = a.map.fields?.find((fl) => fl.name === k);
      if (f !== undefined) out.push(...findAtomics(`${path}.${k}`, s, f.type, x));
    }
    return out;
  }
  if (Array.isArray(v) && a.list !== undefined) {
    if (a.list.elementRelationship === 'atomic') return [path];
    return v.flatMap((x, i) => findAtomics(`${path}[${i}]`, s, a.list!.elementType, x));
  }
  return [];
}

/**
 * The object with `patch` applied (neither is changed). `patch` takes the object's apiVersion and
 * kind. Throws PatchError with upstream's message.
 */
export function applyConfiguration(tc: TypeConverter, object: Obj, patch: Obj): Obj {
  const p: Obj = { ...patch, apiVersion: object.apiVersion, kind: object.kind };
  let patchTyped;
  try {
    patchTyped = tc.objectToTyped(p, { allowDuplicates: true });
  } catch (e) {
    throw new PatchError(`error applying patch: failed to convert patch object to typed object: ${(e as Error).message}`);
  }
  const atomics = findAtomics('', patchTyped.schema, patchTyped.typeRef, patchTyped.value);
  if (atomics.length > 0) throw new PatchError(`error applying patch: invalid ApplyConfiguration: may not mutate atomic arrays, maps or structs: ${atomics.join(', ')}`);
  let live;
  try {
    live = tc.objectToTyped(object, { allowDuplicates: true });
  } catch (e) {
    throw new PatchError(`error applying patch: failed to convert original object to typed object: ${(e as Error).message}`);
  }
  try {
    return tc.typedToObject(live.merge(patchTyped));
  } catch (e) {
    if (e instanceof TypedError) throw new PatchError(`error applying patch: failed to merge patch: ${e.message}`);
    throw e;
  }
}
