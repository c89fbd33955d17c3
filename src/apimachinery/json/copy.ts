/**
 * The one deep copy of JSON data in the project (runtime.DeepCopyJSONValue): arrays and plain
 * objects are copied, scalars and any other object (GoFloat, GoJSONText: immutable wrappers)
 * are shared. A `__proto__` key stays an own data property of the copy, never its prototype.
 * Depth-safe: the first levels are copied by plain recursion (the fast path every write takes),
 * anything deeper by an explicit stack, so a value nested as deep as a decoder allows copies.
 */
import { isPlain } from './depth.ts';

/** Levels copied recursively before the iterative copy takes the rest of a subtree. */
const recursionLimit = 200;

/** A deep copy of a JSON value. */
export function deepCopyJSON<T>(v: T): T {
  return copy(v, 0) as T;
}

function copy(v: unknown, depth: number): unknown {
  if (v === null || typeof v !== 'object') return v;
  if (depth === recursionLimit) return copyIteratively(v);
  if (Array.isArray(v)) {
    const out = new Array(v.length);
    for (let i = 0; i < v.length; i++) out[i] = copy(v[i], depth + 1);
    return out;
  }
  if (!isPlain(v)) return v;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(v)) setKey(out, k, copy(v[k], depth + 1));
  return out;
}

/** Assigns out[k]; `__proto__` as a data property, since assignment would set the prototype. */
function setKey(out: Record<string, unknown>, k: string, x: unknown): void {
  if (k === '__proto__') Object.defineProperty(out, k, { value: x, enumerable: true, writable: true, configurable: true });
  else out[k] = x;
}

/** An empty container of v's kind, or undefined when v is shared rather than copied. */
function emptyLike(v: unknown): unknown[] | Record<string, unknown> | undefined {
  if (Array.isArray(v)) return new Array(v.length);
  return isPlain(v) ? {} : undefined;
}

function copyIteratively(root: object): unknown {
  const top = emptyLike(root);
  if (top === undefined) return root;
  // Pairs (source, its empty copy) still to fill.
  const stack: unknown[] = [root, top];
  while (stack.length > 0) {
    const dst = stack.pop() as unknown[] | Record<string, unknown>;
    const src = stack.pop() as unknown[] | Record<string, unknown>;
    const fill = (x: unknown): unknown => {
      if (x === null || typeof x !== 'object') return x;
      const c = emptyLike(x);
      if (c === undefined) return x;
      stack.push(x, c);
      return c;
    };
    if (Array.isArray(src)) {
      const d = dst as unknown[];
      for (let i = 0; i < src.length; i++) d[i] = fill(src[i]);
    } else {
      for (const k of Object.keys(src)) setKey(dst as Record<string, unknown>, k, fill(src[k]));
    }
  }
  return top;
}
