/**
 * A device status's network data (validateNetworkDeviceData): an interface name of at most 256
 * bytes, a hardware address of at most 128, and at most 16 distinct IPs, each an interface
 * address in canonical CIDR form as apimachinery's IsValidInterfaceAddress (validation/ip.ts) requires
 * (`192.168.1.5/24`: the whole address with its prefix length).
 */
import { isValidInterfaceAddress, tooLong, type FieldError, type Path } from '../../../apimachinery/index.ts';
import { rec, str } from '../../fieldvalues/fields.ts';
import { validateSet, type Rec } from './validation.ts';

const interfaceNameMaxLength = 256;
const hardwareAddressMaxLength = 128;
const maxIPs = 16;

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
