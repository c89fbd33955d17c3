/**
 * core/v1 SetDefaults_Service (the whole of SetObjectDefaults_Service): sessionAffinity None
 * (and no sessionAffinityConfig then; ClientIP gets the 10800s timeout), type ClusterIP, each
 * port's protocol TCP and targetPort = port, externalTrafficPolicy Cluster for externally
 * reachable Services, internalTrafficPolicy Cluster for ClusterIP/NodePort/LoadBalancer,
 * allocateLoadBalancerNodePorts true and ingress ipMode VIP for LoadBalancer.
 */
import type { Obj } from '../../rest.ts';
import { externallyAccessible, isRec, specOf } from './spec.ts';

/** DefaultClientIPServiceAffinitySeconds */
export const defaultClientIPServiceAffinitySeconds = 10800;

const unset = (v: unknown) => v === undefined || v === null || v === '';

/** SetDefaults_Service (MUTATES the object). */
export function defaultService(svc: Obj): void {
  const spec = specOf(svc);
  if (unset(spec.sessionAffinity)) spec.sessionAffinity = 'None';
  if (spec.sessionAffinity === 'None') delete spec.sessionAffinityConfig;
  if (spec.sessionAffinity === 'ClientIP') {
    const c = spec.sessionAffinityConfig;
    const ip = isRec(c) ? c.clientIP : undefined;
    if (!isRec(ip) || ip.timeoutSeconds === undefined || ip.timeoutSeconds === null) {
      spec.sessionAffinityConfig = { clientIP: { timeoutSeconds: defaultClientIPServiceAffinitySeconds } };
    }
  }
  if (unset(spec.type)) spec.type = 'ClusterIP';
  if (Array.isArray(spec.ports)) {
    for (const p of spec.ports) {
      if (!isRec(p)) continue;
      if (unset(p.protocol)) p.protocol = 'TCP';
      if (p.targetPort === undefined || p.targetPort === null || p.targetPort === 0 || p.targetPort === '') p.targetPort = typeof p.port === 'number' ? p.port : 0;
    }
  }
  if (externallyAccessible(svc) && unset(spec.externalTrafficPolicy)) spec.externalTrafficPolicy = 'Cluster';
  if (spec.internalTrafficPolicy === undefined || spec.internalTrafficPolicy === null) {
    if (spec.type === 'NodePort' || spec.type === 'LoadBalancer' || spec.type === 'ClusterIP') spec.internalTrafficPolicy = 'Cluster';
  }
  if (spec.type === 'LoadBalancer') {
    if (spec.allocateLoadBalancerNodePorts === undefined || spec.allocateLoadBalancerNodePorts === null) spec.allocateLoadBalancerNodePorts = true;
    const status = svc.status;
    const lb = isRec(status) ? status.loadBalancer : undefined;
    const ingress = isRec(lb) ? lb.ingress : undefined;
    if (Array.isArray(ingress)) {
      for (const ing of ingress) if (isRec(ing) && typeof ing.ip === 'string' && ing.ip !== '' && (ing.ipMode === undefined || ing.ipMode === null)) ing.ipMode = 'VIP';
    }
  }
}
