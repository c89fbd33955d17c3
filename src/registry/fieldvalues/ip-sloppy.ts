/**
 * k8s.io/utils/net's sloppy parsers, as legacy API fields are read while StrictIPCIDRValidation
 * is off: IPv4 parts may carry leading zeros (`010.001.002.003`); no IPv6 zones.
 */
import { isIPv6 } from 'node:net';

/** The IPv4 address without its parts' leading zeros, or undefined when it is not one. */
export function sloppyIPv4(s: string): string | undefined {
  if (!/^\d{1,3}(\.\d{1,3}){3}$/.test(s)) return undefined;
  const parts = s.split('.').map(Number);
  return parts.every((p) => p <= 255) ? parts.join('.') : undefined;
}

/** netutils.ParseIPSloppy(s) != nil */
export function isIPSloppy(s: string): boolean {
  return sloppyIPv4(s) !== undefined || (!s.includes('%') && isIPv6(s));
}

/** netutils.ParseCIDRSloppy(s) succeeds. */
export function isCIDRSloppy(s: string): boolean {
  const slash = s.indexOf('/');
  if (slash < 0) return false;
  const addr = s.slice(0, slash);
  const bits = s.slice(slash + 1);
  if (!/^\d+$/.test(bits) || !isIPSloppy(addr)) return false;
  return Number(bits) <= (sloppyIPv4(addr) !== undefined ? 32 : 128);
}
