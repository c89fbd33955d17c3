/**
 * A pod's quality-of-service class (pkg/apis/core/helper/qos ComputePodQOS): BestEffort without
 * cpu or memory requests or limits, Guaranteed when every container limits both and requests
 * equal limits, Burstable otherwise. Requests a container leaves out are its limits, as the
 * pod's defaulting makes them before the class is computed.
 */
import type { Quantity } from '../../../cel/index.ts';
import { quantityOf } from '../podspec/resources.ts';
import { rec, recs } from '../podspec/values.ts';
import type { Obj } from '../../rest.ts';

export type QOSClass = 'Guaranteed' | 'Burstable' | 'BestEffort';

function addInto(into: Map<string, Quantity>, name: string, q: Quantity): void {
  const prev = into.get(name);
  if (prev === undefined) into.set(name, q.copy());
  else prev.add(q);
}

export function computePodQOS(pod: Obj): QOSClass {
  const spec = rec(pod.spec) ?? {};
  const requests = new Map<string, Quantity>();
  const limits = new Map<string, Quantity>();
  let guaranteed = true;
  for (const c of [...recs(spec.containers), ...recs(spec.initContainers)]) {
    const res = rec(c.resources) ?? {};
    const lim = rec(res.limits) ?? {};
    const req = { ...lim, ...(rec(res.requests) ?? {}) };
    for (const name of ['cpu', 'memory']) {
      const q = quantityOf(req[name]);
      if (q && q.sign() > 0) addInto(requests, name, q);
    }
    let found = 0;
    for (const name of ['cpu', 'memory']) {
      const q = quantityOf(lim[name]);
      if (q && q.sign() > 0) {
        found++;
        addInto(limits, name, q);
      }
    }
    if (found < 2) guaranteed = false;
  }
  if (requests.size === 0 && limits.size === 0) return 'BestEffort';
  if (guaranteed) {
    for (const [name, req] of requests) {
      const lim = limits.get(name);
      if (!lim || lim.cmp(req) !== 0) {
        guaranteed = false;
        break;
      }
    }
  }
  return guaranteed && requests.size === limits.size ? 'Guaranteed' : 'Burstable';
}
