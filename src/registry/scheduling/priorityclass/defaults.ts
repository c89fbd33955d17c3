/** scheduling.k8s.io/v1 PriorityClass's defaulting: SetDefaults_PriorityClass, preemptionPolicy PreemptLowerPriority. */
import type { Obj } from '../../rest.ts';
import { setDefault } from '../../defaulting/fields.ts';

/** MUTATES obj. */
export function defaultPriorityClass(obj: Obj): void {
  setDefault(obj, 'preemptionPolicy', 'PreemptLowerPriority');
}

export const priorityClassDefaulters = { 'scheduling.k8s.io/v1/priorityclasses': defaultPriorityClass };
