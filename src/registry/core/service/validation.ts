/**
 * Service's native validation (pkg/apis/core/validation: ValidateService, ValidateServiceCreate,
 * ValidateServiceUpdate, ValidateServiceStatusUpdate and their helpers) over a v1 Service as
 * JSON, without ObjectMeta (the common strategy validates that first). Errors come in upstream's
 * order with its texts.
 */
import {
  duplicate,
  forbidden,
  GoJSONText,
  goJSON,
  internalError,
  invalid,
  isDNS1123Label,
  isDNS1123Subdomain,
  isIPv6String,
  isQualifiedName,
  isValidCIDR,
  isValidIP,
  isValidPortName,
  isValidPortNum,
  notSupported,
  parseIP,
  Path,
  required,
  validateLabels,
  type FieldError,
} from '../../../apimachinery/index.ts';
import type { Obj } from '../../rest.ts';
import {
  clusterIPOf,
  clusterIPsOf,
  externallyAccessible,
  ipFamiliesOf,
  ipFamilyPolicyOf,
  isHeadless,
  isRec,
  needsHealthCheck,
  num,
  portsOf,
  selectorOf,
  specOf,
  str,
  typeOf,
  type Rec,
} from './spec.ts';

const supportedSessionAffinity = ['ClientIP', 'None'];
const supportedServiceType = ['ClusterIP', 'ExternalName', 'LoadBalancer', 'NodePort'];
const supportedInternalTrafficPolicy = ['Cluster', 'Local'];
const supportedIPFamily = ['IPv4', 'IPv6'];
const supportedIPFamilyPolicy = ['PreferDualStack', 'RequireDualStack', 'SingleStack'];
const supportedPortProtocols = ['SCTP', 'TCP', 'UDP'];
const validExternalTrafficPolicies = ['Cluster', 'Local'];
const supportedLoadBalancerIPMode = ['Proxy', 'VIP'];
/** MaxClientIPServiceAffinitySeconds */
const maxClientIPServiceAffinitySeconds = 86400;

const annotationTopologyMode = 'service.kubernetes.io/topology-mode';
const deprecatedAnnotationTopologyAwareHints = 'service.kubernetes.io/topology-aware-hints';
const annotationLoadBalancerSourceRanges = 'service.beta.kubernetes.io/load-balancer-source-ranges';

const spec = Path.of('spec');

function annotationsOf(svc: Obj): Record<string, string> {
  const m = svc.metadata;
  const a = isRec(m) ? m.annotations : undefined;
  return isRec(a) ? (a as Record<string, string>) : {};
}

const validateDNS1123Label = (v: string, p: Path) => isDNS1123Label(v).map((m) => invalid(p, v, m));
const validateDNS1123Subdomain = (v: string, p: Path) => isDNS1123Subdomain(v).map((m) => invalid(p, v, m));
const validateQualifiedName = (v: string, p: Path) => isQualifiedName(v).map((m) => invalid(p, v, m));

/** ValidatePortNumOrName over an IntOrString as JSON. */
export function validatePortNumOrName(port: unknown, p: Path): FieldError[] {
  if (typeof port === 'number') return isValidPortNum(port).map((m) => invalid(p, port, m));
  if (typeof port === 'string') return isValidPortName(port).map((m) => invalid(p, port, m));
  return isValidPortNum(0).map((m) => invalid(p, 0, m));
}

/** ValidateNonSpecialIP: no unspecified, loopback or link-local addresses. */
export function validateNonSpecialIP(ipAddress: string, p: Path): FieldError[] {
  const ip = parseIP(ipAddress);
  if (!ip) return [invalid(p, ipAddress, 'must be a valid IP address')];
  const errs: FieldError[] = [];
  const v = ip.value;
  const v4 = ip.family === 'IPv4';
  if (v === 0n) errs.push(invalid(p, ipAddress, `may not be unspecified (${ipAddress})`));
  if (v4 ? v >> 24n === 127n : v === 1n) errs.push(invalid(p, ipAddress, 'may not be in the loopback range (127.0.0.0/8, ::1/128)'));
  if (v4 ? v >> 16n === 0xa9fen : v >> 118n === 0x3fan) errs.push(invalid(p, ipAddress, 'may not be in the link-local range (169.254.0.0/16, fe80::/10)'));
  if (v4 ? v >> 8n === 0xe00000n : v >> 112n === 0xff02n) {
    errs.push(invalid(p, ipAddress, 'may not be in the link-local multicast range (224.0.0.0/24, ff02::/10)'));
  }
  return errs;
}

/** The value Go's field errors print for a *string: the string, or nil. */
const strPtr = (v: string | undefined): unknown => (v === undefined ? null : v);

/** ValidateService (without ObjectMeta). */
export function validateService(svc: Obj): FieldError[] {
  const errs: FieldError[] = [];
  const s = specOf(svc);
  const annotations = annotationsOf(svc);
  const metaAnn = Path.of('metadata').child('annotations');
  const hints = annotations[deprecatedAnnotationTopologyAwareHints];
  const mode = annotations[annotationTopologyMode];
  if (hints !== undefined && mode !== undefined && hints !== mode) {
    errs.push(invalid(metaAnn.key(annotationTopologyMode), mode, `must match annotations[${deprecatedAnnotationTopologyAwareHints}] when both are specified`));
  }
  const type = typeOf(svc);
  const ports = portsOf(svc);
  const headless = isHeadless(svc);
  if (ports.length === 0 && !headless && type !== 'ExternalName') errs.push(required(spec.child('ports')));
  switch (type) {
    case 'LoadBalancer':
      if (headless) errs.push(invalid(spec.child('clusterIPs').index(0), 'None', "may not be set to 'None' for LoadBalancer services"));
      break;
    case 'NodePort':
      if (headless) errs.push(invalid(spec.child('clusterIPs').index(0), 'None', "may not be set to 'None' for NodePort services"));
      break;
    case 'ExternalName': {
      if (clusterIPsOf(svc).length > 0) errs.push(forbidden(spec.child('clusterIPs'), 'may not be set for ExternalName services'));
      if (ipFamiliesOf(svc).length > 0) errs.push(forbidden(spec.child('ipFamilies'), 'may not be set for ExternalName services'));
      if (ipFamilyPolicyOf(svc) !== undefined) errs.push(forbidden(spec.child('ipFamilyPolicy'), 'may not be set for ExternalName services'));
      const cname = str(s.externalName).replace(/\.$/, '');
      if (cname.length > 0) errs.push(...validateDNS1123Subdomain(cname, spec.child('externalName')));
      else errs.push(required(spec.child('externalName')));
      break;
    }
  }
  const names = new Set<string>();
  ports.forEach((p, i) => errs.push(...validateServicePort(p, ports.length > 1, names, spec.child('ports').index(i))));
  const selector = selectorOf(svc);
  if (selector !== undefined) errs.push(...validateLabels(selector, spec.child('selector')));
  const affinity = str(s.sessionAffinity);
  if (affinity === '') errs.push(required(spec.child('sessionAffinity')));
  else if (!supportedSessionAffinity.includes(affinity)) errs.push(notSupported(spec.child('sessionAffinity'), affinity, supportedSessionAffinity));
  if (affinity === 'ClientIP') {
    errs.push(...validateClientIPAffinityConfig(s.sessionAffinityConfig, spec.child('sessionAffinityConfig')));
  } else if (affinity === 'None' && s.sessionAffinityConfig !== undefined && s.sessionAffinityConfig !== null) {
    errs.push(forbidden(spec.child('sessionAffinityConfig'), 'must not be set when session affinity is None'));
  }
  errs.push(...validateServiceClusterIPsRelatedFields(svc));
  const externalIPs = Array.isArray(s.externalIPs) ? s.externalIPs.map(str) : [];
  externalIPs.forEach((ip, i) => {
    const p = spec.child('externalIPs').index(i);
    const bad = isValidIP(p, ip);
    errs.push(...(bad.length > 0 ? bad : validateNonSpecialIP(ip, p)));
  });
  if (type === '') errs.push(required(spec.child('type')));
  else if (!supportedServiceType.includes(type)) errs.push(notSupported(spec.child('type'), type, supportedServiceType));
  if (type === 'ClusterIP') {
    ports.forEach((p, i) => {
      if (num(p.nodePort) !== 0) errs.push(forbidden(spec.child('ports').index(i).child('nodePort'), "may not be used when `type` is 'ClusterIP'"));
    });
  }
  // Duplicate nodePorts and ports, by (protocol, number).
  const nodePorts = new Set<string>();
  ports.forEach((p, i) => {
    const np = num(p.nodePort);
    if (np === 0) return;
    const key = `${str(p.protocol)}/${np}`;
    if (nodePorts.has(key)) errs.push(duplicate(spec.child('ports').index(i).child('nodePort'), np));
    nodePorts.add(key);
  });
  const seen = new Set<string>();
  ports.forEach((p, i) => {
    const key = `${str(p.protocol)}/${num(p.port)}`;
    if (seen.has(key)) errs.push(duplicate(spec.child('ports').index(i), servicePortKey(str(p.protocol), num(p.port))));
    seen.add(key);
  });
  const ranges = Array.isArray(s.loadBalancerSourceRanges) ? s.loadBalancerSourceRanges.map(str) : [];
  if (ranges.length > 0) {
    const p = spec.child('LoadBalancerSourceRanges');
    if (type !== 'LoadBalancer') errs.push(forbidden(p, "may only be used when `type` is 'LoadBalancer'"));
    ranges.forEach((r, i) => errs.push(...isValidCIDR(p.index(i), r.trim())));
  } else if (annotations[annotationLoadBalancerSourceRanges] !== undefined) {
    const p = Path.of('metadata', 'annotations').key(annotationLoadBalancerSourceRanges);
    if (type !== 'LoadBalancer') errs.push(forbidden(p, "may only be used when `type` is 'LoadBalancer'"));
    const val = annotations[annotationLoadBalancerSourceRanges]!.trim();
    if (val !== '') for (const c of val.split(',')) errs.push(...isValidCIDR(p, c.trim()));
  }
  const allocate = s.allocateLoadBalancerNodePorts;
  if (allocate !== undefined && allocate !== null && type !== 'LoadBalancer') {
    errs.push(forbidden(spec.child('allocateLoadBalancerNodePorts'), "may only be used when `type` is 'LoadBalancer'"));
  }
  if (type === 'LoadBalancer' && (allocate === undefined || allocate === null)) errs.push(required(Path.of('allocateLoadBalancerNodePorts')));
  errs.push(...validateLoadBalancerClassField(undefined, svc));
  errs.push(...validateServiceExternalTrafficPolicy(svc));
  errs.push(...validateServiceInternalTrafficFieldsValue(svc));
  const td = s.trafficDistribution;
  if (typeof td === 'string' && td !== 'PreferClose') errs.push(notSupported(spec.child('trafficDistribution'), td, ['PreferClose']));
  return errs;
}

/** A core.ServicePort{Protocol, Port} as Go's json.Marshal writes the internal struct (no json tags). */
function servicePortKey(protocol: string, port: number): GoJSONText {
  return new GoJSONText(`{"Name":"","Protocol":${goJSON(protocol)},"AppProtocol":null,"Port":${port},"TargetPort":0,"NodePort":0}`);
}

function validateServicePort(sp: Rec, requireName: boolean, names: Set<string>, p: Path): FieldError[] {
  const errs: FieldError[] = [];
  const name = str(sp.name);
  if (requireName && name === '') errs.push(required(p.child('name')));
  else if (name !== '') {
    errs.push(...validateDNS1123Label(name, p.child('name')));
    if (names.has(name)) errs.push(duplicate(p.child('name'), name));
    else names.add(name);
  }
  const port = num(sp.port);
  for (const m of isValidPortNum(port)) errs.push(invalid(p.child('port'), port, m));
  const protocol = str(sp.protocol);
  if (protocol === '') errs.push(required(p.child('protocol')));
  else if (!supportedPortProtocols.includes(protocol)) errs.push(notSupported(p.child('protocol'), protocol, supportedPortProtocols));
  errs.push(...validatePortNumOrName(sp.targetPort ?? 0, p.child('targetPort')));
  if (typeof sp.appProtocol === 'string') errs.push(...validateQualifiedName(sp.appProtocol, p.child('appProtocol')));
  return errs;
}

function validateClientIPAffinityConfig(config: unknown, p: Path): FieldError[] {
  const detail = 'when session affinity type is ClientIP';
  if (!isRec(config)) return [required(p, detail)];
  const clientIP = config.clientIP;
  if (!isRec(clientIP)) return [required(p.child('clientIP'), detail)];
  const t = clientIP.timeoutSeconds;
  const tp = p.child('clientIP').child('timeoutSeconds');
  if (typeof t !== 'number') return [required(tp, detail)];
  if (t <= 0 || t > maxClientIPServiceAffinitySeconds) return [invalid(tp, t, `must be greater than 0 and less than ${maxClientIPServiceAffinitySeconds}`)];
  return [];
}

/** validateServiceExternalTrafficPolicy: externalTrafficPolicy and healthCheckNodePort against the type. */
export function validateServiceExternalTrafficPolicy(svc: Obj): FieldError[] {
  const errs: FieldError[] = [];
  const s = specOf(svc);
  const etp = str(s.externalTrafficPolicy);
  if (!externallyAccessible(svc)) {
    if (etp !== '') errs.push(invalid(spec.child('externalTrafficPolicy'), etp, 'may only be set for externally-accessible services'));
  } else if (etp === '') {
    errs.push(required(spec.child('externalTrafficPolicy')));
  } else if (!validExternalTrafficPolicies.includes(etp)) {
    errs.push(notSupported(spec.child('externalTrafficPolicy'), etp, validExternalTrafficPolicies));
  }
  const hc = num(s.healthCheckNodePort);
  if (!needsHealthCheck(svc)) {
    if (hc !== 0) errs.push(invalid(spec.child('healthCheckNodePort'), hc, "may only be set when `type` is 'LoadBalancer' and `externalTrafficPolicy` is 'Local'"));
  } else if (hc === 0) {
    errs.push(required(spec.child('healthCheckNodePort')));
  } else {
    for (const m of isValidPortNum(hc)) errs.push(invalid(spec.child('healthCheckNodePort'), hc, m));
  }
  return errs;
}

function validateServiceInternalTrafficFieldsValue(svc: Obj): FieldError[] {
  const itp = specOf(svc).internalTrafficPolicy;
  const type = typeOf(svc);
  if (typeof itp !== 'string') {
    return type === 'NodePort' || type === 'LoadBalancer' || type === 'ClusterIP' ? [required(spec.child('internalTrafficPolicy'))] : [];
  }
  return supportedInternalTrafficPolicy.includes(itp) ? [] : [notSupported(spec.child('internalTrafficPolicy'), itp, supportedInternalTrafficPolicy)];
}

const lbClassOf = (svc: Obj): string | undefined => {
  const c = specOf(svc).loadBalancerClass;
  return typeof c === 'string' ? c : undefined;
};

function validateLoadBalancerClassField(old: Obj | undefined, svc: Obj): FieldError[] {
  const errs: FieldError[] = [];
  const p = spec.child('loadBalancerClass');
  if (old && typeOf(old) === 'LoadBalancer' && typeOf(svc) === 'LoadBalancer' && lbClassOf(old) !== lbClassOf(svc)) {
    errs.push(invalid(p, strPtr(lbClassOf(svc)), 'may not change once set'));
  }
  const cls = lbClassOf(svc);
  if (typeOf(svc) === 'LoadBalancer') {
    if (cls !== undefined) errs.push(...validateQualifiedName(cls, p));
  } else if (cls !== undefined) {
    errs.push(forbidden(p, "may only be used when `type` is 'LoadBalancer'"));
  }
  return errs;
}

/** ValidateServiceClusterIPsRelatedFields: clusterIP/clusterIPs agree, families and policy are known, IPs are dual-stack pairs. */
export function validateServiceClusterIPsRelatedFields(svc: Obj): FieldError[] {
  if (typeOf(svc) === 'ExternalName') return [];
  const errs: FieldError[] = [];
  let hasInvalidIPs = false;
  const ipsField = spec.child('clusterIPs');
  const famField = spec.child('ipFamilies');
  const clusterIP = clusterIPOf(svc);
  const ips = clusterIPsOf(svc);
  const families = ipFamiliesOf(svc);
  if (clusterIP !== '') {
    if (ips.length === 0) errs.push(required(ipsField));
    else if (ips[0] !== clusterIP) errs.push(invalid(ipsField, ips, 'first value must match `clusterIP`'));
  } else if (ips.length !== 0) {
    errs.push(invalid(ipsField, ips, 'must be empty when `clusterIP` is not specified'));
  }
  const seen = new Set<string>();
  families.forEach((f, i) => {
    if (!supportedIPFamily.includes(f)) errs.push(notSupported(famField.index(i), f, supportedIPFamily));
    if (seen.has(f)) errs.push(duplicate(famField.index(i), f));
    seen.add(f);
  });
  const policy = ipFamilyPolicyOf(svc);
  if (policy !== undefined && !supportedIPFamilyPolicy.includes(policy)) errs.push(notSupported(spec.child('ipFamilyPolicy'), policy, supportedIPFamilyPolicy));
  ips.forEach((ip, i) => {
    if (i === 0 && ip === 'None') {
      if (ips.length > 1) {
        hasInvalidIPs = true;
        errs.push(invalid(ipsField, ips, "'None' must be the first and only value"));
      }
      return;
    }
    const bad = isValidIP(ipsField.index(i), ip);
    if (bad.length > 0) hasInvalidIPs = true;
    errs.push(...bad);
  });
  if (ips.length > 2) errs.push(invalid(ipsField, ips, 'may only hold up to 2 values'));
  if (hasInvalidIPs) return errs;
  if (ips.length > 1) {
    const fams = ips.map((ip) => parseIP(ip)?.family);
    if (fams.some((f) => f === undefined)) errs.push(internalError(ipsField, 'failed to check for dual stack with error:invalid IP'));
    // IsDualStackIPStrings: at least one address of each family.
    const dualStack = fams.includes('IPv4') && fams.includes('IPv6');
    if (!dualStack) errs.push(invalid(ipsField, ips, 'may specify no more than one IP for each IP family'));
  }
  if (!isHeadless(svc) && ips.length > 0 && families.length > 0) {
    ips.forEach((ip, i) => {
      if (i > families.length - 1) return;
      if (families[i] === 'IPv4' && isIPv6String(ip)) errs.push(invalid(ipsField.index(i), ip, `expected an IPv4 value as indicated by \`ipFamilies[${i}]\``));
      if (families[i] === 'IPv6' && !isIPv6String(ip)) errs.push(invalid(ipsField.index(i), ip, `expected an IPv6 value as indicated by \`ipFamilies[${i}]\``));
    });
  }
  return errs;
}

function validateUpgradeDowngradeClusterIPs(old: Obj, svc: Obj): FieldError[] {
  const errs: FieldError[] = [];
  if (typeOf(svc) === 'ExternalName' || typeOf(old) === 'ExternalName') return errs;
  if (isHeadless(old) && isHeadless(svc)) return errs;
  const oldIPs = clusterIPsOf(old);
  const ips = clusterIPsOf(svc);
  const at = (i: number) => spec.child('clusterIPs').index(i);
  if (oldIPs.length === ips.length) {
    oldIPs.forEach((ip, i) => {
      if (ip !== ips[i]) errs.push(invalid(at(i), ips, 'may not change once set'));
    });
  } else if (oldIPs.length > ips.length) {
    if (ips.length === 0) errs.push(invalid(at(0), ips, 'primary clusterIP can not be unset'));
    if (oldIPs.length > 0 && ips.length > 0 && ips[0] !== oldIPs[0]) errs.push(invalid(at(0), ips, 'may not change once set'));
    if (ips.length === 1 && ipFamilyPolicyOf(svc) !== 'SingleStack') {
      errs.push(invalid(spec.child('ipFamilyPolicy'), strPtr(ipFamilyPolicyOf(svc)), "must be set to 'SingleStack' when releasing the secondary clusterIP"));
    }
  } else if (oldIPs.length > 0 && ips[0] !== oldIPs[0]) {
    errs.push(invalid(at(0), ips, 'may not change once set'));
  }
  return errs;
}

function validateUpgradeDowngradeIPFamilies(old: Obj, svc: Obj): FieldError[] {
  const errs: FieldError[] = [];
  if (typeOf(svc) === 'ExternalName' || typeOf(old) === 'ExternalName') return errs;
  if (isHeadless(old) !== isHeadless(svc) || isHeadless(svc)) return errs;
  const oldF = ipFamiliesOf(old);
  const fams = ipFamiliesOf(svc);
  const at0 = spec.child('ipFamilies').index(0);
  if (oldF.length === fams.length) {
    oldF.forEach((f, i) => {
      if (f !== fams[i]) errs.push(invalid(at0, fams, 'may not change once set'));
    });
  } else if (oldF.length > fams.length) {
    if (clusterIPsOf(svc).length === 0) errs.push(invalid(at0, fams, 'primary ipFamily can not be unset'));
    if (fams.length > 0 && fams[0] !== oldF[0]) errs.push(invalid(at0, clusterIPsOf(svc), 'may not change once set'));
    if (fams.length === 1 && ipFamilyPolicyOf(svc) !== 'SingleStack') {
      errs.push(invalid(spec.child('ipFamilyPolicy'), strPtr(ipFamilyPolicyOf(svc)), "must be set to 'SingleStack' when releasing the secondary ipFamily"));
    }
  } else if (oldF.length > 0 && fams.length > 0 && fams[0] !== oldF[0]) {
    errs.push(invalid(at0, clusterIPsOf(svc), 'may not change once set'));
  }
  return errs;
}

/** ValidateServiceCreate */
export const validateServiceCreate = validateService;

/** ValidateServiceUpdate (without ObjectMeta's update rules, which the common strategy checks first). */
export function validateServiceUpdate(svc: Obj, old: Obj): FieldError[] {
  const errs = [...validateUpgradeDowngradeClusterIPs(old, svc), ...validateUpgradeDowngradeIPFamilies(old, svc), ...validateLoadBalancerClassField(old, svc)];
  if (needsHealthCheck(old) && needsHealthCheck(svc) && num(specOf(svc).healthCheckNodePort) !== num(specOf(old).healthCheckNodePort)) {
    errs.push(forbidden(spec.child('healthCheckNodePort'), 'field is immutable'));
  }
  return [...errs, ...validateService(svc)];
}

/** ValidateServiceStatusUpdate (without ObjectMeta): ValidateLoadBalancerStatus. */
export function validateServiceStatusUpdate(svc: Obj, _old: Obj): FieldError[] {
  const errs: FieldError[] = [];
  const status = svc.status;
  const lb = isRec(status) ? status.loadBalancer : undefined;
  const ingress = isRec(lb) && Array.isArray(lb.ingress) ? lb.ingress : [];
  const ingrPath = Path.of('status', 'loadBalancer').child('ingress');
  if (typeOf(svc) !== 'LoadBalancer' && ingress.length !== 0) {
    return [forbidden(ingrPath, "may only be used when `spec.type` is 'LoadBalancer'")];
  }
  ingress.forEach((ing, i) => {
    const r = isRec(ing) ? ing : {};
    const p = ingrPath.index(i);
    const ip = str(r.ip);
    if (ip !== '') errs.push(...isValidIP(p.child('ip'), ip));
    const mode = r.ipMode;
    if (typeof mode !== 'string') {
      if (ip !== '') errs.push(required(p.child('ipMode'), 'must be specified when `ip` is set'));
    } else if (ip === '') {
      errs.push(forbidden(p.child('ipMode'), 'may not be specified when `ip` is not set'));
    } else if (!supportedLoadBalancerIPMode.includes(mode)) {
      errs.push(notSupported(p.child('ipMode'), mode, supportedLoadBalancerIPMode));
    }
    const host = str(r.hostname);
    if (host !== '') {
      errs.push(...validateDNS1123Subdomain(host, p.child('hostname')));
      if (parseIP(host) !== undefined) errs.push(invalid(p.child('hostname'), host, 'must be a DNS name, not an IP address'));
    }
  });
  return errs;
}
