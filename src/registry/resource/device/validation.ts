/**
 * The parts of pkg/apis/resource/validation that DeviceClass, ResourceClaim(Template) and
 * ResourceSlice share: bounded lists and sets (TooMany short-circuits, duplicates by key), device
 * selectors (CEL), opaque configuration (a driver and a JSON object of bounded size), request
 * names and references to them (`request` or `request/subrequest`), tolerations, driver, pool and
 * qualified attribute names.
 */
import {
  Path, duplicate, invalid, isCIdentifier, isDNS1123Label, isDNS1123Subdomain, isQualifiedName, isValidLabelValue, notSupported, required, tooLong, tooMany,
  type FieldError,
} from '../../../apimachinery/index.ts';
import { list, ptr, rec, str } from '../../fieldvalues/fields.ts';
import { validateCSIDriverName } from '../../core/persistentvolume/sources.ts';
import { validateSelectorExpression } from '../cel/selector.ts';

export type Rec = Record<string, unknown>;

/** k8s.io/api/resource limits. */
export const limits = {
  deviceRequests: 32,
  firstAvailable: 8,
  selectors: 32,
  constraints: 32,
  config: 32,
  allocationResults: 32,
  reservedFor: 256,
  opaqueParametersBytes: 10 * 1024,
  poolName: 253,
  deviceIDLength: 32,
  sliceDevices: 128,
  sliceDevicesWithAdvancedFeatures: 64,
  counterSets: 8,
};

/** validateSlice: at most max items (else only TooMany), each by its rules. */
export function validateSlice(v: unknown, max: number, item: (x: Rec, p: Path) => FieldError[], fldPath: Path): FieldError[] {
  const items = list(v);
  if (max >= 0 && items.length > max) return [tooMany(fldPath, items.length, max)];
  return items.flatMap((x, i) => item(rec(x), fldPath.index(i)));
}

/** validateSet: validateSlice, then a Duplicate at each item whose key came before. */
export function validateSet<T>(v: unknown, max: number, item: (x: T, p: Path) => FieldError[], key: (x: T) => unknown, fldPath: Path): FieldError[] {
  const items = list(v) as T[];
  if (max >= 0 && items.length > max) return [tooMany(fldPath, items.length, max)];
  const errs = items.flatMap((x, i) => item(x, fldPath.index(i)));
  const seen = new Set<string>();
  items.forEach((x, i) => {
    const k = JSON.stringify(key(x));
    if (seen.has(k)) errs.push(duplicate(fldPath.index(i), key(x)));
    else seen.add(k);
  });
  return errs;
}

export const validateDriverName = (name: string, p: Path): FieldError[] => validateCSIDriverName(name, p);
export const validateDNSLabel = (v: string, p: Path): FieldError[] => isDNS1123Label(v).map((m) => invalid(p, v, m));
export const validateDNSSubdomain = (v: string, p: Path): FieldError[] => isDNS1123Subdomain(v).map((m) => invalid(p, v, m));

/** validatePoolName: required, at most 253 bytes, each `/`-part a DNS subdomain. */
export function validatePoolName(name: string, p: Path): FieldError[] {
  if (name === '') return [required(p, '')];
  const errs: FieldError[] = name.length > limits.poolName ? [tooLong(p, '', limits.poolName)] : [];
  for (const part of name.split('/')) errs.push(...validateDNSSubdomain(part, p));
  return errs;
}

/** validateDeviceClass (a request's class name): required, a DNS subdomain. */
export function validateDeviceClassRef(name: string, p: Path): FieldError[] {
  return name === '' ? [required(p, '')] : validateDNSSubdomain(name, p);
}

/** validateSelector: a `cel` selector, whose expression compiles (unless stored). */
export function validateSelector(selector: Rec, p: Path, stored: boolean): FieldError[] {
  const cel = ptr(selector.cel);
  if (cel === undefined) return [required(p.child('cel'), '')];
  return validateSelectorExpression(str(cel.expression), p.child('cel', 'expression'), stored);
}

export const validateSelectors = (v: unknown, p: Path, stored: boolean): FieldError[] => validateSlice(v, limits.selectors, (s, sp) => validateSelector(s, sp, stored), p);

/** validateRawExtension: present, within its size on create, a JSON object. */
export function validateRawExtension(v: unknown, p: Path, stored: boolean, maxLength: number): FieldError[] {
  if (v === undefined || v === null) return [required(p, '')];
  const raw = JSON.stringify(v);
  if (!stored && Buffer.byteLength(raw, 'utf8') > maxLength) return [tooLong(p, '', maxLength)];
  if (ptr(v) === undefined) return [invalid(p, '<value omitted>', 'must be a valid JSON object')];
  return [];
}

/** validateDeviceConfiguration: an opaque configuration (driver, parameters). */
export function validateDeviceConfiguration(config: Rec, p: Path, stored: boolean): FieldError[] {
  const opaque = ptr(config.opaque);
  if (opaque === undefined) return [required(p.child('opaque'), '')];
  const op = p.child('opaque');
  return [...validateDriverName(str(opaque.driver), op.child('driver')), ...validateRawExtension(opaque.parameters, op.child('parameters'), stored, limits.opaqueParametersBytes)];
}

/** The request names of a claim: each request, with its subrequests' names (none for `exactly`). */
export type RequestNames = Map<string, Set<string> | undefined>;

export function gatherRequestNames(devices: Rec): RequestNames {
  const names: RequestNames = new Map();
  for (const r of list(devices.requests).map(rec)) {
    const subs = list(r.firstAvailable).map((s) => str(rec(s).name));
    names.set(str(r.name), subs.length === 0 ? undefined : new Set(subs));
  }
  return names;
}

function hasRequest(names: RequestNames, ref: string): boolean {
  const parts = ref.split('/');
  if (parts.length > 2 || !names.has(parts[0]!)) return false;
  return parts.length === 1 || (names.get(parts[0]!)?.has(parts[1]!) ?? false);
}

const requestRefDetail = "must be the name of a request in the claim or the name of a request and a subrequest separated by '/'";

/** validateRequestNameRef */
export function validateRequestNameRef(name: string, p: Path, names: RequestNames): FieldError[] {
  const parts = name.split('/');
  if (parts.length > 2) return [invalid(p, name, requestRefDetail)];
  const errs = parts.flatMap((s) => validateDNSLabel(s, p));
  if (!hasRequest(names, name)) errs.push(invalid(p, name, requestRefDetail));
  return errs;
}

/** A list of request references: each known, none twice. */
export const validateRequestRefs = (v: unknown, p: Path, names: RequestNames): FieldError[] =>
  validateSet<unknown>(v, limits.deviceRequests, (n, np) => validateRequestNameRef(str(n), np, names), (n) => str(n), p);

const tolerationOperators = ['Equal', 'Exists'];
const taintEffects = ['NoExecute', 'NoSchedule', 'None'];

const labelValueErrors = (v: string, p: Path) => isValidLabelValue(v).map((m) => invalid(p, v, m));

/** validateDeviceToleration */
export function validateDeviceToleration(t: Rec, p: Path): FieldError[] {
  const errs: FieldError[] = [];
  const key = str(t.key);
  if (key !== '') errs.push(...isQualifiedName(key).map((m) => invalid(p.child('key'), key, m)));
  const value = str(t.value);
  switch (str(t.operator)) {
    case 'Exists':
      if (value !== '') errs.push(invalid(p.child('value'), value, 'must be empty for operator `Exists`'));
      break;
    case 'Equal':
      errs.push(...labelValueErrors(value, p.child('value')));
      break;
    case '':
      errs.push(required(p.child('operator'), ''));
      break;
    default:
      errs.push(notSupported(p.child('operator'), str(t.operator), tolerationOperators));
  }
  const effect = str(t.effect);
  if (effect !== '' && !taintEffects.includes(effect)) errs.push(notSupported(p.child('effect'), effect, taintEffects));
  return errs;
}

export const validateTolerations = (v: unknown, p: Path): FieldError[] => list(v).flatMap((t, i) => validateDeviceToleration(rec(t), p.index(i)));

/** validateCIdentifier: at most 32 characters, a C identifier. */
function validateCIdentifier(id: string, p: Path): FieldError[] {
  const errs: FieldError[] = id.length > limits.deviceIDLength ? [tooLong(p, '', limits.deviceIDLength)] : [];
  errs.push(...isCIdentifier(id).map((m) => invalid(p, id, m)));
  return errs;
}

/** validateQualifiedName of an attribute: `id` or `domain/id`. */
export function validateAttributeName(name: string, p: Path): FieldError[] {
  const parts = name.split('/');
  if (parts.length === 1) return validateCIdentifier(parts[0]!, p);
  if (parts.length > 2) return [invalid(p, name, 'must not contain more than one slash')];
  const errs: FieldError[] = [];
  if (parts[0] === '') errs.push(invalid(p, '', 'the domain must not be empty'));
  else errs.push(...validateDriverName(parts[0]!, p));
  if (parts[1] === '') errs.push(invalid(p, '', 'the name must not be empty'));
  else errs.push(...validateCIdentifier(parts[1]!, p));
  return errs;
}

/** validateFullyQualifiedName: a qualified name that has a domain. */
export function validateFullyQualifiedName(name: string, p: Path): FieldError[] {
  const errs = validateAttributeName(name, p);
  if (!name.includes('/')) errs.push(invalid(p, name, 'a fully qualified name must be a domain and a name separated by a slash'));
  return errs;
}

