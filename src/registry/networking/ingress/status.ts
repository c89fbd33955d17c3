/**
 * Ingress's status rules (ValidateIngressStatusUpdate's ValidateIngressLoadBalancerStatus after
 * the common ObjectMeta checks): each load balancer ingress's IP a valid (legacy-parsed) address,
 * its hostname a DNS subdomain and not an IP address.
 */
import { Path, invalid, isDNS1123Subdomain, parseIP, type FieldError } from '../../../apimachinery/index.ts';
import type { EndpointRules } from '../../builtin/native.ts';
import { validateLegacyIP } from '../../fieldvalues/endpoint-ip.ts';
import { list, rec, str } from '../../fieldvalues/fields.ts';
import type { Obj } from '../../rest.ts';

/** ValidateIngressLoadBalancerStatus */
export function validateIngressLoadBalancerStatus(status: unknown, fldPath: Path): FieldError[] {
  const errs: FieldError[] = [];
  list(rec(status).ingress).forEach((v, i) => {
    const ing = rec(v);
    const p = fldPath.child('ingress').index(i);
    const ip = str(ing.ip);
    if (ip !== '') errs.push(...validateLegacyIP(p.child('ip'), ip));
    const host = str(ing.hostname);
    if (host !== '') {
      errs.push(...isDNS1123Subdomain(host).map((m) => invalid(p.child('hostname'), host, m)));
      if (parseIP(host) !== undefined) errs.push(invalid(p.child('hostname'), host, 'must be a DNS name, not an IP address'));
    }
  });
  return errs;
}

export const ingressStatusRules: EndpointRules = {
  validateUpdate: (_ctx, obj: Obj) => validateIngressLoadBalancerStatus(rec(obj.status).loadBalancer, Path.of('status', 'loadBalancer')),
};
