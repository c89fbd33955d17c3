/**
 * The Job's native rules (pkg/registry/batch/job/strategy.go with ValidateJob,
 * ValidateJobUpdate and ValidateJobUpdateStatus): unless manualSelector is true, a created Job
 * gets the generated selector (`batch.kubernetes.io/controller-uid`) and its template the
 * controller-uid and job-name labels; the spec's rules; an Indexed Job's largest pod hostname a
 * DNS label; on update the selector, completionMode, podFailurePolicy, backoffLimitPerIndex,
 * managedBy and successPolicy immutable, completions only with parallelism for Indexed Jobs,
 * and the template immutable except the scheduling directives of a suspended Job that never ran.
 */
import { GoJSONText, Path, invalid, isDNS1123Label, jsonEqual, required, type FieldError } from '../../../apimachinery/index.ts';
import type { NativeRules } from '../../builtin/native.ts';
import { metaOf } from '../../meta.ts';
import type { Obj } from '../../rest.ts';
import { selectorValue, validateImmutable, validateStatusCounters } from '../../core/podspec/controller.ts';
import { optNum, rec, servedPodValidation, str, strMap, type PodValidationOptions, type Rec } from '../../core/podspec/values.ts';
import { podUpdateValidation } from '../../core/podspec/scheduling.ts';
import { controllerWarnings } from '../../core/pod/warnings.ts';
import { validateJobSpec } from './spec.ts';

const specPath = Path.of('spec');
const statusPath = Path.of('status');
const templateMetaPath = specPath.child('template', 'metadata');

export const legacyControllerUidLabel = 'controller-uid';
export const legacyJobNameLabel = 'job-name';
export const controllerUidLabel = 'batch.kubernetes.io/controller-uid';
export const jobNameLabel = 'batch.kubernetes.io/job-name';

function manualSelector(obj: Obj): boolean {
  return rec(obj.spec)?.manualSelector === true;
}

/** generateSelector (MUTATES the Job): the labels the Job's pods carry, and the selector of its uid. */
export function generateSelector(obj: Obj): void {
  const spec = rec(obj.spec);
  if (!spec) return;
  const template = (spec.template = rec(spec.template) ?? {}) as Rec;
  const meta = (template.metadata = rec(template.metadata) ?? {}) as Rec;
  const labels = (meta.labels = rec(meta.labels) ?? {}) as Rec;
  const name = str(rec(obj.metadata)?.name);
  const uid = str(rec(obj.metadata)?.uid);
  for (const k of [legacyJobNameLabel, jobNameLabel]) if (!(k in labels)) labels[k] = name;
  for (const k of [legacyControllerUidLabel, controllerUidLabel]) if (!(k in labels)) labels[k] = uid;
  const selector = (spec.selector = rec(spec.selector) ?? {}) as Rec;
  const matchLabels = (selector.matchLabels = rec(selector.matchLabels) ?? {}) as Rec;
  if (!(controllerUidLabel in matchLabels)) matchLabels[controllerUidLabel] = uid;
}

/** ValidateHasLabel */
function validateHasLabel(labels: Record<string, string>, key: string, expected: string): FieldError[] {
  const p = templateMetaPath.child('labels').key(key);
  if (!(key in labels)) return [required(p, expected)];
  if (labels[key] !== expected) return [invalid(p, labels, `must be '${expected}'`)];
  return [];
}

/** validateGeneratedSelector: a generated selector selects by the controller uid only, and the template carries the labels. */
function validateGeneratedSelector(obj: Obj): FieldError[] {
  if (manualSelector(obj)) return [];
  const spec = rec(obj.spec) ?? {};
  const meta = rec(rec(spec.template)?.metadata);
  if (!meta || rec(meta.labels) === undefined) return [];
  const labels = strMap(meta.labels);
  const name = str(rec(obj.metadata)?.name);
  const uid = str(rec(obj.metadata)?.uid);
  const errs = [
    ...validateHasLabel(labels, legacyControllerUidLabel, uid),
    ...validateHasLabel(labels, legacyJobNameLabel, name),
    ...validateHasLabel(labels, controllerUidLabel, uid),
    ...validateHasLabel(labels, jobNameLabel, name),
  ];
  const sel = rec(spec.selector);
  const expected = { matchLabels: { [controllerUidLabel]: uid } };
  if (!jsonEqual(sel ?? null, expected)) errs.push(invalid(specPath.child('selector'), selectorValue(sel), '`selector` not auto-generated'));
  return errs;
}

/** ValidateJob after ObjectMeta. */
export function validateJob(obj: Obj, opts: PodValidationOptions): FieldError[] {
  const spec = rec(obj.spec) ?? {};
  const errs = [...validateGeneratedSelector(obj), ...validateJobSpec(spec, specPath, opts)];
  const completions = optNum(spec.completions);
  if (spec.completionMode === 'Indexed' && completions !== undefined && completions > 0) {
    const name = str(rec(obj.metadata)?.name);
    const hostname = `${name}-${completions - 1}`;
    if (isDNS1123Label(hostname).length > 0) {
      errs.push(invalid(Path.of('metadata', 'name'), name, `will not able to create pod with invalid DNS label: ${hostname}`));
    }
  }
  return errs;
}

/** The template as the update error prints it. */
function templateValue(t: unknown): unknown {
  return t === undefined ? null : new GoJSONText(JSON.stringify(t));
}

/** validatePodTemplateUpdate: the template is immutable, but a suspended Job that never started may change where its pods run. */
function validateTemplateUpdate(obj: Obj, old: Obj): FieldError[] {
  const spec = rec(obj.spec) ?? {};
  const oldSpec = rec(old.spec) ?? {};
  const newT = rec(spec.template) ?? {};
  let oldT = rec(oldSpec.template) ?? {};
  const neverStarted = rec(old.status)?.startTime === undefined || rec(old.status)?.startTime === null;
  if (oldSpec.suspend === true && neverStarted) {
    const copy = structuredClone(oldT);
    const cs = (copy.spec = rec(copy.spec) ?? {}) as Rec;
    const ns = rec(newT.spec) ?? {};
    for (const k of ['affinity', 'nodeSelector', 'tolerations', 'schedulingGates']) {
      if (ns[k] === undefined) delete cs[k];
      else cs[k] = ns[k];
    }
    const cm = (copy.metadata = rec(copy.metadata) ?? {}) as Rec;
    const nm = rec(newT.metadata) ?? {};
    for (const k of ['labels', 'annotations']) {
      if (nm[k] === undefined) delete cm[k];
      else cm[k] = nm[k];
    }
    oldT = copy;
  }
  return validateImmutable(spec.template, oldT, specPath.child('template'), templateValue(spec.template));
}

/** ValidateJobSpecUpdate's update rules. */
function validateJobUpdateRules(obj: Obj, old: Obj): FieldError[] {
  const spec = rec(obj.spec) ?? {};
  const oldSpec = rec(old.spec) ?? {};
  const errs: FieldError[] = [];
  const indexed = spec.completionMode === 'Indexed';
  if (!indexed) errs.push(...validateImmutable(spec.completions, oldSpec.completions, specPath.child('completions')));
  else if (!jsonEqual(spec.completions ?? null, oldSpec.completions ?? null) && optNum(spec.completions) !== undefined && spec.completions !== spec.parallelism) {
    errs.push(invalid(specPath.child('completions'), spec.completions, 'can only be modified in tandem with spec.parallelism'));
  }
  errs.push(...validateImmutable(spec.selector, oldSpec.selector, specPath.child('selector'), selectorValue(rec(spec.selector))));
  errs.push(...validateTemplateUpdate(obj, old));
  for (const k of ['completionMode', 'podFailurePolicy', 'backoffLimitPerIndex', 'managedBy', 'successPolicy']) {
    errs.push(...validateImmutable(spec[k], oldSpec[k], specPath.child(k)));
  }
  return errs;
}

const counters = ['active', 'succeeded', 'failed', 'ready', 'terminating'];
const templateOf = (o: Obj): Rec | undefined => rec(rec(o.spec)?.template);

export const jobRules: NativeRules = {
  prepareForCreate(_ctx, obj) {
    if (!manualSelector(obj)) generateSelector(obj);
  },
  validate: (_ctx, obj) => validateJob(obj, servedPodValidation),
  validateUpdate: (_ctx, obj, old) => [...validateJobSpec(rec(obj.spec) ?? {}, specPath, podUpdateValidation(servedPodValidation, rec(rec(old.spec)?.template)?.spec)), ...validateJobUpdateRules(obj, old)],
  warningsOnCreate: (_ctx, obj) => controllerWarnings(obj, specPath.child('template'), templateOf(obj)),
  warningsOnUpdate(_ctx, obj, old) {
    const g = metaOf(obj).generation;
    return g === metaOf(old).generation ? [] : controllerWarnings(obj, specPath.child('template'), templateOf(obj), { obj: old, template: templateOf(old) });
  },
  status: { validateUpdate: (_ctx, obj) => validateStatusCounters(rec(obj.status) ?? {}, counters, [], statusPath) },
};
