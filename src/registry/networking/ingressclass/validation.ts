/**
 * IngressClass's native rules (pkg/apis/networking/validation ValidateIngressClass[Update]): a
 * domain-prefixed controller of at most 250 characters that never changes, and a parameters
 * reference with kind, name and a scope (a Namespace scope with its namespace, a Cluster scope
 * without one). An absent scope is Cluster, as upstream's defaulting makes it.
 */
import { type FieldError, forbidden, invalid, isDomainPrefixedPath, notSupported, Path, required, tooLong } from '../../../apimachinery/index.ts';
import { isDNS1123Subdomain, isValidPathSegmentName, validateNamespaceName } from '../../../apimachinery/index.ts';
import type { NativeRules } from '../../builtin/native.ts';
import { immutableField, ptr, rec, str } from '../../fieldvalues/fields.ts';
import type { Obj } from '../../rest.ts';

const specPath = Path.of('spec');
const maxLenIngressClassController = 250;
const scopes = ['Cluster', 'Namespace'];

/** validateIngressTypedLocalObjectReference: an optional DNS-subdomain apiGroup, a kind and a name. */
export function validateTypedLocalObjectReference(ref: Record<string, unknown>, fldPath: Path): FieldError[] {
  const errs: FieldError[] = [];
  if (typeof ref.apiGroup === 'string') {
    for (const msg of isDNS1123Subdomain(ref.apiGroup)) errs.push(invalid(fldPath.child('apiGroup'), ref.apiGroup, msg));
  }
  for (const f of ['kind', 'name']) {
    const v = str(ref[f]);
    if (v === '') errs.push(required(fldPath.child(f), ''));
    else for (const msg of isValidPathSegmentName(v)) errs.push(invalid(fldPath.child(f), v, msg));
  }
  return errs;
}

function validateParametersReference(params: Record<string, unknown> | undefined, fldPath: Path): FieldError[] {
  if (params === undefined) return [];
  const errs = validateTypedLocalObjectReference(params, fldPath);
  const scope = typeof params.scope === 'string' ? params.scope : 'Cluster';
  if (!scopes.includes(scope)) {
    errs.push(notSupported(fldPath.child('scope'), scope, scopes));
    return errs;
  }
  const ns = typeof params.namespace === 'string' ? params.namespace : undefined;
  if (scope === 'Namespace') {
    if (ns === undefined) errs.push(required(fldPath.child('namespace'), "`parameters.scope` is set to 'Namespace'"));
    else for (const msg of validateNamespaceName(ns, false)) errs.push(invalid(fldPath.child('namespace'), ns, msg));
  }
  if (scope === 'Cluster' && ns !== undefined) errs.push(forbidden(fldPath.child('namespace'), "`parameters.scope` is set to 'Cluster'"));
  return errs;
}

export function validateIngressClass(obj: Obj): FieldError[] {
  const spec = rec(obj.spec);
  const controller = str(spec.controller);
  const errs: FieldError[] = [];
  if (controller.length > maxLenIngressClassController) errs.push(tooLong(specPath.child('controller'), controller, maxLenIngressClassController));
  errs.push(...isDomainPrefixedPath(specPath.child('controller'), controller));
  errs.push(...validateParametersReference(ptr(spec.parameters), specPath.child('parameters')));
  return errs;
}

export const ingressClassRules: NativeRules = {
  validate: (_ctx, obj) => validateIngressClass(obj),
  validateUpdate: (_ctx, obj, old) => [
    ...immutableField(str(rec(obj.spec).controller), str(rec(old.spec).controller), specPath.child('controller')),
    ...validateIngressClass(obj),
  ],
};
