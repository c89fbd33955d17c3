/**
 * The JSON fields of apiextensions.k8s.io/v1 CustomResourceDefinition, as its Go types declare
 * them: what the typed decoder keeps. A field the types do not have is an unknown field, which
 * strict decoding (sigs.k8s.io/json) reports by its path (`spec.versions[0].schemas`: struct
 * fields and map keys joined with '.', list indices in brackets, in the order met) and which
 * decoding drops either way.
 *
 * As upstream, fields with their own JSON unmarshaling decode their value leniently: a schema
 * under `items`, `additionalProperties`, `additionalItems` or `dependencies` loses its unknown
 * fields without a report, and `default`, `example` and `enum` hold any JSON.
 */
import { managedFieldsFields, objectMetaFields, ownerReferenceFields } from '../../schema/objectmeta.ts';

type GoType =
  | { k: 'struct'; fields: ReadonlyMap<string, GoType> }
  | { k: 'list'; elem: GoType }
  | { k: 'map'; elem: GoType }
  /** A field with its own unmarshaling, decoding `t` leniently when the value is an object (or list). */
  | { k: 'lenient'; t: GoType }
  /** A scalar or any JSON: nothing below it is checked. */
  | { k: 'leaf' };

const leaf: GoType = { k: 'leaf' };
const list = (elem: GoType): GoType => ({ k: 'list', elem });
const map = (elem: GoType): GoType => ({ k: 'map', elem });
const struct = (fields: Record<string, GoType>): { k: 'struct'; fields: Map<string, GoType> } => ({ k: 'struct', fields: new Map(Object.entries(fields)) });

/** A struct whose fields are all leaves. */
const leaves = (...names: Iterable<string>[]) => struct(Object.fromEntries(names.flatMap((n) => [...n]).map((n) => [n, leaf])));

const names = struct({ plural: leaf, singular: leaf, shortNames: leaf, kind: leaf, listKind: leaf, categories: leaf });

// JSONSchemaProps refers to itself through properties, allOf/oneOf/anyOf, not, patternProperties
// and definitions: its field map is filled in after it exists.
const schemaFields = new Map<string, GoType>();
const schema: GoType = { k: 'struct', fields: schemaFields };
for (const n of [
  'id', '$schema', '$ref', 'description', 'type', 'format', 'title', 'default', 'maximum', 'exclusiveMaximum', 'minimum',
  'exclusiveMinimum', 'maxLength', 'minLength', 'pattern', 'maxItems', 'minItems', 'uniqueItems', 'multipleOf', 'enum',
  'maxProperties', 'minProperties', 'required', 'example', 'nullable', 'x-kubernetes-preserve-unknown-fields',
  'x-kubernetes-embedded-resource', 'x-kubernetes-int-or-string', 'x-kubernetes-list-map-keys', 'x-kubernetes-list-type',
  'x-kubernetes-map-type',
]) {
  schemaFields.set(n, leaf);
}
// JSONSchemaPropsOrArray, JSONSchemaPropsOrBool, JSONSchemaPropsOrStringArray.
for (const n of ['items', 'additionalProperties', 'additionalItems']) schemaFields.set(n, { k: 'lenient', t: schema });
schemaFields.set('dependencies', map({ k: 'lenient', t: schema }));
for (const n of ['allOf', 'oneOf', 'anyOf']) schemaFields.set(n, list(schema));
schemaFields.set('not', schema);
for (const n of ['properties', 'patternProperties', 'definitions']) schemaFields.set(n, map(schema));
schemaFields.set('externalDocs', leaves(['description', 'url']));
schemaFields.set('x-kubernetes-validations', list(leaves(['rule', 'message', 'messageExpression', 'reason', 'fieldPath', 'optionalOldSelf'])));

const version = struct({
  name: leaf,
  served: leaf,
  storage: leaf,
  deprecated: leaf,
  deprecationWarning: leaf,
  schema: struct({ openAPIV3Schema: schema }),
  subresources: struct({ status: struct({}), scale: leaves(['specReplicasPath', 'statusReplicasPath', 'labelSelectorPath']) }),
  additionalPrinterColumns: list(leaves(['name', 'type', 'format', 'description', 'priority', 'jsonPath'])),
  selectableFields: list(leaves(['jsonPath'])),
});

const conversion = struct({
  strategy: leaf,
  webhook: struct({
    clientConfig: struct({ url: leaf, service: leaves(['namespace', 'name', 'path', 'port']), caBundle: leaf }),
    conversionReviewVersions: leaf,
  }),
});

const objectMeta = leaves(objectMetaFields);
objectMeta.fields.set('ownerReferences', list(leaves(ownerReferenceFields)));
objectMeta.fields.set('managedFields', list(leaves(managedFieldsFields)));

const crd = struct({
  apiVersion: leaf,
  kind: leaf,
  metadata: objectMeta,
  spec: struct({ group: leaf, names, scope: leaf, versions: list(version), conversion, preserveUnknownFields: leaf }),
  status: struct({
    conditions: list(leaves(['type', 'status', 'lastTransitionTime', 'reason', 'message', 'observedGeneration'])),
    acceptedNames: names,
    storedVersions: leaf,
    observedGeneration: leaf,
  }),
});

/**
 * Drops the fields of a CustomResourceDefinition (as JSON) that its Go types do not have, and
 * returns the paths of those strict decoding reports, in the order met.
 */
export function dropUnknownCRDFields(obj: Record<string, unknown>): string[] {
  const out: string[] = [];
  walk(obj, crd, '', out, false);
  return out;
}

/** `lenient`: below a field with its own unmarshaling, unknown fields are dropped unreported. */
function walk(v: unknown, t: GoType, path: string, out: string[], lenient: boolean): void {
  if (v === null || typeof v !== 'object') return;
  switch (t.k) {
    case 'struct': {
      if (Array.isArray(v)) return;
      const o = v as Record<string, unknown>;
      for (const k of Object.keys(o)) {
        const p = path === '' ? k : `${path}.${k}`;
        const ft = t.fields.get(k);
        if (ft !== undefined) walk(o[k], ft, p, out, lenient);
        else {
          if (!lenient) out.push(p);
          delete o[k];
        }
      }
      return;
    }
    case 'list':
      if (Array.isArray(v)) v.forEach((e, i) => walk(e, t.elem, `${path}[${i}]`, out, lenient));
      return;
    case 'map':
      if (!Array.isArray(v)) for (const [k, e] of Object.entries(v)) walk(e, t.elem, `${path}.${k}`, out, lenient);
      return;
    case 'lenient':
      // A schema, or a list of schemas (items), or of strings (dependencies).
      if (Array.isArray(v)) v.forEach((e) => walk(e, t.t, path, out, true));
      else walk(v, t.t, path, out, true);
      return;
  }
}
