/**
 * Field selection, indexing and presence tests on runtime values (cel-go's attribute qualifiers):
 * `m.f`, `m[k]`, `l[i]`, `has(m.f)`, and their optional forms `m.?f`, `m[?k]`, `l[?i]`.
 */
import {
  CelError,
  CelMap,
  LazyFields,
  Optional,
  Uint,
  Unknown,
  type Val,
  errNoSuchKey,
  typeName,
} from './values.ts';

function listIndex(l: readonly Val[], k: Val): number | CelError {
  let i: number;
  if (typeof k === 'bigint') i = k < -1n || k > BigInt(l.length) ? -1 : Number(k);
  else if (k instanceof Uint) i = k.v > BigInt(l.length) ? -1 : Number(k.v);
  else if (typeof k === 'number') {
    if (!Number.isInteger(k)) return new CelError(`unsupported index value ${k} in list`);
    i = k;
  } else return new CelError(`unsupported index type '${typeName(k)}' in list`);
  if (i < 0 || i >= l.length) return new CelError(`index out of bounds: ${i < 0 && typeof k === 'bigint' ? k : k instanceof Uint ? k.v : k}`);
  return i;
}

/** `c[k]` on a list or map; errors for missing keys and out-of-range indices. */
export function index(c: Val, k: Val): Val {
  if (c instanceof CelError || c instanceof Unknown) return c;
  if (k instanceof CelError || k instanceof Unknown) return k;
  if (Array.isArray(c)) {
    const i = listIndex(c, k);
    return typeof i === 'number' ? c[i]! : i;
  }
  if (c instanceof CelMap) {
    const v = c.get(k);
    if (v !== undefined) return v;
    if (!isKeyType(k)) return new CelError(`unsupported key type: ${typeName(k)}`);
    return errNoSuchKey(k);
  }
  if (c instanceof Optional) {
    if (c.value === undefined) return c;
    return optIndex(c.value, k);
  }
  return new CelError(`no such overload: _[_](${typeName(c)}, ${typeName(k)})`);
}

function isKeyType(k: Val): boolean {
  return typeof k === 'string' || typeof k === 'bigint' || typeof k === 'boolean' || typeof k === 'number' || k instanceof Uint;
}

/** `c.f` on a map or object value. */
export function select(c: Val, field: string): Val {
  if (c instanceof CelMap) {
    const v = c.m.get(field);
    return v !== undefined ? v : errNoSuchKey(field);
  }
  if (c instanceof CelError || c instanceof Unknown) return c;
  if (c instanceof Optional) {
    if (c.value === undefined) return c;
    return optSelect(c.value, field);
  }
  // As cel-go's attribute qualifiers: a list is indexed by the field name (and refuses it), any
  // other value has no keys at all.
  if (Array.isArray(c)) return new CelError(`unsupported index type 'string' in list`);
  return errNoSuchKey(field);
}

/** `has(c.f)`. */
export function has(c: Val, field: string): Val {
  if (c instanceof CelMap) {
    const m = c.m;
    // Plain maps first: the constructor check is cheaper than instanceof's prototype walk.
    return m.constructor === Map || !(m instanceof LazyFields) ? m.has(field) : m.testPresence(field);
  }
  if (c instanceof CelError || c instanceof Unknown) return c;
  if (c instanceof Optional) {
    if (c.value === undefined) return false;
    return has(c.value, field);
  }
  // cel-go (without ErrorOnBadPresenceTest, as Kubernetes runs it): a list refuses a field name,
  // a presence test on any other value is false.
  if (Array.isArray(c)) return new CelError(`unsupported index type 'string' in list`);
  return false;
}

/** `c.?f`: optional.of(c.f) when present, optional.none() otherwise. */
export function optSelect(c: Val, field: string): Val {
  if (c instanceof CelMap) {
    const v = c.m.get(field);
    return v === undefined ? Optional.none : new Optional(v);
  }
  if (c instanceof CelError || c instanceof Unknown) return c;
  if (c instanceof Optional) return c.value === undefined ? c : optSelect(c.value, field);
  return new CelError(`no such overload: _?._(${typeName(c)}, string)`);
}

/** `c[?k]`: optional.of(c[k]) when present, optional.none() otherwise. */
export function optIndex(c: Val, k: Val): Val {
  if (c instanceof CelError || c instanceof Unknown) return c;
  if (k instanceof CelError || k instanceof Unknown) return k;
  if (Array.isArray(c)) {
    const i = listIndex(c, k);
    if (typeof i === 'number') return new Optional(c[i]!);
    return i.message.startsWith('index out of bounds') ? Optional.none : i;
  }
  if (c instanceof CelMap) {
    const v = c.get(k);
    return v === undefined ? Optional.none : new Optional(v);
  }
  if (c instanceof Optional) return c.value === undefined ? c : optIndex(c.value, k);
  return new CelError(`no such overload: _[?_](${typeName(c)}, ${typeName(k)})`);
}
