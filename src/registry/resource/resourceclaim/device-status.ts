/**
 * A claim's device statuses (status.devices, AllocatedDeviceStatus) as upstream's
 * validateDeviceStatus checks them: driver, pool and device names, a share ID that is a UUID,
 * an allocated device (by driver, pool, device and share ID), at most 8 conditions, driver data
 * that is a JSON object of at most 10 KiB, and network data; each device named once.
 */
import { GoJSONText, invalid, tooMany, validateConditions, type FieldError, type Path } from '../../../apimachinery/index.ts';
import { list, rec, str } from '../../fieldvalues/fields.ts';
import { validateNetworkDeviceData } from '../device/network-data.ts';
import { validateUID } from '../device/uid.ts';
import { validateDNSLabel, validateDriverName, validatePoolName, validateRawExtension, validateSet, type Rec } from '../device/validation.ts';

const maxConditions = 8;
const dataMaxLength = 10 * 1024;

/**
 * structured.SharedDeviceID of a result or a device status as a comparable key: driver, pool,
 * device and share ID (an absent one is empty, as MakeSharedDeviceID makes it).
 */
export const sharedDeviceKey = (d: Rec): string => JSON.stringify([str(d.driver), str(d.pool), str(d.device), str(d.shareID)]);

/** The SharedDeviceID as a field error prints it: json.Marshal of the struct, its fields in declaration order. */
function sharedDeviceIDValue(d: Rec): GoJSONText {
  return new GoJSONText(JSON.stringify({ Driver: str(d.driver), Pool: str(d.pool), Device: str(d.device), ShareID: str(d.shareID) }));
}

/** The allocated devices of an allocation (gatherAllocatedDevices); none without one. */
export function allocatedDevices(allocation: Rec | undefined): Set<string> {
  return new Set(list(rec(allocation?.devices).results).map((r) => sharedDeviceKey(rec(r))));
}

/** validateDeviceStatus */
export function validateDeviceStatus(d: Rec, p: Path, allocated: ReadonlySet<string>): FieldError[] {
  const errs = [...validateDriverName(str(d.driver), p.child('driver')), ...validatePoolName(str(d.pool), p.child('pool')), ...validateDNSLabel(str(d.device), p.child('device'))];
  if (typeof d.shareID === 'string') errs.push(...validateUID(d.shareID, p.child('shareID')));
  if (!allocated.has(sharedDeviceKey(d))) errs.push(invalid(p, sharedDeviceIDValue(d), 'must be an allocated device in the claim'));
  const conditions = list(d.conditions);
  if (conditions.length > maxConditions) errs.push(tooMany(p.child('conditions'), conditions.length, maxConditions));
  errs.push(...validateConditions(d.conditions, p.child('conditions')));
  // Data is optional: a nil RawExtension (absent or null) is not checked.
  if (d.data !== undefined && d.data !== null) errs.push(...validateRawExtension(d.data, p.child('data'), false, dataMaxLength));
  errs.push(...validateNetworkDeviceData(d.networkData, p.child('networkData')));
  return errs;
}

/** status.devices: each by validateDeviceStatus, then a Duplicate (the SharedDeviceID) for each device named before. */
export function validateDeviceStatuses(devices: unknown, p: Path, allocation: Rec | undefined): FieldError[] {
  const allocated = allocatedDevices(allocation);
  return validateSet<unknown>(devices, -1, (d, dp) => validateDeviceStatus(rec(d), dp, allocated), (d) => sharedDeviceIDValue(rec(d)), p);
}
