/**
 * resource.k8s.io/v1 ResourceSlice's defaulting: SetDefaults_DeviceTaint stamps a device taint
 * without timeAdded with the current time, in whole seconds (so the first write fixes it: stored
 * objects keep theirs).
 */
import type { Obj } from '../../rest.ts';
import { child, items, unset } from '../../defaulting/fields.ts';

/** The current time as metav1.Time's JSON (RFC 3339, seconds, UTC). */
const nowSeconds = () => new Date().toISOString().replace(/\.\d+Z$/, 'Z');

/** MUTATES obj. */
export function defaultResourceSlice(obj: Obj): void {
  for (const device of items(child(obj, 'spec'), 'devices')) {
    for (const taint of items(device, 'taints')) if (unset(taint, 'timeAdded')) taint.timeAdded = nowSeconds();
  }
}

export const resourceSliceDefaulters = { 'resource.k8s.io/v1/resourceslices': defaultResourceSlice };
