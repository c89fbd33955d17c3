/**
 * Container resource requirements (ValidateContainerResourceRequirements): resource names
 * (standard container resources, `hugepages-*`, or extended resources with a domain), quantities
 * that are non-negative (and whole numbers for extended resources), requests no greater than
 * limits (equal for resources that cannot be overcommitted), hugepages only beside cpu or memory.
 */
import { Path, forbidden, invalid, isQualifiedName, required, type FieldError } from '../../../apimachinery/index.ts';
import { parseQuantity, Quantity } from '../../../cel/index.ts';
import { rec, str, type Rec } from './values.ts';

const standardContainerResources = new Set(['cpu', 'memory', 'ephemeral-storage']);
const standardResources = new Set([
  'cpu', 'memory', 'ephemeral-storage', 'requests.cpu', 'requests.memory', 'requests.ephemeral-storage',
  'limits.cpu', 'limits.memory', 'limits.ephemeral-storage', 'pods', 'services', 'replicationcontrollers',
  'resourcequotas', 'secrets', 'persistentvolumeclaims', 'configmaps', 'requests.storage', 'storage',
  'services.nodeports', 'services.loadbalancers',
]);

export const isNegativeErrorMsg = 'must be greater than or equal to 0';
export const isNotIntegerErrorMsg = 'must be an integer';

export function isHugePageResourceName(name: string): boolean {
  return name.startsWith('hugepages-');
}

/** IsNativeResource: no domain, or a `kubernetes.io/` one. */
function isNativeResource(name: string): boolean {
  return !name.includes('/') || name.includes('kubernetes.io/');
}

/** IsExtendedResourceName: a domain-qualified name outside kubernetes.io, usable as `requests.<name>`. */
function isExtendedResourceName(name: string): boolean {
  if (isNativeResource(name) || name.startsWith('requests.')) return false;
  return isQualifiedName(`requests.${name}`).length === 0;
}

function isOvercommitAllowed(name: string): boolean {
  return isNativeResource(name) && !isHugePageResourceName(name);
}

/** The parsed quantity, or undefined for a value the decoder would have refused. */
export function quantityOf(v: unknown): Quantity | undefined {
  if (typeof v === 'number') v = String(v);
  if (typeof v !== 'string') return undefined;
  const q = parseQuantity(v);
  return q instanceof Quantity ? q : undefined;
}

/** ValidateNonnegativeQuantity */
export function validateNonnegativeQuantity(q: Quantity, fldPath: Path): FieldError[] {
  return q.sign() < 0 ? [invalid(fldPath, q.toString(), isNegativeErrorMsg)] : [];
}

/** validateResourceName then validateContainerResourceName's standard and extended rules. */
function validateContainerResourceName(name: string, fldPath: Path): FieldError[] {
  const errs = isQualifiedName(name).map((m) => invalid(fldPath, name, m));
  if (errs.length > 0) return errs;
  if (!name.includes('/')) {
    if (!standardResources.has(name) && !isHugePageResourceName(name)) {
      return [invalid(fldPath, name, 'must be a standard resource type or fully qualified')];
    }
    if (!standardContainerResources.has(name) && !isHugePageResourceName(name)) {
      return [invalid(fldPath, name, 'must be a standard resource for containers')];
    }
  } else if (!isNativeResource(name) && !isExtendedResourceName(name)) {
    return [invalid(fldPath, name, "doesn't follow extended resource name standard")];
  }
  return [];
}

/** Whether the quantity is a whole number (MilliValue() % 1000 == 0, up to sub-milli rounding). */
function isWhole(q: Quantity): boolean {
  const d = q.copy().asDec();
  return d.scale <= 0 || d.unscaled % 10n ** BigInt(d.scale) === 0n;
}

/** ValidateResourceQuantityValue: non-negative; whole for extended resources (by milli-value). */
function validateQuantityValue(name: string, q: Quantity, fldPath: Path): FieldError[] {
  const errs = validateNonnegativeQuantity(q, fldPath);
  if (isExtendedResourceName(name)) {
    if (!isWhole(q)) errs.push(invalid(fldPath, q.toString(), isNotIntegerErrorMsg));
  }
  return errs;
}

function quantities(v: unknown): [string, Quantity | undefined][] {
  const r = rec(v) ?? {};
  return Object.keys(r).sort().map((k) => [k, quantityOf(r[k])]);
}

/** ValidateContainerResourceRequirements over a container's `resources`. */
export function validateContainerResources(resources: Rec | undefined, podClaimNames: ReadonlySet<string>, fldPath: Path): FieldError[] {
  const errs: FieldError[] = [];
  if (!resources) return errs;
  const limPath = fldPath.child('limits');
  const reqPath = fldPath.child('requests');
  let cpuOrMemory = false;
  let hugePages = false;
  const limits = new Map(quantities(resources.limits));
  for (const [name, q] of limits) {
    const p = limPath.key(name);
    errs.push(...validateContainerResourceName(name, p));
    if (q) errs.push(...validateQuantityValue(name, q, p));
    if (isHugePageResourceName(name)) hugePages = true;
    if (name === 'cpu' || name === 'memory') cpuOrMemory = true;
  }
  for (const [name, q] of quantities(resources.requests)) {
    const p = reqPath.key(name);
    errs.push(...validateContainerResourceName(name, p));
    if (q) errs.push(...validateQuantityValue(name, q, p));
    const lim = limits.get(name);
    if (limits.has(name)) {
      if (q && lim) {
        if (q.cmp(lim) !== 0 && !isOvercommitAllowed(name)) {
          errs.push(invalid(reqPath, q.toString(), `must be equal to ${name} limit of ${lim.toString()}`));
        } else if (q.cmp(lim) > 0) {
          errs.push(invalid(reqPath, q.toString(), `must be less than or equal to ${name} limit of ${lim.toString()}`));
        }
      }
    } else if (!isOvercommitAllowed(name)) {
      errs.push(required(limPath, 'Limit must be set for non overcommitable resources'));
    }
    if (isHugePageResourceName(name)) hugePages = true;
    if (name === 'cpu' || name === 'memory') cpuOrMemory = true;
  }
  if (!cpuOrMemory && hugePages) errs.push(forbidden(fldPath, 'HugePages require cpu or memory'));
  errs.push(...validateClaimNames(resources.claims, podClaimNames, fldPath.child('claims')));
  return errs;
}

/** validateResourceClaimNames: each claim names one of the pod's resourceClaims, once. */
function validateClaimNames(claims: unknown, podClaimNames: ReadonlySet<string>, fldPath: Path): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  (Array.isArray(claims) ? claims : []).forEach((c, i) => {
    const name = str(rec(c)?.name);
    const p = fldPath.index(i);
    if (name === '') {
      errs.push(required(p.child('name'), ''));
      return;
    }
    const key = `${name}/${str(rec(c)?.request)}`;
    if (seen.has(key)) errs.push({ type: 'FieldValueDuplicate', field: p.toString(), badValue: name, detail: '' });
    else seen.add(key);
    if (!podClaimNames.has(name)) {
      errs.push(invalid(p, name, podClaimNames.size === 0 ? 'must be one of the names in pod.spec.resourceClaims which is empty' : `must be one of the names in pod.spec.resourceClaims: ${[...podClaimNames].sort().join(', ')}`));
    }
  });
  return errs;
}
