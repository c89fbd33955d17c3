/**
 * The parts of pkg/apis/rbac/validation that roles and bindings share: a policy rule (verbs,
 * then either resources with their api groups or non-resource URLs, never both), a binding's
 * roleRef and its subjects, and the binding's update rule that a roleRef never changes (a
 * binding is deleted and made again to point elsewhere, so that no grant silently widens).
 */
import { GoJSONText, invalid, notSupported, Path, required, type FieldError } from '../../../apimachinery/index.ts';
import { nameIsDNSSubdomain, validatePathSegmentName } from '../../../apimachinery/index.ts';
import { rec, str, strings, list } from '../../fieldvalues/fields.ts';
import type { Obj } from '../../rest.ts';

export const rbacGroup = 'rbac.authorization.k8s.io';

/** ValidatePolicyRule */
export function validatePolicyRule(rule: unknown, namespaced: boolean, fldPath: Path): FieldError[] {
  const r = rec(rule);
  const errs: FieldError[] = [];
  const verbs = strings(r.verbs);
  const urls = strings(r.nonResourceURLs);
  const groups = strings(r.apiGroups);
  const resources = strings(r.resources);
  const names = strings(r.resourceNames);
  if (verbs.length === 0) errs.push(required(fldPath.child('verbs'), 'verbs must contain at least one value'));
  if (urls.length > 0) {
    if (namespaced) errs.push(invalid(fldPath.child('nonResourceURLs'), urls, 'namespaced rules cannot apply to non-resource URLs'));
    if (groups.length > 0 || resources.length > 0 || names.length > 0) {
      errs.push(invalid(fldPath.child('nonResourceURLs'), urls, 'rules cannot apply to both regular resources and non-resource URLs'));
    }
    return errs;
  }
  if (groups.length === 0) errs.push(required(fldPath.child('apiGroups'), 'resource rules must supply at least one api group'));
  if (resources.length === 0) errs.push(required(fldPath.child('resources'), 'resource rules must supply at least one resource'));
  return errs;
}

/** Each of a role's rules. */
export function validateRules(obj: Obj, namespaced: boolean): FieldError[] {
  return list(obj.rules).flatMap((rule, i) => validatePolicyRule(rule, namespaced, Path.of('rules').index(i)));
}

/** ValidateRoleBindingSubject */
export function validateSubject(subject: unknown, namespaced: boolean, fldPath: Path): FieldError[] {
  const s = rec(subject);
  const name = str(s.name);
  const apiGroup = str(s.apiGroup);
  const errs: FieldError[] = [];
  if (name === '') errs.push(required(fldPath.child('name'), ''));
  switch (str(s.kind)) {
    case 'ServiceAccount':
      if (name !== '') for (const msg of nameIsDNSSubdomain(name, false)) errs.push(invalid(fldPath.child('name'), name, msg));
      if (apiGroup !== '') errs.push(notSupported(fldPath.child('apiGroup'), apiGroup, ['']));
      if (!namespaced && str(s.namespace) === '') errs.push(required(fldPath.child('namespace'), ''));
      break;
    case 'User':
    case 'Group':
      if (apiGroup !== rbacGroup) errs.push(notSupported(fldPath.child('apiGroup'), apiGroup, [rbacGroup]));
      break;
    default:
      errs.push(notSupported(fldPath.child('kind'), str(s.kind), ['ServiceAccount', 'User', 'Group']));
  }
  return errs;
}

/** ValidateRoleBinding / ValidateClusterRoleBinding without ObjectMeta: roleRef (of the kinds allowed), then subjects. */
export function validateBinding(obj: Obj, namespaced: boolean): FieldError[] {
  const ref = rec(obj.roleRef);
  const errs: FieldError[] = [];
  const apiGroup = str(ref.apiGroup);
  if (apiGroup !== rbacGroup) errs.push(notSupported(Path.of('roleRef', 'apiGroup'), apiGroup, [rbacGroup]));
  const kinds = namespaced ? ['Role', 'ClusterRole'] : ['ClusterRole'];
  const kind = str(ref.kind);
  if (!kinds.includes(kind)) errs.push(notSupported(Path.of('roleRef', 'kind'), kind, kinds));
  const name = str(ref.name);
  if (name === '') errs.push(required(Path.of('roleRef', 'name'), ''));
  else for (const msg of validatePathSegmentName(name, false)) errs.push(invalid(Path.of('roleRef', 'name'), name, msg));
  list(obj.subjects).forEach((s, i) => errs.push(...validateSubject(s, namespaced, Path.of('subjects').index(i))));
  return errs;
}

/** Go's json.Marshal of a value: HTML characters escaped as encoding/json escapes them. */
function goMarshal(v: unknown): string {
  return JSON.stringify(v).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** The roleRef as the internal rbac.RoleRef struct prints (fields in declaration order, Go's names). */
function roleRefValue(ref: Record<string, unknown>): GoJSONText {
  return new GoJSONText(`{"APIGroup":${goMarshal(str(ref.apiGroup))},"Kind":${goMarshal(str(ref.kind))},"Name":${goMarshal(str(ref.name))}}`);
}

/** ValidateRoleBindingUpdate / ValidateClusterRoleBindingUpdate: the new binding's rules, then `cannot change roleRef`. */
export function validateBindingUpdate(obj: Obj, old: Obj, namespaced: boolean): FieldError[] {
  const errs = validateBinding(obj, namespaced);
  const ref = rec(obj.roleRef);
  const oldRef = rec(old.roleRef);
  if (str(ref.apiGroup) !== str(oldRef.apiGroup) || str(ref.kind) !== str(oldRef.kind) || str(ref.name) !== str(oldRef.name)) {
    errs.push(invalid(Path.of('roleRef'), roleRefValue(ref), 'cannot change roleRef'));
  }
  return errs;
}
