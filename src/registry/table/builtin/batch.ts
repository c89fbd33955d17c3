/**
 * Printers of batch/v1: Jobs (STATUS from the conditions and deletion, COMPLETIONS as
 * `succeeded/completions` or `n/1 of parallelism`, DURATION from start to completion or now) and
 * CronJobs (SCHEDULE, TIMEZONE, SUSPEND, ACTIVE, LAST SCHEDULE).
 */
import { ageColumn, col, containersColumn, imagesColumn, nameColumn, printer, wide } from './columns.ts';
import { age, boolPtr, containerCells, formatLabelSelector, int, isSet, meta, nameOf, obj, objs, since, spec, span, status, str, templateContainers, timeOf } from './cells.ts';

function jobCondition(conds: unknown, type: string): boolean {
  const c = objs(conds).find((x) => x.type === type);
  return c !== undefined && c.status === 'True';
}

function jobStatus(o: Record<string, unknown>): string {
  const conds = status(o).conditions;
  if (jobCondition(conds, 'Complete')) return 'Complete';
  if (jobCondition(conds, 'Failed')) return 'Failed';
  if (isSet(meta(o).deletionTimestamp)) return 'Terminating';
  if (jobCondition(conds, 'Suspended')) return 'Suspended';
  if (jobCondition(conds, 'FailureTarget')) return 'FailureTarget';
  return 'Running';
}

export const jobPrinter = printer(
  [
    nameColumn,
    col('Status', 'string', 'Status of the job.'),
    col('Completions', 'string', 'batchv1.JobStatus.succeeded'),
    col('Duration', 'string', 'Time required to complete the job.'),
    ageColumn,
    containersColumn,
    imagesColumn,
    wide('Selector', 'string', 'batchv1.JobSpec.selector'),
  ],
  (o, now) => {
    const s = spec(o);
    const st = status(o);
    const succeeded = int(st.succeeded);
    let completions: string;
    if (isSet(s.completions)) completions = `${succeeded}/${int(s.completions)}`;
    else {
      const parallelism = int(s.parallelism);
      completions = parallelism > 1 ? `${succeeded}/1 of ${parallelism}` : `${succeeded}/1`;
    }
    const start = timeOf(st.startTime);
    const end = timeOf(st.completionTime);
    const duration = start === undefined ? '' : span(start, end ?? now);
    return [nameOf(o), jobStatus(o), completions, duration, age(o, now), ...containerCells(templateContainers(s)), formatLabelSelector(s.selector)];
  },
);

export const cronJobPrinter = printer(
  [
    nameColumn,
    col('Schedule', 'string', 'batchv1beta1.CronJobSpec.schedule'),
    col('Timezone', 'string', 'batchv1beta1.CronJobSpec.timeZone'),
    col('Suspend', 'boolean', 'batchv1beta1.CronJobSpec.suspend'),
    col('Active', 'integer', 'batchv1beta1.CronJobStatus.active'),
    col('Last Schedule', 'string', 'batchv1beta1.CronJobStatus.lastScheduleTime'),
    ageColumn,
    containersColumn,
    imagesColumn,
    wide('Selector', 'string', 'batchv1.JobSpec.selector'),
  ],
  (o, now) => {
    const s = spec(o);
    const st = status(o);
    const jobSpec = spec(obj(s.jobTemplate));
    const last = isSet(st.lastScheduleTime) ? since(st.lastScheduleTime, now) : '<none>';
    const timeZone = isSet(s.timeZone) ? str(s.timeZone) : '<none>';
    const suspend = boolPtr(s.suspend);
    return [nameOf(o), str(s.schedule), timeZone, suspend, objs(st.active).length, last, age(o, now), ...containerCells(templateContainers(jobSpec)), formatLabelSelector(jobSpec.selector)];
  },
);
