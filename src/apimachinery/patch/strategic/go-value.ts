/**
 * The Go semantics that strategic merge patch leans on, for JSON data held as JavaScript values:
 * the dynamic type of an `interface{}` (Kubernetes' JSON decoder keeps integers as int64 and other
 * numbers as float64), `==` on two interfaces (which panics on maps and slices), use as a map key
 * (which panics the same way), and how `fmt` prints values with `%v` and `%s` — the messages of
 * upstream's errors embed these renderings (`map: map[image:nginx] does not contain ...`).
 */
import { goFloatString } from '../../field/govalue.ts';

/** The dynamic Go type of a decoded JSON value. */
export type GoKind = 'nil' | 'map' | 'slice' | 'string' | 'bool' | 'int64' | 'float64';

export type JSONMap = Record<string, unknown>;

export const hasOwn = (o: JSONMap, k: string): boolean => Object.prototype.hasOwnProperty.call(o, k);

/** o[k] = v as a plain own member, even for keys such as `__proto__`. */
export function setOwn(o: JSONMap, k: string, v: unknown): void {
  Object.defineProperty(o, k, { value: v, writable: true, enumerable: true, configurable: true });
}

export function isMap(v: unknown): v is JSONMap {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function goKind(v: unknown): GoKind {
  if (v === null || v === undefined) return 'nil';
  if (Array.isArray(v)) return 'slice';
  switch (typeof v) {
    case 'string':
      return 'string';
    case 'boolean':
      return 'bool';
    case 'bigint':
      return 'int64';
    case 'number':
      // util/json.Unmarshal: a literal that parses as int64 stays int64, the rest is float64.
      return Number.isInteger(v) && Math.abs(v) < 2 ** 63 ? 'int64' : 'float64';
    default:
      return 'map';
  }
}

/** reflect.TypeOf(v).String(); `%!s(<nil>)` is what `%s` prints for the nil Type of a nil value. */
export function goTypeName(v: unknown): string {
  switch (goKind(v)) {
    case 'nil':
      return '%!s(<nil>)';
    case 'map':
      return 'map[string]interface {}';
    case 'slice':
      return '[]interface {}';
    default:
      return goKind(v);
  }
}

/** A Go runtime panic, raised where upstream's code would panic on the same input. */
export class GoPanic extends Error {
  constructor(message: string) {
    super(`runtime error: ${message}`);
    this.name = 'GoPanic';
  }
}

/** `a == b` on two interface{} values: false across types, a panic on maps and slices. */
export function goEqual(a: unknown, b: unknown): boolean {
  const ka = goKind(a);
  if (ka !== goKind(b)) return false;
  if (ka === 'map' || ka === 'slice') throw new GoPanic(`comparing uncomparable type ${goTypeName(a)}`);
  if (ka === 'nil') return true;
  return a === b;
}

/**
 * A key for a JavaScript Map that holds the values a Go `map[interface{}]...` would tell apart
 * (int64 1 and string "1" differ); maps and slices cannot be keys and panic as in Go.
 */
export function goHashKey(v: unknown): string {
  const k = goKind(v);
  if (k === 'map' || k === 'slice') throw new GoPanic(`hash of unhashable type ${goTypeName(v)}`);
  return `${k}:${String(v)}`;
}

function compareUTF8(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}

function scalarV(v: unknown): string {
  switch (goKind(v)) {
    case 'nil':
      return '<nil>';
    case 'int64':
      return typeof v === 'bigint' ? String(v) : String(BigInt(v as number));
    case 'float64':
      return goFloatString(v as number);
    default:
      return String(v);
  }
}

/**
 * fmt's `%v` (verb 'v') or `%s` (verb 's') of a decoded JSON value: maps print as
 * `map[k:v ...]` with sorted keys, slices as `[a b]`, nil as `<nil>`; under `%s` a non-string
 * scalar prints as `%!s(int64=1)`. Iterative, so that a value nested as deep as a request may be
 * (10000 levels) prints as Go prints it.
 */
export function goSprint(v: unknown, verb: 'v' | 's' = 'v'): string {
  let out = '';
  const todo: Array<{ text: string } | { value: unknown }> = [{ value: v }];
  while (todo.length > 0) {
    const t = todo.pop()!;
    if ('text' in t) {
      out += t.text;
      continue;
    }
    const x = t.value;
    const k = goKind(x);
    if (k === 'map' || k === 'slice') {
      const m = x as JSONMap;
      const keys = k === 'map' ? Object.keys(m).sort(compareUTF8) : null;
      const n = keys ? keys.length : (x as unknown[]).length;
      todo.push({ text: ']' });
      for (let i = n - 1; i >= 0; i--) {
        todo.push({ value: keys ? m[keys[i]!] : (x as unknown[])[i] });
        const sep = i > 0 ? ' ' : '';
        if (keys) todo.push({ text: `${sep}${keys[i]}:` });
        else if (sep) todo.push({ text: sep });
      }
      todo.push({ text: keys ? 'map[' : '[' });
    } else if (verb === 's' && k !== 'string') {
      out += k === 'nil' ? '%!s(<nil>)' : `%!s(${k}=${scalarV(x)})`;
    } else {
      out += scalarV(x);
    }
  }
  return out;
}
