/**
 * Endpoint addresses as pkg/apis/core/validation checks them (IsValidIPForLegacyField, then
 * ValidateNonSpecialIP): an IP as Go's sloppy parser reads it (StrictIPCIDRValidation is off in
 * 1.35), and none of the ranges that make no sense as a backend — unspecified, loopback,
 * link-local unicast or multicast. IPv4-mapped IPv6 addresses count as IPv4, as in Go.
 */
import { cidrContains, invalid, parseCIDR, parseIP, type CIDR, type FieldError, type IP, type Path } from '../../apimachinery/index.ts';

const cidrs = (...s: string[]): CIDR[] => s.map((c) => parseCIDR(c)!);
const loopback = cidrs('127.0.0.0/8', '::1/128');
const linkLocalUnicast = cidrs('169.254.0.0/16', 'fe80::/10');
const linkLocalMulticast = cidrs('224.0.0.0/24');
const inAny = (ranges: CIDR[], ip: IP) => ranges.some((c) => cidrContains(c, ip));

/** net.IP.IsLinkLocalMulticast for IPv6: ff02::/16 in any of its flag nibbles (ffX2::). */
function isIPv6LinkLocalMulticast(ip: IP): boolean {
  return ip.family === 'IPv6' && ((ip.value >> 112n) & 0xff0fn) === 0xff02n;
}

/** IsValidIPForLegacyField (sloppy) */
export function validateLegacyIP(fldPath: Path, value: string): FieldError[] {
  return parseIP(value) !== undefined ? [] : [invalid(fldPath, value, 'must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)')];
}

/** ValidateNonSpecialIP */
export function validateNonSpecialIP(s: string, fldPath: Path): FieldError[] {
  const ip = parseIP(s);
  if (ip === undefined) return [invalid(fldPath, s, 'must be a valid IP address')];
  const errs: FieldError[] = [];
  if (ip.value === 0n) errs.push(invalid(fldPath, s, `may not be unspecified (${s})`));
  if (inAny(loopback, ip)) errs.push(invalid(fldPath, s, 'may not be in the loopback range (127.0.0.0/8, ::1/128)'));
  if (inAny(linkLocalUnicast, ip)) errs.push(invalid(fldPath, s, 'may not be in the link-local range (169.254.0.0/16, fe80::/10)'));
  if (inAny(linkLocalMulticast, ip) || isIPv6LinkLocalMulticast(ip)) {
    errs.push(invalid(fldPath, s, 'may not be in the link-local multicast range (224.0.0.0/24, ff02::/10)'));
  }
  return errs;
}

/** Whether the address is IPv4 as Go's netutils.IsIPv4String reads it (sloppy; mapped IPv6 counts). */
export function isIPv4Sloppy(s: string): boolean {
  return parseIP(s)?.family === 'IPv4';
}
