/**
 * resource.k8s.io ResourceSlice's native rules (ValidateResourceSlice[Update]): a driver and a
 * pool (name, a positive slice count, a non-negative generation) that an update keeps, with the
 * node name; exactly one of nodeName, nodeSelector (one term), allNodes or perDeviceNodeSelection;
 * shared counters or devices, not both; devices named once as DNS labels, with at most 32
 * attributes and capacities, attributes by qualified name holding exactly one valid value, taints
 * with a key and a known effect, and per-device node selection only where the slice asks for it;
 * counter sets named once with counters.
 */
import { GoJSONText, Path, invalid, isQualifiedName, isValidLabelValue, notSupported, required, tooLong, type FieldError } from '../../../apimachinery/index.ts';
import { nameIsDNSSubdomain } from '../../../apimachinery/index.ts';
import type { NativeRules } from '../../builtin/native.ts';
import { immutableField, list, ptr, rec, semanticEqual, str } from '../../fieldvalues/fields.ts';
import type { Obj } from '../../rest.ts';
import { validateBindingConditions } from '../device/binding-conditions.ts';
import { dropDisabledSliceFields } from './drop-disabled.ts';
import { countGeneration, startGeneration } from '../generation.ts';
import { validateNodeSelector } from '../../core/nodeselector/validation.ts';
import { limits, validateAttributeName, validateDNSLabel, validateDriverName, validatePoolName, validateSet, validateSlice, type Rec } from '../device/validation.ts';

const specPath = Path.of('spec');
const maxAttributesAndCapacities = 32;
const maxAttributeValueLength = 64;
const maxTaints = 4;
const attributeKeyMaxLength = 63 + 1 + 32;
const taintEffects = ['NoExecute', 'NoSchedule', 'None'];
const semverRe = /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(-(0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(\.(0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*)?(\+[0-9a-zA-Z-]+(\.[0-9a-zA-Z-]+)*)?$/;

/** truncateIfTooLong: a long map key shown with its middle elided. */
function truncate(s: string, maxLen: number): string {
  const max = Math.max(maxLen, 16);
  if (s.length <= max) return s;
  const remaining = max - 3;
  return `${s.slice(0, Math.floor((remaining + 1) / 2))}...${s.slice(s.length - Math.floor(remaining / 2))}`;
}

const nodeNameErrors = (name: string, p: Path) => nameIsDNSSubdomain(name, false).map((m) => invalid(p, name, m));

function validateAttributeValue(a: Rec, p: Path): FieldError[] {
  const errs: FieldError[] = [];
  let n = 0;
  if (typeof a.bool === 'boolean') n++;
  if (typeof a.int === 'number') n++;
  if (typeof a.string === 'string') {
    n++;
    if (a.string.length > maxAttributeValueLength) errs.push(tooLong(p.child('string'), '', maxAttributeValueLength));
  }
  if (typeof a.version === 'string') {
    n++;
    if (!semverRe.test(a.version)) errs.push(invalid(p.child('version'), a.version, 'must be a string compatible with semver.org spec 2.0.0'));
    if (a.version.length > maxAttributeValueLength) errs.push(tooLong(p.child('version'), '', maxAttributeValueLength));
  }
  if (n === 0) errs.push(invalid(p, '', 'exactly one value must be specified'));
  else if (n > 1) errs.push(invalid(p, new GoJSONText(JSON.stringify(a)), 'exactly one value must be specified'));
  return errs;
}

function validateTaint(t: Rec, p: Path): FieldError[] {
  const key = str(t.key);
  const errs = isQualifiedName(key).map((m) => invalid(p.child('key'), key, m));
  const value = str(t.value);
  if (value !== '') errs.push(...isValidLabelValue(value).map((m) => invalid(p.child('value'), value, m)));
  const effect = str(t.effect);
  if (effect === '') errs.push(required(p.child('effect'), ''));
  else if (!taintEffects.includes(effect)) errs.push(notSupported(p.child('effect'), effect, taintEffects));
  return errs;
}

const perDeviceDetail = 'exactly one of `nodeName`, `nodeSelector`, or `allNodes` is required when `perDeviceNodeSelection` is set to true in the ResourceSlice spec';

function validateDevice(d: Rec, old: Rec | undefined, p: Path, perDevice: boolean): FieldError[] {
  const errs = validateDNSLabel(str(d.name), p.child('name'));
  const attributes = rec(d.attributes);
  const capacity = rec(d.capacity);
  const total = Object.keys(attributes).length + Object.keys(capacity).length;
  if (total > maxAttributesAndCapacities) errs.push(invalid(p, total, `the total number of attributes and capacities must not exceed ${maxAttributesAndCapacities}`));
  for (const k of Object.keys(attributes).sort()) {
    errs.push(...validateAttributeName(k, p.child('attributes')), ...validateAttributeValue(rec(attributes[k]), p.child('attributes').key(truncate(k, attributeKeyMaxLength))));
  }
  if (old === undefined || !semanticEqual(old.capacity, d.capacity)) {
    for (const k of Object.keys(capacity).sort()) errs.push(...validateAttributeName(k, p.child('capacity')));
  }
  if (old === undefined || !semanticEqual(old.taints, d.taints)) errs.push(...validateSlice(d.taints, maxTaints, validateTaint, p.child('taints')));
  const set: string[] = [];
  if (perDevice) {
    if (typeof d.nodeName === 'string') {
      if (d.nodeName !== '') {
        set.push('`nodeName`');
        errs.push(...nodeNameErrors(d.nodeName, p.child('nodeName')));
      } else errs.push(invalid(p.child('nodeName'), '', 'must not be empty'));
    }
    const selector = ptr(d.nodeSelector);
    if (selector !== undefined) {
      set.push('`nodeSelector`');
      errs.push(...validateNodeSelector(selector, false, p.child('nodeSelector')));
    }
    if (typeof d.allNodes === 'boolean') {
      if (d.allNodes) set.push('`allNodes`');
      else errs.push(invalid(p.child('allNodes'), false, 'must be either unset or set to true'));
    }
    if (set.length === 0) errs.push(required(p, perDeviceDetail));
    else if (set.length > 1) errs.push(invalid(p, `{${set.join(', ')}}`, perDeviceDetail));
  } else if (d.nodeName !== undefined || d.nodeSelector !== undefined || d.allNodes !== undefined) {
    errs.push(invalid(p, null, '`nodeName`, `nodeSelector` and `allNodes` can only be set if `perDeviceNodeSelection` is set to true in the ResourceSlice spec'));
  }
  errs.push(...validateBindingConditions(d.bindingConditions, d.bindingFailureConditions, p));
  return errs;
}

function validateCounterSet(c: Rec, p: Path): FieldError[] {
  const name = str(c.name);
  const errs = name === '' ? [required(p.child('name'), '')] : validateDNSLabel(name, p.child('name'));
  const counters = rec(c.counters);
  if (Object.keys(counters).length === 0) errs.push(required(p.child('counters'), ''));
  else for (const k of Object.keys(counters).sort()) errs.push(...validateDNSLabel(k, p.child('counters')));
  return errs;
}

const nodeSelectionDetail = 'exactly one of `nodeName`, `nodeSelector`, `allNodes`, `perDeviceNodeSelection` is required';

/** validateResourceSliceSpec */
export function validateResourceSliceSpec(spec: Rec, oldSpec: Rec | undefined): FieldError[] {
  const errs = validateDriverName(str(spec.driver), specPath.child('driver'));
  const pool = rec(spec.pool);
  const pp = specPath.child('pool');
  errs.push(...validatePoolName(str(pool.name), pp.child('name')));
  const count = typeof pool.resourceSliceCount === 'number' ? pool.resourceSliceCount : 0;
  if (count <= 0) errs.push(invalid(pp.child('resourceSliceCount'), count, 'must be greater than zero'));
  const generation = typeof pool.generation === 'number' ? pool.generation : 0;
  if (generation < 0) errs.push(invalid(pp.child('generation'), generation, 'must be greater than or equal to zero'));
  if (oldSpec !== undefined) {
    errs.push(...immutableField(pool.name, rec(oldSpec.pool).name, pp.child('name'), str(pool.name)));
    errs.push(...immutableField(spec.driver, oldSpec.driver, specPath.child('driver'), str(spec.driver)));
    errs.push(...immutableField(spec.nodeName, oldSpec.nodeName, specPath.child('nodeName'), typeof spec.nodeName === 'string' ? spec.nodeName : null));
  }
  const set: string[] = [];
  if (typeof spec.nodeName === 'string') {
    if (spec.nodeName !== '') {
      set.push('`nodeName`');
      errs.push(...nodeNameErrors(spec.nodeName, specPath.child('nodeName')));
    } else errs.push(invalid(specPath.child('nodeName'), '', 'must be either unset or set to a non-empty string'));
  }
  const selector = ptr(spec.nodeSelector);
  if (selector !== undefined) {
    set.push('`nodeSelector`');
    errs.push(...validateNodeSelector(selector, false, specPath.child('nodeSelector')));
    const terms = list(selector.nodeSelectorTerms);
    if (terms.length !== 1) errs.push(invalid(specPath.child('nodeSelector', 'nodeSelectorTerms'), new GoJSONText(JSON.stringify(terms)), 'must have exactly one node selector term'));
  }
  for (const k of ['allNodes', 'perDeviceNodeSelection'] as const) {
    if (typeof spec[k] !== 'boolean') continue;
    if (spec[k]) set.push(`\`${k}\``);
    else errs.push(invalid(specPath.child(k), false, 'must be either unset or set to true'));
  }
  if (set.length === 0) errs.push(required(specPath, nodeSelectionDetail));
  else if (set.length > 1) errs.push(invalid(specPath, `{${set.join(', ')}}`, `${nodeSelectionDetail}, but multiple fields are set`));
  if (spec.sharedCounters !== undefined && spec.devices !== undefined) errs.push(invalid(specPath, '', 'only one of `sharedCounters` or `devices` is allowed'));
  const devices = list(spec.devices).map(rec);
  const advanced = devices.some((d) => list(d.taints).length > 0 || list(d.consumesCounters).length > 0);
  const oldDevices = new Map(list(oldSpec?.devices).map((d) => [str(rec(d).name), rec(d)]));
  const perDevice = spec.perDeviceNodeSelection === true;
  errs.push(
    ...validateSet<unknown>(
      spec.devices,
      advanced ? limits.sliceDevicesWithAdvancedFeatures : limits.sliceDevices,
      (d, p) => validateDevice(rec(d), oldSpec === undefined ? undefined : oldDevices.get(str(rec(d).name)), p, perDevice),
      (d) => str(rec(d).name),
      specPath.child('devices'),
    ),
  );
  errs.push(...validateSet<unknown>(spec.sharedCounters, limits.counterSets, (c, p) => validateCounterSet(rec(c), p), (c) => str(rec(c).name), specPath.child('sharedCounters')));
  return errs;
}

export const resourceSliceRules: NativeRules = {
  prepareForCreate: (_ctx, obj) => {
    startGeneration(obj);
    dropDisabledSliceFields(ptr(obj.spec), undefined);
  },
  // Upstream counts the generation before it drops fields: a write of only dropped fields counts.
  prepareForUpdate: (_ctx, obj, old) => {
    countGeneration(obj, old);
    dropDisabledSliceFields(ptr(obj.spec), ptr(old.spec));
  },
  validate: (_ctx, obj: Obj) => validateResourceSliceSpec(rec(obj.spec), undefined),
  validateUpdate: (_ctx, obj, old) => validateResourceSliceSpec(rec(obj.spec), rec(old.spec)),
};
