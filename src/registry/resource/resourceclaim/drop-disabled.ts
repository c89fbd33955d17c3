/**
 * ResourceClaim's and ResourceClaimTemplate's fields behind alpha gates, dropped on write as
 * upstream's strategies drop them (pkg/api/resourceclaimspec DropDisabledFields for a claim
 * spec; resourceclaim's dropDisabledStatusFields and dropDeallocatedStatusDevices for a status
 * write). With 1.35's defaults that is device tolerations (DRADeviceTaints), requested capacity
 * and `distinctAttribute` constraints (DRAConsumableCapacity) in a spec, share IDs and consumed
 * capacity (DRAConsumableCapacity) and binding conditions (DRADeviceBindingConditions) in a
 * status. A field the stored object already uses is kept, so that an update unrelated to it
 * does not lose it.
 */
import { enabled } from '../feature-gates.ts';
import { child, clear, hasItems, isSet, items } from '../drop-fields.ts';
import type { Rec } from '../device/validation.ts';
import { sharedDeviceKey } from './device-status.ts';

const requests = (spec: Rec | undefined) => items(child(spec, 'devices'), 'requests');

function deviceTaintsInUse(spec: Rec | undefined): boolean {
  return requests(spec).some((r) => hasItems(child(r, 'exactly'), 'tolerations') || items(r, 'firstAvailable').some((s) => hasItems(s, 'tolerations')));
}

/** DRAConsumableCapacityFeatureInUse of a claim spec. */
function consumableCapacityInSpec(spec: Rec | undefined): boolean {
  if (items(child(spec, 'devices'), 'constraints').some((c) => isSet(c, 'distinctAttribute'))) return true;
  return requests(spec).some((r) => isSet(child(r, 'exactly'), 'capacity') || items(r, 'firstAvailable').some((s) => isSet(s, 'capacity')));
}

/**
 * resourceclaimspec.DropDisabledFields: `spec` is the new claim spec, `oldSpec` the stored one
 * (undefined on create). MUTATES spec.
 */
export function dropDisabledSpecFields(spec: Rec | undefined, oldSpec: Rec | undefined): void {
  // DRAPrioritizedList and DRAAdminAccess are on in 1.35: firstAvailable and adminAccess stay.
  if (!enabled('DRADeviceTaints') && !deviceTaintsInUse(oldSpec)) {
    for (const r of requests(spec)) {
      clear(child(r, 'exactly'), 'tolerations');
      for (const s of items(r, 'firstAvailable')) clear(s, 'tolerations');
    }
  }
  if (!enabled('DRAConsumableCapacity') && !consumableCapacityInSpec(oldSpec)) {
    for (const c of items(child(spec, 'devices'), 'constraints')) clear(c, 'distinctAttribute');
    for (const r of requests(spec)) {
      clear(child(r, 'exactly'), 'capacity');
      for (const s of items(r, 'firstAvailable')) clear(s, 'capacity');
    }
  }
}

const results = (claim: Rec | undefined) => items(child(child(child(claim, 'status'), 'allocation'), 'devices'), 'results');

function consumableCapacityInClaim(claim: Rec | undefined): boolean {
  if (claim === undefined) return false;
  if (consumableCapacityInSpec(child(claim, 'spec'))) return true;
  if (results(claim).some((r) => isSet(r, 'shareID') || isSet(r, 'consumedCapacity'))) return true;
  return items(child(claim, 'status'), 'devices').some((d) => isSet(d, 'shareID'));
}

const bindingConditionsInUse = (claim: Rec | undefined) => results(claim).some((r) => isSet(r, 'bindingConditions') || isSet(r, 'bindingFailureConditions'));

/** resourceclaim's dropDisabledStatusFields on a status write. MUTATES claim. */
export function dropDisabledStatusFields(claim: Rec, old: Rec): void {
  // DRAResourceClaimDeviceStatus and DRAAdminAccess are on in 1.35: status.devices and adminAccess stay.
  if (!enabled('DRAConsumableCapacity') && !consumableCapacityInClaim(old)) {
    for (const r of results(claim)) clear(r, 'shareID', 'consumedCapacity');
    for (const d of items(child(claim, 'status'), 'devices')) clear(d, 'shareID');
  }
  if (!enabled('DRADeviceBindingConditions') && !bindingConditionsInUse(old)) {
    for (const r of results(claim)) clear(r, 'bindingConditions', 'bindingFailureConditions');
  }
}

/**
 * dropDeallocatedStatusDevices: the device statuses of devices the stored allocation had and
 * this one has not are removed (stale entries after deallocation); no device status left is none.
 * MUTATES claim.
 */
export function dropDeallocatedStatusDevices(claim: Rec, old: Rec): void {
  const status = child(claim, 'status');
  if (!enabled('DRAResourceClaimDeviceStatus') && !hasItems(child(old, 'status'), 'devices')) return;
  const deallocated = new Set(results(old).map(sharedDeviceKey));
  for (const r of results(claim)) deallocated.delete(sharedDeviceKey(r));
  if (status === undefined || !isSet(status, 'devices')) return;
  const kept = items(status, 'devices').filter((d) => !deallocated.has(sharedDeviceKey(d)));
  if (kept.length === 0) delete status.devices;
  else status.devices = kept;
}
