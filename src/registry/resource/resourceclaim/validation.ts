/**
 * resource.k8s.io ResourceClaim's native rules (ValidateResourceClaim[Update] and
 * ValidateResourceClaimStatusUpdate): requests named as DNS labels, each `exactly` (a class,
 * selectors, an allocation mode and count, tolerations) or `firstAvailable` subrequests;
 * constraints and configs that name known requests; the spec fixed after creation; in status,
 * consumers with resource, name and uid, only on an allocated claim and (while deleting) none
 * added, an allocation that is fixed once set and whose results (with their binding conditions
 * and share IDs) and configs name known requests, and device statuses (device-status.ts). Before
 * validation the strategies drop the fields of alpha gates (drop-disabled.ts); a status update's
 * admin-access errors (found by the claim's update hook, admin-access.ts) come first.
 */
import { GoJSONText, Path, forbidden, invalid, notSupported, required, type FieldError } from '../../../apimachinery/index.ts';
import type { NativeRules } from '../../builtin/native.ts';
import { list, ptr, rec, semanticEqual, str } from '../../fieldvalues/fields.ts';
import type { Obj } from '../../rest.ts';
import { validateNodeSelector } from '../../core/nodeselector/validation.ts';
import { withAdminAccessErrors } from '../admin-access.ts';
import { validateBindingConditions } from '../device/binding-conditions.ts';
import { validateUID } from '../device/uid.ts';
import { validateDeviceStatuses } from './device-status.ts';
import { dropDeallocatedStatusDevices, dropDisabledSpecFields, dropDisabledStatusFields } from './drop-disabled.ts';
import {
  gatherRequestNames, limits, validateDeviceClassRef, validateDeviceConfiguration, validateDNSLabel, validateDriverName, validateFullyQualifiedName,
  validatePoolName, validateRequestNameRef, validateRequestRefs, validateSelectors, validateSet, validateSlice, validateTolerations,
  type Rec, type RequestNames,
} from '../device/validation.ts';

const allocationModes = ['All', 'ExactCount'];
const configSources = ['FromClaim', 'FromClass'];

/** validateDeviceAllocationMode */
function validateAllocationMode(r: Rec, p: Path): FieldError[] {
  const mode = str(r.allocationMode);
  const count = typeof r.count === 'number' ? r.count : 0;
  if (mode === 'All') return count !== 0 ? [invalid(p.child('count'), count, "must not be specified when allocationMode is 'All'")] : [];
  if (mode === 'ExactCount') return count <= 0 ? [invalid(p.child('count'), count, 'must be greater than zero')] : [];
  return [notSupported(p.child('allocationMode'), mode, allocationModes)];
}

/** validateExactDeviceRequest / validateDeviceSubRequest's shared part. */
function validateDeviceRequestBody(r: Rec, p: Path, stored: boolean): FieldError[] {
  return [
    ...validateDeviceClassRef(str(r.deviceClassName), p.child('deviceClassName')),
    ...validateSelectors(r.selectors, p.child('selectors'), stored),
    ...validateAllocationMode(r, p),
    ...validateTolerations(r.tolerations, p.child('tolerations')),
  ];
}

function validateDeviceRequest(r: Rec, p: Path, stored: boolean): FieldError[] {
  const errs = validateDNSLabel(str(r.name), p.child('name'));
  const hasFirst = list(r.firstAvailable).length > 0;
  const hasExactly = ptr(r.exactly) !== undefined;
  if (!hasFirst && !hasExactly) errs.push(required(p, 'exactly one of `exactly` or `firstAvailable` is required'));
  else if (hasFirst && hasExactly) errs.push(invalid(p, null, 'exactly one of `exactly` or `firstAvailable` is required, but multiple fields are set'));
  else if (hasFirst) {
    errs.push(
      ...validateSet<unknown>(
        r.firstAvailable,
        limits.firstAvailable,
        (s, sp) => [...validateDNSLabel(str(rec(s).name), sp.child('name')), ...validateDeviceRequestBody(rec(s), sp, stored)],
        (s) => str(rec(s).name),
        p.child('firstAvailable'),
      ),
    );
  } else errs.push(...validateDeviceRequestBody(rec(r.exactly), p.child('exactly'), stored));
  return errs;
}

function validateConstraint(c: Rec, p: Path, names: RequestNames): FieldError[] {
  const errs = validateRequestRefs(c.requests, p.child('requests'), names);
  if (typeof c.matchAttribute === 'string') errs.push(...validateFullyQualifiedName(c.matchAttribute, p.child('matchAttribute')));
  else if (typeof c.distinctAttribute === 'string') errs.push(...validateFullyQualifiedName(c.distinctAttribute, p.child('distinctAttribute')));
  else errs.push(required(p.child('matchAttribute'), ''));
  return errs;
}

/** validateResourceClaimSpec (validateDeviceClaim); `stored`: its CEL was valid when stored. */
export function validateResourceClaimSpec(spec: Rec, fldPath: Path, stored: boolean): FieldError[] {
  const devices = rec(spec.devices);
  const p = fldPath.child('devices');
  const names = gatherRequestNames(devices);
  return [
    ...validateSet<unknown>(devices.requests, limits.deviceRequests, (r, rp) => validateDeviceRequest(rec(r), rp, stored), (r) => str(rec(r).name), p.child('requests')),
    ...validateSlice(devices.constraints, limits.constraints, (c, cp) => validateConstraint(c, cp, names), p.child('constraints')),
    ...validateSlice(devices.config, limits.config, (c, cp) => [...validateRequestRefs(c.requests, cp.child('requests'), names), ...validateDeviceConfiguration(c, cp, stored)], p.child('config')),
  ];
}

const specPath = Path.of('spec');

/** ValidateResourceClaimUpdate's part after ObjectMeta: the spec is fixed; its stored CEL is not compiled again. */
export function validateResourceClaimUpdate(obj: Obj, old: Obj): FieldError[] {
  const errs: FieldError[] = [];
  if (!semanticEqual(obj.spec, old.spec)) errs.push(invalid(specPath, new GoJSONText(JSON.stringify(rec(obj.spec))), 'field is immutable'));
  errs.push(...validateResourceClaimSpec(rec(obj.spec), specPath, true));
  return errs;
}

function validateAllocationResult(allocation: Rec, p: Path, names: RequestNames): FieldError[] {
  const devices = rec(allocation.devices);
  const dp = p.child('devices');
  const errs = validateSlice(
    devices.results,
    limits.allocationResults,
    (r, rp) => [
      ...validateRequestNameRef(str(r.request), rp.child('request'), names),
      ...validateDriverName(str(r.driver), rp.child('driver')),
      ...validatePoolName(str(r.pool), rp.child('pool')),
      ...validateDNSLabel(str(r.device), rp.child('device')),
      ...validateBindingConditions(r.bindingConditions, r.bindingFailureConditions, rp),
      ...(typeof r.shareID === 'string' ? validateUID(r.shareID, rp.child('shareID')) : []),
    ],
    dp.child('results'),
  );
  errs.push(
    ...validateSlice(
      devices.config,
      2 * limits.config,
      (c, cp) => {
        const source = str(c.source);
        const e: FieldError[] = source === '' ? [required(cp.child('source'), '')] : configSources.includes(source) ? [] : [notSupported(cp.child('source'), source, configSources)];
        return [...e, ...validateRequestRefs(c.requests, cp.child('requests'), names), ...validateDeviceConfiguration(c, cp, false)];
      },
      dp.child('config'),
    ),
  );
  const nodeSelector = ptr(allocation.nodeSelector);
  if (nodeSelector !== undefined) errs.push(...validateNodeSelector(nodeSelector, false, p.child('nodeSelector')));
  return errs;
}

/** ValidateResourceClaimStatusUpdate's part after ObjectMeta. */
export function validateResourceClaimStatusUpdate(obj: Obj, old: Obj): FieldError[] {
  const status = rec(obj.status);
  const oldStatus = rec(old.status);
  const p = Path.of('status');
  const names = gatherRequestNames(rec(rec(obj.spec).devices));
  const errs = validateSet<unknown>(
    status.reservedFor,
    limits.reservedFor,
    (v, rp) => {
      const r = rec(v);
      return ['resource', 'name', 'uid'].filter((k) => str(r[k]) === '').map((k) => required(rp.child(k), ''));
    },
    (v) => str(rec(v).uid),
    p.child('reservedFor'),
  );
  const allocation = ptr(status.allocation);
  errs.push(...validateDeviceStatuses(status.devices, p.child('devices'), allocation));
  const reserved = list(status.reservedFor);
  if (reserved.length > 0) {
    if (allocation === undefined) errs.push(forbidden(p.child('reservedFor'), 'may not be specified when `allocated` is not set'));
    else if (rec(obj.metadata).deletionTimestamp !== undefined) {
      const before = new Set(list(oldStatus.reservedFor).map((r) => JSON.stringify(r)));
      if (reserved.some((r) => !before.has(JSON.stringify(r)))) {
        errs.push(forbidden(p.child('reservedFor'), 'new entries may not be added while `deallocationRequested` or `deletionTimestamp` are set'));
      }
    }
  }
  const oldAllocation = ptr(oldStatus.allocation);
  if (oldAllocation !== undefined && allocation !== undefined) {
    if (!semanticEqual(allocation, oldAllocation)) errs.push(invalid(p.child('allocation'), new GoJSONText(JSON.stringify(allocation)), 'field is immutable'));
  } else if (allocation !== undefined) errs.push(...validateAllocationResult(allocation, p.child('allocation'), names));
  return errs;
}

export const resourceClaimRules: NativeRules = {
  prepareForCreate: (_ctx, obj) => dropDisabledSpecFields(ptr(obj.spec), undefined),
  validate: (ctx, obj) => withAdminAccessErrors(ctx, validateResourceClaimSpec(rec(obj.spec), specPath, false)),
  prepareForUpdate: (_ctx, obj, old) => dropDisabledSpecFields(ptr(obj.spec), ptr(old.spec)),
  validateUpdate: (_ctx, obj, old) => validateResourceClaimUpdate(obj, old),
  status: {
    prepareForUpdate: (_ctx, obj, old) => {
      dropDisabledStatusFields(obj, old);
      // After the drop: a share ID just dropped no longer tells devices apart.
      dropDeallocatedStatusDevices(obj, old);
    },
    validateUpdate: (ctx, obj, old) => withAdminAccessErrors(ctx, validateResourceClaimStatusUpdate(obj, old)),
  },
};
