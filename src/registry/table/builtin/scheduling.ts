/**
 * Printers of scheduling.k8s.io/v1 PriorityClasses (VALUE, GLOBAL-DEFAULT, wide-only
 * PREEMPTIONPOLICY) and node.k8s.io/v1 RuntimeClasses (HANDLER).
 */
import { ageColumn, col, nameColumn, printer } from './columns.ts';
import { age, int, nameOf, str } from './cells.ts';

export const priorityClassPrinter = printer(
  [
    nameColumn,
    col('Value', 'integer', 'schedulingv1.PriorityClass.value'),
    col('Global-Default', 'boolean', 'schedulingv1.PriorityClass.globalDefault'),
    ageColumn,
    // Upstream declares this column without a priority, so it shows in the default output too.
    col('PreemptionPolicy', 'string', 'schedulingv1.PriorityClass.preemptionPolicy'),
  ],
  (o, now) => [nameOf(o), int(o.value), o.globalDefault === true, age(o, now), str(o.preemptionPolicy)],
);

// The Handler column's description looks up a field ObjectMeta does not have: it is empty upstream.
export const runtimeClassPrinter = printer([nameColumn, col('Handler', 'string', ''), ageColumn], (o, now) => [nameOf(o), str(o.handler), age(o, now)]);
