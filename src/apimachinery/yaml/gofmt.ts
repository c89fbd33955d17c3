/**
 * The Go formatting that go-yaml's and sigs.k8s.io/yaml's messages and key conversion use: `%#v`
 * of decoded values (`"a"`, `1`, `0xffffffffffffffff`, `[]interface {}{"a"}`), the `%s` of their
 * type, `strconv.FormatFloat(f, 'g', -1, 32)` for float keys, and a Go string made of raw bytes.
 */
import { goFloatString, goQuote } from '../field/govalue.ts';
import { GoUint64 } from './resolve.ts';

/** A float64 as go-yaml decodes it (kept apart from integers where Go's type shows). */
export class GoFloat64 {
  constructor(readonly value: number) {}
}

/** A decoded YAML mapping: Go's map[interface{}]interface{}, keys by type and value. */
export class GoMap {
  readonly entries = new Map<string, { key: unknown; value: unknown }>();
}

// Keys that equal nothing, not even themselves (NaN), each get an identity of their own.
let nanKeys = 0;

/** The identity of a map key as a Go map compares keys (type and value; NaN never equal). */
export function keyIdentity(k: unknown): string {
  if (k === null) return 'n';
  if (typeof k === 'string') return `s${k}`;
  if (typeof k === 'boolean') return `b${k}`;
  if (typeof k === 'number') return `i${k}`;
  if (k instanceof GoFloat64) return Number.isNaN(k.value) ? `f NaN ${nanKeys++}` : `f${k.value === 0 ? 0 : k.value}`;
  if (k instanceof GoUint64) return `u${k.value}`;
  return `x${nanKeys++}`;
}

/** `%#v` of a decoded value; `nested` for elements, where a nil interface prints `interface {}(nil)`. */
export function goSharpV(v: unknown, nested = false): string {
  if (v === null || v === undefined) return nested ? 'interface {}(nil)' : '<nil>';
  if (typeof v === 'string') return goQuote(v);
  if (typeof v === 'boolean' || typeof v === 'number') return String(v);
  if (v instanceof GoFloat64) return goFloatString(v.value);
  if (v instanceof GoUint64) return `0x${v.value.toString(16)}`;
  if (Array.isArray(v)) return `[]interface {}{${v.map((x) => goSharpV(x, true)).join(', ')}}`;
  if (v instanceof GoMap) {
    const items = [...v.entries.values()].map((e) => [goSharpV(e.key, true), goSharpV(e.value, true)] as const);
    items.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
    return `map[interface {}]interface {}{${items.map(([k, x]) => `${k}:${x}`).join(', ')}}`;
  }
  return String(v);
}

/** `%s` of reflect.TypeOf(v). */
export function goTypeName(v: unknown): string {
  if (v === null || v === undefined) return '%!s(<nil>)';
  if (typeof v === 'string') return 'string';
  if (typeof v === 'boolean') return 'bool';
  if (typeof v === 'number') return 'int';
  if (v instanceof GoFloat64) return 'float64';
  if (v instanceof GoUint64) return 'uint64';
  if (Array.isArray(v)) return '[]interface {}';
  return 'map[interface {}]interface {}';
}

/** strconv.FormatFloat(f, 'g', -1, 32): the shortest digits that identify the float32. */
export function formatFloat32(f: number): string {
  const f32 = Math.fround(f);
  if (!Number.isFinite(f32) || f32 === 0) return goFloatString(f32);
  for (let p = 1; p <= 9; p++) {
    const short = Number(f32.toPrecision(p));
    if (Math.fround(short) === f32) return goFloatString(short);
  }
  return goFloatString(f32);
}

/**
 * The Go string of raw bytes as encoding/json writes it: valid UTF-8 decoded, each byte of an
 * invalid sequence one U+FFFD (utf8.DecodeRune's rule, which is not TextDecoder's).
 */
export function goBytesToString(b: Uint8Array): string {
  let out = '';
  let i = 0;
  while (i < b.length) {
    const c = b[i]!;
    if (c < 0x80) {
      out += String.fromCharCode(c);
      i++;
      continue;
    }
    const n = c >= 0xc2 && c <= 0xdf ? 2 : c >= 0xe0 && c <= 0xef ? 3 : c >= 0xf0 && c <= 0xf4 ? 4 : 0;
    let cp = n === 2 ? c & 0x1f : n === 3 ? c & 0x0f : c & 0x07;
    let ok = n > 0 && i + n <= b.length;
    for (let j = 1; ok && j < n; j++) {
      const x = b[i + j]!;
      let lo = 0x80;
      let hi = 0xbf;
      if (j === 1) {
        if (c === 0xe0) lo = 0xa0;
        else if (c === 0xed) hi = 0x9f;
        else if (c === 0xf0) lo = 0x90;
        else if (c === 0xf4) hi = 0x8f;
      }
      if (x < lo || x > hi) ok = false;
      else cp = (cp << 6) | (x & 0x3f);
    }
    if (!ok) {
      out += '\ufffd';
      i++;
      continue;
    }
    out += String.fromCodePoint(cp);
    i += n;
  }
  return out;
}
