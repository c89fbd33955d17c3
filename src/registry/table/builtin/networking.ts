/**
 * Printers of networking.k8s.io/v1 (Ingresses, IngressClasses, NetworkPolicies, ServiceCIDRs,
 * IPAddresses) and discovery.k8s.io/v1 EndpointSlices.
 */
import { ageColumn, col, nameColumn, printer } from './columns.ts';
import { age, formatLabelSelector, int, isSet, listWithMore, nameOf, obj, objs, spec, status, str } from './cells.ts';
import { loadBalancerStatus } from './core.ts';

/** formatHosts: up to three rule hosts, `*` when none has one. */
function formatHosts(rules: unknown): string {
  const rs = objs(rules);
  const list: string[] = [];
  const max = 3;
  let more = false;
  for (const r of rs) {
    if (list.length === max) more = true;
    if (!more && str(r.host) !== '') list.push(str(r.host));
  }
  if (list.length === 0) return '*';
  const ret = list.join(',');
  return more ? `${ret} + ${rs.length - max} more...` : ret;
}

export const ingressPrinter = printer(
  [
    nameColumn,
    col('Class', 'string', 'The name of the IngressClass resource that should be used for additional configuration'),
    col('Hosts', 'string', 'Hosts that incoming requests are matched against before the ingress rule'),
    col('Address', 'string', 'Address is a list containing ingress points for the load-balancer'),
    col('Ports', 'string', 'Ports of TLS configurations that open'),
    ageColumn,
  ],
  (o, now) => {
    const s = spec(o);
    const className = isSet(s.ingressClassName) ? str(s.ingressClassName) : '<none>';
    const ports = objs(s.tls).length !== 0 ? '80, 443' : '80';
    // Wide, as the server prints: the address is not clipped.
    return [nameOf(o), className, formatHosts(s.rules), loadBalancerStatus(status(o).loadBalancer, true), ports, age(o, now)];
  },
);

export const ingressClassPrinter = printer(
  [
    nameColumn,
    col('Controller', 'string', 'Controller that is responsible for handling this class'),
    col('Parameters', 'string', 'A reference to a resource with additional parameters'),
    ageColumn,
  ],
  (o, now) => {
    const s = spec(o);
    let parameters = '<none>';
    if (isSet(s.parameters)) {
      const p = obj(s.parameters);
      parameters = str(p.kind);
      if (isSet(p.apiGroup)) parameters += '.' + str(p.apiGroup);
      parameters += '/' + str(p.name);
    }
    return [nameOf(o), str(s.controller), parameters, age(o, now)];
  },
);

export const networkPolicyPrinter = printer([nameColumn, col('Pod-Selector', 'string', 'extensionsv1beta1.NetworkPolicySpec.podSelector'), ageColumn], (o, now) => [
  nameOf(o),
  // The pod selector is a value, never nil: an absent one is the empty selector.
  formatLabelSelector(obj(spec(o).podSelector)),
  age(o, now),
]);

export const serviceCIDRPrinter = printer([nameColumn, col('CIDRs', 'string', 'networkingv1beta1.ServiceCIDRSpec.cidrs'), ageColumn], (o, now) => [
  nameOf(o),
  (Array.isArray(spec(o).cidrs) ? (spec(o).cidrs as unknown[]).map(str) : []).join(','),
  age(o, now),
]);

export const ipAddressPrinter = printer([nameColumn, col('ParentRef', 'string', 'networkingv1beta1.IPAddressSpec.parentRef')], (o, now) => {
  const s = spec(o);
  let parent = '<none>';
  if (isSet(s.parentRef)) {
    const p = obj(s.parentRef);
    // GroupResource.String(): `resource.group`, or the resource alone.
    const gr = str(p.group) === '' ? str(p.resource) : `${str(p.resource)}.${str(p.group)}`;
    parent = gr.toLowerCase();
    if (str(p.namespace) !== '') parent += '/' + str(p.namespace);
    parent += '/' + str(p.name);
  }
  // Upstream appends an AGE cell that has no column.
  return [nameOf(o), parent, age(o, now)];
});

function discoveryPorts(ports: unknown): string {
  const list: string[] = [];
  const max = 3;
  let more = false;
  let count = 0;
  for (const p of objs(ports)) {
    if (list.length < max) list.push(isSet(p.port) ? String(int(p.port)) : isSet(p.name) ? str(p.name) : '*');
    else if (list.length === max) more = true;
    count++;
  }
  return listWithMore(list, more, count, max);
}

function discoveryEndpoints(endpoints: unknown): string {
  const list: string[] = [];
  const max = 3;
  let more = false;
  let count = 0;
  for (const e of objs(endpoints)) {
    for (const a of Array.isArray(e.addresses) ? e.addresses.map(str) : []) {
      if (list.length < max) list.push(a);
      else if (list.length === max) more = true;
      count++;
    }
  }
  return listWithMore(list, more, count, max);
}

export const endpointSlicePrinter = printer(
  [
    nameColumn,
    col('AddressType', 'string', 'discoveryv1beta1.EndpointSlice.addressType'),
    col('Ports', 'string', 'discoveryv1beta1.EndpointSlice.ports'),
    col('Endpoints', 'string', 'discoveryv1beta1.EndpointSlice.endpoints'),
    ageColumn,
  ],
  (o, now) => [nameOf(o), str(o.addressType), discoveryPorts(o.ports), discoveryEndpoints(o.endpoints), age(o, now)],
);
