/** The Lease printer (coordination.k8s.io/v1): HOLDER. */
import { ageColumn, col, nameColumn, printer } from './columns.ts';
import { age, nameOf, spec, str } from './cells.ts';

export const leasePrinter = printer([nameColumn, col('Holder', 'string', 'coordinationv1.LeaseSpec.holderIdentity'), ageColumn], (o, now) => [
  nameOf(o),
  str(spec(o).holderIdentity),
  age(o, now),
]);
