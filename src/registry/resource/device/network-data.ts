/**
 * A device status's network data (validateNetworkDeviceData): an interface name of at most 256
 * bytes, a hardware address of at most 128, and at most 16 distinct IPs, each an interface
 * address in canonical CIDR form as apimachinery's IsValidInterfaceAddress requires
 * (`192.168.1.5/24`: the whole address with its prefix length).
 */
import { formatIP, goQuote, invalid, parseCIDR, parseIP, tooLong, type FieldError, type Path } from '../../../apimachinery/index.ts';
import { rec, str } from '../../fieldvalues/fields.ts';
import { validateSet, type Rec } from './validation.ts';

const interfaceNameMaxLength = 256;
const hardwareAddressMaxLength = 128;
const maxIPs = 16;

/**
 * IsValidInterfaceAddress: ParseCIDRSloppy must accept it (else the CIDR-form message), and it
 * must be written as Go writes the address and its prefix (an IPv4-mapped address as IPv4, its
 * prefix less the 96 bits of the mapping).
 */
export function isValidInterfaceAddress(p: Path, value: string): FieldError[] {
  const cidr = parseCIDR(value);
  const slash = value.indexOf('/');
  const ip = cidr === undefined ? undefined : parseIP(value.slice(0, slash));
  if (cidr === undefined || ip === undefined) return [invalid(p, value, 'must be a valid address in CIDR form, (e.g. 10.9.8.7/24 or 2001:db8::1/64)')];
  let prefix = cidr.prefix;
  if (ip.family === 'IPv4' && prefix > 32) prefix -= 96;
  const canonical = `${formatIP(ip)}/${prefix}`;
  return value === canonical ? [] : [invalid(p, value, `must be in canonical form (${goQuote(canonical)})`)];
}

/** validateNetworkDeviceData; nothing for an absent one. */
export function validateNetworkDeviceData(v: unknown, p: Path): FieldError[] {
  if (v === undefined || v === null) return [];
  const data: Rec = rec(v);
  const errs: FieldError[] = [];
  if (Buffer.byteLength(str(data.interfaceName), 'utf8') > interfaceNameMaxLength) errs.push(tooLong(p.child('interfaceName'), '', interfaceNameMaxLength));
  if (Buffer.byteLength(str(data.hardwareAddress), 'utf8') > hardwareAddressMaxLength) errs.push(tooLong(p.child('hardwareAddress'), '', hardwareAddressMaxLength));
  errs.push(...validateSet<unknown>(data.ips, maxIPs, (ip, ipp) => isValidInterfaceAddress(ipp, str(ip)), (ip) => str(ip), p.child('ips')));
  return errs;
}
