/** The PodDisruptionBudget printer (policy/v1): MIN AVAILABLE, MAX UNAVAILABLE (`N/A` when unset), ALLOWED DISRUPTIONS. */
import { ageColumn, col, nameColumn, printer } from './columns.ts';
import { age, int, intOrString, isSet, nameOf, spec, status } from './cells.ts';

export const podDisruptionBudgetPrinter = printer(
  [
    nameColumn,
    col('Min Available', 'string', 'The minimum number of pods that must be available.'),
    col('Max Unavailable', 'string', 'The maximum number of pods that may be unavailable.'),
    col('Allowed Disruptions', 'integer', 'Calculated number of pods that may be disrupted at this time.'),
    ageColumn,
  ],
  (o, now) => {
    const s = spec(o);
    const min = isSet(s.minAvailable) ? intOrString(s.minAvailable) : 'N/A';
    const max = isSet(s.maxUnavailable) ? intOrString(s.maxUnavailable) : 'N/A';
    return [nameOf(o), min, max, int(status(o).disruptionsAllowed), age(o, now)];
  },
);
