/**
 * Service's PrepareForCreate and PrepareForUpdate (pkg/registry/core/service/strategy.go) and the
 * storage layer's patchAllocatedValues: clusterIP and clusterIPs kept in step for clients that
 * set only one, fields a type change leaves meaningless wiped when the client did not touch them,
 * and allocated values an update omits carried over from the stored Service.
 */
import type { Obj } from '../../rest.ts';
import { jsonEqual } from '../../meta.ts';
import {
  clusterIPOf,
  clusterIPsOf,
  externallyAccessible,
  isRec,
  needsClusterIP,
  needsHealthCheck,
  needsNodePort,
  num,
  portsOf,
  setList,
  specOf,
  str,
  typeOf,
} from './spec.ts';

const sameList = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((x, i) => x === b[i]);
const sameClusterIPs = (a: Obj, b: Obj) => sameList(clusterIPsOf(a), clusterIPsOf(b));

/** NormalizeClusterIPs (MUTATES svc). */
export function normalizeClusterIPs(svc: Obj, old: Obj | undefined): void {
  const s = specOf(svc);
  const clusterIP = clusterIPOf(svc);
  if (!old) {
    // An old client set only the singular field.
    if (clusterIP !== '' && clusterIPsOf(svc).length === 0) s.clusterIPs = [clusterIP];
    return;
  }
  const oldIP = clusterIPOf(old);
  if (clusterIPsOf(old).length > 0 && clusterIPsOf(svc).length === 0 && oldIP === clusterIP) setList(s, 'clusterIPs', clusterIPsOf(old));
  if (oldIP !== clusterIP) {
    if (oldIP !== '' && clusterIP === '') {
      if (sameClusterIPs(old, svc)) delete s.clusterIPs;
    } else if (sameClusterIPs(old, svc)) {
      s.clusterIPs = [clusterIP];
    }
  }
}

/** dropTypeDependentFields (MUTATES svc): on a type change, what no longer applies and was not changed goes. */
export function dropTypeDependentFields(svc: Obj, old: Obj): void {
  const s = specOf(svc);
  const o = specOf(old);
  if (needsClusterIP(old) && !needsClusterIP(svc)) {
    if (sameClusterIPs(old, svc)) {
      delete s.clusterIP;
      delete s.clusterIPs;
    }
    if (jsonEqual(s.ipFamilies ?? [], o.ipFamilies ?? [])) delete s.ipFamilies;
    if ((s.ipFamilyPolicy ?? null) === (o.ipFamilyPolicy ?? null)) delete s.ipFamilyPolicy;
  }
  const nodePorts = (x: Obj) => portsOf(x).map((p) => num(p.nodePort));
  if (needsNodePort(old) && !needsNodePort(svc) && jsonEqual(nodePorts(old), nodePorts(svc))) {
    for (const p of portsOf(svc)) delete p.nodePort;
  }
  if (needsHealthCheck(old) && !needsHealthCheck(svc) && num(s.healthCheckNodePort) === num(o.healthCheckNodePort)) delete s.healthCheckNodePort;
  if (typeOf(old) === 'LoadBalancer' && typeOf(svc) !== 'LoadBalancer') {
    if (typeof s.allocateLoadBalancerNodePorts === 'boolean' && s.allocateLoadBalancerNodePorts === o.allocateLoadBalancerNodePorts) {
      delete s.allocateLoadBalancerNodePorts;
    }
    if ((s.loadBalancerClass ?? null) === (o.loadBalancerClass ?? null)) delete s.loadBalancerClass;
  }
  if (externallyAccessible(old) && !externallyAccessible(svc) && str(s.externalTrafficPolicy) === str(o.externalTrafficPolicy)) {
    delete s.externalTrafficPolicy;
  }
  if (typeOf(svc) !== 'LoadBalancer' && isRec(svc.status)) {
    const status = svc.status as Record<string, unknown>;
    status.loadBalancer = {};
  }
}

/** patchAllocatedValues (MUTATES svc): an update without clusterIPs, nodePorts or healthCheckNodePort keeps the stored ones. */
export function patchAllocatedValues(svc: Obj, old: Obj): void {
  const s = specOf(svc);
  if (needsClusterIP(old) && needsClusterIP(svc)) {
    if (clusterIPOf(svc) === '' && clusterIPOf(old) !== '') s.clusterIP = clusterIPOf(old);
    if (clusterIPsOf(svc).length === 0 && clusterIPsOf(old).length > 0) s.clusterIPs = clusterIPsOf(old);
  }
  if (needsNodePort(old) && needsNodePort(svc)) {
    const used = (x: Obj) => new Set(portsOf(x).map((p) => num(p.nodePort)).filter((n) => n !== 0));
    const newUsed = used(svc);
    const taken = new Set([...used(old)].filter((n) => newUsed.has(n)));
    const byName = new Map<string, number>();
    for (const p of portsOf(old)) byName.set(`${str(p.name)}/${str(p.protocol)}`, num(p.nodePort));
    for (const p of portsOf(svc)) {
      if (num(p.nodePort) !== 0) continue;
      const v = byName.get(`${str(p.name)}/${str(p.protocol)}`) ?? 0;
      if (v !== 0 && !taken.has(v)) p.nodePort = v;
    }
  }
  if (needsHealthCheck(old) && needsHealthCheck(svc) && num(s.healthCheckNodePort) === 0) {
    const hc = num(specOf(old).healthCheckNodePort);
    if (hc !== 0) s.healthCheckNodePort = hc;
  }
}
