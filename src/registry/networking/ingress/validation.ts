/**
 * Ingress's native rules (pkg/apis/networking/validation ValidateIngressCreate / Update and the
 * ingress strategy): rules or a default backend; DNS (or wildcard) hosts that are not IPs; HTTP
 * paths with a pathType (absolute, no `//`, `/./`, `/../`, `%2f` for Exact and Prefix);
 * backends naming a service (with a port name or number) or a resource, not both; TLS hosts and
 * secret names; the ingress-class annotation agreeing with ingressClassName and warned about.
 * An update keeps what its stored object already got away with (invalid secret names, invalid
 * rules under wildcard hosts, DNS-label service names).
 */
import { type FieldError, invalid, isValidPortName, isWildcardDNS1123Subdomain, nameIsDNSLabel, notSupported, Path, required } from '../../../apimachinery/index.ts';
import { isDNS1123Subdomain, isValidPortNum, nameIsDNS1035Label, nameIsDNSSubdomain, parseIP } from '../../../apimachinery/index.ts';
import type { NativeRules } from '../../builtin/native.ts';
import { ingressStatusRules } from './status.ts';
import { list, num, ptr, rec, str, strings } from '../../fieldvalues/fields.ts';
import type { Obj } from '../../rest.ts';
import { validateTypedLocalObjectReference } from '../ingressclass/validation.ts';

const annotationIngressClass = 'kubernetes.io/ingress.class';
const pathTypes = ['Exact', 'ImplementationSpecific', 'Prefix'];
const invalidPathSequences = ['//', '/./', '/../', '%2f', '%2F'];
const invalidPathSuffixes = ['/..', '/.'];
const specPath = Path.of('spec');

interface Options {
  allowInvalidSecretName: boolean;
  allowInvalidWildcardHostRule: boolean;
  allowRelaxedServiceNameValidation: boolean;
}

/** validateIngressBackend */
function validateBackend(backend: Record<string, unknown>, fldPath: Path, opts: Options): FieldError[] {
  const resource = ptr(backend.resource);
  const service = ptr(backend.service);
  if (resource !== undefined && service !== undefined) return [invalid(fldPath, '', 'cannot set both resource and service backends')];
  if (resource !== undefined) return validateTypedLocalObjectReference(resource, fldPath.child('resource'));
  if (service === undefined) return [invalid(fldPath, '', 'resource or service backend is required')];
  const errs: FieldError[] = [];
  const name = str(service.name);
  if (name === '') errs.push(required(fldPath.child('service', 'name'), ''));
  else {
    const rule = opts.allowRelaxedServiceNameValidation ? nameIsDNSLabel : nameIsDNS1035Label;
    for (const msg of rule(name, false)) errs.push(invalid(fldPath.child('service', 'name'), name, msg));
  }
  const port = rec(service.port);
  const portName = str(port.name);
  const portNumber = num(port.number) ?? 0;
  if (portName !== '' && portNumber !== 0) errs.push(invalid(fldPath, '', 'cannot set both port name & port number'));
  else if (portName !== '') for (const msg of isValidPortName(portName)) errs.push(invalid(fldPath.child('service', 'port', 'name'), portName, msg));
  else if (portNumber !== 0) for (const msg of isValidPortNum(portNumber)) errs.push(invalid(fldPath.child('service', 'port', 'number'), portNumber, msg));
  else errs.push(required(fldPath, 'port name or number is required'));
  return errs;
}

/** validateHTTPIngressPath */
function validatePath(p: Record<string, unknown>, fldPath: Path, opts: Options): FieldError[] {
  if (typeof p.pathType !== 'string') return [required(fldPath.child('pathType'), 'pathType must be specified')];
  const errs: FieldError[] = [];
  const path = str(p.path);
  switch (p.pathType) {
    case 'Exact':
    case 'Prefix':
      if (!path.startsWith('/')) errs.push(invalid(fldPath.child('path'), path, 'must be an absolute path'));
      if (path.length > 0) {
        for (const seq of invalidPathSequences) if (path.includes(seq)) errs.push(invalid(fldPath.child('path'), path, `must not contain '${seq}'`));
        for (const suffix of invalidPathSuffixes) if (path.endsWith(suffix)) errs.push(invalid(fldPath.child('path'), path, `cannot end with '${suffix}'`));
      }
      break;
    case 'ImplementationSpecific':
      if (path.length > 0 && !path.startsWith('/')) errs.push(invalid(fldPath.child('path'), path, 'must be an absolute path'));
      break;
    default:
      errs.push(notSupported(fldPath.child('pathType'), p.pathType, pathTypes));
  }
  errs.push(...validateBackend(rec(p.backend), fldPath.child('backend'), opts));
  return errs;
}

/** validateIngressRuleValue: an HTTP rule has paths, each valid. */
function validateRuleValue(rule: Record<string, unknown>, fldPath: Path, opts: Options): FieldError[] {
  const http = ptr(rule.http);
  if (http === undefined) return [];
  const paths = list(http.paths);
  const errs: FieldError[] = paths.length === 0 ? [required(fldPath.child('http', 'paths'), '')] : [];
  paths.forEach((p, i) => errs.push(...validatePath(rec(p), fldPath.child('http', 'paths').index(i), opts)));
  return errs;
}

function validateRules(rules: unknown[], fldPath: Path, opts: Options): FieldError[] {
  const errs: FieldError[] = [];
  rules.forEach((r, i) => {
    const rule = rec(r);
    const host = str(rule.host);
    const hostPath = fldPath.index(i).child('host');
    let wildcard = false;
    if (host.length > 0) {
      if (parseIP(host) !== undefined) errs.push(invalid(hostPath, host, 'must be a DNS name, not an IP address'));
      if (host.includes('*')) {
        for (const msg of isWildcardDNS1123Subdomain(host)) errs.push(invalid(hostPath, host, msg));
        wildcard = true;
      } else for (const msg of isDNS1123Subdomain(host)) errs.push(invalid(hostPath, host, msg));
    }
    if (!wildcard || !opts.allowInvalidWildcardHostRule) errs.push(...validateRuleValue(rule, fldPath.index(i), opts));
  });
  return errs;
}

/** validateTLSSecretName: an empty name is allowed (the controller's default certificate). */
function tlsSecretNameErrors(name: string): string[] {
  return name === '' ? [] : nameIsDNSSubdomain(name, false);
}

function validateTLS(tls: unknown[], fldPath: Path, opts: Options): FieldError[] {
  const errs: FieldError[] = [];
  tls.forEach((t, ti) => {
    const entry = rec(t);
    strings(entry.hosts).forEach((host, i) => {
      const p = fldPath.index(ti).child('hosts').index(i);
      const msgs = host.includes('*') ? isWildcardDNS1123Subdomain(host) : isDNS1123Subdomain(host);
      for (const msg of msgs) errs.push(invalid(p, host, msg));
    });
    if (!opts.allowInvalidSecretName) {
      const name = str(entry.secretName);
      for (const msg of tlsSecretNameErrors(name)) errs.push(invalid(fldPath.index(ti).child('secretName'), name, msg));
    }
  });
  return errs;
}

/** ValidateIngressSpec */
export function validateIngressSpec(obj: Obj, opts: Options): FieldError[] {
  const spec = rec(obj.spec);
  const rules = list(spec.rules);
  const defaultBackend = ptr(spec.defaultBackend);
  const errs: FieldError[] = [];
  if (rules.length === 0 && defaultBackend === undefined) {
    errs.push(invalid(specPath, Array.isArray(spec.rules) ? spec.rules : null, 'either `defaultBackend` or `rules` must be specified'));
  }
  if (defaultBackend !== undefined) errs.push(...validateBackend(defaultBackend, specPath.child('defaultBackend'), opts));
  if (rules.length > 0) errs.push(...validateRules(rules, specPath.child('rules'), opts));
  const tls = list(spec.tls);
  if (tls.length > 0) errs.push(...validateTLS(tls, specPath.child('tls'), opts));
  if (typeof spec.ingressClassName === 'string') {
    for (const msg of nameIsDNSSubdomain(spec.ingressClassName, false)) errs.push(invalid(specPath.child('ingressClassName'), spec.ingressClassName, msg));
  }
  return errs;
}

const annotations = (obj: Obj) => rec(rec(obj.metadata).annotations);

/** The service names of an ingress's backends (default and per path). */
function serviceNames(obj: Obj): string[] {
  const spec = rec(obj.spec);
  const names: string[] = [];
  const d = ptr(ptr(spec.defaultBackend)?.service);
  if (d !== undefined) names.push(str(d.name));
  for (const r of list(spec.rules)) {
    for (const p of list(ptr(rec(r).http)?.paths)) {
      const s = ptr(rec(rec(p).backend).service);
      if (s !== undefined) names.push(str(s.name));
    }
  }
  return names;
}

/** Update options: what the stored object already holds that newer rules refuse (allowInvalid... upstream). */
function updateOptions(old: Obj): Options {
  const spec = rec(old.spec);
  const noOpts: Options = { allowInvalidSecretName: false, allowInvalidWildcardHostRule: false, allowRelaxedServiceNameValidation: false };
  return {
    allowInvalidSecretName: list(spec.tls).some((t) => tlsSecretNameErrors(str(rec(t).secretName)).length > 0),
    allowInvalidWildcardHostRule: list(spec.rules).some((r) => str(rec(r).host).includes('*') && validateRuleValue(rec(r), Path.root(), noOpts).length > 0),
    allowRelaxedServiceNameValidation: serviceNames(old).some((n) => nameIsDNSLabel(n, false).length === 0 && nameIsDNS1035Label(n, false).length > 0),
  };
}

export function validateIngressCreate(obj: Obj): FieldError[] {
  const errs = validateIngressSpec(obj, { allowInvalidSecretName: false, allowInvalidWildcardHostRule: false, allowRelaxedServiceNameValidation: false });
  const ann = annotations(obj);
  const className = rec(obj.spec).ingressClassName;
  if (Object.hasOwn(ann, annotationIngressClass) && typeof className === 'string' && str(ann[annotationIngressClass]) !== className) {
    errs.push(invalid(Path.of('annotations').child(annotationIngressClass), str(ann[annotationIngressClass]), 'must match `ingressClassName` when both are specified'));
  }
  return errs;
}

export const ingressRules: NativeRules = {
  validate: (_ctx, obj) => validateIngressCreate(obj),
  validateUpdate: (_ctx, obj, old) => validateIngressSpec(obj, updateOptions(old)),
  warningsOnCreate: (_ctx, obj) =>
    Object.hasOwn(annotations(obj), annotationIngressClass) ? [`annotation "${annotationIngressClass}" is deprecated, please use 'spec.ingressClassName' instead`] : [],
  status: ingressStatusRules,
};
