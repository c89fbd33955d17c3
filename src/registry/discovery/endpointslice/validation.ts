/**
 * EndpointSlice's native rules (pkg/apis/discovery/validation ValidateEndpointSlice[Create /
 * Update]): a known addressType that never changes; at most 1000 endpoints of 1 to 100
 * addresses of that type (usable IPs of the family, or FQDNs), node names, hostnames, topology
 * labels and zone hints; at most 20000 ports with unique DNS-label names and known protocols.
 * Absent port names and protocols are '' and TCP, as upstream's defaulting makes them.
 */
import { duplicate, type FieldError, invalid, isDNS1123Label, isDNS1123Subdomain, notSupported, Path, required, tooMany, validateLabels } from '../../../apimachinery/index.ts';
import { isQualifiedName, nameIsDNSSubdomain } from '../../../apimachinery/index.ts';
import type { NativeRules } from '../../builtin/native.ts';
import { portProtocols } from '../../core/endpoints/validation.ts';
import { isIPv4Sloppy, validateLegacyIP, validateNonSpecialIP } from '../../fieldvalues/endpoint-ip.ts';
import { immutableField, list, ptr, rec, str, stringMap } from '../../fieldvalues/fields.ts';
import type { Obj } from '../../rest.ts';

const addressTypes = ['FQDN', 'IPv4', 'IPv6'];
const maxTopologyLabels = 16;
const maxAddresses = 100;
const maxPorts = 20000;
const maxEndpoints = 1000;
const maxZoneHints = 8;

function validateAddressType(t: string): FieldError[] {
  if (t === '') return [required(Path.of('addressType'), '')];
  return addressTypes.includes(t) ? [] : [notSupported(Path.of('addressType'), t, addressTypes)];
}

/** IsFullyQualifiedDomainName: a DNS subdomain (a trailing dot allowed) of at least two labels. */
function isFullyQualifiedDomainName(fldPath: Path, value: string): FieldError[] {
  if (value === '') return [required(fldPath, '')];
  const name = value.endsWith('.') ? value.slice(0, -1) : value;
  const errs = isDNS1123Subdomain(name);
  if (errs.length > 0) return [invalid(fldPath, name, errs.join(','))];
  const labels = name.split('.');
  if (labels.length < 2) return [invalid(fldPath, name, 'should be a domain with at least two segments separated by dots')];
  for (const label of labels) {
    const le = isDNS1123Label(label);
    if (le.length > 0) return [invalid(fldPath, label, le.join(','))];
  }
  return [];
}

function validateAddress(type: string, address: string, p: Path): FieldError[] {
  switch (type) {
    case 'IPv4':
    case 'IPv6': {
      const ipErrs = validateLegacyIP(p, address);
      if (ipErrs.length > 0) return ipErrs;
      const errs: FieldError[] = [];
      if (type === 'IPv4' && !isIPv4Sloppy(address)) errs.push(invalid(p, address, 'must be an IPv4 address'));
      if (type === 'IPv6' && isIPv4Sloppy(address)) errs.push(invalid(p, address, 'must be an IPv6 address'));
      return [...errs, ...validateNonSpecialIP(address, p)];
    }
    case 'FQDN':
      return isFullyQualifiedDomainName(p, address);
    default:
      return [];
  }
}

function validateHints(hints: Record<string, unknown>, fldPath: Path): FieldError[] {
  const errs: FieldError[] = [];
  const zones = list(hints.forZones);
  const zonesPath = fldPath.child('forZones');
  if (zones.length > maxZoneHints) return [tooMany(zonesPath, zones.length, maxZoneHints)];
  const seen = new Set<string>();
  zones.forEach((z, i) => {
    const name = str(rec(z).name);
    const p = zonesPath.index(i).child('name');
    if (seen.has(name)) errs.push(duplicate(p, name));
    else seen.add(name);
    errs.push(...isDNS1123Label(name).map((msg) => invalid(p, name, msg)));
  });
  return errs;
}

function validateEndpoints(type: string, endpoints: unknown[]): FieldError[] {
  const fldPath = Path.of('endpoints');
  if (endpoints.length > maxEndpoints) return [tooMany(fldPath, endpoints.length, maxEndpoints)];
  const errs: FieldError[] = [];
  endpoints.forEach((e, i) => {
    const ep = rec(e);
    const idx = fldPath.index(i);
    const addressPath = idx.child('addresses');
    const addresses = list(ep.addresses);
    if (addresses.length === 0) errs.push(required(addressPath, 'must contain at least 1 address'));
    else if (addresses.length > maxAddresses) errs.push(tooMany(addressPath, addresses.length, maxAddresses));
    addresses.forEach((a, j) => errs.push(...validateAddress(type, str(a), addressPath.index(j))));
    if (typeof ep.nodeName === 'string') errs.push(...nameIsDNSSubdomain(ep.nodeName, false).map((msg) => invalid(idx.child('nodeName'), ep.nodeName, msg)));
    const topology = stringMap(ep.deprecatedTopology);
    const topologyPath = idx.child('deprecatedTopology');
    if (Object.keys(topology).length > maxTopologyLabels) errs.push(tooMany(topologyPath, Object.keys(topology).length, maxTopologyLabels));
    errs.push(...validateLabels(topology, topologyPath));
    if (typeof ep.hostname === 'string') errs.push(...isDNS1123Label(ep.hostname).map((msg) => invalid(idx.child('hostname'), ep.hostname, msg)));
    const hints = ptr(ep.hints);
    if (hints !== undefined) errs.push(...validateHints(hints, idx.child('hints')));
  });
  return errs;
}

function validatePorts(ports: unknown[]): FieldError[] {
  const fldPath = Path.of('ports');
  if (ports.length > maxPorts) return [tooMany(fldPath, ports.length, maxPorts)];
  const errs: FieldError[] = [];
  const names = new Set<string>();
  ports.forEach((pt, i) => {
    const port = rec(pt);
    const idx = fldPath.index(i);
    const name = str(port.name);
    if (name !== '') errs.push(...isDNS1123Label(name).map((msg) => invalid(idx.child('name'), name, msg)));
    if (names.has(name)) errs.push(duplicate(idx.child('name'), name));
    else names.add(name);
    const protocol = typeof port.protocol === 'string' ? port.protocol : 'TCP';
    if (!portProtocols.includes(protocol)) errs.push(notSupported(idx.child('protocol'), protocol, portProtocols));
    if (typeof port.appProtocol === 'string') errs.push(...isQualifiedName(port.appProtocol).map((msg) => invalid(idx.child('appProtocol'), port.appProtocol, msg)));
  });
  return errs;
}

export function validateEndpointSlice(obj: Obj): FieldError[] {
  const type = str(obj.addressType);
  return [...validateAddressType(type), ...validateEndpoints(type, list(obj.endpoints)), ...validatePorts(list(obj.ports))];
}

export const endpointSliceRules: NativeRules = {
  validate: (_ctx, obj) => validateEndpointSlice(obj),
  validateUpdate: (_ctx, obj, old) => [...validateEndpointSlice(obj), ...immutableField(str(obj.addressType), str(old.addressType), Path.of('addressType'))],
};
