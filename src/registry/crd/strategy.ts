/**
 * The strategy for apiextensions.k8s.io/v1 CustomResourceDefinition (apiextensions-apiserver's
 * `pkg/registry/customresourcedefinition`): unknown fields dropped and v1 defaults applied as
 * decoding would (typed-fields.ts, internal.ts), status cleared
 * on create with storedVersions seeded from the storage version, status kept on spec writes,
 * generation +1 on spec changes, the storage version added to storedVersions when it changes;
 * validation of the object itself by ./validation.ts on the internal shape. The status
 * subresource writes only status (spec, labels, annotations, owner references and generation are
 * the stored ones).
 */
import type { FieldError } from '../../apimachinery/index.ts';
import { deepCopy, metaOf } from '../meta.ts';
import type { Obj, ResourceInfo, Subresource } from '../rest.ts';
import { defaultAttrs, strategyDefaults, type Attrs, type RequestContext, type Strategy } from '../strategy.ts';
import { crdType } from './typed-fields.ts';
import { typedCodec, type Codec } from '../codec.ts';
import { isObject, semanticEqual, setV1Defaults, toInternal, type JsonObject } from './internal.ts';
import { schemaDepthErrors, validateCRD, validateCRDStatusUpdate, validateCRDUpdate } from './validation.ts';

export const crdInfo: ResourceInfo = {
  group: 'apiextensions.k8s.io',
  version: 'v1',
  resource: 'customresourcedefinitions',
  kind: 'CustomResourceDefinition',
  listKind: 'CustomResourceDefinitionList',
  namespaced: false,
  singular: 'customresourcedefinition',
};

/** The name of the storage version, if one is marked. */
export function storageVersion(crd: Obj): string | undefined {
  const spec = isObject(crd.spec) ? crd.spec : {};
  const versions = Array.isArray(spec.versions) ? (spec.versions as JsonObject[]) : [];
  const v = versions.find((x) => isObject(x) && x.storage === true);
  return typeof v?.name === 'string' ? v.name : undefined;
}

function statusOf(crd: Obj): JsonObject {
  if (isObject(crd.status)) return crd.status;
  const s: JsonObject = {};
  crd.status = s;
  return s;
}

/** Adds the storage version to status.storedVersions when it is not there yet. */
function recordStorageVersion(crd: Obj): void {
  const v = storageVersion(crd);
  if (v === undefined) return;
  const status = statusOf(crd);
  const stored = Array.isArray(status.storedVersions) ? (status.storedVersions as string[]) : [];
  if (!stored.includes(v)) status.storedVersions = [...stored, v];
}

class CRDStrategy implements Strategy {
  readonly namespaced = false;
  readonly allowCreateOnUpdate = false;
  readonly allowUnconditionalUpdate = false;
  readonly returnDeletedObject = false;
  readonly selectableFields: readonly string[] = [];

  constructor(private readonly status = false) {}

  prepareForCreate(_ctx: RequestContext, crd: Obj): void {
    crd.status = {};
    metaOf(crd).generation = 1;
    recordStorageVersion(crd);
  }

  prepareForUpdate(_ctx: RequestContext, crd: Obj, old: Obj): void {
    if (this.status) {
      crd.spec = deepCopy(old.spec);
      const m = metaOf(crd);
      const om = metaOf(old);
      for (const k of ['labels', 'annotations', 'ownerReferences', 'generation']) {
        if (om[k] === undefined) delete m[k];
        else m[k] = deepCopy(om[k]);
      }
      return;
    }
    crd.status = deepCopy(old.status ?? {});
    if (!semanticEqual(crd.spec, old.spec)) {
      const g = metaOf(old).generation;
      metaOf(crd).generation = (typeof g === 'number' ? g : 0) + 1;
    }
    recordStorageVersion(crd);
  }

  validate(_ctx: RequestContext, crd: Obj): FieldError[] {
    const internal = toInternal(crd);
    const tooDeep = schemaDepthErrors(internal);
    return tooDeep.length > 0 ? tooDeep : validateCRD(internal);
  }

  validateUpdate(_ctx: RequestContext, crd: Obj, old: Obj): FieldError[] {
    if (this.status) return validateCRDStatusUpdate(toInternal(crd), toInternal(old));
    const internal = toInternal(crd);
    const tooDeep = schemaDepthErrors(internal);
    return tooDeep.length > 0 ? tooDeep : validateCRDUpdate(internal, toInternal(old));
  }

  warningsOnCreate = strategyDefaults.warningsOnCreate;
  warningsOnUpdate = strategyDefaults.warningsOnUpdate;
  canonicalize = strategyDefaults.canonicalize;

  getAttrs(crd: Obj): Attrs {
    return defaultAttrs(crd, false);
  }

  subresourceStrategy(sub: Subresource): Strategy | undefined {
    return sub === 'status' && !this.status ? crdStatusStrategy : undefined;
  }
}

const crdStatusStrategy = new CRDStrategy(true);

/** apiextensions.k8s.io/v1 CustomResourceDefinition decoded into its Go type, then its v1 defaults (on requests and reads). */
export const crdCodec: Codec = typedCodec(crdType, setV1Defaults);

/** The CustomResourceDefinition strategy (status via subresourceStrategy('status')). */
export const crdStrategy: Strategy = new CRDStrategy();
