/**
 * Typed reads of a v1 Service as plain JSON, with Go's zero values for what is absent (a missing
 * nodePort is 0, missing clusterIPs an empty list, a missing ipFamilyPolicy nil), and the
 * predicates upstream's service helpers answer (pkg/api/v1/service, pkg/registry/core/service).
 */
import type { Obj } from '../../rest.ts';

export type Rec = Record<string, unknown>;

export const isRec = (v: unknown): v is Rec => v !== null && typeof v === 'object' && !Array.isArray(v);

/** The object's spec (created, empty, when absent: Go's struct is always there). */
export function specOf(svc: Obj): Rec {
  if (!isRec(svc.spec)) svc.spec = {};
  return svc.spec as Rec;
}

export const str = (v: unknown): string => (typeof v === 'string' ? v : '');
export const num = (v: unknown): number => (typeof v === 'number' ? v : 0);
export const strList = (v: unknown): string[] => (Array.isArray(v) ? v.map(str) : []);

export function portsOf(svc: Obj): Rec[] {
  const p = specOf(svc).ports;
  return Array.isArray(p) ? p.map((x) => (isRec(x) ? x : {})) : [];
}

export const typeOf = (svc: Obj): string => str(specOf(svc).type);
export const clusterIPOf = (svc: Obj): string => str(specOf(svc).clusterIP);
export const clusterIPsOf = (svc: Obj): string[] => strList(specOf(svc).clusterIPs);
export const ipFamiliesOf = (svc: Obj): string[] => strList(specOf(svc).ipFamilies);
/** ipFamilyPolicy, undefined for nil. */
export const ipFamilyPolicyOf = (svc: Obj): string | undefined => {
  const p = specOf(svc).ipFamilyPolicy;
  return typeof p === 'string' ? p : undefined;
};
export const selectorOf = (svc: Obj): Record<string, string> | undefined => {
  const s = specOf(svc).selector;
  return isRec(s) ? (s as Record<string, string>) : undefined;
};

/** Sets a list field, or removes it when empty (Go's omitempty). */
export function setList(spec: Rec, key: string, list: readonly string[] | undefined): void {
  if (list === undefined || list.length === 0) delete spec[key];
  else spec[key] = [...list];
}

/** isHeadlessService: clusterIPs is exactly ["None"]. */
export function isHeadless(svc: Obj): boolean {
  const ips = clusterIPsOf(svc);
  return ips.length === 1 && ips[0] === 'None';
}

/** service.ExternallyAccessible: LoadBalancer, NodePort, or ClusterIP with externalIPs. */
export function externallyAccessible(svc: Obj): boolean {
  const t = typeOf(svc);
  const ext = specOf(svc).externalIPs;
  return t === 'LoadBalancer' || t === 'NodePort' || (t === 'ClusterIP' && Array.isArray(ext) && ext.length > 0);
}

/** service.NeedsHealthCheck: LoadBalancer with externalTrafficPolicy Local. */
export function needsHealthCheck(svc: Obj): boolean {
  return typeOf(svc) === 'LoadBalancer' && str(specOf(svc).externalTrafficPolicy) === 'Local';
}

/** needsClusterIP: every type but ExternalName. */
export const needsClusterIP = (svc: Obj): boolean => typeOf(svc) !== 'ExternalName';

/** needsNodePort: NodePort and LoadBalancer. */
export const needsNodePort = (svc: Obj): boolean => typeOf(svc) === 'NodePort' || typeOf(svc) === 'LoadBalancer';

/** shouldAllocateNodePorts: NodePort always; LoadBalancer unless allocateLoadBalancerNodePorts is false. */
export function shouldAllocateNodePorts(svc: Obj): boolean {
  const t = typeOf(svc);
  if (t === 'NodePort') return true;
  if (t === 'LoadBalancer') return specOf(svc).allocateLoadBalancerNodePorts !== false;
  return false;
}

/** The nodePorts in use by a Service: its ports' and its healthCheckNodePort (collectServiceNodePorts plus HC). */
export function nodePortsOf(svc: Obj): number[] {
  const out: number[] = [];
  for (const p of portsOf(svc)) if (num(p.nodePort) !== 0) out.push(num(p.nodePort));
  return out;
}

export const healthCheckNodePortOf = (svc: Obj): number => num(specOf(svc).healthCheckNodePort);
