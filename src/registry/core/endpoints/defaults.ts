/** core/v1 Endpoints' defaulting: SetDefaults_Endpoints makes every subset port's empty protocol TCP. */
import type { Obj } from '../../rest.ts';
import { items, setDefault } from '../../defaulting/fields.ts';

/** MUTATES obj. */
export function defaultEndpoints(obj: Obj): void {
  for (const subset of items(obj, 'subsets')) for (const port of items(subset, 'ports')) setDefault(port, 'protocol', 'TCP', '');
}

export const endpointsDefaulters = { '/v1/endpoints': defaultEndpoints };
