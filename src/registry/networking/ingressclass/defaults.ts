/** networking.k8s.io/v1 IngressClass's defaulting: SetDefaults_IngressClass gives parameters without a scope the scope Cluster. */
import type { Obj } from '../../rest.ts';
import { child, onSpec, setDefault } from '../../defaulting/fields.ts';

/** MUTATES obj. */
export const defaultIngressClass = onSpec((spec) => {
  const parameters = child(spec, 'parameters');
  if (parameters) setDefault(parameters, 'scope', 'Cluster');
});

export const ingressClassDefaulters: Record<string, (obj: Obj) => void> = { 'networking.k8s.io/v1/ingressclasses': defaultIngressClass };
