/**
 * Go's decoding of a built-in kind's JSON into its Go type, as far as its errors reach clients:
 * kube-apiserver decodes a body with sigs.k8s.io/json (encoding/json's decoder) into the kind's
 * struct, and a value of the wrong JSON type fails the request with the decoder's error
 * (`json: cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas of type
 * int32`), not with a schema error. The Go types are read from the kind's OpenAPI component:
 * `$ref`s are structs (named after the component, in their package), arrays slices, objects with
 * additionalProperties maps, and the types with their own unmarshaling (IntOrString, Quantity,
 * Time, RawExtension, ...) judged as their UnmarshalJSON methods judge.
 *
 * As encoding/json: fields are met in document order; a type error is saved with its context
 * (the innermost struct's name, and the path of struct fields from the root: map keys and list
 * indices are not in it) and decoding goes on, the first one reported at the end; an
 * UnmarshalJSON method's error stops decoding at once and is reported bare, even over a saved
 * one. Named Go types the OpenAPI does not name (`v1.RestartPolicy` is a string there) are
 * reported as their underlying type.
 *
 * A Quantity is also rewritten (MUTATING the object) into the canonical string its Go value
 * encodes back to (`1000m` is stored as `1`, `0.5` as `500m`), as an object read back from a
 * cluster shows it; so are Times (UTC, whole seconds) and MicroTimes (UTC, six digits).
 */
import { formatMicroTime, formatRFC3339, goJSONKind as jsonKind, parseRFC3339, parseRFC3339Micro } from '../../apimachinery/index.ts';
import { canonicalQuantityText } from '../../cel/index.ts';
import type { OpenAPIDocument } from './openapi.ts';

type GoType =
  | { k: 'struct'; name: string; pkg: string; fields: Map<string, GoType> }
  | { k: 'slice'; elem: GoType }
  | { k: 'map'; elem: GoType }
  | { k: 'scalar'; go: 'string' | 'int32' | 'int64' | 'float64' | 'bool' | '[]uint8' }
  | { k: 'intOrString' }
  | { k: 'quantity' }
  | { k: 'time' }
  | { k: 'microTime' }
  /** Raw JSON (RawExtension, FieldsV1, a field of no declared type): anything decodes. */
  | { k: 'any' };

type Node = Record<string, unknown>;

const anyType: GoType = { k: 'any' };
const ownUnmarshaling: Record<string, GoType> = {
  'io.k8s.apimachinery.pkg.util.intstr.IntOrString': { k: 'intOrString' },
  'io.k8s.apimachinery.pkg.api.resource.Quantity': { k: 'quantity' },
  'io.k8s.apimachinery.pkg.apis.meta.v1.Time': { k: 'time' },
  'io.k8s.apimachinery.pkg.apis.meta.v1.MicroTime': { k: 'microTime' },
  'io.k8s.apimachinery.pkg.runtime.RawExtension': anyType,
  'io.k8s.apimachinery.pkg.apis.meta.v1.FieldsV1': anyType,
};

const refName = (n: Node): string | undefined => {
  const ref = typeof n.$ref === 'string' ? n.$ref : Array.isArray(n.allOf) && n.allOf.length === 1 ? (n.allOf[0] as Node).$ref : undefined;
  return typeof ref === 'string' ? ref.replace('#/components/schemas/', '') : undefined;
};

/** The Go types of one document's components, built once per component (recursive types share theirs). */
class GoTypes {
  private readonly byName = new Map<string, GoType>();
  constructor(private readonly doc: OpenAPIDocument) {}

  component(name: string): GoType {
    const own = ownUnmarshaling[name];
    if (own) return own;
    let t = this.byName.get(name);
    if (t) return t;
    const schema = (this.doc.components.schemas[name] ?? {}) as Node;
    const segs = name.split('.');
    if (schema.type !== 'object' || schema.properties === undefined) {
      // A component of no fields (or a scalar alias): its JSON as the node says.
      t = schema.properties === undefined && schema.type === 'object' && schema.additionalProperties === undefined ? anyType : this.of(schema);
      this.byName.set(name, t);
      return t;
    }
    const s: GoType = { k: 'struct', name: segs[segs.length - 1]!, pkg: segs[segs.length - 2] ?? '', fields: new Map() };
    this.byName.set(name, s);
    for (const [k, v] of Object.entries(schema.properties as Record<string, Node>)) s.fields.set(k, this.of(v));
    return s;
  }

  of(n: Node): GoType {
    const ref = refName(n);
    if (ref !== undefined) return this.component(ref);
    switch (n.type) {
      case 'string':
        return { k: 'scalar', go: n.format === 'byte' ? '[]uint8' : 'string' };
      case 'integer':
        return { k: 'scalar', go: n.format === 'int32' ? 'int32' : 'int64' };
      case 'number':
        return { k: 'scalar', go: 'float64' };
      case 'boolean':
        return { k: 'scalar', go: 'bool' };
      case 'array':
        return n.items !== null && typeof n.items === 'object' ? { k: 'slice', elem: this.of(n.items as Node) } : anyType;
      case 'object':
        if (n.additionalProperties !== null && typeof n.additionalProperties === 'object') return { k: 'map', elem: this.of(n.additionalProperties as Node) };
        return anyType;
    }
    return anyType;
  }
}

function typeString(t: GoType): string {
  switch (t.k) {
    case 'struct':
      return `${t.pkg}.${t.name}`;
    case 'slice':
      return `[]${typeString(t.elem)}`;
    case 'map':
      return `map[string]${typeString(t.elem)}`;
    case 'scalar':
      return t.go;
    case 'intOrString':
      return 'intstr.IntOrString';
    case 'quantity':
      return 'resource.Quantity';
    case 'time':
      return 'v1.Time';
    case 'microTime':
      return 'v1.MicroTime';
    case 'any':
      return 'interface {}';
  }
}

/** An UnmarshalJSON method's error: decoding stops there. */
class UnmarshalerError extends Error {}

const ranges = { int32: [-(2 ** 31), 2 ** 31 - 1], int64: [Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER] } as const;

/** The value's kind as the error names it when it does not fit `go` ('' when it fits). */
function misfit(v: unknown, go: Extract<GoType, { k: 'scalar' }>['go']): string {
  switch (go) {
    case 'string':
    case '[]uint8':
      return typeof v === 'string' ? '' : jsonKind(v);
    case 'bool':
      return typeof v === 'boolean' ? '' : jsonKind(v);
    case 'float64':
      return typeof v === 'number' ? '' : jsonKind(v);
    case 'int32':
    case 'int64': {
      if (typeof v !== 'number') return jsonKind(v);
      const [lo, hi] = ranges[go];
      return Number.isInteger(v) && v >= lo && v <= hi ? '' : `number ${String(v)}`;
    }
  }
}

const quantityFormat = "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";

/**
 * Quantity.UnmarshalJSON, then its MarshalJSON: the canonical string of a JSON string or number
 * (null is left as it is); ParseQuantity's error, bare, for anything else.
 */
function canonicalQuantity(v: unknown): unknown {
  if (v === null || v === undefined) return v;
  if (typeof v !== 'string' && typeof v !== 'number') throw new UnmarshalerError(quantityFormat);
  const text = canonicalQuantityText(typeof v === 'string' ? v.trim() : String(v));
  if (text instanceof Error) throw new UnmarshalerError(text.message);
  return text;
}

/**
 * Time.UnmarshalJSON (RFC 3339) or MicroTime.UnmarshalJSON (six fractional digits required),
 * then MarshalJSON: the string a cluster stores; null is left as it is.
 */
function canonicalTime(v: unknown, k: 'time' | 'microTime'): unknown {
  if (v === null || v === undefined) return v;
  if (typeof v !== 'string') throw new UnmarshalerError(`json: cannot unmarshal ${jsonKind(v)} into Go value of type string`);
  const r = k === 'time' ? parseRFC3339(v) : parseRFC3339Micro(v);
  if (!r.ok) throw new UnmarshalerError(r.error);
  return k === 'time' ? formatRFC3339(r.epochMs) : formatMicroTime(r);
}

interface Context {
  saved?: string;
  struct?: string;
  fields: string[];
}

function save(ctx: Context, value: string, t: GoType): void {
  if (ctx.saved !== undefined) return;
  ctx.saved =
    ctx.struct !== undefined || ctx.fields.length > 0
      ? `json: cannot unmarshal ${value} into Go struct field ${ctx.struct ?? ''}.${ctx.fields.join('.')} of type ${typeString(t)}`
      : `json: cannot unmarshal ${value} into Go value of type ${typeString(t)}`;
}

function decode(v: unknown, t: GoType, ctx: Context): void {
  switch (t.k) {
    case 'any':
      return;
    case 'intOrString':
      // IntOrString.UnmarshalJSON: a string, else an int32 (bare error: no field context).
      if (v === null || typeof v === 'string') return;
      if (typeof v === 'number' && Number.isInteger(v) && v >= ranges.int32[0] && v <= ranges.int32[1]) return;
      throw new UnmarshalerError(`json: cannot unmarshal ${typeof v === 'number' ? `number ${String(v)}` : jsonKind(v)} into Go value of type int32`);
    case 'quantity':
      // Reached only at the root; fields, map values and list items are canonicalized in place below.
      canonicalQuantity(v);
      return;
    case 'time':
    case 'microTime':
      canonicalTime(v, t.k);
      return;
  }
  // null leaves any other Go value as it is.
  if (v === null || v === undefined) return;
  switch (t.k) {
    case 'scalar': {
      const m = misfit(v, t.go);
      if (m !== '') save(ctx, m, t);
      return;
    }
    case 'slice':
      if (!Array.isArray(v)) return save(ctx, jsonKind(v), t);
      if (t.elem.k === 'quantity') for (let i = 0; i < v.length; i++) v[i] = canonicalQuantity(v[i]);
      else for (const e of v) decode(e, t.elem, ctx);
      return;
    case 'map': {
      if (typeof v !== 'object' || Array.isArray(v)) return save(ctx, jsonKind(v), t);
      const m = v as Record<string, unknown>;
      if (t.elem.k === 'quantity') for (const k of Object.keys(m)) m[k] = canonicalQuantity(m[k]);
      else for (const e of Object.values(m)) decode(e, t.elem, ctx);
      return;
    }
    case 'struct': {
      if (typeof v !== 'object' || Array.isArray(v)) return save(ctx, jsonKind(v), t);
      const outer = ctx.struct;
      for (const [key, e] of Object.entries(v as Record<string, unknown>)) {
        const ft = t.fields.get(key);
        if (ft === undefined) continue;
        if (ft.k === 'quantity') {
          (v as Record<string, unknown>)[key] = canonicalQuantity(e);
          continue;
        }
        if (ft.k === 'time' || ft.k === 'microTime') {
          (v as Record<string, unknown>)[key] = canonicalTime(e, ft.k);
          continue;
        }
        ctx.fields.push(key);
        ctx.struct = t.name;
        decode(e, ft, ctx);
        ctx.fields.pop();
        ctx.struct = outer;
      }
    }
  }
}

/** A kind's decoding check: the decoder's error for `obj`, or undefined when it decodes. */
export type GoDecodeCheck = (obj: Record<string, unknown>) => string | undefined;

const typesByDoc = new WeakMap<OpenAPIDocument, GoTypes>();

/**
 * The decoding check of the kind whose component is `name` in `doc`. The root's apiVersion and
 * kind were checked when the body was read.
 */
export function goDecodeCheck(doc: OpenAPIDocument, name: string): GoDecodeCheck {
  let types = typesByDoc.get(doc);
  if (!types) typesByDoc.set(doc, (types = new GoTypes(doc)));
  const root = types.component(name);
  if (root.k !== 'struct') return () => undefined;
  const fields = new Map(root.fields);
  fields.delete('apiVersion');
  fields.delete('kind');
  const t: GoType = { ...root, fields };
  return (obj) => {
    const ctx: Context = { fields: [] };
    try {
      decode(obj, t, ctx);
    } catch (e) {
      if (e instanceof UnmarshalerError) return e.message;
      throw e;
    }
    return ctx.saved;
  };
}
