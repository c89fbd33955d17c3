/**
 * ResourceSlice's fields behind alpha gates, dropped on write as upstream's dropDisabledFields
 * drops them: with 1.35's defaults that is device taints (DRADeviceTaints); shared counters,
 * per-device node selection and the devices' counter consumption (DRAPartitionableDevices);
 * binding conditions and bindsToNode (DRADeviceBindingConditions); allowMultipleAllocations and
 * capacity request policies (DRAConsumableCapacity). A field the stored slice already uses is
 * kept.
 */
import { enabled } from '../feature-gates.ts';
import { clear, hasItems, isSet, items } from '../drop-fields.ts';
import type { Rec } from '../device/validation.ts';
import { rec } from '../../fieldvalues/fields.ts';

const devices = (spec: Rec | undefined) => items(spec, 'devices');

const taintsInUse = (spec: Rec | undefined) => devices(spec).some((d) => hasItems(d, 'taints'));

function partitionableInUse(spec: Rec | undefined): boolean {
  if (spec === undefined) return false;
  if (hasItems(spec, 'sharedCounters') || isSet(spec, 'perDeviceNodeSelection')) return true;
  return devices(spec).some((d) => hasItems(d, 'consumesCounters') || isSet(d, 'nodeName') || isSet(d, 'nodeSelector') || isSet(d, 'allNodes'));
}

const bindingConditionsInUse = (spec: Rec | undefined) =>
  devices(spec).some((d) => hasItems(d, 'bindingConditions') || hasItems(d, 'bindingFailureConditions') || isSet(d, 'bindsToNode'));

const capacities = (d: Rec) => Object.values(rec(d.capacity)).filter((c) => c !== null && typeof c === 'object') as Rec[];

const consumableCapacityInUse = (spec: Rec | undefined) =>
  devices(spec).some((d) => isSet(d, 'allowMultipleAllocations') || capacities(d).some((c) => isSet(c, 'requestPolicy')));

/** dropDisabledFields: `spec` the new slice's spec, `oldSpec` the stored one (undefined on create). MUTATES spec. */
export function dropDisabledSliceFields(spec: Rec | undefined, oldSpec: Rec | undefined): void {
  if (!enabled('DRADeviceTaints') && !taintsInUse(oldSpec)) for (const d of devices(spec)) clear(d, 'taints');
  if (!enabled('DRAPartitionableDevices') && !partitionableInUse(oldSpec)) {
    clear(spec, 'sharedCounters', 'perDeviceNodeSelection');
    for (const d of devices(spec)) clear(d, 'consumesCounters', 'nodeName', 'nodeSelector', 'allNodes');
  }
  // Binding conditions need DRAResourceClaimDeviceStatus as well.
  const binding = enabled('DRADeviceBindingConditions') && enabled('DRAResourceClaimDeviceStatus');
  if (!binding && !bindingConditionsInUse(oldSpec)) {
    for (const d of devices(spec)) clear(d, 'bindingConditions', 'bindingFailureConditions', 'bindsToNode');
  }
  if (!enabled('DRAConsumableCapacity') && !consumableCapacityInUse(oldSpec)) {
    for (const d of devices(spec)) {
      clear(d, 'allowMultipleAllocations');
      for (const c of capacities(d)) clear(c, 'requestPolicy');
    }
  }
}

