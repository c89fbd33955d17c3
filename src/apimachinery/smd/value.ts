/**
 * Values as structured-merge-diff sees them (sigs.k8s.io/structured-merge-diff `value`): plain
 * JSON data, with its total order (numbers < strings < booleans < lists < maps < null), equality
 * (an int equals the float of the same number), and `value.ToString` for path elements in
 * messages. `undefined` stands for Go's nil Value: a field that is absent, not a JSON null.
 *
 * JSON numbers lose Go's int64/float64 distinction in JavaScript; a non-integral number is a
 * float, a GoFloat is a float, everything else integral is an int. The order and equality treat
 * both alike numerically, as upstream does, so only printing can tell them apart.
 */
import { GoFloat, goFloatString, goQuote } from '../field/govalue.ts';

export type Value = unknown;

/** A map value: a plain JSON object. */
export type MapValue = Record<string, unknown>;

export function isMap(v: Value): v is MapValue {
  return v !== null && typeof v === 'object' && !Array.isArray(v) && !(v instanceof GoFloat);
}

export function isList(v: Value): v is unknown[] {
  return Array.isArray(v);
}

export function isNumber(v: Value): boolean {
  return typeof v === 'number' || typeof v === 'bigint' || v instanceof GoFloat;
}

export function isFloat(v: Value): boolean {
  return v instanceof GoFloat || (typeof v === 'number' && !Number.isInteger(v));
}

export function isScalar(v: Value): boolean {
  return isNumber(v) || typeof v === 'string' || typeof v === 'boolean';
}

function num(v: Value): number {
  if (v instanceof GoFloat) return v.value;
  return Number(v as number | bigint);
}

function cmp(a: number | string, b: number | string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Go's strings.Compare: byte order of the UTF-8 encodings. */
export function compareStrings(a: string, b: string): number {
  if (a === b) return 0;
  // UTF-16 order differs from UTF-8 byte order only for astral vs high-BMP code units.
  for (let i = 0; i < a.length && i < b.length; i++) {
    const x = a.codePointAt(i)!;
    const y = b.codePointAt(i)!;
    if (x !== y) return x < y ? -1 : 1;
    if (x > 0xffff) i++;
  }
  return cmp(a.length, b.length);
}

/** value.Compare: a total order over values. */
export function compare(lhs: Value, rhs: Value): number {
  const ln = isNumber(lhs);
  const rn = isNumber(rhs);
  if (ln) return rn ? cmp(num(lhs), num(rhs)) : -1;
  if (rn) return 1;
  if (typeof lhs === 'string') return typeof rhs === 'string' ? compareStrings(lhs, rhs) : -1;
  if (typeof rhs === 'string') return 1;
  if (typeof lhs === 'boolean') return typeof rhs === 'boolean' ? cmp(Number(lhs), Number(rhs)) : -1;
  if (typeof rhs === 'boolean') return 1;
  if (isList(lhs)) {
    if (!isList(rhs)) return -1;
    for (let i = 0; ; i++) {
      if (i >= lhs.length && i >= rhs.length) return 0;
      if (i >= lhs.length) return -1;
      if (i >= rhs.length) return 1;
      const c = compare(lhs[i], rhs[i]);
      if (c !== 0) return c;
    }
  }
  if (isList(rhs)) return 1;
  if (isMap(lhs)) {
    if (!isMap(rhs)) return -1;
    return compareMaps(lhs, rhs);
  }
  if (isMap(rhs)) return 1;
  if (lhs === null) return rhs === null ? 0 : -1;
  if (rhs === null) return 1;
  return 0;
}

function compareMaps(lhs: MapValue, rhs: MapValue): number {
  const llen = Object.keys(lhs).length;
  const rlen = Object.keys(rhs).length;
  if (llen === 0 && rlen === 0) return 0;
  const keys = [...new Set([...Object.keys(lhs), ...Object.keys(rhs)])].sort(compareStrings);
  let i = 0;
  for (const k of keys) {
    let c: number;
    if (i === llen) c = -1;
    else if (i === rlen) c = 1;
    else if (!(k in lhs)) c = 1;
    else if (!(k in rhs)) c = -1;
    else c = compare(lhs[k], rhs[k]);
    i++;
    if (c !== 0) return c;
  }
  return 0;
}

/** value.Equals. */
export function equals(lhs: Value, rhs: Value): boolean {
  if (isNumber(lhs) || isNumber(rhs)) return isNumber(lhs) && isNumber(rhs) && num(lhs) === num(rhs);
  if (typeof lhs === 'string' || typeof rhs === 'string') return lhs === rhs;
  if (typeof lhs === 'boolean' || typeof rhs === 'boolean') return lhs === rhs;
  if (isList(lhs) || isList(rhs)) {
    if (!isList(lhs) || !isList(rhs) || lhs.length !== rhs.length) return false;
    return lhs.every((x, i) => equals(x, rhs[i]));
  }
  if (isMap(lhs) || isMap(rhs)) {
    if (!isMap(lhs) || !isMap(rhs)) return false;
    const lk = Object.keys(lhs);
    if (lk.length !== Object.keys(rhs).length) return false;
    return lk.every((k) => k in rhs && equals(lhs[k], rhs[k]));
  }
  return (lhs === null) === (rhs === null);
}

/** %v of a float64 or int64 number. */
function numberString(v: Value): string {
  if (isFloat(v)) return goFloatString(num(v));
  return String(v);
}

/** value.ToString: how path elements print values (`"a"`, `1`, `[1,2]`, `k=v`). */
export function toString(v: Value): string {
  if (v === null || v === undefined) return 'null';
  if (isNumber(v)) return numberString(v);
  if (typeof v === 'string') return goQuote(v);
  if (typeof v === 'boolean') return String(v);
  if (isList(v)) return '[' + v.map(toString).join(',') + ']';
  if (isMap(v)) return Object.keys(v).sort(compareStrings).map((k) => `${k}=${toString(v[k])}`).join('');
  return '{{undefined}}';
}

/** Go's %v of the unstructured value (`map[a:1 b:[x y]]`), as validation messages print it. */
export function goVerbV(v: Value): string {
  if (v === null || v === undefined) return '<nil>';
  if (isNumber(v)) return numberString(v);
  if (typeof v === 'string') return v;
  if (typeof v === 'boolean') return String(v);
  if (isList(v)) return '[' + v.map(goVerbV).join(' ') + ']';
  if (isMap(v)) return 'map[' + Object.keys(v).sort(compareStrings).map((k) => `${k}:${goVerbV(v[k])}`).join(' ') + ']';
  return String(v);
}

/** Go's %#v of the unstructured value (`map[string]interface {}{"a":1}`). */
export function goVerbSharpV(v: Value): string {
  if (v === null || v === undefined) return 'interface {}(nil)';
  if (isNumber(v)) return numberString(v);
  if (typeof v === 'string') return goQuote(v);
  if (typeof v === 'boolean') return String(v);
  if (isList(v)) return '[]interface {}{' + v.map(goVerbSharpV).join(', ') + '}';
  if (isMap(v)) {
    const keys = Object.keys(v).sort(compareStrings);
    return 'map[string]interface {}{' + keys.map((k) => `${goQuote(k)}:${goVerbSharpV(v[k])}`).join(', ') + '}';
  }
  return String(v);
}

/** Go's %T of the unstructured value. */
export function goTypeName(v: Value): string {
  if (v === null || v === undefined) return '<nil>';
  if (isNumber(v)) return isFloat(v) ? 'float64' : 'int64';
  if (typeof v === 'string') return 'string';
  if (typeof v === 'boolean') return 'bool';
  if (isList(v)) return '[]interface {}';
  return 'map[string]interface {}';
}
