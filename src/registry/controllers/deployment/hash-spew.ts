/**
 * The text kube-controller-manager hashes for a pod template: go-spew's `%#v` of the Go value
 * `v1.PodTemplateSpec` (ConfigState{SortKeys, DisableMethods, SpewKeys}), written from the
 * template's JSON with the Go types of `vendor/k8s-go-shape/1.35/hash-go-types.json` (every
 * struct's fields in Go order, with their Go names, JSON names and type names, unexported fields
 * included).
 *
 * The Go value is the one the controller's informer holds: the object decoded from protobuf, so
 * an empty slice or map is nil (protobuf cannot tell them apart), a pointer field is nil only when
 * absent, and every Quantity is ParseQuantity of its canonical string (what protobuf carries),
 * with its internal form (int64 amount or inf.Dec, the cached string, the format) spelled out.
 * A non-zero metav1.Time is written as Go's UTC value of it (wall 0, ext the seconds since year 1,
 * no location); the controller's value is in its local zone (time.Local, a location even when
 * that is UTC), so a template with a creationTimestamp does not get a cluster's hash.
 */
import { readFileSync } from 'node:fs';
import { parseQuantity, Quantity } from '../../../cel/index.ts';
import { vendorURL } from '../../../apimachinery/index.ts';

type GoType =
  | { k: 'basic'; name: string; kind: 'string' | 'bool' | 'int' }
  | { k: 'ptr'; name: string; elem: GoType }
  | { k: 'slice'; name: string; elem: GoType }
  | { k: 'map'; name: string; key: GoType; elem: GoType }
  | { k: 'struct'; name: string; fields: Field[]; special?: (v: unknown) => unknown; zero?: string };

interface Field {
  /** `GoName:` as spew prefixes the field's value. */
  label: string;
  /** Where the field's value is in the decoded object: its JSON name, or its Go name for
   * unexported fields and the special types' own shapes; undefined for an inlined struct. */
  key: string | undefined;
  type: GoType;
}

interface Table {
  source: string;
  types: Record<string, string | string[]>;
}

let table: Table | undefined;
const resolved = new Map<string, GoType>();

function load(): Table {
  return (table ??= JSON.parse(readFileSync(vendorURL('k8s-go-shape/1.35/hash-go-types.json'), 'utf8')) as Table);
}

const basicKinds: Record<string, 'string' | 'bool' | 'int'> = {
  string: 'string',
  bool: 'bool',
  int: 'int', int8: 'int', int16: 'int', int32: 'int', int64: 'int',
  uint: 'int', uint8: 'int', uint16: 'int', uint32: 'int', uint64: 'int',
};

/** The Go type named as reflect's Type.String() names it (`*v1.Probe`, `map[string]string`). */
function goType(name: string): GoType {
  const known = resolved.get(name);
  if (known) return known;
  let t: GoType;
  if (name.startsWith('*')) t = { k: 'ptr', name, elem: goType(name.slice(1)) };
  else if (name.startsWith('[]')) t = { k: 'slice', name, elem: goType(name.slice(2)) };
  else if (name.startsWith('map[')) t = mapType(name, name);
  else {
    const def = load().types[name];
    if (def === undefined) throw new Error(`pod-template-hash: Go type ${name} is not in the table`);
    if (Array.isArray(def)) {
      const st: GoType = { k: 'struct', name, fields: [], special: specials[name] };
      resolved.set(name, st); // before the fields: a struct may reach itself
      for (const f of def) st.fields.push(field(f));
      return st;
    }
    const kind = basicKinds[def];
    if (kind) t = { k: 'basic', name, kind };
    else if (def.startsWith('map[')) t = mapType(name, def);
    else if (def.startsWith('[]')) t = { k: 'slice', name, elem: goType(def.slice(2)) };
    else throw new Error(`pod-template-hash: Go type ${name} has an unknown underlying type ${def}`);
  }
  resolved.set(name, t);
  return t;
}

function mapType(name: string, def: string): GoType {
  // Key types here are named strings: the first `]` closes the key.
  const close = def.indexOf(']');
  return { k: 'map', name, key: goType(def.slice(4, close)), elem: goType(def.slice(close + 1)) };
}

function field(spec: string): Field {
  const space = spec.indexOf(' ');
  const head = spec.slice(0, space);
  const type = goType(spec.slice(space + 1));
  const slash = head.indexOf('/');
  if (slash < 0) return { label: `${head}:`, key: head[0]!.toLowerCase() + head.slice(1), type };
  const goName = head.slice(0, slash);
  const json = head.slice(slash + 1);
  return { label: `${goName}:`, key: json === '' ? undefined : json === '-' ? goName : json, type };
}

// ---- the types with their own JSON -----------------------------------------------------------

/** 64-bit little-endian words of |v| (math/big's nat on amd64). */
function words(v: bigint): bigint[] {
  const out: bigint[] = [];
  for (let a = v < 0n ? -v : v; a > 0n; a >>= 64n) out.push(a & 0xffffffffffffffffn);
  return out;
}

/** A Quantity's Go fields after the protobuf round trip: ParseQuantity(canonical string). */
function quantityFields(v: unknown): unknown {
  let q: Quantity | Error = new Quantity('DecimalSI');
  if (typeof v === 'string') q = parseQuantity(v.trim());
  else if (typeof v === 'number') q = parseQuantity(String(v));
  // A quantity the decoder refused cannot be stored; an absent or null one is Go's zero Quantity.
  const canonical = q instanceof Error ? '0' : q.toString() || '0';
  const p = parseQuantity(canonical);
  if (p instanceof Error) return quantityFields(undefined);
  return {
    i: { value: p.d ? 0n : p.i.value, scale: p.d ? 0 : p.i.scale },
    d: { Dec: p.d ? { unscaled: { neg: p.d.unscaled < 0n, abs: words(p.d.unscaled) }, scale: p.d.scale } : null },
    s: p.s,
    Format: p.format,
  };
}

/** Seconds from year 1 to 1970 (Go's unixToInternal). */
const unixToInternal = 62135596800n;

/** metav1.Time: zero when absent, else whole seconds in UTC as protobuf carries it. */
function timeFields(v: unknown): unknown {
  const ms = typeof v === 'string' ? Date.parse(v) : NaN;
  if (Number.isNaN(ms)) return { Time: { wall: 0, ext: 0, loc: null } };
  return { Time: { wall: 0, ext: BigInt(Math.floor(ms / 1000)) + unixToInternal, loc: null } };
}

/** intstr.IntOrString: a JSON string is Type 1, anything else the int form. */
function intOrStringFields(v: unknown): unknown {
  if (typeof v === 'string') return { Type: 1, IntVal: 0, StrVal: v };
  return { Type: 0, IntVal: typeof v === 'number' ? v : 0, StrVal: '' };
}

const specials: Record<string, (v: unknown) => unknown> = {
  'resource.Quantity': quantityFields,
  'v1.Time': timeFields,
  'intstr.IntOrString': intOrStringFields,
};

// ---- spew's formatter --------------------------------------------------------------------------

function intText(v: unknown): string {
  if (typeof v === 'bigint') return v.toString();
  if (typeof v !== 'number' || !Number.isFinite(v)) return '0';
  return Number.isSafeInteger(v) ? String(v) : BigInt(Math.trunc(v)).toString();
}

/** Go's string order: by UTF-8 bytes (UTF-16 order differs only past the BMP). */
function byUTF8(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}
const nonASCII = /[^\x00-\x7f]/;

const isNil = (v: unknown) => v === undefined || v === null;

/**
 * spew's formatState.format for `%#v`: a value's type in parentheses unless it is an element of a
 * slice or map or the target of a pointer; nil pointers, slices and maps as `<nil>`.
 */
function format(t: GoType, v: unknown, showType: boolean): string {
  switch (t.k) {
    case 'ptr':
      if (isNil(v)) return showType ? `(${t.name})<nil>` : '<nil>';
      return (showType ? `(${t.name})` : '<*>') + format(t.elem, v, false);
    case 'basic': {
      const prefix = showType ? `(${t.name})` : '';
      if (t.kind === 'string') return prefix + (typeof v === 'string' ? v : '');
      if (t.kind === 'bool') return prefix + (v === true ? 'true' : 'false');
      return prefix + intText(v);
    }
    case 'slice': {
      const prefix = showType ? `(${t.name})` : '';
      if (!Array.isArray(v) || v.length === 0) return `${prefix}<nil>`;
      let out = `${prefix}[`;
      for (let i = 0; i < v.length; i++) out += (i > 0 ? ' ' : '') + format(t.elem, v[i], false);
      return `${out}]`;
    }
    case 'map': {
      const prefix = showType ? `(${t.name})` : '';
      const m = v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
      const keys = m ? Object.keys(m) : [];
      if (keys.length === 0) return `${prefix}<nil>`;
      keys.sort();
      if (keys.some((k) => nonASCII.test(k))) keys.sort(byUTF8);
      let out = `${prefix}map[`;
      for (let i = 0; i < keys.length; i++) {
        const k = keys[i]!;
        out += `${i > 0 ? ' ' : ''}${format(t.key, k, false)}:${format(t.elem, m![k], false)}`;
      }
      return `${out}]`;
    }
    case 'struct': {
      // A zero struct (an absent field) prints the same every time: most of a template is these.
      if (isNil(v) && !t.special) return (showType ? `(${t.name})` : '') + (t.zero ??= format(t, {}, false));
      const value = t.special ? t.special(v) : v;
      const o = value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
      let out = showType ? `(${t.name}){` : '{';
      const fields = t.fields;
      for (let i = 0; i < fields.length; i++) {
        const f = fields[i]!;
        const fv = f.key === undefined ? o : o?.[f.key];
        out += (i > 0 ? ' ' : '') + f.label + format(f.type, fv, true);
      }
      return `${out}}`;
    }
  }
}

/**
 * go-spew's `%#v` of the pod template as the controller's Go value holds it. Never throws on a
 * template of the wrong shape: a value of the wrong JSON type reads as its field's zero value.
 */
export function spewPodTemplate(template: unknown): string {
  return format(goType('v1.PodTemplateSpec'), template, true);
}
