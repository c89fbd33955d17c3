/**
 * The schemas mutations are merged and defaulted with, per matched kind (the type converter
 * manager of k8s.io/apiserver's mutating/patch, and the defaulting the dispatcher re-applies after
 * each policy): built-in kinds from their OpenAPI documents; custom resources from their CRD's
 * structural schema — the merge schema server-side apply uses for them, and the CRD's defaults —
 * compiled once per CRD generation; a kind neither knows is merged by deduction.
 */
import { deducedTypeConverter, newTypeConverter, schemaFromStructural, type StructuralNode, type TypeConverter } from '../../../apimachinery/index.ts';
import { builtinTypeConverter, defaultsOf, objectMetaModels, resourcePrefix, type Obj } from '../../../registry/index.ts';
import { compileSchema } from '../../../schema/index.ts';
import type { Store } from '../../../storage/index.ts';
import { objectCache, type ObjectCache } from '../../informer.ts';
import type { GVK, GVR } from '../matching.ts';

export interface KindSchema {
  typeConverter: TypeConverter;
  /** Applies the kind's defaults (MUTATES obj); absent where defaults are not schema-driven here. */
  default?: (obj: Obj) => void;
}

const isObject = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

export class KindSchemas {
  private readonly crds: ObjectCache;
  // By CRD object and version: the cache replaces the object when the CRD changes.
  private readonly compiled = new WeakMap<object, Map<string, KindSchema>>();
  readonly synced: Promise<void>;

  constructor(store: Store) {
    this.crds = objectCache(store, resourcePrefix('apiextensions.k8s.io', 'customresourcedefinitions'));
    this.synced = this.crds.synced;
  }

  private customResource(kind: GVK): KindSchema | undefined {
    for (const [, crd] of this.crds.entries()) {
      const spec = isObject(crd.spec) ? crd.spec : {};
      const names = isObject(spec.names) ? spec.names : {};
      if (spec.group !== kind.group || names.kind !== kind.kind) continue;
      const versions = Array.isArray(spec.versions) ? (spec.versions as Obj[]) : [];
      const v = versions.find((x) => x.name === kind.version);
      if (v === undefined) return undefined;
      let byVersion = this.compiled.get(crd);
      if (byVersion === undefined) this.compiled.set(crd, (byVersion = new Map()));
      const cached = byVersion.get(kind.version);
      if (cached !== undefined) return cached;
      const openAPI = isObject(v.schema) && isObject(v.schema.openAPIV3Schema) ? v.schema.openAPIV3Schema : undefined;
      const preserveUnknownFields = spec.preserveUnknownFields === true;
      const compiled = compileSchema(openAPI as never, { preserveUnknownFields });
      // Named as server-side apply names a custom resource's root type.
      const name = [...kind.group.split('.').reverse(), kind.version, kind.kind].join('.');
      const { schema, typeRef } = schemaFromStructural(compiled.structural as StructuralNode | undefined, { name, components: objectMetaModels(), preserveUnknownFields });
      const apiVersion = `${kind.group}/${kind.version}`;
      const ks: KindSchema = {
        typeConverter: newTypeConverter(schema, new Map([[`${apiVersion}/${kind.kind}`, typeRef]])),
        default: (obj) => compiled.default(obj),
      };
      byVersion.set(kind.version, ks);
      return ks;
    }
    return undefined;
  }

  /** The schema of `kind`, served as `resource`. */
  get(kind: GVK, resource: GVR): KindSchema {
    const cr = this.customResource(kind);
    if (cr !== undefined) return cr;
    try {
      const tc = builtinTypeConverter(kind.group, kind.version);
      // A kind the group-version does not declare is typed by deduction.
      tc.objectToTyped({ apiVersion: kind.group === '' ? kind.version : `${kind.group}/${kind.version}`, kind: kind.kind });
      const defaults = defaultsOf(resource.group, resource.version, resource.resource);
      return defaults === undefined ? { typeConverter: tc } : { typeConverter: tc, default: defaults };
    } catch {
      return { typeConverter: deducedTypeConverter };
    }
  }

  stop(): void {
    this.crds.stop();
  }
}
