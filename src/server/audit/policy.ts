/**
 * The audit policy of `--audit-policy-file` (k8s.io/apiserver `pkg/audit/policy/reader.go` and
 * `pkg/apis/audit/validation`): an audit.k8s.io/v1 Policy read from YAML or JSON, decoded strictly
 * first (unknown fields are reported and then ignored, as upstream falls back to lenient
 * decoding), validated with upstream's messages, and refused when it has no rules.
 */
import { readFileSync } from 'node:fs';
import { aggregateString, invalid, nameIsDNSSubdomain, notSupported, Path, required, yamlToJSON, type FieldError } from '../../apimachinery/index.ts';

export type Level = 'None' | 'Metadata' | 'Request' | 'RequestResponse';
export type Stage = 'RequestReceived' | 'ResponseStarted' | 'ResponseComplete' | 'Panic';

export const levels: readonly Level[] = ['None', 'Metadata', 'Request', 'RequestResponse'];
export const stages: readonly Stage[] = ['RequestReceived', 'ResponseStarted', 'ResponseComplete', 'Panic'];

export interface GroupResources {
  group?: string;
  resources?: string[];
  resourceNames?: string[];
}

export interface PolicyRule {
  level: Level;
  users?: string[];
  userGroups?: string[];
  verbs?: string[];
  resources?: GroupResources[];
  namespaces?: string[];
  nonResourceURLs?: string[];
  omitStages?: Stage[];
  omitManagedFields?: boolean;
}

export interface Policy {
  rules: PolicyRule[];
  omitStages?: Stage[];
  omitManagedFields?: boolean;
}

/** A policy file that cannot be used; `message` is upstream's. */
export class PolicyError extends Error {}

/** The fields each object of a Policy has, and their Go types (for strict decoding and type errors). */
const stringList = '[]string';
const shapes: Record<string, Record<string, string>> = {
  Policy: { apiVersion: 'string', kind: 'string', metadata: 'v1.ObjectMeta', rules: '[]v1.PolicyRule', omitStages: '[]v1.Stage', omitManagedFields: 'bool' },
  PolicyRule: {
    level: 'v1.Level',
    users: stringList,
    userGroups: stringList,
    verbs: stringList,
    resources: '[]v1.GroupResources',
    namespaces: stringList,
    nonResourceURLs: stringList,
    omitStages: '[]v1.Stage',
    omitManagedFields: 'bool',
  },
  GroupResources: { group: 'string', resources: stringList, resourceNames: stringList },
};

const jsonType = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v === 'object' ? 'object' : typeof v === 'boolean' ? 'bool' : typeof v);

/** Whether `v` decodes into Go type `t` (null decodes into anything). */
function fits(v: unknown, t: string): boolean {
  if (v === null) return true;
  if (t.startsWith('[]')) return Array.isArray(v);
  if (t === 'bool') return typeof v === 'boolean';
  if (t === 'string' || t === 'v1.Level' || t === 'v1.Stage') return typeof v === 'string';
  return typeof v === 'object' && !Array.isArray(v);
}

/**
 * Checks `obj` against the shape `struct`: the first type error as encoding/json words it
 * (thrown), the unknown fields as strict decoding words them (returned).
 */
function checkShape(obj: Record<string, unknown>, struct: string, path: string, unknown: string[]): void {
  const shape = shapes[struct]!;
  for (const [k, v] of Object.entries(obj)) {
    const t = shape[k];
    const p = path === '' ? k : `${path}.${k}`;
    // encoding/json names the field by its path without indices.
    const field = `${struct}.${p.replace(/\[\d+\]/g, '')}`;
    if (t === undefined) {
      unknown.push(`unknown field ${JSON.stringify(p)}`);
      continue;
    }
    if (!fits(v, t)) throw new PolicyError(`failed decoding: json: cannot unmarshal ${jsonType(v)} into Go struct field ${field} of type ${t}`);
    const elem = t.startsWith('[]v1.') ? t.slice(5) : undefined;
    if (Array.isArray(v)) {
      v.forEach((x, i) => {
        const et = t.slice(2);
        if (elem !== undefined && shapes[elem] !== undefined) {
          if (x !== null && (typeof x !== 'object' || Array.isArray(x))) throw new PolicyError(`failed decoding: json: cannot unmarshal ${jsonType(x)} into Go struct field ${field} of type v1.${elem}`);
          if (x !== null) checkShape(x as Record<string, unknown>, elem, `${p}[${i}]`, unknown);
        } else if (!fits(x, et) || x === null) {
          if (x !== null) throw new PolicyError(`failed decoding: json: cannot unmarshal ${jsonType(x)} into Go struct field ${field} of type ${et}`);
        }
      });
    }
  }
}

function validateOmitStages(xs: readonly string[] | undefined, p: Path): FieldError[] {
  return (xs ?? []).flatMap((s, i) => ((stages as readonly string[]).includes(s) ? [] : [invalid(p.index(i), s, `allowed stages are ${stages.join(',')}`)]));
}

function validateRule(r: PolicyRule, p: Path): FieldError[] {
  const errs: FieldError[] = [];
  const level = (r.level ?? '') as string;
  if (level === '') errs.push(required(p.child('level')));
  else if (!(levels as readonly string[]).includes(level)) errs.push(notSupported(p.child('level'), level, levels));
  (r.nonResourceURLs ?? []).forEach((url, i) => {
    if (url === '*') return;
    if (!url.startsWith('/')) errs.push(invalid(p.child('nonResourceURLs').index(i), url, "non-resource URL rules must begin with a '/' character"));
    if (url !== '' && url.slice(0, -1).includes('*')) errs.push(invalid(p.child('nonResourceURLs').index(i), url, "non-resource URL wildcards '*' must be the final character of the rule"));
  });
  for (const gr of r.resources ?? []) {
    const group = gr.group ?? '';
    if (group !== '') {
      const msgs = nameIsDNSSubdomain(group, false);
      if (msgs.length > 0) errs.push(invalid(p.child('resources').child('group'), group, msgs.join(',')));
    }
    if ((gr.resourceNames ?? []).length > 0 && (gr.resources ?? []).length === 0) {
      errs.push(invalid(p.child('resources').child('resourceNames'), gr.resourceNames, 'using resourceNames requires at least one resource'));
    }
  }
  errs.push(...validateOmitStages(r.omitStages, p.child('omitStages')));
  if ((r.nonResourceURLs ?? []).length > 0 && ((r.resources ?? []).length > 0 || (r.namespaces ?? []).length > 0)) {
    errs.push(invalid(p.child('nonResourceURLs'), r.nonResourceURLs, 'rules cannot apply to both regular resources and non-resource URLs'));
  }
  return errs;
}

/** ValidatePolicy: the policy's omitStages, then each rule's level, URLs, resources and omitStages. */
export function validatePolicy(p: Policy): FieldError[] {
  const errs = validateOmitStages(p.omitStages, Path.of('omitStages'));
  (p.rules ?? []).forEach((r, i) => errs.push(...validateRule(r ?? ({} as PolicyRule), Path.of('rules').index(i))));
  return errs;
}

/** A decoded list of strings, nulls as Go decodes them (""). */
const strings = (v: unknown[]) => v.map((x) => (typeof x === 'string' ? x : ''));

/** A rule as Go decodes it: nulls as zero values, absent fields left out. */
function normalizeRule(v: unknown): PolicyRule {
  const r = (v ?? {}) as Record<string, unknown>;
  const out: Record<string, unknown> = { level: typeof r.level === 'string' ? r.level : '' };
  for (const k of ['users', 'userGroups', 'verbs', 'namespaces', 'nonResourceURLs', 'omitStages']) if (Array.isArray(r[k])) out[k] = strings(r[k] as unknown[]);
  if (Array.isArray(r.resources)) {
    out.resources = r.resources.map((g) => {
      const gr = (g ?? {}) as Record<string, unknown>;
      const o: GroupResources = { group: typeof gr.group === 'string' ? gr.group : '' };
      if (Array.isArray(gr.resources)) o.resources = strings(gr.resources);
      if (Array.isArray(gr.resourceNames)) o.resourceNames = strings(gr.resourceNames);
      return o;
    });
  }
  if (typeof r.omitManagedFields === 'boolean') out.omitManagedFields = r.omitManagedFields;
  return out as unknown as PolicyRule;
}

/**
 * LoadPolicyFromBytes: the policy in `text` (YAML or JSON). Throws PolicyError with upstream's
 * message; `warn` hears of the unknown fields ignored.
 */
export function parsePolicy(text: string, warn: (msg: string) => void = () => {}): Policy {
  let value: unknown;
  try {
    value = yamlToJSON(text).value;
  } catch (e) {
    throw new PolicyError(`failed decoding: ${e instanceof Error ? e.message : String(e)}`);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new PolicyError(`failed decoding: couldn't get version/kind; json parse error: json: cannot unmarshal ${jsonType(value)} into Go value of type struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }`);
  }
  const obj = value as Record<string, unknown>;
  const raw = JSON.stringify(obj);
  if (typeof obj.kind !== 'string' || obj.kind === '') throw new PolicyError(`failed decoding: Object 'Kind' is missing in '${raw}'`);
  const apiVersion = typeof obj.apiVersion === 'string' ? obj.apiVersion : '';
  if (apiVersion === '') throw new PolicyError(`failed decoding: Object 'apiVersion' is missing in '${raw}'`);
  if (apiVersion !== 'audit.k8s.io/v1' || obj.kind !== 'Policy') {
    throw new PolicyError(`failed decoding: no kind ${JSON.stringify(obj.kind)} is registered for version ${JSON.stringify(apiVersion)} in scheme "k8s.io/apiserver/pkg/audit/scheme.go:30"`);
  }
  const unknown: string[] = [];
  checkShape(obj, 'Policy', '', unknown);
  if (unknown.length > 0) warn(`Audit policy contains errors, falling back to lenient decoding: strict decoding error: ${unknown.join(', ')}`);
  const policy: Policy = {
    rules: (Array.isArray(obj.rules) ? obj.rules : []).map(normalizeRule),
    ...(Array.isArray(obj.omitStages) ? { omitStages: strings(obj.omitStages) as Stage[] } : {}),
    ...(obj.omitManagedFields === true ? { omitManagedFields: true } : {}),
  };
  const errs = validatePolicy(policy);
  if (errs.length > 0) throw new PolicyError(aggregateString(errs));
  if (policy.rules.length === 0) throw new PolicyError('loaded illegal policy with 0 rules');
  return policy;
}

/** Go's text of a file-reading error (os.PathError). */
function readError(path: string, e: unknown): string {
  const code = (e as { code?: string }).code;
  if (code === 'ENOENT') return `open ${path}: no such file or directory`;
  if (code === 'EACCES') return `open ${path}: permission denied`;
  if (code === 'EISDIR') return `read ${path}: is a directory`;
  return e instanceof Error ? e.message : String(e);
}

/** LoadPolicyFromFile, with the options' `loading audit policy file: ` before its message. */
export function loadPolicyFile(path: string, warn?: (msg: string) => void): Policy {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw new PolicyError(`loading audit policy file: failed to read file path ${JSON.stringify(path)}: ${readError(path, e)}`);
  }
  try {
    return parsePolicy(text, warn);
  } catch (e) {
    throw new PolicyError(`loading audit policy file: ${e instanceof Error ? e.message : String(e)}: from file ${path}`);
  }
}
