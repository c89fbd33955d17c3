/**
 * What serving one version of a CRD takes, built once when the CRD is established: the resource
 * names, the compiled schema (pruner, defaulter, validator) and the custom-resource strategy wired
 * to it. The HTTP server's CRD handler and the offline `validate` command both start from here, so
 * that a manifest is judged the same way online and offline.
 */
import type { FieldError } from '../../apimachinery/index.ts';
import { blockingError, compileSchema, type CompiledSchema } from '../../schema/index.ts';
import { schemaCodec, type Codec } from '../../schema/index.ts';
import { compileCELValidator, RUNTIME_CEL_COST_BUDGET, type CELValidator } from '../../schema/index.ts';
import type { JSONSchemaProps } from '../../schema/index.ts';
import { CustomResourceStrategy, type ScaleSpec } from '../customresource/strategy.ts';
import type { Obj, ResourceInfo } from '../rest.ts';
import { isObject, type ColumnDefinition, type JsonObject } from './internal.ts';

export interface ServedVersion {
  info: ResourceInfo;
  /** The version's name and whether it is the storage version. */
  name: string;
  storage: boolean;
  served: boolean;
  deprecated: boolean;
  deprecationWarning?: string;
  schema: JSONSchemaProps | undefined;
  compiled: CompiledSchema;
  /** Decoding of request and stored objects (prune, ObjectMeta coercion, defaults). */
  codec: Codec;
  strategy: CustomResourceStrategy;
  printerColumns: ColumnDefinition[];
  subresources: { status?: object; scale?: ScaleSpec };
  shortNames: string[];
  categories: string[];
}

/**
 * hasBlockingErr, then the x-kubernetes-validations rules: rules are not run on an object whose
 * shape is already wrong, which is reported instead; on update, transition rules see the old
 * object and unchanged values ratchet.
 */
function ruleErrors(rules: CELValidator, errs: readonly FieldError[], obj: Obj, old: Obj | undefined): FieldError[] {
  const blocking = blockingError(errs);
  if (blocking !== undefined) return [blocking];
  return rules.validate(obj, old, { budget: RUNTIME_CEL_COST_BUDGET, ratcheting: old !== undefined }).errors;
}

/** The names a CRD is served under: status.acceptedNames (as the crdHandler serves), else spec.names. */
export function servedNames(crd: JsonObject): JsonObject {
  const status = isObject(crd.status) ? (crd.status as JsonObject) : {};
  const accepted = isObject(status.acceptedNames) ? (status.acceptedNames as JsonObject) : {};
  if (typeof accepted.plural === 'string' && accepted.plural !== '') return accepted;
  const spec = isObject(crd.spec) ? (crd.spec as JsonObject) : {};
  return isObject(spec.names) ? (spec.names as JsonObject) : {};
}

/** The versions of a (v1, defaulted, valid) CRD, each compiled. Throws if a schema cannot compile. */
export function servedVersions(crd: JsonObject): ServedVersion[] {
  const spec = (isObject(crd.spec) ? crd.spec : {}) as JsonObject;
  const names = servedNames(crd);
  const group = String(spec.group ?? '');
  const namespaced = spec.scope === 'Namespaced';
  const preserveUnknownFields = spec.preserveUnknownFields === true;
  const versions = Array.isArray(spec.versions) ? (spec.versions as JsonObject[]) : [];
  return versions.map((v) => {
    const name = String(v.name ?? '');
    const schema = isObject(v.schema) && isObject((v.schema as JsonObject).openAPIV3Schema)
      ? ((v.schema as JsonObject).openAPIV3Schema as JSONSchemaProps)
      : undefined;
    const compiled = compileSchema(schema, { preserveUnknownFields });
    const rules = compileCELValidator(compiled.structural, true);
    const sub = (isObject(v.subresources) ? v.subresources : {}) as { status?: object; scale?: ScaleSpec };
    const subresources: { status?: object; scale?: ScaleSpec } = {};
    if (isObject(sub.status)) subresources.status = sub.status;
    if (isObject(sub.scale)) {
      const sc = sub.scale as Partial<ScaleSpec>;
      subresources.scale = {
        specReplicasPath: sc.specReplicasPath ?? '.spec.replicas',
        statusReplicasPath: sc.statusReplicasPath ?? '.status.replicas',
        ...(sc.labelSelectorPath ? { labelSelectorPath: sc.labelSelectorPath } : {}),
      };
    }
    const info: ResourceInfo = {
      group,
      version: name,
      resource: String(names.plural ?? ''),
      kind: String(names.kind ?? ''),
      listKind: String(names.listKind ?? `${String(names.kind ?? '')}List`),
      namespaced,
      singular: String(names.singular ?? String(names.kind ?? '').toLowerCase()),
    };
    const strategy = new CustomResourceStrategy({
      group,
      version: name,
      kind: info.kind,
      namespaced,
      subresources,
      selectableFields: Array.isArray(v.selectableFields) ? (v.selectableFields as { jsonPath: string }[]) : [],
      hooks: {
        validate: (obj: Obj, old?: Obj) => compiled.validateParts(obj, old),
        ...(rules === undefined ? {} : { validateRules: (obj: Obj, old: Obj | undefined, errs: readonly FieldError[]) => ruleErrors(rules, errs, obj, old) }),
      },
    });
    return {
      info,
      name,
      storage: v.storage === true,
      served: v.served === true,
      deprecated: v.deprecated === true,
      ...(typeof v.deprecationWarning === 'string' ? { deprecationWarning: v.deprecationWarning } : {}),
      schema,
      compiled,
      codec: schemaCodec(compiled),
      strategy,
      printerColumns: Array.isArray(v.additionalPrinterColumns) ? (v.additionalPrinterColumns as ColumnDefinition[]) : [],
      subresources,
      shortNames: Array.isArray(names.shortNames) ? (names.shortNames as string[]) : [],
      categories: Array.isArray(names.categories) ? (names.categories as string[]) : [],
    };
  });
}
