/**
 * A container's environment (ValidateEnv, ValidateEnvFrom): variable names (the relaxed rule of
 * Kubernetes 1.34+: printable ASCII without '='), and each valueFrom source with exactly one of
 * fieldRef, resourceFieldRef, configMapKeyRef or secretKeyRef.
 */
import { Path, invalid, isQualifiedName, nameIsDNSSubdomain, notSupported, regexError, required, type FieldError } from '../../../apimachinery/index.ts';
import { DNS1123SubdomainMaxLength } from './names.ts';
import { rec, recs, str, type Rec } from './values.ts';

const relaxedEnvVarNameFmtErrMsg = "a valid environment variable name must consist only of printable ASCII characters other than '='";

/** IsRelaxedEnvVarName */
function isRelaxedEnvVarName(value: string): string[] {
  const errs: string[] = [];
  if (value.length === 0) errs.push('environment variable name must be non-empty');
  for (const ch of value) {
    const c = ch.codePointAt(0)!;
    if (c > 126 || c < 32 || ch === '=') {
      errs.push(relaxedEnvVarNameFmtErrMsg);
      break;
    }
  }
  return errs;
}

const configMapKeyFmt = '[-._a-zA-Z0-9]+';
const configMapKeyRegexp = /^[-._a-zA-Z0-9]+$/;

/** IsConfigMapKey: a key of a ConfigMap's or Secret's data. */
export function isConfigMapKey(value: string): string[] {
  const errs: string[] = [];
  if (Buffer.byteLength(value) > DNS1123SubdomainMaxLength) errs.push(`must be no more than ${DNS1123SubdomainMaxLength} characters`);
  if (!configMapKeyRegexp.test(value)) {
    errs.push(regexError("a valid config key must consist of alphanumeric characters, '-', '_' or '.'", configMapKeyFmt, 'key.name', 'KEY_NAME', 'key-name'));
  }
  if (value === '.') errs.push("must not be '.'");
  else if (value === '..') errs.push("must not be '..'");
  else if (value.startsWith('..')) errs.push("must not start with '..'");
  return errs;
}

const validEnvFieldPaths = [
  'metadata.name', 'metadata.namespace', 'metadata.uid', 'spec.nodeName', 'spec.serviceAccountName',
  'status.hostIP', 'status.hostIPs', 'status.podIP', 'status.podIPs',
];
/** The pod fields ConvertDownwardAPIFieldLabel knows (others are `field label not supported`). */
const downwardAPILabels = new Set([
  'metadata.annotations', 'metadata.labels', 'metadata.name', 'metadata.namespace', 'metadata.uid', 'spec.nodeName',
  'spec.restartPolicy', 'spec.serviceAccountName', 'spec.schedulerName', 'status.phase', 'status.hostIP', 'status.hostIPs',
  'status.podIP', 'status.podIPs',
]);

/** fieldpath.SplitMaybeSubscriptedPath: `metadata.labels['key']`. */
function splitSubscript(p: string): [string, string] | undefined {
  if (!p.endsWith("']")) return undefined;
  const i = p.indexOf("['");
  return i < 0 ? undefined : [p.slice(0, i), p.slice(i + 2, -2)];
}

/** validateObjectFieldSelector with the env's valid expressions (or a volume's, given). */
export function validateObjectFieldSelector(fs: Rec, expressions: readonly string[], fldPath: Path): FieldError[] {
  const apiVersion = str(fs.apiVersion);
  const fieldPath = str(fs.fieldPath);
  if (apiVersion === '' && fs.apiVersion !== undefined) return [required(fldPath.child('apiVersion'), '')];
  if (fieldPath === '') return [required(fldPath.child('fieldPath'), '')];
  const sub = splitSubscript(fieldPath);
  const base = sub ? sub[0] : fieldPath;
  if (apiVersion !== '' && apiVersion !== 'v1') {
    return [invalid(fldPath.child('fieldPath'), fieldPath, `error converting fieldPath: unsupported pod version: ${apiVersion}`)];
  }
  if (!downwardAPILabels.has(base)) {
    return [invalid(fldPath.child('fieldPath'), fieldPath, `error converting fieldPath: field label not supported: ${fieldPath}`)];
  }
  if (sub) {
    if (base === 'metadata.annotations') return isQualifiedName(sub[1].toLowerCase()).map((m) => invalid(fldPath, sub[1], m));
    if (base === 'metadata.labels') return isQualifiedName(sub[1]).map((m) => invalid(fldPath, sub[1], m));
    return [invalid(fldPath, base, 'does not support subscript')];
  }
  if (!expressions.includes(fieldPath)) return [notSupported(fldPath.child('fieldPath'), fieldPath, expressions)];
  return [];
}

/** validateConfigMapKeySelector / validateSecretKeySelector */
function validateKeySelector(s: Rec, fldPath: Path): FieldError[] {
  const errs = nameIsDNSSubdomain(str(s.name), false).map((m) => invalid(fldPath.child('name'), str(s.name), m));
  const key = str(s.key);
  if (key === '') errs.push(required(fldPath.child('key'), ''));
  else for (const m of isConfigMapKey(key)) errs.push(invalid(fldPath.child('key'), key, m));
  return errs;
}

const resourceFieldRefs = ['limits.cpu', 'limits.ephemeral-storage', 'limits.memory', 'requests.cpu', 'requests.ephemeral-storage', 'requests.memory'];

/** validateContainerResourceFieldSelector (the env's: a container name is optional). */
export function validateResourceFieldSelector(fs: Rec, expressions: readonly string[], fldPath: Path, volume: boolean): FieldError[] {
  const resource = str(fs.resource);
  if (volume && str(fs.containerName) === '') return [required(fldPath.child('containerName'), '')];
  if (resource === '') return [required(fldPath.child('resource'), '')];
  if (!expressions.includes(resource) && !resource.startsWith('requests.hugepages-') && !resource.startsWith('limits.hugepages-')) {
    return [notSupported(fldPath.child('resource'), resource, expressions)];
  }
  return [];
}

function validateValueFrom(ev: Rec, fldPath: Path): FieldError[] {
  const vf = rec(ev.valueFrom);
  if (!vf) return [];
  const errs: FieldError[] = [];
  let n = 0;
  const fieldRef = rec(vf.fieldRef);
  if (fieldRef) {
    n++;
    errs.push(...validateObjectFieldSelector(fieldRef, validEnvFieldPaths, fldPath.child('fieldRef')));
  }
  const resRef = rec(vf.resourceFieldRef);
  if (resRef) {
    n++;
    errs.push(...validateResourceFieldSelector(resRef, resourceFieldRefs, fldPath.child('resourceFieldRef'), false));
  }
  const cm = rec(vf.configMapKeyRef);
  if (cm) {
    n++;
    errs.push(...validateKeySelector(cm, fldPath.child('configMapKeyRef')));
  }
  const secret = rec(vf.secretKeyRef);
  if (secret) {
    n++;
    errs.push(...validateKeySelector(secret, fldPath.child('secretKeyRef')));
  }
  if (n === 0) {
    errs.push(invalid(fldPath, '', 'must specify one of: `fieldRef`, `resourceFieldRef`, `configMapKeyRef` or `secretKeyRef`'));
  } else if (str(ev.value) !== '') {
    errs.push(invalid(fldPath, '', 'may not be specified when `value` is not empty'));
  } else if (n > 1) {
    errs.push(invalid(fldPath, '', 'may not have more than one field specified at a time'));
  }
  return errs;
}

/** ValidateEnv */
export function validateEnv(vars: unknown, fldPath: Path): FieldError[] {
  const errs: FieldError[] = [];
  recs(vars).forEach((ev, i) => {
    const p = fldPath.index(i);
    const name = str(ev.name);
    if (name === '') errs.push(required(p.child('name'), ''));
    for (const m of isRelaxedEnvVarName(name)) errs.push(invalid(p.child('name'), name, m));
    errs.push(...validateValueFrom(ev, p.child('valueFrom')));
  });
  return errs;
}

/** ValidateEnvFrom: a prefix that is a valid name, and exactly one of configMapRef or secretRef. */
export function validateEnvFrom(vars: unknown, fldPath: Path): FieldError[] {
  const errs: FieldError[] = [];
  recs(vars).forEach((ev, i) => {
    const p = fldPath.index(i);
    const prefix = str(ev.prefix);
    if (prefix !== '') for (const m of isRelaxedEnvVarName(prefix)) errs.push(invalid(p.child('prefix'), prefix, m));
    let n = 0;
    for (const k of ['configMapRef', 'secretRef'] as const) {
      const ref = rec(ev[k]);
      if (!ref) continue;
      n++;
      const name = str(ref.name);
      for (const m of nameIsDNSSubdomain(name, false)) errs.push(invalid(p.child(k, 'name'), name, m));
    }
    if (n === 0) errs.push(invalid(p, '', 'must specify one of: `configMapRef` or `secretRef`'));
    else if (n > 1) errs.push(invalid(p, '', 'may not have more than one field specified at a time'));
  });
  return errs;
}
