/** discovery.k8s.io/v1 EndpointSlice's defaulting: SetDefaults_EndpointPort, each port's name "" and protocol TCP when unset. */
import type { Obj } from '../../rest.ts';
import { items, setDefault } from '../../defaulting/fields.ts';

/** MUTATES obj. */
export function defaultEndpointSlice(obj: Obj): void {
  for (const port of items(obj, 'ports')) {
    setDefault(port, 'name', '');
    setDefault(port, 'protocol', 'TCP');
  }
}

export const endpointSliceDefaulters = { 'discovery.k8s.io/v1/endpointslices': defaultEndpointSlice };
