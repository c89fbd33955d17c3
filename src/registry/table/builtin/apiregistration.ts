/**
 * The APIService table of kube-aggregator's REST storage (its own ConvertToTable, not a printer of
 * pkg/printers): SERVICE as `namespace/name` or `Local`, AVAILABLE from the Available condition
 * (`True`, or `False (Reason)`), AGE.
 */
import { ageColumn, col, nameColumn, printer } from './columns.ts';
import { age, isSet, nameOf, obj, objs, spec, status, str } from './cells.ts';

export const apiServicePrinter = printer(
  [nameColumn, col('Service', 'string', 'The reference to the service that hosts this API endpoint.'), col('Available', 'string', 'Whether this service is available.'), ageColumn],
  (o, now) => {
    const s = spec(o);
    const service = isSet(s.service) ? `${str(obj(s.service).namespace)}/${str(obj(s.service).name)}` : 'Local';
    let available = 'Unknown';
    const c = objs(status(o).conditions).find((x) => x.type === 'Available');
    if (c) {
      if (c.status === 'True' || str(c.reason) === '') available = str(c.status);
      else available = `${str(c.status)} (${str(c.reason)})`;
    }
    return [nameOf(o), service, available, age(o, now)];
  },
);
