/**
 * A built-in kind's schema for the project's schema engine, made from its OpenAPI v3 component:
 * `$ref`s inlined (a reference back into its own ancestry, which no stored kind has, accepts any
 * value), single-element `allOf` wrappers merged, and the types Go decodes specially given their
 * decoding's shape: IntOrString is int-or-string, Quantity any scalar, an object with no declared
 * fields (RawExtension, FieldsV1) any object. The root `metadata` is decoded as ObjectMeta by the
 * codec, as for custom resources. Descriptions and OpenAPI defaults are left out: the served
 * document keeps the descriptions, and defaulting is the kind's own (its Go defaulters).
 */
import type { JSONSchemaProps } from '../../schema/index.ts';
import type { OpenAPIDocument } from './openapi.ts';

type Node = Record<string, unknown>;

/** What the schema engine reads of a node; the rest (descriptions, patch strategies, ...) is dropped. */
const kept = new Set([
  'type',
  'format',
  'required',
  'enum',
  'maximum',
  'minimum',
  'exclusiveMaximum',
  'exclusiveMinimum',
  'maxLength',
  'minLength',
  'pattern',
  'maxItems',
  'minItems',
  'uniqueItems',
  'multipleOf',
  'maxProperties',
  'minProperties',
  'nullable',
  'x-kubernetes-list-type',
  'x-kubernetes-list-map-keys',
  'x-kubernetes-map-type',
]);

const quantity = 'io.k8s.apimachinery.pkg.api.resource.Quantity';
const intOrString = 'io.k8s.apimachinery.pkg.util.intstr.IntOrString';

/** The engine's schema for the kind whose component is `name` in `doc`. */
export function kindSchema(doc: OpenAPIDocument, name: string): JSONSchemaProps {
  const schemas = doc.components.schemas;
  const convert = (node: Node, ancestry: ReadonlySet<string>): JSONSchemaProps => {
    let n = node;
    let refName: string | undefined;
    const ref = typeof n.$ref === 'string' ? n.$ref : Array.isArray(n.allOf) && n.allOf.length === 1 ? (n.allOf[0] as Node).$ref : undefined;
    if (typeof ref === 'string') {
      refName = ref.replace('#/components/schemas/', '');
      if (ancestry.has(refName)) return { 'x-kubernetes-preserve-unknown-fields': true };
      n = { ...(schemas[refName] ?? {}), ...Object.fromEntries(Object.entries(n).filter(([k]) => k !== '$ref' && k !== 'allOf')) };
    }
    if (refName === quantity) return { 'x-kubernetes-preserve-unknown-fields': true };
    if (refName === intOrString || n.format === 'int-or-string') return { 'x-kubernetes-int-or-string': true };
    const inner = refName === undefined ? ancestry : new Set([...ancestry, refName]);
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(n)) if (kept.has(k)) out[k] = v;
    const props = n.properties as Record<string, Node> | undefined;
    if (props) {
      const p: Record<string, JSONSchemaProps> = {};
      for (const [k, v] of Object.entries(props)) p[k] = convert(v, inner);
      out.properties = p;
    }
    const ap = n.additionalProperties;
    if (ap !== null && typeof ap === 'object') out.additionalProperties = convert(ap as Node, inner);
    else if (typeof ap === 'boolean') out.additionalProperties = ap;
    if (n.items !== null && typeof n.items === 'object') out.items = convert(n.items as Node, inner);
    // A required number or boolean is a Go value field: decoding an object without it gives its
    // zero value, which is what kube-apiserver then validates (status.replicas: 0), not an absence.
    if (Array.isArray(out.required) && out.properties) {
      const p = out.properties as Record<string, JSONSchemaProps>;
      const required = (out.required as string[]).filter((f) => !['integer', 'number', 'boolean'].includes(String(p[f]?.type)));
      if (required.length > 0) out.required = required;
      else delete out.required;
    }
    // Fields Go decodes as raw JSON (RawExtension, FieldsV1, JSON): an object of any shape.
    if (out.type === 'object' && !props && ap === undefined) out['x-kubernetes-preserve-unknown-fields'] = true;
    return out as JSONSchemaProps;
  };
  const root = convert(schemas[name] ?? {}, new Set([name]));
  // The root ObjectMeta is the codec's (as for custom resources): only its shape is checked here.
  if (root.properties?.metadata) root.properties.metadata = { type: 'object' };
  return root;
}
