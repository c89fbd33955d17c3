/**
 * Objects decoded once from the watch cache and shared read-only. The cache hands out the same
 * frozen KeyValue for an object version to every list and watch; the object decoded from it (the
 * kind's read decoding and decoration included) is kept beside it, deep-frozen, per store (one
 * served version decodes differently from another). Callers get a copy-on-write view: a fresh
 * top-level object with a fresh `metadata`, so that the handlers' usual edits (apiVersion,
 * resourceVersion) touch only the copy, while everything below is the shared frozen value; a
 * deeper edit fails loudly instead of corrupting the cache. KeyValues read from the store itself
 * (not frozen) are decoded as before, each time.
 *
 * The JSON text of a shared object is kept too, on first use, so that a list response whose items
 * left the view unchanged is written without serializing each item again.
 */
import type { KeyValue } from '../storage/index.ts';
import type { Obj } from './rest.ts';

/** Whatever decodes stored values (a GenericStore). */
export interface Decoder {
  decode(kv: KeyValue): Obj;
}

const decoded = new WeakMap<Decoder, WeakMap<KeyValue, Obj>>();
const texts = new WeakMap<Obj, string>();
/** Each view's frozen object (not a property of the view: comparisons and copies must not see it). */
const sources = new WeakMap<Obj, Obj>();

/** The object in `kv` as `d` decodes it: decoded once and shared when the KeyValue is the cache's, else decoded now. */
export function decodeShared(d: Decoder, kv: KeyValue): Obj {
  if (!Object.isFrozen(kv)) return d.decode(kv);
  let memo = decoded.get(d);
  if (!memo) decoded.set(d, (memo = new WeakMap()));
  let frozen = memo.get(kv);
  if (!frozen) {
    frozen = deepFreeze(d.decode(kv));
    memo.set(kv, frozen);
  }
  return view(frozen);
}

function view(frozen: Obj): Obj {
  const out: Obj = { ...frozen };
  const m = frozen.metadata;
  if (m !== null && typeof m === 'object' && !Array.isArray(m)) out.metadata = { ...(m as Record<string, unknown>) };
  sources.set(out, frozen);
  return out;
}

/**
 * The JSON text of `obj` when it is an unchanged view of a shared object (kept from the first
 * time), else undefined (the caller serializes it).
 */
export function sharedJSON(obj: unknown): string | undefined {
  if (obj === null || typeof obj !== 'object') return undefined;
  const frozen = sources.get(obj as Obj);
  if (frozen === undefined || !unchanged(obj as Obj, frozen)) return undefined;
  let text = texts.get(frozen);
  if (text === undefined) {
    text = JSON.stringify(frozen);
    texts.set(frozen, text);
  }
  return text;
}

/** Whether a view still holds exactly the shared object's members (metadata compared a level down). */
function unchanged(v: Obj, frozen: Obj): boolean {
  if (!sameMembers(v, frozen, 'metadata')) return false;
  const vm = v.metadata;
  const fm = frozen.metadata;
  if (vm === fm) return true;
  return vm !== null && typeof vm === 'object' && fm !== null && typeof fm === 'object' && sameMembers(vm as Record<string, unknown>, fm as Record<string, unknown>);
}

function sameMembers(a: Record<string, unknown>, b: Record<string, unknown>, except?: string): boolean {
  let n = 0;
  for (const k in a) {
    n++;
    if (k !== except && a[k] !== b[k]) return false;
  }
  for (const _ in b) n--;
  return n === 0;
}

function deepFreeze<T>(v: T): T {
  // An explicit stack: objects may nest as deep as the decoders allow.
  const stack: unknown[] = [v];
  while (stack.length > 0) {
    const x = stack.pop();
    if (x === null || typeof x !== 'object' || Object.isFrozen(x)) continue;
    Object.freeze(x);
    if (Array.isArray(x)) for (const e of x) stack.push(e);
    else for (const k in x) stack.push((x as Record<string, unknown>)[k]);
  }
  return v;
}
