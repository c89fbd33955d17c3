/**
 * NetworkPolicy's native rules (pkg/apis/networking/validation ValidateNetworkPolicy[Update]): a
 * valid pod selector; ports with a known protocol, a port number or name and an endPort only
 * after a numeric port; peers that are exactly one of the selectors or an ipBlock (a CIDR, and
 * exceptions strictly inside it); at most two policyTypes, Ingress or Egress. An update keeps
 * label values and CIDRs its stored object already had. CIDRs are parsed as Go's sloppy parser
 * does (StrictIPCIDRValidation is off in 1.35).
 */
import { type FieldError, forbidden, invalid, isValidPortName, notSupported, Path, required } from '../../../apimachinery/index.ts';
import { cidrContains, isValidPortNum, parseCIDR, type CIDR } from '../../../apimachinery/index.ts';
import type { NativeRules } from '../../builtin/native.ts';
import { list, num, ptr, rec, str, strings } from '../../fieldvalues/fields.ts';
import { validateSelectorField } from '../../fieldvalues/selector.ts';
import type { Obj } from '../../rest.ts';

const specPath = Path.of('spec');
const protocols = ['TCP', 'UDP', 'SCTP'];
const policyTypes = ['Ingress', 'Egress'];
const cidrMsg = 'must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)';

interface Options {
  allowInvalidLabelValueInSelector: boolean;
  allowCIDRs: readonly string[];
}

/** ValidateNetworkPolicyPort */
function validatePort(port: Record<string, unknown>, fldPath: Path): FieldError[] {
  const errs: FieldError[] = [];
  if (typeof port.protocol === 'string' && !protocols.includes(port.protocol)) errs.push(notSupported(fldPath.child('protocol'), port.protocol, protocols));
  const endPort = num(port.endPort);
  if (typeof port.port === 'number') {
    for (const msg of isValidPortNum(port.port)) errs.push(invalid(fldPath.child('port'), port.port, msg));
    if (endPort !== undefined) {
      if (endPort < port.port) errs.push(invalid(fldPath.child('endPort'), endPort, 'must be greater than or equal to `port`'));
      for (const msg of isValidPortNum(endPort)) errs.push(invalid(fldPath.child('endPort'), endPort, msg));
    }
  } else if (typeof port.port === 'string') {
    if (endPort !== undefined) errs.push(invalid(fldPath.child('endPort'), endPort, 'may not be specified when `port` is non-numeric'));
    for (const msg of isValidPortName(port.port)) errs.push(invalid(fldPath.child('port'), port.port, msg));
  } else if (endPort !== undefined) {
    errs.push(invalid(fldPath.child('endPort'), endPort, 'may not be specified when `port` is not specified'));
  }
  return errs;
}

/** Whether `inner` is a strict subset of `outer` (IPNet.Contains of its address, and a longer prefix). */
function strictSubset(outer: CIDR, inner: CIDR): boolean {
  return outer.prefix < inner.prefix && cidrContains(outer, { family: inner.family, value: inner.base });
}

/** IsValidCIDRForLegacyField, letting through the CIDRs the stored object had. */
function cidrErrors(fldPath: Path, value: string, opts: Options): FieldError[] {
  if (opts.allowCIDRs.includes(value)) return [];
  return parseCIDR(value) !== undefined ? [] : [invalid(fldPath, value, cidrMsg)];
}

/** ValidateIPBlock */
function validateIPBlock(block: Record<string, unknown>, fldPath: Path, opts: Options): FieldError[] {
  const cidr = str(block.cidr);
  if (cidr === '') return [required(fldPath.child('cidr'), '')];
  const errs = cidrErrors(fldPath.child('cidr'), cidr, opts);
  const net = parseCIDR(cidr);
  if (net === undefined) return errs;
  strings(block.except).forEach((except, i) => {
    const p = fldPath.child('except').index(i);
    errs.push(...cidrErrors(p, except, opts));
    const ex = parseCIDR(except);
    if (ex !== undefined && !strictSubset(net, ex)) errs.push(invalid(p, except, 'must be a strict subset of `cidr`'));
  });
  return errs;
}

/** ValidateNetworkPolicyPeer */
function validatePeer(peer: Record<string, unknown>, fldPath: Path, opts: Options): FieldError[] {
  const errs: FieldError[] = [];
  let peers = 0;
  for (const f of ['podSelector', 'namespaceSelector']) {
    if (ptr(peer[f]) === undefined) continue;
    peers++;
    errs.push(...validateSelectorField(peer[f], { allowInvalidLabelValueInSelector: opts.allowInvalidLabelValueInSelector }, fldPath.child(f)));
  }
  const ipBlock = ptr(peer.ipBlock);
  if (ipBlock !== undefined) {
    peers++;
    errs.push(...validateIPBlock(ipBlock, fldPath.child('ipBlock'), opts));
  }
  if (peers === 0) errs.push(required(fldPath, 'must specify a peer'));
  else if (peers > 1 && ipBlock !== undefined) errs.push(forbidden(fldPath, 'may not specify both ipBlock and another peer'));
  return errs;
}

/** ValidateNetworkPolicySpec */
export function validateNetworkPolicySpec(obj: Obj, opts: Options): FieldError[] {
  const spec = rec(obj.spec);
  const errs = validateSelectorField(spec.podSelector ?? {}, { allowInvalidLabelValueInSelector: opts.allowInvalidLabelValueInSelector }, specPath.child('podSelector'));
  for (const [dir, peersField] of [
    ['ingress', 'from'],
    ['egress', 'to'],
  ] as const) {
    list(spec[dir]).forEach((r, i) => {
      const rule = rec(r);
      const p = specPath.child(dir).index(i);
      list(rule.ports).forEach((port, j) => errs.push(...validatePort(rec(port), p.child('ports').index(j))));
      list(rule[peersField]).forEach((peer, j) => errs.push(...validatePeer(rec(peer), p.child(peersField).index(j), opts)));
    });
  }
  const types = strings(spec.policyTypes);
  if (types.length > policyTypes.length) {
    errs.push(invalid(specPath.child('policyTypes'), types, 'may not specify more than two policyTypes'));
    return errs;
  }
  types.forEach((t, i) => {
    if (!policyTypes.includes(t)) errs.push(notSupported(specPath.child('policyTypes').index(i), t, policyTypes));
  });
  return errs;
}

/** The CIDRs of a stored policy's ipBlocks, which its updates may keep however they parse. */
function storedCIDRs(old: Obj): string[] {
  const spec = rec(old.spec);
  const out: string[] = [];
  for (const [dir, peersField] of [
    ['ingress', 'from'],
    ['egress', 'to'],
  ] as const) {
    for (const r of list(spec[dir])) {
      for (const peer of list(rec(r)[peersField])) {
        const b = ptr(rec(peer).ipBlock);
        if (b !== undefined) out.push(str(b.cidr), ...strings(b.except));
      }
    }
  }
  return out;
}

export const networkPolicyRules: NativeRules = {
  validate: (_ctx, obj) => validateNetworkPolicySpec(obj, { allowInvalidLabelValueInSelector: false, allowCIDRs: [] }),
  validateUpdate: (_ctx, obj, old) => {
    // ValidationOptionsForNetworking: a stored pod selector that fails today's rules relaxes them.
    const oldSelectorBad = validateSelectorField(rec(old.spec).podSelector ?? {}, {}, specPath).length > 0;
    return validateNetworkPolicySpec(obj, { allowInvalidLabelValueInSelector: oldSelectorBad, allowCIDRs: storedCIDRs(old) });
  },
};
