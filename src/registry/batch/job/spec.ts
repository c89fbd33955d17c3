/**
 * A Job's spec as kube-apiserver validates it (validateJobSpec, ValidateJobSpec in
 * pkg/apis/batch/validation): non-negative counts, completion modes and the Indexed rules,
 * backoffLimitPerIndex and maxFailedIndexes, podFailurePolicy rules, successPolicy,
 * podReplacementPolicy, managedBy, the template a valid pod template restarting OnFailure or
 * Never; with ValidateJobSpec, a required selector that the template's labels match. CronJobs'
 * job templates share it.
 */
import {
  Path, duplicate, invalid, isDomainPrefixedPath, isQualifiedName, notSupported, omitValue, required, tooLongMaxLength, tooMany, validateLabelSelector,
  type FieldError, type LabelSelector,
} from '../../../apimachinery/index.ts';
import { selectorOf, validateSelectorMatches } from '../../core/podspec/controller.ts';
import { validateNonnegative } from '../../core/podspec/probes.ts';
import { validatePodTemplateSpec } from '../../core/podspec/validation.ts';
import { list, optNum, rec, recs, str, type PodValidationOptions, type Rec } from '../../core/podspec/values.ts';

const maxParallelismForIndexedJob = 100000;
const maxFailedIndexesLimit = 100000;
const completionsSoftLimit = 100000;
const parallelismLimitForHighCompletions = 10000;
const maxPodFailurePolicyRules = 20;
const maxOnExitCodesValues = 255;
const maxOnPodConditionsPatterns = 20;
const maxManagedByLength = 63;
const actions = ['Count', 'FailIndex', 'FailJob', 'Ignore'];

function validateOnExitCodes(r: Rec, fldPath: Path, containerNames: ReadonlySet<string>): FieldError[] {
  const errs: FieldError[] = [];
  const op = str(r.operator);
  if (op !== 'In' && op !== 'NotIn') errs.push(notSupported(fldPath.child('operator'), op, ['In', 'NotIn']));
  if (typeof r.containerName === 'string' && !containerNames.has(r.containerName)) {
    errs.push(invalid(fldPath.child('containerName'), r.containerName, 'must be one of the container or initContainer names in the pod template'));
  }
  const values = list(r.values).map((v) => (typeof v === 'number' ? v : 0));
  const vp = fldPath.child('values');
  if (values.length === 0) errs.push(invalid(vp, r.values ?? null, 'at least one value is required'));
  else if (values.length > maxOnExitCodesValues) errs.push(tooMany(vp, values.length, maxOnExitCodesValues));
  let ordered = true;
  const seen = new Set<number>();
  values.forEach((v, j) => {
    if (op === 'In' && v === 0) errs.push(invalid(vp.index(j), v, 'must not be 0 for the In operator'));
    if (seen.has(v)) errs.push(duplicate(vp.index(j), v));
    else seen.add(v);
    if (j > 0 && values[j - 1]! > v) ordered = false;
  });
  if (!ordered) errs.push(invalid(vp, values, 'must be ordered'));
  return errs;
}

function validateOnPodConditions(patterns: Rec[], fldPath: Path): FieldError[] {
  const errs: FieldError[] = [];
  if (patterns.length > maxOnPodConditionsPatterns) errs.push(tooMany(fldPath, patterns.length, maxOnPodConditionsPatterns));
  patterns.forEach((p, j) => {
    const pp = fldPath.index(j);
    const t = str(p.type);
    for (const m of isQualifiedName(t)) errs.push(invalid(pp.child('type'), t, m));
    const status = str(p.status);
    if (status !== 'True' && status !== 'False' && status !== 'Unknown') errs.push(notSupported(pp.child('status'), status, ['False', 'True', 'Unknown']));
  });
  return errs;
}

function validatePodFailurePolicy(spec: Rec, fldPath: Path): FieldError[] {
  const policy = rec(spec.podFailurePolicy) ?? {};
  const errs: FieldError[] = [];
  const rules = recs(policy.rules);
  const rulesPath = fldPath.child('rules');
  if (rules.length > maxPodFailurePolicyRules) errs.push(tooMany(rulesPath, rules.length, maxPodFailurePolicyRules));
  const podSpec = rec(rec(spec.template)?.spec) ?? {};
  const names = new Set([...recs(podSpec.containers), ...recs(podSpec.initContainers)].map((c) => str(c.name)));
  rules.forEach((rule, i) => {
    const rp = rulesPath.index(i);
    const action = str(rule.action);
    if (action === 'FailIndex' && optNum(spec.backoffLimitPerIndex) === undefined) {
      errs.push(invalid(rp.child('action'), action, 'requires the backoffLimitPerIndex to be set'));
    }
    if (!actions.includes(action)) errs.push(notSupported(rp.child('action'), action, actions));
    const onExit = rec(rule.onExitCodes);
    const onConds = recs(rule.onPodConditions);
    if (onExit) errs.push(...validateOnExitCodes(onExit, rp.child('onExitCodes'), names));
    if (onConds.length > 0) errs.push(...validateOnPodConditions(onConds, rp.child('onPodConditions')));
    if (onExit && onConds.length > 0) errs.push(invalid(rp, omitValue, 'specifying both OnExitCodes and OnPodConditions is not supported'));
    if (!onExit && onConds.length === 0) errs.push(invalid(rp, omitValue, 'specifying one of OnExitCodes and OnPodConditions is required'));
  });
  return errs;
}

function validateSuccessPolicy(spec: Rec, fldPath: Path): FieldError[] {
  const errs: FieldError[] = [];
  const rules = recs(rec(spec.successPolicy)?.rules);
  const rulesPath = fldPath.child('rules');
  if (rules.length === 0) errs.push(required(rulesPath, 'at least one rules must be specified when the successPolicy is specified'));
  if (rules.length > 20) errs.push(tooMany(rulesPath, rules.length, 20));
  const completions = optNum(spec.completions) ?? 0;
  rules.forEach((r, i) => {
    const rp = rulesPath.index(i);
    const indexes = r.succeededIndexes;
    const count = optNum(r.succeededCount);
    if (indexes === undefined && count === undefined) errs.push(required(rp, 'at least one of succeededCount or succeededIndexes must be specified'));
    if (count !== undefined) {
      if (count <= 0) errs.push(invalid(rp.child('succeededCount'), count, 'must be greater than or equal to 1'));
      if (count > completions) errs.push(invalid(rp.child('succeededCount'), count, `must be less than or equal to ${completions} (the number of specified completions)`));
    }
  });
  return errs;
}

const replacementPolicies = ['Failed', 'TerminatingOrFailed'];

/** validateJobSpec: everything but the selector. */
export function validateJobSpecCommon(spec: Rec, fldPath: Path, opts: PodValidationOptions): FieldError[] {
  const errs: FieldError[] = [];
  for (const k of ['parallelism', 'completions', 'activeDeadlineSeconds', 'backoffLimit', 'ttlSecondsAfterFinished', 'backoffLimitPerIndex']) {
    const v = optNum(spec[k]);
    if (v !== undefined) errs.push(...validateNonnegative(v, fldPath.child(k)));
  }
  const parallelism = optNum(spec.parallelism);
  const completions = optNum(spec.completions);
  const blpi = optNum(spec.backoffLimitPerIndex);
  const mfi = optNum(spec.maxFailedIndexes);
  if (mfi !== undefined) {
    errs.push(...validateNonnegative(mfi, fldPath.child('maxFailedIndexes')));
    if (blpi === undefined) errs.push(required(fldPath.child('backoffLimitPerIndex'), 'when maxFailedIndexes is specified'));
  }
  if (typeof spec.managedBy === 'string') {
    errs.push(...isDomainPrefixedPath(fldPath.child('managedBy'), spec.managedBy));
    if (spec.managedBy.length > maxManagedByLength) errs.push(tooLongMaxLength(fldPath.child('managedBy'), spec.managedBy, maxManagedByLength));
  }
  const mode = spec.completionMode;
  if (typeof mode === 'string') {
    if (mode !== 'NonIndexed' && mode !== 'Indexed') errs.push(notSupported(fldPath.child('completionMode'), mode, ['NonIndexed', 'Indexed']));
    if (mode === 'Indexed') {
      if (completions === undefined) errs.push(required(fldPath.child('completions'), 'when completion mode is Indexed'));
      if (parallelism !== undefined && parallelism > maxParallelismForIndexedJob) {
        errs.push(invalid(fldPath.child('parallelism'), parallelism, `must be less than or equal to ${maxParallelismForIndexedJob} when completion mode is Indexed`));
      }
      if (completions !== undefined && mfi !== undefined && mfi > completions) errs.push(invalid(fldPath.child('maxFailedIndexes'), mfi, 'must be less than or equal to completions'));
      if (mfi !== undefined && mfi > maxFailedIndexesLimit) errs.push(invalid(fldPath.child('maxFailedIndexes'), mfi, `must be less than or equal to ${maxFailedIndexesLimit}`));
      if (completions !== undefined && completions > completionsSoftLimit && blpi !== undefined) {
        if (mfi === undefined) errs.push(required(fldPath.child('maxFailedIndexes'), `must be specified when completions is above ${completionsSoftLimit}`));
        if (parallelism !== undefined && parallelism > parallelismLimitForHighCompletions) {
          errs.push(invalid(fldPath.child('parallelism'), parallelism, `must be less than or equal to ${parallelismLimitForHighCompletions} when completions are above ${completionsSoftLimit} and used with backoff limit per index`));
        }
      }
    }
  }
  if (mode === undefined || mode === null || mode === 'NonIndexed') {
    if (blpi !== undefined) errs.push(invalid(fldPath.child('backoffLimitPerIndex'), blpi, 'requires indexed completion mode'));
    if (mfi !== undefined) errs.push(invalid(fldPath.child('maxFailedIndexes'), mfi, 'requires indexed completion mode'));
  }
  const hasPFP = rec(spec.podFailurePolicy) !== undefined;
  if (hasPFP) errs.push(...validatePodFailurePolicy(spec, fldPath.child('podFailurePolicy')));
  if (rec(spec.successPolicy)) {
    if (mode !== 'Indexed') errs.push(invalid(fldPath.child('successPolicy'), spec.successPolicy, 'requires indexed completion mode'));
    else errs.push(...validateSuccessPolicy(spec, fldPath.child('successPolicy')));
  }
  const prp = spec.podReplacementPolicy;
  if (typeof prp === 'string') {
    if (hasPFP) {
      if (prp !== 'Failed') errs.push(notSupported(fldPath.child('podReplacementPolicy'), prp, ['Failed']));
    } else if (!replacementPolicies.includes(prp)) {
      errs.push(notSupported(fldPath.child('podReplacementPolicy'), prp, replacementPolicies));
    }
  }
  const tPath = fldPath.child('template');
  errs.push(...validatePodTemplateSpec(spec.template, tPath, opts));
  const rp = rec(rec(spec.template)?.spec)?.restartPolicy;
  const rpPath = tPath.child('spec', 'restartPolicy');
  // restartPolicy defaults to Always, which a Job's pods may not have: an absent one is an error however the defaults stand.
  if (rp === 'Always' || str(rp) === '') {
    errs.push(required(rpPath, 'valid values: "OnFailure", "Never"'));
  } else if (rp !== 'OnFailure' && rp !== 'Never') {
    errs.push(notSupported(rpPath, str(rp), ['OnFailure', 'Never']));
  } else if (hasPFP && rp !== 'Never') {
    errs.push(invalid(rpPath, rp, 'only "Never" is supported when podFailurePolicy is specified'));
  }
  return errs;
}

/** ValidateJobSpec: the common rules, a required selector, and the template's labels matching it. */
export function validateJobSpec(spec: Rec, fldPath: Path, opts: PodValidationOptions): FieldError[] {
  const errs = validateJobSpecCommon(spec, fldPath, opts);
  const sel = rec(spec.selector);
  if (!sel) errs.push(required(fldPath.child('selector'), ''));
  else errs.push(...validateLabelSelector(sel as LabelSelector, {}, fldPath.child('selector')));
  const selector = selectorOf(sel);
  // Whether given or generated, the selector must match the pods the Job makes.
  if (selector) errs.push(...validateSelectorMatches(selector, rec(spec.template), fldPath.child('template')));
  return errs;
}

