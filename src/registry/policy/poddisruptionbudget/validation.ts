/**
 * PodDisruptionBudget's native rules (pkg/apis/policy/validation
 * ValidatePodDisruptionBudgetSpec and the strategy's options): minAvailable or maxUnavailable,
 * not both, each a count or a percentage up to 100%; a valid selector (an update may keep label
 * values the stored one already had wrong); a known unhealthyPodEvictionPolicy.
 */
import { GoJSONText, invalid, notSupported, Path, type FieldError } from '../../../apimachinery/index.ts';
import type { NativeRules } from '../../builtin/native.ts';
import { podDisruptionBudgetStatusRules } from './status.ts';
import { isNotMoreThan100Percent, validatePositiveIntOrPercent } from '../../fieldvalues/intorpercent.ts';
import { list, ptr, rec, str, strings } from '../../fieldvalues/fields.ts';
import { hasInvalidLabelValue, validateSelectorField } from '../../fieldvalues/selector.ts';
import type { Obj } from '../../rest.ts';

const specPath = Path.of('spec');
const evictionPolicies = ['AlwaysAllow', 'IfHealthyBudget'];

/** A metav1.LabelSelector as Go marshals it (map keys sorted, empty fields left out). */
function selectorJSON(v: unknown): string {
  const s = ptr(v);
  if (s === undefined) return 'null';
  const parts: string[] = [];
  const labels = rec(s.matchLabels);
  const keys = Object.keys(labels).sort();
  if (keys.length > 0) parts.push(`"matchLabels":{${keys.map((k) => `${JSON.stringify(k)}:${JSON.stringify(str(labels[k]))}`).join(',')}}`);
  const exprs = list(s.matchExpressions).map((e) => {
    const r = rec(e);
    const values = strings(r.values);
    return `{"key":${JSON.stringify(str(r.key))},"operator":${JSON.stringify(str(r.operator))}${values.length > 0 ? `,"values":${JSON.stringify(values)}` : ''}}`;
  });
  if (exprs.length > 0) parts.push(`"matchExpressions":[${exprs.join(',')}]`);
  return `{${parts.join(',')}}`;
}

/**
 * The spec as the internal PodDisruptionBudgetSpec marshals: that struct has no JSON tags, so
 * Go's field names in declaration order, nil pointers as null.
 */
function specValue(spec: Record<string, unknown>): GoJSONText {
  const j = (v: unknown) => (v === undefined || v === null ? 'null' : JSON.stringify(v));
  return new GoJSONText(
    `{"MinAvailable":${j(spec.minAvailable)},"Selector":${selectorJSON(spec.selector)},"MaxUnavailable":${j(spec.maxUnavailable)},"UnhealthyPodEvictionPolicy":${j(spec.unhealthyPodEvictionPolicy)}}`,
  );
}

export function validatePodDisruptionBudgetSpec(obj: Obj, allowInvalidLabelValueInSelector: boolean): FieldError[] {
  const spec = rec(obj.spec);
  const errs: FieldError[] = [];
  const has = (k: string) => spec[k] !== undefined && spec[k] !== null;
  if (has('minAvailable') && has('maxUnavailable')) errs.push(invalid(specPath, specValue(spec), 'minAvailable and maxUnavailable cannot be both set'));
  for (const k of ['minAvailable', 'maxUnavailable']) {
    if (!has(k)) continue;
    errs.push(...validatePositiveIntOrPercent(spec[k], specPath.child(k)), ...isNotMoreThan100Percent(spec[k], specPath.child(k)));
  }
  errs.push(...validateSelectorField(spec.selector, { allowInvalidLabelValueInSelector }, specPath.child('selector')));
  const policy = spec.unhealthyPodEvictionPolicy;
  if (typeof policy === 'string' && !evictionPolicies.includes(policy)) {
    errs.push(notSupported(specPath.child('unhealthyPodEvictionPolicy'), policy, evictionPolicies));
  }
  return errs;
}

export const podDisruptionBudgetRules: NativeRules = {
  validate: (_ctx, obj) => validatePodDisruptionBudgetSpec(obj, false),
  validateUpdate: (_ctx, obj, old) => validatePodDisruptionBudgetSpec(obj, hasInvalidLabelValue(rec(old.spec).selector)),
  status: podDisruptionBudgetStatusRules,
};
