/**
 * The definitions of a CRD's custom resources: one KindDefinition per served version of an
 * Established CRD (as apiextensions' crdHandler serves them), each with the version's compiled
 * strategy and codec, its printer columns, status and scale subresources, and a store that writes
 * every version in the storage version: conversion None sets apiVersion in the generic store;
 * conversion Webhook puts a converting view of the storage under it (./conversion/), converts dry
 * runs the same way, and hands admission its converter for plugins matching another version.
 */
import { GenericStore } from '../generic-store.ts';
import { scaleSubresource, ownSubresource, type KindDefinition, type KindDeps, type KindSubresource } from '../kind.ts';
import { servedVersions } from '../crd/serving.ts';
import type { Obj } from '../rest.ts';
import { crdTableConvertor } from '../table/convert.ts';
import { customResourceScale, ScaleStore } from './scale.ts';
import { FieldManagers } from '../field-managers.ts';
import { objectMetaModels } from '../builtin/merge-schema.ts';
import { newSchemasTypeConverter, RequestConversions, schemaFromStructural, type StructuralNode, type TypeConverter } from '../../apimachinery/index.ts';
import type { ServedVersion } from '../crd/serving.ts';
import { defaultDeprecationWarning } from './deprecation.ts';
import { webhookConversionOf, type CustomResourceDeps } from './conversion/for-crd.ts';
import { convertingStore } from './conversion/converting-store.ts';

/** The verbs every custom resource serves, in the order kube-apiserver lists them. */
const verbs = ['delete', 'deletecollection', 'get', 'list', 'patch', 'create', 'update', 'watch'];

/** The served versions of `crd` as kind definitions (throws if a schema cannot compile). */
export function customResourceKinds(crd: Obj, deps: KindDeps & CustomResourceDeps, opts: { terminating?: boolean } = {}): KindDefinition[] {
  const versions = servedVersions(crd);
  const storage = versions.find((v) => v.storage) ?? versions[0];
  const storageVersion = storage?.name ?? '';
  const webhook = webhookConversionOf(crd, deps.conversionWebhooks);
  // Admission plugins matching another version see the object as the webhook converts it.
  const admissionConvertor = webhook && {
    convert: async (o: Obj, toAPIVersion: string) => (await webhook.convert([o], toAPIVersion, false))[0]!,
  };
  // One type converter for every version, as managers' entries may be at any of them.
  let typeConverter: TypeConverter | undefined;
  const typeConverterOf = () => (typeConverter ??= customResourceTypeConverter(versions, crd));
  const out: KindDefinition[] = [];
  for (const v of versions) {
    if (!v.served) continue;
    const { group, kind } = v.info;
    const conversions = admissionConvertor && new RequestConversions(admissionConvertor.convert);
    const fieldManagers = customResourceFieldManagers(v, typeConverterOf, conversions);
    // Under webhook conversion the generic store sees one version; the view below it converts.
    const view =
      webhook && storage
        ? convertingStore(deps.store, {
            servedAPIVersion: `${group}/${v.name}`,
            storageAPIVersion: `${group}/${storageVersion}`,
            converter: webhook,
            coerceForStorage: (o) => void storage.compiled.prune(o, { isResourceRoot: true, dropInvalidMetadata: true }),
          })
        : undefined;
    const store = new GenericStore({
      store: view ?? deps.store,
      info: v.info,
      strategy: v.strategy,
      codec: v.codec,
      admission: deps.admission,
      storageVersion: view ? v.name : storageVersion,
      fieldManagers,
      unstructured: true,
      ...(view ? { dryRunCopy: (stored: string) => view.copyInto(stored), admissionConvertor } : {}),
    });
    const subresources: KindSubresource[] = [];
    if (v.subresources.status) subresources.push(ownSubresource('status', { group, version: v.name, kind }, ['get', 'patch', 'update']));
    if (v.subresources.scale) subresources.push(scaleSubresource);
    const def: KindDefinition = {
      group,
      version: v.name,
      resource: v.info.resource,
      kind,
      listKind: v.info.listKind,
      singular: v.info.singular ?? kind.toLowerCase(),
      namespaced: v.info.namespaced,
      verbs,
      shortNames: v.shortNames,
      categories: v.categories,
      subresources,
      storageVersion,
      store,
      table: crdTableConvertor(v.printerColumns),
      strategicMerge: false,
      protobuf: false,
      custom: true,
    };
    if (v.subresources.scale) def.scale = new ScaleStore(store, customResourceScale(v.subresources.scale));
    if (v.schema) def.schema = v.schema as Record<string, unknown>;
    if (v.deprecated) def.deprecationWarning = v.deprecationWarning ?? defaultDeprecationWarning(v.name, group, kind, versions);
    if (opts.terminating) def.terminating = true;
    out.push(def);
  }
  return out;
}

/**
 * The field managers of a custom resource version (NewDefaultCRDFieldManager) over the CRD's type
 * converter; with webhook conversion, objects are converted to other managers' versions by the
 * webhook (NewCRDVersionConverter over the CRD's converter), otherwise by setting apiVersion.
 */
function customResourceFieldManagers(v: ServedVersion, typeConverter: () => TypeConverter, conversions: RequestConversions | undefined): FieldManagers {
  const { group, kind } = v.info;
  return new FieldManagers({
    apiVersion: `${group}/${v.name}`,
    kind,
    hasStatus: v.subresources.status !== undefined,
    typeConverter,
    ...(conversions ? { conversions } : {}),
  });
}

/**
 * The merge schemas of every version of a CRD (buildOpenAPIModelsForApply): each version's
 * structural schema with ObjectMeta, named as kube-apiserver names it (the reversed group, the
 * version, the kind), built when the first object is written.
 */
function customResourceTypeConverter(versions: readonly ServedVersion[], crd: Obj): TypeConverter {
  const spec = (crd.spec ?? {}) as Obj;
  const types = new Map<string, { schema: ReturnType<typeof schemaFromStructural>['schema']; typeRef: ReturnType<typeof schemaFromStructural>['typeRef'] }>();
  for (const v of versions) {
    const { group, kind } = v.info;
    const name = [...group.split('.').reverse(), v.name, kind].join('.');
    const built = schemaFromStructural(v.compiled.structural as StructuralNode | undefined, {
      name,
      components: objectMetaModels(),
      preserveUnknownFields: spec.preserveUnknownFields === true,
    });
    types.set(`${group}/${v.name}/${kind}`, built);
  }
  return newSchemasTypeConverter(types);
}
