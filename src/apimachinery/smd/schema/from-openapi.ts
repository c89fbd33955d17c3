/**
 * OpenAPI to merge schema (k8s.io/kube-openapi `schemaconv.ToSchemaFromOpenAPI`): each model
 * becomes a named type; `type: object` a map (properties as fields, additionalProperties as the
 * element type, `x-kubernetes-map-type`), `type: array` a list (`x-kubernetes-list-type` and
 * `-list-map-keys`, or the older patch strategy and merge key), primitives scalars, and a schema
 * without a type the deduced atom (scalar, list and map at once). A field's `default` is kept: it
 * is what a missing list-map key takes. `$ref` (alone or as the single `allOf`) names a type.
 */
import type { Atom, ElementRelationship, ListType, MapType, Schema, StructField, TypeDef, TypeRef } from './schema.ts';

/** The part of an OpenAPI (v2 or v3) schema object the conversion reads. */
export interface OpenAPISchema {
  type?: string | string[];
  format?: string;
  $ref?: string;
  allOf?: OpenAPISchema[];
  properties?: Record<string, OpenAPISchema>;
  additionalProperties?: OpenAPISchema | boolean;
  items?: OpenAPISchema | OpenAPISchema[];
  default?: unknown;
  nullable?: boolean;
  [extension: `x-${string}`]: unknown;
}

/** A conversion error (schemaconv's messages joined by newlines). */
export class SchemaConversionError extends Error {}

const quantityResource = 'io.k8s.apimachinery.pkg.api.resource.Quantity';
const rawExtensionResource = 'io.k8s.apimachinery.pkg.runtime.RawExtension';
export const untypedName = '__untyped_atomic_';
export const deducedName = '__untyped_deduced_';

const untypedAtom = (): Atom => ({
  scalar: 'untyped',
  list: { elementType: { namedType: untypedName }, elementRelationship: 'atomic' },
  map: { elementType: { namedType: untypedName }, elementRelationship: 'atomic' },
});

const deducedAtom = (): Atom => ({
  scalar: 'untyped',
  list: { elementType: { namedType: untypedName }, elementRelationship: 'atomic' },
  map: { elementType: { namedType: deducedName }, elementRelationship: 'separable' },
});

class Converter {
  readonly errors: string[] = [];
  constructor(
    readonly preserveUnknownFields: boolean,
    readonly currentName: string,
  ) {}

  push(name: string, preserve = this.preserveUnknownFields): Converter {
    return new Converter(preserve, name);
  }

  pop(c: Converter): void {
    this.errors.push(...c.errors);
  }

  report(msg: string): void {
    this.errors.push(`${this.currentName}: ${msg}`);
  }

  visit(m: OpenAPISchema): Atom {
    const c = m['x-kubernetes-preserve-unknown-fields'] === true ? new Converter(true, this.currentName) : this;
    const a = c.parse(m);
    if (c !== this) this.pop(c);
    return a;
  }

  parse(m: OpenAPISchema): Atom {
    const typ = (Array.isArray(m.type) ? m.type[0] : m.type) ?? '';
    switch (typ) {
      case '':
        return { scalar: 'untyped', list: this.list(m), map: this.object(m) };
      case 'object':
        return { map: this.object(m) };
      case 'array':
        return { list: this.list(m) };
      case 'integer':
      case 'number':
        return { scalar: 'numeric' };
      case 'boolean':
        return { scalar: 'boolean' };
      case 'string':
        return { scalar: m.format === undefined || m.format === '' || m.format === 'byte' ? 'string' : 'untyped' };
      default:
        this.report(`unrecognized type: '${typ}'`);
        return { scalar: 'untyped' };
    }
  }

  ref(s: OpenAPISchema): TypeRef {
    let ref = s.$ref ?? '';
    if (ref === '' && s.allOf?.length === 1 && (s.allOf[0]!.$ref ?? '') !== '') ref = s.allOf[0]!.$ref!;
    const name = ref.slice(ref.lastIndexOf('/') + 1);
    if (name.length > 0) {
      const rel = this.mapRelationship(s);
      return rel !== undefined ? { namedType: name, elementRelationship: rel } : { namedType: name };
    }
    const c = this.push('inlined in ' + this.currentName);
    const atom = c.visit(s);
    this.pop(c);
    return { ...atom };
  }

  object(s: OpenAPISchema): MapType {
    const fields: StructField[] = [];
    for (const [name, member] of Object.entries(s.properties ?? {})) {
      const f: StructField = { name, type: this.ref(member) };
      if (member.default !== undefined && member.default !== null) f.default = member.default;
      fields.push(f);
    }
    let elementType: TypeRef | undefined;
    const ap = s.additionalProperties;
    if (ap === undefined) {
      if (this.preserveUnknownFields || Object.keys(s.properties ?? {}).length === 0) elementType = { namedType: deducedName };
    } else if (typeof ap === 'object') elementType = this.ref(ap);
    else if (ap === true) elementType = { namedType: deducedName };
    const m: MapType = {};
    if (fields.length > 0) m.fields = fields;
    if (elementType !== undefined) m.elementType = elementType;
    const rel = this.mapRelationship(s);
    if (rel !== undefined) m.elementRelationship = rel;
    return m;
  }

  list(s: OpenAPISchema): ListType {
    const { rel, keys } = this.listRelationship(s);
    let elementType: TypeRef;
    if (s.items !== undefined) {
      if (Array.isArray(s.items)) {
        this.report('structural schema arrays must have exactly one member subtype');
        elementType = { namedType: deducedName };
      } else elementType = this.ref(s.items);
    } else {
      const typ = Array.isArray(s.type) ? s.type[0] : s.type;
      if (typ !== undefined && typ !== '') this.report('`items` must be specified on arrays');
      elementType = { namedType: untypedName };
    }
    const l: ListType = { elementType, elementRelationship: rel };
    if (keys !== undefined) l.keys = keys;
    return l;
  }

  listRelationship(s: OpenAPISchema): { rel: ElementRelationship; keys?: string[] } {
    const lt = s['x-kubernetes-list-type'];
    if (lt !== undefined) {
      switch (lt) {
        case 'atomic':
          return { rel: 'atomic' };
        case 'set':
          return { rel: 'associative' };
        case 'map': {
          const keys = s['x-kubernetes-list-map-keys'];
          if (keys === undefined) {
            this.report('missing map keys');
            return { rel: 'associative' };
          }
          if (!Array.isArray(keys)) {
            this.report(`uninterpreted map keys: ${JSON.stringify(keys)}`);
            return { rel: 'associative' };
          }
          return { rel: 'associative', keys: keys.filter((k): k is string => typeof k === 'string') };
        }
        default:
          this.report(`unknown list type ${String(lt)}`);
          return { rel: 'atomic' };
      }
    }
    const ps = s['x-kubernetes-patch-strategy'];
    if (ps !== undefined) {
      switch (ps) {
        case 'merge':
        case 'merge,retainKeys': {
          const key = s['x-kubernetes-patch-merge-key'];
          if (key === undefined) return { rel: 'associative' };
          if (typeof key !== 'string') {
            this.report(`uninterpreted merge key: ${JSON.stringify(key)}`);
            return { rel: 'associative' };
          }
          return { rel: 'associative', keys: [key] };
        }
        case 'retainKeys':
          return { rel: 'atomic' };
        default:
          this.report(`unknown patch strategy ${String(ps)}`);
          return { rel: 'atomic' };
      }
    }
    return { rel: 'atomic' };
  }

  mapRelationship(s: OpenAPISchema): ElementRelationship | undefined {
    const mt = s['x-kubernetes-map-type'];
    if (mt === undefined) return undefined;
    if (mt === 'atomic') return 'atomic';
    if (mt === 'granular') return 'separable';
    this.report(`unknown map type ${String(mt)}`);
    return undefined;
  }
}

function isEmptyAtom(a: Atom): boolean {
  return a.scalar === undefined && a.list === undefined && a.map === undefined;
}

/**
 * ToSchemaFromOpenAPI: a merge schema with one named type per model (OpenAPI v3
 * `components.schemas`, or v2 `definitions`), plus the untyped and deduced types. With
 * preserveUnknownFields every map without additionalProperties takes unknown fields (deduced).
 * Throws SchemaConversionError listing every problem found.
 */
export function schemaFromOpenAPI(models: Record<string, OpenAPISchema>, preserveUnknownFields = false): Schema {
  const root = new Converter(preserveUnknownFields, '');
  const types: TypeDef[] = [];
  for (const name of Object.keys(models).sort()) {
    const spec = models[name]!;
    if ((spec.$ref ?? '') !== '') continue;
    let a: Atom;
    if (name === quantityResource) a = { scalar: 'untyped' };
    else if (name === rawExtensionResource) a = untypedAtom();
    else {
      const c = root.push(name);
      a = c.visit(spec);
      root.pop(c);
    }
    if (!isEmptyAtom(a)) types.push({ name, ...a });
  }
  if (root.errors.length > 0) throw new SchemaConversionError(root.errors.join('\n'));
  types.push({ name: untypedName, ...untypedAtom() }, { name: deducedName, ...deducedAtom() });
  return { types };
}
