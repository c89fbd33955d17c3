/**
 * Kubernetes' CIDR library (k8s.io/apiserver/pkg/cel/library/cidr.go): `cidr(string)`, `isCIDR`,
 * `containsIP` and `containsCIDR` (value or string argument), `ip()`, `masked`, `prefixLength` and
 * `string(cidr)`, with Go's netip.ParsePrefix rules and upstream's (doubled) error prefix.
 */
import { BoolType, IntType, StringType, opaque } from '../../check/types.ts';
import { actualSize } from '../../eval/planner.ts';
import { CelError, errNoOverload, type Val } from '../../eval/values.ts';
import type { Library } from '../decls.ts';
import { err, fn, global, member } from '../define.ts';
import { nominalCost, stringCost, STRING_TRAVERSAL_COST_FACTOR } from './costs.ts';
import { IPType, IPValue, stringToIP } from './ip.ts';
import * as netip from './netip.ts';
import { OpaqueLibraryValue } from './object.ts';

export const CIDR_TYPE_NAME = 'net.CIDR';
/** The checker's type of CIDR values (an opaque type upstream). */
export const CIDRType = opaque(CIDR_TYPE_NAME);

/** A CEL `net.CIDR` value; equal when address (unmasked) and length are equal, as netip.Prefix. */
export class CIDRValue extends OpaqueLibraryValue {
  constructor(readonly prefix: netip.Prefix) {
    super(CIDR_TYPE_NAME, netip.prefixString(prefix));
  }
  /** upstream's CIDR.Size: bytes of the prefix length, rounded up (cost functions use it). */
  override size(): number {
    return Math.ceil(this.prefix.bits / 8);
  }
}

/** upstream's parseCIDR: the prefix, or the error message. */
export function parseCIDR(raw: string): netip.Prefix | string {
  const p = netip.parsePrefix(raw);
  if (typeof p === 'string') return `network address parse error during conversion from string: ${p}`;
  if (netip.is4In6(p.addr)) return `IPv4-mapped IPv6 address ${netip.goQuote(raw)} is not allowed`;
  return p;
}

/** `cidr(string)`: a CIDR value or an error value. */
export function stringToCIDR(s: string): Val {
  const p = parseCIDR(s);
  return typeof p === 'string' ? err(`network address parse error during conversion from string: ${p}`) : new CIDRValue(p);
}

function withCIDR(f: (p: netip.Prefix) => Val) {
  return (v: Val): Val => (v instanceof CIDRValue ? f(v.prefix) : errNoOverload());
}

function containsIP(c: Val, ip: Val): Val {
  if (ip instanceof CelError) return ip;
  if (!(c instanceof CIDRValue) || !(ip instanceof IPValue)) return errNoOverload();
  return netip.prefixContains(c.prefix, ip.addr);
}

function containsCIDR(c: Val, o: Val): Val {
  if (o instanceof CelError) return o;
  if (!(c instanceof CIDRValue) || !(o instanceof CIDRValue)) return errNoOverload();
  return netip.prefixOverlaps(c.prefix, o.prefix) && c.prefix.bits <= o.prefix.bits;
}

/** The size upstream's cost functions see for a value (Sizer: strings, IPs and CIDRs). */
const size = (v: Val): number => actualSize(v);

const F = STRING_TRAVERSAL_COST_FACTOR;
const containsIPCost = (str: boolean) => (c: Val, o: Val) => {
  const cs = size(c);
  return Math.ceil((cs + cs) * F) + (str ? Math.ceil(size(o) * F) : 0);
};
const containsCIDRCost = (str: boolean) => (c: Val, o: Val) => {
  const cs = size(c);
  return Math.ceil((cs + cs) * F) + Math.ceil(cs * F) + 1 + (str ? Math.ceil(size(o) * F) : 0);
};

export const cidrLibrary: Library = {
  name: 'kubernetes.net.cidr',
  functions: [
    fn('cidr', global('string_to_cidr', [StringType], CIDRType, stringToCIDR, { cost: stringCost })),
    fn(
      'containsIP',
      member('cidr_contains_ip_string', [CIDRType, StringType], BoolType, (c: Val, s: string) => containsIP(c, stringToIP(s)), {
        cost: containsIPCost(true),
      }),
      member('cidr_contains_ip_ip', [CIDRType, IPType], BoolType, containsIP, { cost: containsIPCost(false) }),
    ),
    fn(
      'containsCIDR',
      member('cidr_contains_cidr_string', [CIDRType, StringType], BoolType, (c: Val, s: string) => containsCIDR(c, stringToCIDR(s)), {
        cost: containsCIDRCost(true),
      }),
      member('cidr_contains_cidr', [CIDRType, CIDRType], BoolType, containsCIDR, { cost: containsCIDRCost(false) }),
    ),
    fn('ip', member('cidr_ip', [CIDRType], IPType, withCIDR((p) => new IPValue(p.addr)), { cost: nominalCost })),
    fn('prefixLength', member('cidr_prefix_length', [CIDRType], IntType, withCIDR((p) => BigInt(p.bits)), { cost: nominalCost })),
    fn('masked', member('cidr_masked', [CIDRType], CIDRType, withCIDR((p) => new CIDRValue(netip.masked(p))), { cost: nominalCost })),
    fn('isCIDR', global('is_cidr', [StringType], BoolType, (s: string) => typeof parseCIDR(s) !== 'string', { cost: stringCost })),
    fn('string', global('cidr_to_string', [CIDRType], StringType, withCIDR((p) => netip.prefixString(p)))),
  ],
};
