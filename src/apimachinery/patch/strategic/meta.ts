/**
 * Where strategic merge patch learns how to merge a field: a "patch meta lookup" answers, for a
 * field of the object at hand, the field's own lookup and its patch strategies and merge key
 * (strategicpatch.LookupPatchMeta). One implementation reads kube-apiserver's OpenAPI v3
 * documents (strategicpatch.PatchMetaFromOpenAPIV3): `x-kubernetes-patch-strategy` and
 * `x-kubernetes-patch-merge-key` on the property, then through one `allOf` wrapper and one `$ref`
 * into `components.schemas`, with upstream's messages when a field is unknown.
 */
import { GoPanic, goTypeName } from './go-value.ts';
import { unclassified } from './errors.ts';

/** A field's patch strategies (`merge`, `replace`, `retainKeys`, comma-separated upstream) and merge key. */
export interface PatchMeta {
  readonly strategies: readonly string[];
  readonly mergeKey: string;
}

export interface LookupResult {
  readonly schema: PatchMetaLookup;
  readonly meta: PatchMeta;
}

/**
 * The schema source of a strategic merge patch. Both lookups throw StrategicMergePatchError for a
 * field they cannot answer for.
 */
export interface PatchMetaLookup {
  /** The field `key` of this object, whose value is an object. */
  lookupPatchMetadataForStruct(key: string): LookupResult;
  /** The field `key` of this object, whose value is a list: the lookup is for its items. */
  lookupPatchMetadataForSlice(key: string): LookupResult;
  /** The type's name, as messages print it (`cannot merge lists without merge key for object`). */
  name(): string;
}

/** The parts of an OpenAPI v3 schema object this reads. */
export interface OpenAPISchema {
  type?: string | string[];
  properties?: Record<string, OpenAPISchema>;
  items?: OpenAPISchema | OpenAPISchema[];
  allOf?: OpenAPISchema[];
  $ref?: string;
  'x-kubernetes-patch-merge-key'?: unknown;
  'x-kubernetes-patch-strategy'?: unknown;
  'x-kubernetes-group-version-kind'?: Array<{ group?: string; version?: string; kind?: string }>;
  [k: string]: unknown;
}

/** An OpenAPI v3 document as kube-apiserver serves one at /openapi/v3/{group}/{version}. */
export interface OpenAPIDocument {
  components?: { schemas?: Record<string, OpenAPISchema> };
}

const refPrefix = '#/components/schemas/';
const nilDeref = () => new GoPanic('invalid memory address or nil pointer dereference');

function extensionString(v: unknown): string {
  if (typeof v === 'string') return v;
  throw new GoPanic(`interface conversion: interface {} is ${v === null ? 'nil' : goTypeName(v)}, not string`);
}

function patchMetaOf(s: OpenAPISchema): PatchMeta {
  const mk = Object.hasOwn(s, 'x-kubernetes-patch-merge-key') ? extensionString(s['x-kubernetes-patch-merge-key']) : '';
  const ps = Object.hasOwn(s, 'x-kubernetes-patch-strategy') ? extensionString(s['x-kubernetes-patch-strategy']).split(',') : [];
  return { strategies: ps, mergeKey: mk };
}

/** strategicpatch.PatchMetaFromOpenAPIV3: `schemas` resolves `$ref`s, `schema` is the type at hand. */
export class OpenAPIV3PatchMeta implements PatchMetaLookup {
  constructor(
    readonly schemas: Readonly<Record<string, OpenAPISchema>>,
    readonly schema: OpenAPISchema | undefined,
  ) {}

  /** The lookup for the kind that `x-kubernetes-group-version-kind` names in `doc`, if any. */
  static forKind(doc: OpenAPIDocument, gvk: { group: string; version: string; kind: string }): OpenAPIV3PatchMeta | undefined {
    const schemas = doc.components?.schemas ?? {};
    for (const s of Object.values(schemas)) {
      const gvks = s['x-kubernetes-group-version-kind'];
      if (!Array.isArray(gvks)) continue;
      if (gvks.some((g) => (g.group ?? '') === gvk.group && g.version === gvk.version && g.kind === gvk.kind)) {
        return new OpenAPIV3PatchMeta(schemas, s);
      }
    }
    return undefined;
  }

  /** The lookup for `components.schemas[name]` of `doc`, if it exists. */
  static forSchema(doc: OpenAPIDocument, name: string): OpenAPIV3PatchMeta | undefined {
    const schemas = doc.components?.schemas ?? {};
    return Object.hasOwn(schemas, name) ? new OpenAPIV3PatchMeta(schemas, schemas[name]) : undefined;
  }

  private traverse(key: string): OpenAPISchema {
    // Upstream answers an empty lookup for a nil schema and then dereferences it.
    if (this.schema === undefined) throw nilDeref();
    const props = this.schema.properties;
    if (props === undefined || Object.keys(props).length === 0 || !Object.hasOwn(props, key)) {
      throw unclassified(`unable to find api field "${key}"`);
    }
    return props[key]!;
  }

  private resolve(s: OpenAPISchema | undefined): OpenAPIV3PatchMeta {
    if (s === undefined) throw nilDeref();
    if (Array.isArray(s.allOf) && s.allOf.length > 0) s = s.allOf[0]!;
    const ref = typeof s.$ref === 'string' ? s.$ref : '';
    if (ref !== '') {
      const name = ref.startsWith(refPrefix) ? ref.slice(refPrefix.length) : ref;
      if (!Object.hasOwn(this.schemas, name)) throw unclassified(`unable to resolve ${ref} in OpenAPI V3`);
      s = this.schemas[name]!;
    }
    return new OpenAPIV3PatchMeta(this.schemas, s);
  }

  lookupPatchMetadataForStruct(key: string): LookupResult {
    const s = this.traverse(key);
    const meta = patchMetaOf(s);
    return { schema: this.resolve(s), meta };
  }

  lookupPatchMetadataForSlice(key: string): LookupResult {
    const s = this.traverse(key);
    const meta = patchMetaOf(s);
    // An `items` array (a tuple) has no single schema: upstream then holds a nil one.
    const items = s.items === undefined ? s : Array.isArray(s.items) ? undefined : s.items;
    return { schema: this.resolve(items), meta };
  }

  name(): string {
    if (this.schema === undefined) throw nilDeref();
    const t = this.schema.type;
    if (typeof t === 'string' && t !== '') return t;
    if (Array.isArray(t) && t.length > 0) return t.join('');
    return 'Struct';
  }
}
