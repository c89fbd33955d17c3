/**
 * networking.k8s.io/v1 NetworkPolicy's defaulting (SetObjectDefaults_NetworkPolicy): every
 * ingress and egress port's protocol TCP (SetDefaults_NetworkPolicyPort), then policyTypes
 * `[Ingress]`, plus `Egress` when the policy has egress rules, when none are given.
 */
import type { Obj } from '../../rest.ts';
import { items, onSpec, setDefault } from '../../defaulting/fields.ts';

/** MUTATES obj. */
export const defaultNetworkPolicy = onSpec((spec) => {
  for (const rule of items(spec, 'ingress')) for (const port of items(rule, 'ports')) setDefault(port, 'protocol', 'TCP');
  for (const rule of items(spec, 'egress')) for (const port of items(rule, 'ports')) setDefault(port, 'protocol', 'TCP');
  const types = spec.policyTypes;
  if (!Array.isArray(types) || types.length === 0) {
    spec.policyTypes = Array.isArray(spec.egress) && spec.egress.length > 0 ? ['Ingress', 'Egress'] : ['Ingress'];
  }
});

export const networkPolicyDefaulters: Record<string, (obj: Obj) => void> = { 'networking.k8s.io/v1/networkpolicies': defaultNetworkPolicy };
