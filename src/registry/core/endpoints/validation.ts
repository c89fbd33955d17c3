/**
 * Endpoints' native rules (pkg/apis/core/validation ValidateEndpoints[Update]): each subset
 * with addresses or notReadyAddresses, each address a usable IP with a DNS-label hostname and
 * a DNS-subdomain node name, and ports with a number, a protocol and (when there are several)
 * a DNS-label name. A port without protocol is TCP, as upstream's defaulting makes it.
 */
import { type FieldError, invalid, isDNS1123Label, notSupported, Path, required } from '../../../apimachinery/index.ts';
import { isQualifiedName, isValidPortNum, nameIsDNSSubdomain } from '../../../apimachinery/index.ts';
import type { NativeRules } from '../../builtin/native.ts';
import { validateLegacyIP, validateNonSpecialIP } from '../../fieldvalues/endpoint-ip.ts';
import { list, num, rec, str } from '../../fieldvalues/fields.ts';
import type { Obj } from '../../rest.ts';

export const portProtocols = ['SCTP', 'TCP', 'UDP'];

function validateAddress(a: Record<string, unknown>, fldPath: Path): FieldError[] {
  const ip = str(a.ip);
  const errs = validateLegacyIP(fldPath.child('ip'), ip);
  const hostname = str(a.hostname);
  if (hostname !== '') errs.push(...isDNS1123Label(hostname).map((msg) => invalid(fldPath.child('hostname'), hostname, msg)));
  if (typeof a.nodeName === 'string') errs.push(...nameIsDNSSubdomain(a.nodeName, false).map((msg) => invalid(fldPath.child('nodeName'), a.nodeName, msg)));
  errs.push(...validateNonSpecialIP(ip, fldPath.child('ip')));
  return errs;
}

function validatePort(p: Record<string, unknown>, requireName: boolean, fldPath: Path): FieldError[] {
  const errs: FieldError[] = [];
  const name = str(p.name);
  if (requireName && name === '') errs.push(required(fldPath.child('name'), ''));
  else if (name !== '') errs.push(...isDNS1123Label(name).map((msg) => invalid(fldPath.child('name'), name, msg)));
  const port = num(p.port) ?? 0;
  errs.push(...isValidPortNum(port).map((msg) => invalid(fldPath.child('port'), port, msg)));
  const protocol = typeof p.protocol === 'string' ? p.protocol : 'TCP';
  if (protocol === '') errs.push(required(fldPath.child('protocol'), ''));
  else if (!portProtocols.includes(protocol)) errs.push(notSupported(fldPath.child('protocol'), protocol, portProtocols));
  if (typeof p.appProtocol === 'string') errs.push(...isQualifiedName(p.appProtocol).map((msg) => invalid(fldPath.child('appProtocol'), p.appProtocol, msg)));
  return errs;
}

export function validateEndpointSubsets(obj: Obj): FieldError[] {
  const errs: FieldError[] = [];
  list(obj.subsets).forEach((s, i) => {
    const ss = rec(s);
    const p = Path.of('subsets').index(i);
    const addresses = list(ss.addresses);
    const notReady = list(ss.notReadyAddresses);
    if (addresses.length === 0 && notReady.length === 0) errs.push(required(p, 'must specify `addresses` or `notReadyAddresses`'));
    addresses.forEach((a, j) => errs.push(...validateAddress(rec(a), p.child('addresses').index(j))));
    notReady.forEach((a, j) => errs.push(...validateAddress(rec(a), p.child('notReadyAddresses').index(j))));
    const ports = list(ss.ports);
    ports.forEach((port, j) => errs.push(...validatePort(rec(port), ports.length > 1, p.child('ports').index(j))));
  });
  return errs;
}

export const endpointsRules: NativeRules = {
  validate: (_ctx, obj) => validateEndpointSubsets(obj),
  validateUpdate: (_ctx, obj) => validateEndpointSubsets(obj),
};
