/**
 * A pod spec and a pod template as kube-apiserver validates them (ValidatePodSpec,
 * ValidatePodTemplateSpec in pkg/apis/core/validation), errors in upstream's order: volumes,
 * resource claims, containers, init containers, host network ports, restartPolicy, dnsPolicy,
 * nodeSelector, securityContext, imagePullSecrets, affinity, dnsConfig, readiness and scheduling
 * gates, topology spread constraints, serviceAccountName, nodeName, activeDeadlineSeconds,
 * hostname, subdomain, tolerations, hostAliases, priorityClassName, runtimeClassName,
 * preemptionPolicy, overhead, os. Pods, pod templates and every workload's template share it.
 */
import {
  Path, duplicate, forbidden, invalid, isDNS1123Subdomain, notSupported, required, validateAnnotations, validateLabels, type FieldError,
} from '../../../apimachinery/index.ts';
import { validateContainers, validateInitContainers } from './validate-containers.ts';
import { validateDNS1123Label, validateSubdomainName } from './names.ts';
import { quantityOf, validateNonnegativeQuantity } from './resources.ts';
import {
  validateAffinity, validateOS, validateReadinessGates, validateSchedulingGates, validateTolerations, validateTopologySpreadConstraints,
} from './scheduling.ts';
import { validatePodSecurityContext } from './security.ts';
import { leftToDefault, list, num, optNum, rec, recs, str, strMap, type PodValidationOptions, type Rec } from './values.ts';
import { validateVolumes } from './validate-volumes.ts';

export type { PodValidationOptions } from './values.ts';

const restartPolicies = ['Always', 'OnFailure', 'Never'];
const dnsPolicies = ['ClusterFirst', 'ClusterFirstWithHostNet', 'Default', 'None'];
const maxInt32 = 2147483647;

/** validateRestartPolicy */
function validateRestartPolicy(v: unknown, fldPath: Path, opts: PodValidationOptions): FieldError[] {
  if (leftToDefault(v, opts)) return [];
  const p = str(v);
  if (p === '') return [required(fldPath, '')];
  return restartPolicies.includes(p) ? [] : [notSupported(fldPath, p, restartPolicies)];
}

/** validateDNSPolicy */
function validateDNSPolicy(v: unknown, fldPath: Path, opts: PodValidationOptions): FieldError[] {
  if (leftToDefault(v, opts)) return [];
  const p = str(v);
  if (p === '') return [required(fldPath, '')];
  return dnsPolicies.includes(p) ? [] : [notSupported(fldPath, p, dnsPolicies)];
}

/** validatePodDNSConfig: at most 3 nameservers (IPs), 32 searches of 2048 characters, named options; required for dnsPolicy None. */
function validateDNSConfig(config: Rec | undefined, dnsPolicy: string, fldPath: Path): FieldError[] {
  const errs: FieldError[] = [];
  if (dnsPolicy === 'None') {
    if (!config) return [required(fldPath, 'must provide `dnsConfig` when `dnsPolicy` is None')];
    if (list(config.nameservers).length === 0) errs.push(required(fldPath.child('nameservers'), 'must provide at least one DNS nameserver when `dnsPolicy` is None'));
  }
  if (!config) return errs;
  const ns = list(config.nameservers);
  if (ns.length > 3) errs.push(invalid(fldPath.child('nameservers'), ns, 'must not have more than 3 nameservers'));
  ns.forEach((n, i) => {
    if (!isIP(str(n))) errs.push(invalid(fldPath.child('nameservers').index(i), str(n), 'must be a valid IP address'));
  });
  const searches = list(config.searches);
  if (searches.length > 32) errs.push(invalid(fldPath.child('searches'), searches, 'must not have more than 32 search paths'));
  const total = searches.reduce<number>((n, s) => n + str(s).length, 0) + Math.max(searches.length - 1, 0);
  if (total > 2048) errs.push(invalid(fldPath.child('searches'), searches, 'must not have more than 2048 characters (including spaces) in the search list'));
  searches.forEach((s, i) => {
    let v = str(s);
    if (v === '.') return;
    if (v.endsWith('.')) v = v.slice(0, -1);
    for (const m of isDNS1123Subdomain(v)) errs.push(invalid(fldPath.child('searches').index(i), str(s), m));
  });
  recs(config.options).forEach((o, i) => {
    if (str(o.name) === '') errs.push(required(fldPath.child('options').index(i), 'Option.Name must not be empty'));
  });
  return errs;
}

/** An IPv4 or IPv6 address as Go's netip parser takes it. */
function isIP(s: string): boolean {
  if (/^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/.test(s)) return true;
  return s.includes(':') && /^[0-9a-fA-F:.]+$/.test(s) && s.split('::').length <= 2;
}

/** ValidateHostAliases: each an IP with hostnames that are DNS subdomains. */
function validateHostAliases(aliases: unknown, fldPath: Path): FieldError[] {
  const errs: FieldError[] = [];
  recs(aliases).forEach((a, i) => {
    const p = fldPath.index(i);
    const ip = str(a.ip);
    if (ip === '') errs.push(required(p.child('ip'), ''));
    else if (!isIP(ip)) errs.push(invalid(p.child('ip'), ip, 'must be a valid IP address'));
    list(a.hostnames).forEach((h, j) => {
      for (const m of isDNS1123Subdomain(str(h))) errs.push(invalid(p.child('hostnames').index(j), str(h), m));
    });
  });
  return errs;
}

/** validateImagePullSecrets: names only. */
function validateImagePullSecrets(secrets: unknown, fldPath: Path): FieldError[] {
  const errs: FieldError[] = [];
  recs(secrets).forEach((s, i) => {
    const extra = Object.keys(s).filter((k) => k !== 'name');
    if (extra.length > 0) errs.push(invalid(fldPath.index(i), s, 'must have only name'));
  });
  return errs;
}

/** validateOverhead: resource names and non-negative quantities. */
function validateOverhead(overhead: Rec, fldPath: Path): FieldError[] {
  const errs: FieldError[] = [];
  for (const k of Object.keys(overhead).sort()) {
    const q = quantityOf(overhead[k]);
    if (q) errs.push(...validateNonnegativeQuantity(q, fldPath.key(k)));
  }
  return errs;
}

/** validatePodResourceClaims: names unique DNS labels, each with exactly one source. */
function validateResourceClaims(claims: unknown, fldPath: Path): FieldError[] {
  const errs: FieldError[] = [];
  const names = new Set<string>();
  recs(claims).forEach((c, i) => {
    const p = fldPath.index(i);
    const name = str(c.name);
    if (name === '') errs.push(required(p.child('name'), ''));
    else {
      if (names.has(name)) errs.push(duplicate(p.child('name'), name));
      else names.add(name);
      errs.push(...validateDNS1123Label(name, p.child('name')));
    }
    const claimName = str(c.resourceClaimName);
    const templateName = str(c.resourceClaimTemplateName);
    if (claimName === '' && templateName === '') errs.push(invalid(p, c, 'must specify one of: `resourceClaimName`, `resourceClaimTemplateName`'));
    else if (claimName !== '' && templateName !== '') errs.push(invalid(p, c, 'at most one of `resourceClaimName` or `resourceClaimTemplateName` may be specified'));
    else if (claimName !== '') errs.push(...validateSubdomainName(claimName, p.child('resourceClaimName')));
    else errs.push(...validateSubdomainName(templateName, p.child('resourceClaimTemplateName')));
  });
  return errs;
}

/** validatePodHostNetworkDeps: with hostNetwork, a host port is its container port. */
function validateHostNetworkPorts(spec: Rec, fldPath: Path): FieldError[] {
  const sc = rec(spec.securityContext);
  if (sc?.hostNetwork !== true && spec.hostNetwork !== true) return [];
  const errs: FieldError[] = [];
  for (const k of ['containers', 'initContainers']) {
    recs(spec[k]).forEach((c, ci) => {
      recs(c.ports).forEach((port, pi) => {
        const hp = num(port.hostPort);
        if (hp !== 0 && hp !== num(port.containerPort)) {
          errs.push(invalid(fldPath.child(k).index(ci).child('ports').index(pi).child('hostPort'), hp, 'must match `containerPort` when `hostNetwork` is true'));
        }
      });
    });
  }
  return errs;
}

const preemptionPolicies = ['Never', 'PreemptLowerPriority'];

/** ValidatePodSpec: a pod's or template's spec at fldPath. */
export function validatePodSpec(specValue: unknown, fldPath: Path, opts: PodValidationOptions): FieldError[] {
  const spec = rec(specValue) ?? {};
  const errs: FieldError[] = [];
  const vols = validateVolumes(spec.volumes, fldPath.child('volumes'));
  errs.push(...vols.errors);
  const podClaimNames = new Set(recs(spec.resourceClaims).map((c) => str(c.name)));
  errs.push(...validateResourceClaims(spec.resourceClaims, fldPath.child('resourceClaims')));
  const ctx = { volumes: vols.volumes, podClaimNames, opts };
  errs.push(...validateContainers(spec.containers, ctx, fldPath.child('containers')));
  errs.push(...validateInitContainers(spec.initContainers, spec.containers, ctx, fldPath.child('initContainers')));
  errs.push(...validateHostNetworkPorts(spec, fldPath));
  errs.push(...validateRestartPolicy(spec.restartPolicy, fldPath.child('restartPolicy'), opts));
  errs.push(...validateDNSPolicy(spec.dnsPolicy, fldPath.child('dnsPolicy'), opts));
  errs.push(...validateLabels(strMap(spec.nodeSelector), fldPath.child('nodeSelector')));
  errs.push(...validatePodSecurityContext(rec(spec.securityContext), fldPath.child('securityContext')));
  errs.push(...validateImagePullSecrets(spec.imagePullSecrets, fldPath.child('imagePullSecrets')));
  errs.push(...validateAffinity(spec.affinity, fldPath.child('affinity'), opts));
  errs.push(...validateDNSConfig(rec(spec.dnsConfig), str(spec.dnsPolicy), fldPath.child('dnsConfig')));
  errs.push(...validateReadinessGates(spec.readinessGates, fldPath.child('readinessGates')));
  errs.push(...validateSchedulingGates(spec.schedulingGates, fldPath.child('schedulingGates')));
  errs.push(...validateTopologySpreadConstraints(spec.topologySpreadConstraints, fldPath.child('topologySpreadConstraints')));
  const sa = str(spec.serviceAccountName);
  if (sa !== '') errs.push(...validateSubdomainName(sa, fldPath.child('serviceAccountName')));
  const node = str(spec.nodeName);
  if (node !== '') errs.push(...validateSubdomainName(node, fldPath.child('nodeName')));
  const ads = optNum(spec.activeDeadlineSeconds);
  if (ads !== undefined && (ads < 1 || ads > maxInt32)) {
    errs.push(invalid(fldPath.child('activeDeadlineSeconds'), ads, `must be between 1 and ${maxInt32}, inclusive`));
  }
  const hostname = str(spec.hostname);
  if (hostname !== '') errs.push(...validateDNS1123Label(hostname, fldPath.child('hostname')));
  const subdomain = str(spec.subdomain);
  if (subdomain !== '') errs.push(...validateDNS1123Label(subdomain, fldPath.child('subdomain')));
  errs.push(...validateTolerations(spec.tolerations, fldPath.child('tolerations')));
  errs.push(...validateHostAliases(spec.hostAliases, fldPath.child('hostAliases')));
  const pcn = str(spec.priorityClassName);
  if (pcn !== '') errs.push(...validateSubdomainName(pcn, fldPath.child('priorityClassName')));
  const rcn = spec.runtimeClassName;
  if (typeof rcn === 'string') errs.push(...validateSubdomainName(rcn, fldPath.child('runtimeClassName')));
  const pp = spec.preemptionPolicy;
  if (typeof pp === 'string' && !preemptionPolicies.includes(pp)) errs.push(notSupported(fldPath.child('preemptionPolicy'), pp, preemptionPolicies));
  const overhead = rec(spec.overhead);
  if (overhead) errs.push(...validateOverhead(overhead, fldPath.child('overhead')));
  errs.push(...validateOS(spec.os, fldPath.child('os')));
  return errs;
}

/** ValidatePodTemplateSpec: the template's labels and annotations, then its spec; no ephemeral containers. */
export function validatePodTemplateSpec(templateValue: unknown, fldPath: Path, opts: PodValidationOptions): FieldError[] {
  const template = rec(templateValue) ?? {};
  const meta = rec(template.metadata) ?? {};
  const errs: FieldError[] = [];
  errs.push(...validateLabels(strMap(meta.labels), fldPath.child('labels')));
  errs.push(...validateAnnotations(strMap(meta.annotations), fldPath.child('annotations')));
  errs.push(...validatePodSpec(template.spec, fldPath.child('spec'), opts));
  if (list(rec(template.spec)?.ephemeralContainers).length > 0) {
    errs.push(forbidden(fldPath.child('spec', 'ephemeralContainers'), 'ephemeral containers not allowed in pod template'));
  }
  return errs;
}
