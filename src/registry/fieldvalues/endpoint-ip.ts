/**
 * Endpoint addresses as pkg/apis/core/validation checks them (IsValidIPForLegacyField, then
 * ValidateNonSpecialIP): an IP as Go's sloppy parser reads it (StrictIPCIDRValidation is off in
 * 1.35), and none of the ranges that make no sense as a backend — unspecified, loopback,
 * link-local unicast or multicast. IPv4-mapped IPv6 addresses count as IPv4, as in Go.
 */
import { BlockList } from 'node:net';
import { invalid, type FieldError, type Path } from '../../apimachinery/index.ts';
import { isIPSloppy } from './ip-sloppy.ts';

/** The address in a form node:net reads: IPv4 parts without leading zeros, mapped IPv6 as IPv4. */
function normalized(ip: string): { addr: string; family: 'ipv4' | 'ipv6' } {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  const v4 = mapped ? mapped[1]! : ip.includes(':') ? undefined : ip;
  if (v4 !== undefined) return { addr: v4.split('.').map((o) => String(Number(o))).join('.'), family: 'ipv4' };
  return { addr: ip, family: 'ipv6' };
}

function range(subnets: [string, number, 'ipv4' | 'ipv6'][]): BlockList {
  const l = new BlockList();
  for (const [a, p, f] of subnets) l.addSubnet(a, p, f);
  return l;
}

const loopback = range([
  ['127.0.0.0', 8, 'ipv4'],
  ['::1', 128, 'ipv6'],
]);
const linkLocalUnicast = range([
  ['169.254.0.0', 16, 'ipv4'],
  ['fe80::', 10, 'ipv6'],
]);
const linkLocalMulticast = range([['224.0.0.0', 24, 'ipv4']]);

/** net.IP.IsLinkLocalMulticast for IPv6: ff02::/16 in any of its flag nibbles (ffX2::). */
function isIPv6LinkLocalMulticast(addr: string): boolean {
  return /^ff[0-9a-f]2:/i.test(addr);
}

function isUnspecified(n: { addr: string; family: string }): boolean {
  if (n.family === 'ipv4') return n.addr === '0.0.0.0';
  return range([['::', 128, 'ipv6']]).check(n.addr, 'ipv6');
}

/** IsValidIPForLegacyField (sloppy) */
export function validateLegacyIP(fldPath: Path, value: string): FieldError[] {
  return isIPSloppy(value) ? [] : [invalid(fldPath, value, 'must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)')];
}

/** ValidateNonSpecialIP */
export function validateNonSpecialIP(ip: string, fldPath: Path): FieldError[] {
  if (!isIPSloppy(ip)) return [invalid(fldPath, ip, 'must be a valid IP address')];
  const n = normalized(ip);
  const errs: FieldError[] = [];
  const has = (l: BlockList) => {
    try {
      return l.check(n.addr, n.family);
    } catch {
      return false;
    }
  };
  if (isUnspecified(n)) errs.push(invalid(fldPath, ip, `may not be unspecified (${ip})`));
  if (has(loopback)) errs.push(invalid(fldPath, ip, 'may not be in the loopback range (127.0.0.0/8, ::1/128)'));
  if (has(linkLocalUnicast)) errs.push(invalid(fldPath, ip, 'may not be in the link-local range (169.254.0.0/16, fe80::/10)'));
  if (has(linkLocalMulticast) || (n.family === 'ipv6' && isIPv6LinkLocalMulticast(n.addr))) {
    errs.push(invalid(fldPath, ip, 'may not be in the link-local multicast range (224.0.0.0/24, ff02::/10)'));
  }
  return errs;
}

/** Whether the address is IPv4 as Go's netutils.IsIPv4String reads it (sloppy; mapped IPv6 counts). */
export function isIPv4Sloppy(ip: string): boolean {
  return isIPSloppy(ip) && normalized(ip).family === 'ipv4';
}
