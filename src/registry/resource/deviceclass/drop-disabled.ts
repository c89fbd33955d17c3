/**
 * DeviceClass's fields behind alpha gates, dropped on write as upstream's dropDisabledFields
 * drops them: `extendedResourceName` (DRAExtendedResource, off in 1.35), unless the stored class
 * has one.
 */
import { enabled } from '../feature-gates.ts';
import { clear, isSet } from '../drop-fields.ts';
import type { Rec } from '../device/validation.ts';

/** MUTATES spec. */
export function dropDisabledClassFields(spec: Rec | undefined, oldSpec: Rec | undefined): void {
  if (!enabled('DRAExtendedResource') && !isSet(oldSpec, 'extendedResourceName')) clear(spec, 'extendedResourceName');
}
