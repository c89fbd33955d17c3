/**
 * The CronTab conversion the conversion-webhook tests serve: v1beta1's `spec.cronSpec` is v1's
 * `spec.schedule`; everything else is kept and apiVersion set to the desired version.
 */
type Obj = Record<string, any>;

export const cronTabGroup = 'stable.example.com';

export function convertCronTab(o: Obj, desired: string): Obj {
  const out = structuredClone(o);
  const spec = (out.spec ??= {}) as Obj;
  if (desired === `${cronTabGroup}/v1` && 'cronSpec' in spec) {
    spec.schedule = spec.cronSpec;
    delete spec.cronSpec;
  } else if (desired === `${cronTabGroup}/v1beta1` && 'schedule' in spec) {
    spec.cronSpec = spec.schedule;
    delete spec.schedule;
  }
  out.apiVersion = desired;
  return out;
}
