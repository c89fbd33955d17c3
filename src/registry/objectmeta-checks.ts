/**
 * The ObjectMeta checks the generic store runs (rest.BeforeCreate / BeforeUpdate's common
 * validation), over apimachinery's ValidateObjectMeta / ValidateObjectMetaUpdate with the name
 * rule each place uses upstream: path-segment names in the store, the strategy's own rule
 * (e.g. DNS subdomains for custom resources) inside strategies.
 */
import type { FieldError } from '../apimachinery/index.ts';
import { Path } from '../apimachinery/index.ts';
import { validatePathSegmentName, type ValidateNameFunc } from '../apimachinery/index.ts';
import { validateObjectMeta, validateObjectMetaUpdate } from '../apimachinery/index.ts';
import type { Obj } from './rest.ts';

const metadataPath = Path.of('metadata');

function metadataOf(obj: Obj): object {
  const m = obj.metadata;
  return m !== null && typeof m === 'object' ? m : {};
}

/** ValidateObjectMetaAccessor with a given name rule. */
export function validateObjectMetaWith(obj: Obj, namespaced: boolean, nameFn: ValidateNameFunc): FieldError[] {
  return validateObjectMeta(metadataOf(obj), namespaced, nameFn, metadataPath);
}

/** The store's check on create (BeforeCreate): path-segment names. */
export function validateObjectMetaForCreate(obj: Obj, namespaced: boolean): FieldError[] {
  return validateObjectMeta(metadataOf(obj), namespaced, validatePathSegmentName, metadataPath);
}

/** The store's check on update (validateCommonFields): ObjectMeta, then the update rules. */
export function validateObjectMetaForUpdate(obj: Obj, old: Obj, namespaced: boolean): FieldError[] {
  return [
    ...validateObjectMeta(metadataOf(obj), namespaced, validatePathSegmentName, metadataPath),
    ...validateObjectMetaUpdate(metadataOf(obj), metadataOf(old), metadataPath),
  ];
}

/** ValidateObjectMetaAccessorUpdate alone (what custom resource validation adds on update). */
export function validateObjectMetaUpdateOnly(obj: Obj, old: Obj): FieldError[] {
  return validateObjectMetaUpdate(metadataOf(obj), metadataOf(old), metadataPath);
}
