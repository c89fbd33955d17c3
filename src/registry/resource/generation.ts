/**
 * metadata.generation of DeviceClass and ResourceSlice, as their upstream strategies keep it:
 * 1 on create, one more on an update whose spec differs (Semantic.DeepEqual) from the stored one.
 */
import { rec, semanticEqual } from '../fieldvalues/fields.ts';
import type { Obj } from '../rest.ts';

/** PrepareForCreate's part. MUTATES obj. */
export function startGeneration(obj: Obj): void {
  rec(obj.metadata).generation = 1;
}

/** PrepareForUpdate's part: the stored generation, or one more when the spec changed. MUTATES obj. */
export function countGeneration(obj: Obj, old: Obj): void {
  const g = rec(old.metadata).generation;
  const stored = typeof g === 'number' ? g : 0;
  rec(obj.metadata).generation = semanticEqual(obj.spec, old.spec) ? stored : stored + 1;
}
