/**
 * What every controller of pods checks of its selector and template (pkg/apis/apps/validation,
 * ValidatePodTemplateSpecForRC): a non-empty label selector that matches the template's
 * labels, the template valid as a pod template with restartPolicy Always and no
 * activeDeadlineSeconds; immutable fields as ValidateImmutableField reports them; the status
 * counters that may not be negative or exceed status.replicas; int-or-percent fields.
 */
import {
  GoJSONText, Path, SelectorParseError, invalid, isEmpty, jsonEqual, labelSelectorAsSelector, matches, notSupported, required,
  validateLabelSelector, type FieldError, type LabelSelector, type Selector,
} from '../../../apimachinery/index.ts';
import { validateNonnegative } from './probes.ts';
import { validatePodTemplateSpec } from './validation.ts';
import { leftToDefault, optNum, rec, str, strMap, type PodValidationOptions, type Rec } from './values.ts';
import { isNotMoreThan100Percent, validatePositiveIntOrPercent as positiveIntOrPercent } from '../../fieldvalues/intorpercent.ts';

export const fieldImmutableErrorMsg = 'field is immutable';

/** A metav1.LabelSelector as Go marshals it (matchLabels, then matchExpressions; omitempty). */
export function selectorValue(sel: Rec | undefined): unknown {
  if (!sel) return null;
  const parts: string[] = [];
  if (Object.keys(rec(sel.matchLabels) ?? {}).length > 0) parts.push(`"matchLabels":${JSON.stringify(sortKeys(rec(sel.matchLabels)!))}`);
  if (Array.isArray(sel.matchExpressions) && sel.matchExpressions.length > 0) {
    const exprs = sel.matchExpressions.map((e) => {
      const r = rec(e) ?? {};
      const fields = [`"key":${JSON.stringify(str(r.key))}`, `"operator":${JSON.stringify(str(r.operator))}`];
      if (Array.isArray(r.values) && r.values.length > 0) fields.push(`"values":${JSON.stringify(r.values)}`);
      return `{${fields.join(',')}}`;
    });
    parts.push(`"matchExpressions":[${exprs.join(',')}]`);
  }
  return new GoJSONText(`{${parts.join(',')}}`);
}

function sortKeys(r: Rec): Rec {
  return Object.fromEntries(Object.keys(r).sort().map((k) => [k, r[k]]));
}

/** The selector's matching form, or undefined when LabelSelectorAsSelector fails. */
export function selectorOf(sel: Rec | undefined): Selector | undefined {
  try {
    return labelSelectorAsSelector(sel as LabelSelector | undefined);
  } catch (e) {
    if (e instanceof SelectorParseError) return undefined;
    throw e;
  }
}

/** The selector required, valid, and not empty (`empty selector is invalid for <kind>`). */
export function validateRequiredSelector(sel: Rec | undefined, kind: string, fldPath: Path): FieldError[] {
  if (!sel) return [required(fldPath, '')];
  const errs = validateLabelSelector(sel as LabelSelector, {}, fldPath);
  if (Object.keys(rec(sel.matchLabels) ?? {}).length + (Array.isArray(sel.matchExpressions) ? sel.matchExpressions.length : 0) === 0) {
    errs.push(invalid(fldPath, selectorValue(sel), `empty selector is invalid for ${kind}`));
  }
  return errs;
}

export function templateLabels(template: Rec | undefined): Record<string, string> {
  return strMap(rec(template?.metadata)?.labels);
}

/** `selector` does not match template `labels` at `<template>.metadata.labels`, when a non-empty selector misses them. */
export function validateSelectorMatches(selector: Selector | undefined, template: Rec | undefined, templatePath: Path): FieldError[] {
  if (!selector || isEmpty(selector)) return [];
  const labels = templateLabels(template);
  if (matches(selector, labels)) return [];
  return [invalid(templatePath.child('metadata', 'labels'), labels, '`selector` does not match template `labels`')];
}

/**
 * ValidatePodTemplateSpecForReplicaSet (and ForRC, with its kind's wording): the selector
 * matches, the template is a valid pod template that restarts Always and has no deadline.
 */
export function validateTemplateForReplicas(
  template: Rec | undefined,
  selector: Selector | undefined,
  kind: string,
  fldPath: Path,
  opts: PodValidationOptions,
): FieldError[] {
  if (!template) return [required(fldPath, '')];
  const errs = validateSelectorMatches(selector, template, fldPath);
  errs.push(...validatePodTemplateSpec(template, fldPath, opts));
  errs.push(...validateAlwaysRestart(template, fldPath, opts));
  const ads = optNum(rec(template.spec)?.activeDeadlineSeconds);
  if (ads !== undefined) errs.push(invalid(fldPath.child('spec', 'activeDeadlineSeconds'), ads, `activeDeadlineSeconds in ${kind} is not Supported`));
  return errs;
}

/** A controller's pods restart Always. */
export function validateAlwaysRestart(template: Rec, fldPath: Path, opts: PodValidationOptions): FieldError[] {
  const rp = rec(template.spec)?.restartPolicy;
  if (leftToDefault(rp, opts) || rp === 'Always') return [];
  return [notSupported(fldPath.child('spec', 'restartPolicy'), str(rp), ['Always'])];
}

/** ValidateImmutableField over JSON values (absent and null alike); `value` is what the error prints. */
export function validateImmutable(newVal: unknown, oldVal: unknown, fldPath: Path, value: unknown = newVal ?? null): FieldError[] {
  return jsonEqual(newVal ?? null, oldVal ?? null) ? [] : [invalid(fldPath, value, fieldImmutableErrorMsg)];
}

/** Non-negative counters of a status, then each listed one no greater than status.replicas. */
export function validateStatusCounters(status: Rec, counters: readonly string[], bounded: readonly string[], fldPath: Path): FieldError[] {
  const errs: FieldError[] = [];
  for (const k of counters) {
    const v = optNum(status[k]);
    if (v !== undefined) errs.push(...validateNonnegative(v, fldPath.child(k)));
  }
  const replicas = optNum(status.replicas) ?? 0;
  for (const k of bounded) {
    const v = optNum(status[k]) ?? 0;
    if (v > replicas) errs.push(invalid(fldPath.child(k), v, 'cannot be greater than status.replicas'));
  }
  return errs;
}

/** `status.collisionCount: cannot be decremented`. */
export function validateCollisionCount(status: Rec, oldStatus: Rec, fldPath: Path): FieldError[] {
  const n = optNum(status.collisionCount);
  const o = optNum(oldStatus.collisionCount);
  if (o !== undefined && (n === undefined || n < o)) return [invalid(fldPath.child('collisionCount'), n ?? 0, 'cannot be decremented')];
  return [];
}

/** ValidatePositiveIntOrPercent of a field the defaults always set (nothing to check when unset). */
export function validatePositiveIntOrPercent(v: unknown, fldPath: Path): FieldError[] {
  return v === undefined || v === null ? [] : positiveIntOrPercent(v, fldPath);
}

/** getIntOrPercentValue: the number, or the percent's number. */
export function intOrPercentValue(v: unknown): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'string') {
    const n = Number.parseInt(v.replace(/%$/, ''), 10);
    return Number.isNaN(n) ? 0 : n;
  }
  return 0;
}

export { isNotMoreThan100Percent as validateNotMoreThan100Percent };
