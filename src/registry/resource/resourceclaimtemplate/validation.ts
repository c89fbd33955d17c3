/**
 * resource.k8s.io ResourceClaimTemplate's native rules (ValidateResourceClaimTemplate[Update]): the
 * template's metadata only labels and annotations, its claim spec by ResourceClaim's rules; the
 * spec fixed after creation.
 */
import { GoJSONText, Path, forbidden, invalid, validateAnnotations, validateLabels, type FieldError } from '../../../apimachinery/index.ts';
import type { NativeRules } from '../../builtin/native.ts';
import { ptr, rec, semanticEqual } from '../../fieldvalues/fields.ts';
import { validateResourceClaimSpec } from '../resourceclaim/validation.ts';
import { withAdminAccessErrors } from '../admin-access.ts';
import { dropDisabledSpecFields } from '../resourceclaim/drop-disabled.ts';
import type { Obj } from '../../rest.ts';

const specPath = Path.of('spec');

/** ObjectMeta's other fields in Go's order, as validateFieldAllowList names them (the Go name, first letter lowered). */
const otherMetaFields: readonly (readonly [json: string, reported: string])[] = [
  ['name', 'name'], ['generateName', 'generateName'], ['namespace', 'namespace'], ['selfLink', 'selfLink'], ['uid', 'uID'],
  ['resourceVersion', 'resourceVersion'], ['generation', 'generation'], ['creationTimestamp', 'creationTimestamp'],
  ['deletionTimestamp', 'deletionTimestamp'], ['deletionGracePeriodSeconds', 'deletionGracePeriodSeconds'],
  ['ownerReferences', 'ownerReferences'], ['finalizers', 'finalizers'], ['managedFields', 'managedFields'],
];

/** ValidateTemplateObjectMeta: annotations and labels, every other field at its zero value. */
function validateTemplateObjectMeta(meta: Record<string, unknown>, p: Path): FieldError[] {
  const errs = [...validateAnnotations(rec(meta.annotations) as Record<string, string>, p.child('annotations')), ...validateLabels(rec(meta.labels) as Record<string, string>, p.child('labels'))];
  for (const [json, reported] of otherMetaFields) {
    const v = meta[json];
    if (v !== undefined && v !== null && v !== '' && v !== 0) errs.push(forbidden(p.child(reported), 'cannot be set'));
  }
  return errs;
}

const claimSpec = (obj: Obj) => ptr(rec(obj.spec).spec);

export const resourceClaimTemplateRules: NativeRules = {
  prepareForCreate: (_ctx, obj) => dropDisabledSpecFields(claimSpec(obj), undefined),
  prepareForUpdate: (_ctx, obj, old) => dropDisabledSpecFields(claimSpec(obj), claimSpec(old)),
  validate: (ctx, obj) => {
    const spec = rec(obj.spec);
    return withAdminAccessErrors(ctx, [...validateTemplateObjectMeta(rec(spec.metadata), specPath.child('metadata')), ...validateResourceClaimSpec(rec(spec.spec), specPath.child('spec'), false)]);
  },
  validateUpdate: (_ctx, obj, old) =>
    semanticEqual(obj.spec, old.spec) ? [] : [invalid(specPath, new GoJSONText(JSON.stringify(rec(obj.spec))), 'field is immutable')],
};
