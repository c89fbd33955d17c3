/**
 * Kubernetes' IP library (k8s.io/apiserver/pkg/cel/library/ip.go): `ip(string)`, `isIP`,
 * `ip.isCanonical`, `family`, `isUnspecified`, `isLoopback`, `isLinkLocalMulticast`,
 * `isLinkLocalUnicast`, `isGlobalUnicast` and `string(ip)`. Addresses parse with Go's netip rules;
 * zones and IPv4-mapped IPv6 addresses are rejected, as upstream.
 */
import { BoolType, IntType, StringType, opaque } from '../../check/types.ts';
import { errNoOverload, type Val } from '../../eval/values.ts';
import type { Library } from '../decls.ts';
import { err, fn, global, member } from '../define.ts';
import { nominalCost, stringCost, STRING_TRAVERSAL_COST_FACTOR } from './costs.ts';
import * as netip from './netip.ts';
import { OpaqueLibraryValue } from './object.ts';
import { actualSize } from '../../eval/planner.ts';

export const IP_TYPE_NAME = 'net.IP';
/** The checker's type of IP values (an opaque type upstream). */
export const IPType = opaque(IP_TYPE_NAME);

/** A CEL `net.IP` value. */
export class IPValue extends OpaqueLibraryValue {
  constructor(readonly addr: netip.Addr) {
    super(IP_TYPE_NAME, netip.addrString(addr));
  }
  /** upstream's IP.Size: bytes of the address (cost functions use it). */
  override size(): number {
    return this.addr.bits / 8;
  }
}

/** upstream's parseIPAddr: the address, or the error message. */
export function parseIPAddr(raw: string): netip.Addr | string {
  const addr = netip.parseAddr(raw);
  if (typeof addr === 'string') return `IP Address ${netip.goQuote(raw)} parse error during conversion from string: ${addr}`;
  if (addr.zone !== '') return `IP address ${netip.goQuote(raw)} with zone value is not allowed`;
  if (netip.is4In6(addr)) return `IPv4-mapped IPv6 address ${netip.goQuote(raw)} is not allowed`;
  return addr;
}

/** `ip(string)`: an IP value or an error value. */
export function stringToIP(s: string): Val {
  const a = parseIPAddr(s);
  return typeof a === 'string' ? err(a) : new IPValue(a);
}

function withIP(f: (a: netip.Addr) => Val) {
  return (v: Val): Val => (v instanceof IPValue ? f(v.addr) : errNoOverload());
}

const B = BoolType;

export const ipLibrary: Library = {
  name: 'kubernetes.net.ip',
  functions: [
    fn('ip', global('string_to_ip', [StringType], IPType, stringToIP, { cost: stringCost })),
    fn('family', member('ip_family', [IPType], IntType, withIP((a) => (a.bits === 32 ? 4n : 6n)), { cost: nominalCost })),
    fn(
      'ip.isCanonical',
      global(
        'ip_is_canonical',
        [StringType],
        B,
        (s: string): Val => {
          const a = parseIPAddr(s);
          return typeof a === 'string' ? err(a) : netip.addrString(a) === s;
        },
        { cost: (s: Val) => Math.ceil(actualSize(s) * 2 * STRING_TRAVERSAL_COST_FACTOR) },
      ),
    ),
    fn('isUnspecified', member('ip_is_unspecified', [IPType], B, withIP(netip.isUnspecified), { cost: nominalCost })),
    fn('isLoopback', member('ip_is_loopback', [IPType], B, withIP(netip.isLoopback), { cost: nominalCost })),
    fn('isLinkLocalMulticast', member('ip_is_link_local_multicast', [IPType], B, withIP(netip.isLinkLocalMulticast), { cost: nominalCost })),
    fn('isLinkLocalUnicast', member('ip_is_link_local_unicast', [IPType], B, withIP(netip.isLinkLocalUnicast), { cost: nominalCost })),
    fn('isGlobalUnicast', member('ip_is_global_unicast', [IPType], B, withIP(netip.isGlobalUnicast), { cost: nominalCost })),
    fn('isIP', global('is_ip', [StringType], B, (s: string) => typeof parseIPAddr(s) !== 'string', { cost: stringCost })),
    fn('string', global('ip_to_string', [IPType], StringType, withIP((a) => netip.addrString(a)))),
  ],
};
