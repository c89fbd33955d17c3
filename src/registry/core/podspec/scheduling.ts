/**
 * The scheduling parts of a pod spec: tolerations (ValidateTolerations), topology spread
 * constraints, node affinity's selector terms, scheduling and readiness gates, and the
 * operating system (validateOS).
 */
import {
  Path, duplicate, invalid, isValidLabelValue, notSupported, required, validateLabelName, type FieldError,
} from '../../../apimachinery/index.ts';
import { hasInvalidLabelValues, validateNodeSelector, validateNodeSelectorTerm } from '../nodeselector/validation.ts';
import { validateMetaLabelSelector } from './selectors.ts';
import { num, optNum, rec, recs, str, type PodValidationOptions, type Rec } from './values.ts';

const taintEffects = ['NoSchedule', 'PreferNoSchedule', 'NoExecute'];

/** ValidateTolerations */
export function validateTolerations(tolerations: unknown, fldPath: Path): FieldError[] {
  const errs: FieldError[] = [];
  recs(tolerations).forEach((t, i) => {
    const p = fldPath.index(i);
    const key = str(t.key);
    const op = str(t.operator);
    const value = str(t.value);
    const effect = str(t.effect);
    if (key !== '') errs.push(...validateLabelName(key, p.child('key')));
    if (key === '' && op !== 'Exists') {
      errs.push(invalid(p.child('operator'), op, 'operator must be Exists when `key` is empty, which means "match all values and all keys"'));
    }
    if (optNum(t.tolerationSeconds) !== undefined && effect !== 'NoExecute') {
      errs.push(invalid(p.child('effect'), effect, "effect must be 'NoExecute' when `tolerationSeconds` is set"));
    }
    switch (op) {
      case 'Equal':
      case '': {
        const msgs = isValidLabelValue(value);
        if (msgs.length > 0) errs.push(invalid(p.child('operator'), value, msgs.join(';')));
        break;
      }
      case 'Exists':
        if (value !== '') errs.push(invalid(p.child('operator'), t, "value must be empty when `operator` is 'Exists'"));
        break;
      default:
        errs.push(notSupported(p.child('operator'), op, ['Equal', 'Exists']));
    }
    if (effect !== '' && !taintEffects.includes(effect)) errs.push(notSupported(p.child('effect'), effect, taintEffects));
  });
  return errs;
}

const unsatisfiableActions = ['DoNotSchedule', 'ScheduleAnyway'];
const nodePolicies = ['Honor', 'Ignore'];

/** validateTopologySpreadConstraints */
export function validateTopologySpreadConstraints(constraints: unknown, fldPath: Path): FieldError[] {
  const errs: FieldError[] = [];
  recs(constraints).forEach((c, i) => {
    const p = fldPath.index(i);
    const maxSkew = num(c.maxSkew);
    if (maxSkew <= 0) errs.push(invalid(p.child('maxSkew'), maxSkew, 'must be greater than zero'));
    const key = str(c.topologyKey);
    if (key === '') errs.push(required(p.child('topologyKey'), 'can not be empty'));
    else errs.push(...validateLabelName(key, p.child('topologyKey')));
    const action = str(c.whenUnsatisfiable);
    if (!unsatisfiableActions.includes(action)) errs.push(notSupported(p.child('whenUnsatisfiable'), action, unsatisfiableActions));
    // The tuple names one kind of constraint: its first occurrence is reported when a later one repeats it.
    const repeated = recs(constraints).slice(i + 1).some((o) => str(o.topologyKey) === key && str(o.whenUnsatisfiable) === action);
    if (repeated) errs.push(duplicate(p.child('{topologyKey, whenUnsatisfiable}'), `{${key}, ${action}}`));
    const minDomains = optNum(c.minDomains);
    if (minDomains !== undefined) {
      if (minDomains <= 0) errs.push(invalid(p.child('minDomains'), minDomains, 'must be greater than 0'));
      else if (action !== 'DoNotSchedule') errs.push(invalid(p.child('minDomains'), minDomains, 'can only use minDomains if whenUnsatisfiable=DoNotSchedule, not ScheduleAnyway'));
    }
    for (const k of ['nodeAffinityPolicy', 'nodeTaintsPolicy']) {
      if (typeof c[k] === 'string' && !nodePolicies.includes(c[k])) errs.push(notSupported(p.child(k), c[k], nodePolicies));
    }
    errs.push(...validateMetaLabelSelector(rec(c.labelSelector), p.child('labelSelector')));
  });
  return errs;
}

/**
 * validateAffinity: node affinity (validateNodeAffinity: the required selector's label values
 * checked unless the stored spec already had bad ones; preferred terms' label values never, as a
 * preference can still be met on a one-node cluster; field expressions always), then the pod
 * (anti-)affinity terms.
 */
export function validateAffinity(affinity: unknown, fldPath: Path, opts: PodValidationOptions): FieldError[] {
  const a = rec(affinity);
  if (!a) return [];
  const errs: FieldError[] = [];
  const na = rec(a.nodeAffinity);
  const req = rec(na?.requiredDuringSchedulingIgnoredDuringExecution);
  if (req) {
    const rp = fldPath.child('nodeAffinity', 'requiredDuringSchedulingIgnoredDuringExecution');
    errs.push(...validateNodeSelector(req, opts.allowInvalidLabelValueInRequiredNodeAffinity === true, rp));
  }
  recs(na?.preferredDuringSchedulingIgnoredDuringExecution).forEach((t, i) => {
    const tp = fldPath.child('nodeAffinity', 'preferredDuringSchedulingIgnoredDuringExecution').index(i);
    const w = num(t.weight);
    if (w <= 0 || w > 100) errs.push(invalid(tp.child('weight'), w, 'must be in the range 1-100'));
    errs.push(...validateNodeSelectorTerm(rec(t.preference) ?? {}, true, tp.child('preference')));
  });
  for (const kind of ['podAffinity', 'podAntiAffinity']) {
    const pa = rec(a[kind]);
    recs(pa?.requiredDuringSchedulingIgnoredDuringExecution).forEach((t, i) => {
      const tp = fldPath.child(kind, 'requiredDuringSchedulingIgnoredDuringExecution').index(i);
      errs.push(...validatePodAffinityTerm(t, tp));
    });
    recs(pa?.preferredDuringSchedulingIgnoredDuringExecution).forEach((t, i) => {
      const tp = fldPath.child(kind, 'preferredDuringSchedulingIgnoredDuringExecution').index(i);
      const w = num(t.weight);
      if (w <= 0 || w > 100) errs.push(invalid(tp.child('weight'), w, 'must be in the range 1-100'));
      errs.push(...validatePodAffinityTerm(rec(t.podAffinityTerm) ?? {}, tp.child('podAffinityTerm')));
    });
  }
  return errs;
}

function validatePodAffinityTerm(t: Rec, fldPath: Path): FieldError[] {
  const errs = validateMetaLabelSelector(rec(t.labelSelector), fldPath.child('labelSelector'));
  errs.push(...validateMetaLabelSelector(rec(t.namespaceSelector), fldPath.child('namespaceSelector')));
  const key = str(t.topologyKey);
  if (key === '') errs.push(required(fldPath.child('topologyKey'), 'can not be empty'));
  else errs.push(...validateLabelName(key, fldPath.child('topologyKey')));
  return errs;
}

/** validateSchedulingGates: names are qualified names, each once. */
export function validateSchedulingGates(gates: unknown, fldPath: Path): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  recs(gates).forEach((g, i) => {
    const name = str(g.name);
    errs.push(...validateLabelName(name, fldPath.index(i)));
    if (seen.has(name)) errs.push(duplicate(fldPath.index(i), name));
    seen.add(name);
  });
  return errs;
}

/** validateReadinessGates: condition types are qualified names. */
export function validateReadinessGates(gates: unknown, fldPath: Path): FieldError[] {
  const errs: FieldError[] = [];
  recs(gates).forEach((g, i) => errs.push(...validateLabelName(str(g.conditionType), fldPath.index(i).child('conditionType'))));
  return errs;
}

/** validateOS: linux or windows. */
export function validateOS(os: unknown, fldPath: Path): FieldError[] {
  const o = rec(os);
  if (!o) return [];
  const name = str(o.name);
  if (name === '') return [required(fldPath.child('name'), '')];
  if (name !== 'linux' && name !== 'windows') return [notSupported(fldPath.child('name'), name, ['linux', 'windows'])];
  return [];
}

/**
 * The options an update validates a pod spec with, from the stored spec
 * (GetValidationOptionsFromPodSpecAndMeta's hasInvalidLabelValueInRequiredNodeAffinity).
 */
export function podUpdateValidation(opts: PodValidationOptions, oldSpec: unknown): PodValidationOptions {
  const required = rec(rec(rec(rec(oldSpec)?.affinity)?.nodeAffinity)?.requiredDuringSchedulingIgnoredDuringExecution);
  return hasInvalidLabelValues(required) ? { ...opts, allowInvalidLabelValueInRequiredNodeAffinity: true } : opts;
}
