/**
 * JSON text of values of any depth a decoder accepts. V8's JSON.stringify recurses on the
 * native stack and throws RangeError a few thousand levels down, well inside the 10000 levels
 * a request may carry; these functions keep JSON.stringify for the values clients normally send
 * and fall back to an explicit-stack writer when it gives up. Canonical JSON (keys sorted at
 * every level) is how objects are stored and compared.
 */
import { isPlain } from './depth.ts';

/** JSON.stringify(v, null, indent), for values nested deeper than the native stack allows too. */
export function stringifyJSON(v: unknown, indent = 0): string {
  try {
    return JSON.stringify(v, null, indent);
  } catch (e) {
    if (!(e instanceof RangeError)) throw e;
    return writeJSON(v, indent, false);
  }
}

/** Levels sorted by plain recursion before the iterative writer takes over. */
const recursionLimit = 200;

/** Thrown by the recursive sort when a value is deeper than it goes. */
class TooDeep extends Error {}

/**
 * `v` with every object's keys sorted: a copy where an order differs, `v` itself (or its
 * subtree) where every key is in order already, so that JSON.stringify of the result writes the
 * same text with fewer copies (an unchanged object is written as it is: undefined members are
 * left out either way).
 */
function sortRecursively(v: unknown, depth: number): unknown {
  if (v === null || typeof v !== 'object') return v;
  if (depth === recursionLimit) throw new TooDeep();
  if (Array.isArray(v)) {
    let out: unknown[] | undefined;
    for (let i = 0; i < v.length; i++) {
      const x = v[i];
      const s = sortRecursively(x, depth + 1);
      if (out === undefined && s !== x) out = v.slice(0, i);
      if (out !== undefined) out[i] = s;
    }
    return out ?? v;
  }
  if (!isPlain(v)) return v;
  const keys = Object.keys(v);
  let inOrder = true;
  for (let i = 1; i < keys.length; i++) {
    if (keys[i - 1]! > keys[i]!) {
      inOrder = false;
      break;
    }
  }
  if (!inOrder) keys.sort();
  // The copy starts at the first member that differs (every member when the order does).
  let out: Record<string, unknown> | undefined = inOrder ? undefined : {};
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i]!;
    const x = v[k];
    if (x === undefined) continue;
    const s = sortRecursively(x, depth + 1);
    if (out === undefined) {
      if (s === x) continue;
      out = {};
      for (let j = 0; j < i; j++) {
        const y = v[keys[j]!];
        if (y !== undefined) put(out, keys[j]!, y);
      }
    }
    put(out, k, s);
  }
  return out ?? v;
}

function put(out: Record<string, unknown>, k: string, x: unknown): void {
  if (k === '__proto__') Object.defineProperty(out, k, { value: x, enumerable: true, writable: true, configurable: true });
  else out[k] = x;
}

/**
 * Canonical JSON text: keys sorted at every level (Go's encoding of map[string]interface{}, how
 * kube-apiserver writes an unstructured object). Equal objects give equal text.
 */
export function canonicalJSON(v: unknown, indent = 0): string {
  let sorted: unknown;
  try {
    sorted = sortRecursively(v, 0);
  } catch (e) {
    if (!(e instanceof TooDeep)) throw e;
    return writeJSON(v, indent, true);
  }
  try {
    return JSON.stringify(sorted, null, indent);
  } catch (e) {
    if (!(e instanceof RangeError)) throw e;
    return writeJSON(sorted, indent, false);
  }
}

/**
 * `v` with every object's keys sorted, sharing what is in order already with `v` (see
 * sortRecursively): for writers that take a value rather than text (YAML, an object embedded
 * in a typed one).
 */
export function sortedKeys(v: unknown): unknown {
  try {
    return sortRecursively(v, 0);
  } catch (e) {
    if (!(e instanceof TooDeep)) throw e;
    // JSON.parse does not recurse on the native stack; the text's order is the object's.
    return JSON.parse(writeJSON(v, 0, true));
  }
}

type Task = string | { v: unknown; level: number };

/** How writeJSONIteratively spells a document. */
export interface JSONWriter {
  /** Spaces per level; 0 for compact text. */
  indent?: number;
  /** Orders each object's keys; insertion order when absent. */
  compareKeys?: (a: string, b: string) => number;
  /** Text of a value that is neither an array nor an object written member by member. */
  scalar?: (v: unknown) => string;
  /** True for a value written as a scalar even though it is an object (a wrapper such as GoFloat). */
  isScalar?: (v: unknown) => boolean;
  /** Text of an object key. */
  key?: (k: string) => string;
}

const jsonScalar = (v: unknown): string => JSON.stringify(v) ?? 'null';

/**
 * JSON text written with an explicit stack, for any depth. Defaults follow JSON.stringify
 * (toJSON honoured, undefined members dropped, undefined array elements as null); encoders with
 * other spellings (Go's) pass their own scalar and key writers.
 */
export function writeJSONIteratively(root: unknown, w: JSONWriter = {}): string {
  const indent = w.indent ?? 0;
  const scalar = w.scalar ?? jsonScalar;
  const keyText = w.key ?? JSON.stringify;
  const out: string[] = [];
  const stack: Task[] = [{ v: root, level: 0 }];
  const pad = (level: number) => (indent > 0 ? '\n' + ' '.repeat(indent * level) : '');
  const colon = indent > 0 ? ': ' : ':';
  const skipped = (x: unknown) => x === undefined || typeof x === 'function' || typeof x === 'symbol';
  while (stack.length > 0) {
    const t = stack.pop()!;
    if (typeof t === 'string') {
      out.push(t);
      continue;
    }
    let v = t.v;
    if (w.scalar === undefined && v !== null && typeof v === 'object' && typeof (v as { toJSON?: unknown }).toJSON === 'function') {
      v = (v as { toJSON(): unknown }).toJSON();
    }
    if (Array.isArray(v)) {
      if (v.length === 0) {
        out.push('[]');
        continue;
      }
      stack.push(pad(t.level) + ']');
      for (let i = v.length - 1; i >= 0; i--) {
        const x = v[i];
        stack.push({ v: skipped(x) ? null : x, level: t.level + 1 }, (i === 0 ? '[' : ',') + pad(t.level + 1));
      }
      continue;
    }
    if (v !== null && typeof v === 'object' && !(w.isScalar?.(v) ?? false)) {
      const o = v as Record<string, unknown>;
      const keys = Object.keys(o).filter((k) => !skipped(o[k]));
      if (w.compareKeys) keys.sort(w.compareKeys);
      if (keys.length === 0) {
        out.push('{}');
        continue;
      }
      stack.push(pad(t.level) + '}');
      for (let i = keys.length - 1; i >= 0; i--) {
        const k = keys[i]!;
        stack.push({ v: o[k], level: t.level + 1 }, (i === 0 ? '{' : ',') + pad(t.level + 1) + keyText(k) + colon);
      }
      continue;
    }
    out.push(scalar(v));
  }
  return out.join('');
}

/** JSON.stringify's output for any depth, keys optionally sorted by code unit. */
function writeJSON(root: unknown, indent: number, sorted: boolean): string {
  return writeJSONIteratively(root, sorted ? { indent, compareKeys: byCodeUnit } : { indent });
}

const byCodeUnit = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
