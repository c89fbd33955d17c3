/**
 * A custom resource's merge schema from its structural schema, as kube-apiserver builds it: the
 * structural schema is written as OpenAPI (apiextensions' `ToKubeOpenAPI`), the root and every
 * `x-kubernetes-embedded-resource` get `apiVersion`, `kind` and `metadata` (a reference to
 * ObjectMeta), and the result goes through schemaFromOpenAPI together with the built-in models
 * ObjectMeta needs. Without a schema every field is deduced.
 *
 * The structural node is described here by the fields read, so that this layer need not import
 * the schema layer above it; `Structural` from src/schema/structural.ts fits.
 */
import { schemaFromOpenAPI, type OpenAPISchema } from './from-openapi.ts';
import { deducedSchema, deducedTypeRef, type Schema, type TypeRef } from './schema.ts';

export interface StructuralNode {
  type: string;
  default?: unknown;
  nullable?: boolean;
  items?: StructuralNode;
  properties?: Map<string, StructuralNode>;
  additionalProperties?: { structural?: StructuralNode; bool: boolean };
  xPreserveUnknownFields: boolean;
  xEmbeddedResource: boolean;
  xIntOrString: boolean;
  xListType?: string;
  xListMapKeys?: string[];
  xMapType?: string;
  valueValidation?: { format: string };
}

export const objectMetaName = 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta';

const metadataRef: OpenAPISchema = { allOf: [{ $ref: `#/components/schemas/${objectMetaName}` }] };
const typeMetaProperty: OpenAPISchema = { type: 'string' };

/** Structural.ToKubeOpenAPI, limited to what the merge schema depends on. */
export function structuralToOpenAPI(s: StructuralNode): OpenAPISchema {
  const out: OpenAPISchema = {};
  if (s.type !== '') out.type = s.type;
  if (s.valueValidation?.format) out.format = s.valueValidation.format;
  if (s.default !== undefined) out.default = s.default;
  if (s.items !== undefined) out.items = structuralToOpenAPI(s.items);
  if (s.properties !== undefined) {
    out.properties = {};
    for (const [k, v] of s.properties) out.properties[k] = structuralToOpenAPI(v);
  }
  if (s.additionalProperties !== undefined) {
    out.additionalProperties = s.additionalProperties.structural !== undefined ? structuralToOpenAPI(s.additionalProperties.structural) : s.additionalProperties.bool;
  }
  if (s.xPreserveUnknownFields) out['x-kubernetes-preserve-unknown-fields'] = true;
  if (s.xEmbeddedResource) {
    out['x-kubernetes-embedded-resource'] = true;
    addKubeProperties(out);
  }
  if (s.xIntOrString) out['x-kubernetes-int-or-string'] = true;
  if (s.xListType !== undefined) out['x-kubernetes-list-type'] = s.xListType;
  if (s.xListMapKeys !== undefined) out['x-kubernetes-list-map-keys'] = s.xListMapKeys;
  if (s.xMapType !== undefined) out['x-kubernetes-map-type'] = s.xMapType;
  return out;
}

function addKubeProperties(o: OpenAPISchema): void {
  o.properties = { ...(o.properties ?? {}), apiVersion: typeMetaProperty, kind: typeMetaProperty, metadata: metadataRef };
}

export interface StructuralMergeSchemaOptions {
  /** The root type's name (kube-apiserver's is the reversed group, version and kind). */
  name: string;
  /** Built-in models: ObjectMeta and what it references (an OpenAPI v3 `components.schemas`). */
  components: Record<string, OpenAPISchema>;
  /** The CRD's `spec.preserveUnknownFields` (v1beta1 CRDs): every map takes unknown fields. */
  preserveUnknownFields?: boolean;
}

/** The merge schema and root type of a custom resource version. */
export function schemaFromStructural(root: StructuralNode | undefined, opts: StructuralMergeSchemaOptions): { schema: Schema; typeRef: TypeRef } {
  if (root === undefined) return { schema: deducedSchema, typeRef: deducedTypeRef };
  const top = structuralToOpenAPI(root);
  addKubeProperties(top);
  const models = { ...opts.components, [opts.name]: top };
  return { schema: schemaFromOpenAPI(models, opts.preserveUnknownFields === true), typeRef: { namedType: opts.name } };
}
