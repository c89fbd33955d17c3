/**
 * The pod-level resources' defaults SetDefaults_Pod applies with PodLevelResources (beta and on
 * in Kubernetes 1.35), after the containers' requests were defaulted from their limits:
 * defaultHugePagePodLimits (a pod that sets pod-level resources gets the containers' aggregated
 * hugepages limits where it names neither a hugepages limit nor request), then
 * defaultPodRequests (a pod with pod-level limits gets, per supported resource it does not
 * request, the containers' aggregated requests where overcommit is allowed, else its own
 * limit). Aggregation is component-helpers' AggregateContainerRequests/Limits: the containers'
 * sum, raised to what any init container needs while it runs (with the restartable init
 * containers started before it).
 */
import { parseQuantity, Quantity } from '../../../cel/index.ts';
import { isRec, items, ptr, type Rec } from '../podspec/defaults.ts';

type Quantities = Map<string, Quantity>;

const hugePagesPrefix = 'hugepages-';
const isHugePages = (name: string) => name.startsWith(hugePagesPrefix);
/** IsSupportedPodLevelResource: cpu, memory and hugepages. */
const supported = (name: string) => name === 'cpu' || name === 'memory' || isHugePages(name);
/** IsOvercommitAllowed: a native resource (no domain, or a kubernetes.io one) that is not hugepages. */
function overcommitAllowed(name: string): boolean {
  const slash = name.indexOf('/');
  const native = slash < 0 || name.slice(0, slash) === 'kubernetes.io' || name.slice(0, slash).endsWith('.kubernetes.io');
  return native && !isHugePages(name);
}

/** The parsed quantities of a resource list (values that do not parse are left out). */
function quantities(list: unknown): Quantities {
  const out: Quantities = new Map();
  if (!isRec(list)) return out;
  for (const [name, v] of Object.entries(list)) {
    if (typeof v !== 'string' && typeof v !== 'number') continue;
    const q = parseQuantity(String(v));
    if (q instanceof Quantity) out.set(name, q);
  }
  return out;
}

function addInto(sum: Quantities, more: Quantities): void {
  for (const [name, q] of more) {
    const have = sum.get(name);
    if (have) have.add(q);
    else sum.set(name, q.copy());
  }
}

function maxInto(top: Quantities, more: Quantities): void {
  for (const [name, q] of more) {
    const have = top.get(name);
    if (!have || q.cmp(have) > 0) top.set(name, q.copy());
  }
}

/** aggregateContainerResourcesByFn over the spec's `requests` or `limits`. */
function aggregate(spec: Rec, kind: 'requests' | 'limits'): Quantities {
  const of = (c: Rec) => quantities(ptr(c, 'resources')?.[kind]);
  const result: Quantities = new Map();
  for (const c of items(spec, 'containers')) addInto(result, of(c));
  const restartable: Quantities = new Map();
  const initPeak: Quantities = new Map();
  for (const c of items(spec, 'initContainers')) {
    const own = of(c);
    if (c.restartPolicy === 'Always') {
      addInto(result, own);
      addInto(restartable, own);
      maxInto(initPeak, restartable);
    } else {
      const running: Quantities = new Map();
      addInto(running, own);
      addInto(running, restartable);
      maxInto(initPeak, running);
    }
  }
  maxInto(result, initPeak);
  return result;
}

const hasAny = (list: unknown) => isRec(list) && Object.keys(list).length > 0;

/** defaultHugePagePodLimits. MUTATES `spec`. */
function defaultHugePagePodLimits(spec: Rec, resources: Rec): void {
  if (!hasAny(resources.limits) && !hasAny(resources.requests)) return;
  const limits: Rec = isRec(resources.limits) ? resources.limits : {};
  const requests: Rec = isRec(resources.requests) ? resources.requests : {};
  for (const [name, q] of aggregate(spec, 'limits')) {
    if (!supported(name) || !isHugePages(name) || name in requests) continue;
    if (!(name in limits)) limits[name] = q.toString();
  }
  if (Object.keys(limits).length > 0) resources.limits = limits;
}

/** defaultPodRequests. MUTATES `spec`. */
function defaultPodRequests(spec: Rec, resources: Rec): void {
  if (!hasAny(resources.limits)) return;
  const limits = resources.limits as Rec;
  const requests: Rec = isRec(resources.requests) ? resources.requests : {};
  for (const [name, q] of aggregate(spec, 'requests')) {
    if (!(name in requests) && supported(name) && overcommitAllowed(name)) requests[name] = q.toString();
  }
  for (const [name, q] of Object.entries(limits)) if (!(name in requests) && supported(name)) requests[name] = q;
  if (Object.keys(requests).length > 0) resources.requests = requests;
}

/** The pod-level resources' defaults, where the spec gives pod-level resources. MUTATES `spec`. */
export function defaultPodLevelResources(spec: Rec): void {
  const resources = ptr(spec, 'resources');
  if (!resources) return;
  defaultHugePagePodLimits(spec, resources);
  defaultPodRequests(spec, resources);
}
