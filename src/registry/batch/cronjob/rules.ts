/**
 * The CronJob's native rules (ValidateCronJobCreate, ValidateCronJobUpdate): a schedule that
 * robfig/cron's standard parser accepts and that carries no `TZ=`/`CRON_TZ=` (unless the stored
 * one already did), a timeZone known to the IANA database, concurrencyPolicy, history limits,
 * startingDeadlineSeconds, and a job template whose spec is a valid Job spec without a selector;
 * names of at most 52 characters on create (the controller appends 11 to name its Jobs).
 */
import { Path, invalid, notSupported, required, type FieldError } from '../../../apimachinery/index.ts';
import type { NativeRules } from '../../builtin/native.ts';
import type { Obj } from '../../rest.ts';
import { selectorValue } from '../../core/podspec/controller.ts';
import { validateNonnegative } from '../../core/podspec/probes.ts';
import { leftToDefault, optNum, rec, servedPodValidation, str, type PodValidationOptions, type Rec } from '../../core/podspec/values.ts';
import { podUpdateValidation } from '../../core/podspec/scheduling.ts';
import { controllerWarnings } from '../../core/pod/warnings.ts';
import { validateJobSpecCommon } from '../job/spec.ts';
import { parseStandardSchedule } from './schedule.ts';
import { isTimeZone } from './time-zone.ts';

const specPath = Path.of('spec');
const concurrencyPolicies = ['Allow', 'Forbid', 'Replace'];
const validTimeZoneCharacters = /^[A-Za-z.\-_0-9+]{1,14}$/;

/** validateScheduleFormat */
function validateSchedule(schedule: string, allowTZ: boolean, timeZone: unknown, fldPath: Path): FieldError[] {
  const errs: FieldError[] = [];
  const err = parseStandardSchedule(schedule);
  if (err !== undefined) errs.push(invalid(fldPath, schedule, err));
  if (allowTZ && schedule.includes('TZ') && typeof timeZone === 'string') {
    errs.push(invalid(fldPath, schedule, 'cannot use both timeZone field and TZ or CRON_TZ in schedule'));
  } else if (!allowTZ && schedule.includes('TZ')) {
    errs.push(invalid(fldPath, schedule, 'cannot use TZ or CRON_TZ in schedule, use timeZone field instead'));
  }
  return errs;
}

/** validateTimeZone */
export function validateTimeZone(tz: unknown, fldPath: Path): FieldError[] {
  if (typeof tz !== 'string') return [];
  if (tz === '') return [invalid(fldPath, tz, 'timeZone must be nil or non-empty string')];
  for (const part of tz.split('/')) {
    if (part === '.' || part === '..' || part.startsWith('-') || !validTimeZoneCharacters.test(part)) {
      return [invalid(fldPath, tz, `unknown time zone ${tz}`)];
    }
  }
  const errs: FieldError[] = [];
  if (tz.toLowerCase() === 'local') errs.push(invalid(fldPath, tz, 'timeZone must be an explicit time zone as defined in https://www.iana.org/time-zones'));
  if (!isTimeZone(tz)) errs.push(invalid(fldPath, tz, `unknown time zone ${tz}`));
  return errs;
}

/** ValidateJobTemplateSpec: a Job spec whose selector is left to be generated. */
function validateJobTemplate(t: Rec, fldPath: Path, opts: PodValidationOptions): FieldError[] {
  const spec = rec(t.spec) ?? {};
  const errs = validateJobSpecCommon(spec, fldPath.child('spec'), opts);
  if (rec(spec.selector)) errs.push(invalid(fldPath.child('spec', 'selector'), selectorValue(rec(spec.selector)), '`selector` will be auto-generated'));
  if (spec.manualSelector === true) errs.push(notSupported(fldPath.child('spec', 'manualSelector'), true, ['nil', 'false']));
  return errs;
}

/** validateCronJobSpec; old is the stored spec on update. */
export function validateCronJobSpec(specValue: unknown, oldValue: unknown, opts: PodValidationOptions): FieldError[] {
  const spec = rec(specValue) ?? {};
  const old = rec(oldValue);
  const errs: FieldError[] = [];
  const schedule = str(spec.schedule);
  if (schedule === '') errs.push(required(specPath.child('schedule'), ''));
  else errs.push(...validateSchedule(schedule, old !== undefined && str(old.schedule).includes('TZ'), spec.timeZone, specPath.child('schedule')));
  const sds = optNum(spec.startingDeadlineSeconds);
  if (sds !== undefined) errs.push(...validateNonnegative(sds, specPath.child('startingDeadlineSeconds')));
  if (old === undefined || (old.timeZone ?? null) !== (spec.timeZone ?? null)) errs.push(...validateTimeZone(spec.timeZone, specPath.child('timeZone')));
  if (!leftToDefault(spec.concurrencyPolicy, opts)) {
    const cp = str(spec.concurrencyPolicy);
    if (cp === '') errs.push(required(specPath.child('concurrencyPolicy'), ''));
    else if (!concurrencyPolicies.includes(cp)) errs.push(notSupported(specPath.child('concurrencyPolicy'), cp, concurrencyPolicies));
  }
  errs.push(...validateJobTemplate(rec(spec.jobTemplate) ?? {}, specPath.child('jobTemplate'), opts));
  for (const k of ['successfulJobsHistoryLimit', 'failedJobsHistoryLimit']) {
    const v = optNum(spec[k]);
    if (v !== undefined) errs.push(...validateNonnegative(v, specPath.child(k)));
  }
  return errs;
}

const templatePath = specPath.child('jobTemplate', 'spec', 'template');
const templateOf = (o: Obj): Rec | undefined => rec(rec(rec(rec(o.spec)?.jobTemplate)?.spec)?.template);

export const cronJobRules: NativeRules = {
  validate(_ctx, obj) {
    const errs = validateCronJobSpec(obj.spec, undefined, servedPodValidation);
    const name = str(rec(obj.metadata)?.name);
    if (name.length > 52) errs.push(invalid(Path.of('metadata', 'name'), name, 'must be no more than 52 characters'));
    return errs;
  },
  validateUpdate: (_ctx, obj, old) => validateCronJobSpec(obj.spec, old.spec ?? {}, podUpdateValidation(servedPodValidation, rec(rec(rec(rec(old.spec)?.jobTemplate)?.spec)?.template)?.spec)),
  warningsOnCreate: (_ctx, obj) => controllerWarnings(obj, templatePath, templateOf(obj)),
  warningsOnUpdate: (_ctx, obj, old) => controllerWarnings(obj, templatePath, templateOf(obj), { obj: old, template: templateOf(old) }),
};
