/**
 * resource.k8s.io DeviceClass's native rules (ValidateDeviceClass[Update]): selectors whose CEL
 * compiles within its cost (an update leaves selectors and configs that are exactly as stored
 * unchecked, as upstream treats them as stored), opaque configurations, and an extended resource
 * name when one is given.
 */
import { Path, invalid, isQualifiedName, type FieldError } from '../../../apimachinery/index.ts';
import { dropDisabledClassFields } from './drop-disabled.ts';
import { countGeneration, startGeneration } from '../generation.ts';
import type { NativeRules } from '../../builtin/native.ts';
import { ptr, rec, semanticEqual } from '../../fieldvalues/fields.ts';
import type { Obj } from '../../rest.ts';
import { limits, validateDeviceConfiguration, validateSelectors, validateSlice, type Rec } from '../device/validation.ts';

const specPath = Path.of('spec');

/** v1helper.IsExtendedResourceName: a qualified name outside kubernetes.io, not `requests.`-prefixed, valid with that prefix. */
function isExtendedResourceName(name: string): boolean {
  const native = !name.includes('/') || name.includes('kubernetes.io/');
  if (native || name.startsWith('requests.')) return false;
  return isQualifiedName(`requests.${name}`).length === 0;
}

export function validateDeviceClassSpec(spec: Rec, oldSpec: Rec | undefined): FieldError[] {
  const selectorsStored = oldSpec !== undefined && semanticEqual(spec.selectors, oldSpec.selectors);
  const errs = validateSelectors(spec.selectors, specPath.child('selectors'), selectorsStored);
  const configStored = oldSpec !== undefined && semanticEqual(spec.config, oldSpec.config);
  errs.push(...validateSlice(spec.config, limits.config, (c, p) => validateDeviceConfiguration(c, p, configStored), specPath.child('config')));
  const ext = spec.extendedResourceName;
  if (typeof ext === 'string' && !isExtendedResourceName(ext)) errs.push(invalid(specPath.child('extendedResourceName'), ext, 'must be a valid extended resource name'));
  return errs;
}

export const deviceClassRules: NativeRules = {
  prepareForCreate: (_ctx, obj) => {
    dropDisabledClassFields(ptr(obj.spec), undefined);
    startGeneration(obj);
  },
  // Upstream drops first, then counts: adding only a dropped field changes nothing.
  prepareForUpdate: (_ctx, obj, old) => {
    dropDisabledClassFields(ptr(obj.spec), ptr(old.spec));
    countGeneration(obj, old);
  },
  validate: (_ctx, obj: Obj) => validateDeviceClassSpec(rec(obj.spec), undefined),
  validateUpdate: (_ctx, obj, old) => validateDeviceClassSpec(rec(obj.spec), ptr(old.spec) ?? {}),
};
