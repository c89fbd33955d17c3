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
 * A list made of views remembers, beside it, what each item is a view of, and each shared object
 * keeps its JSON text once written: a list response whose items were left unchanged is written
 * from those texts without serializing each item again. (Remembering per list, not per view:
 * registering every view in a WeakMap costs more than serializing it.)
 */
import type { KeyValue } from '../storage/index.ts';
import type { Obj } from './rest.ts';

/** Whatever decodes stored values (a GenericStore). */
export interface Decoder {
  decode(kv: KeyValue): Obj;
}

/** One shared object: frozen, and its JSON text once asked for. */
export interface Shared {
  readonly frozen: Obj;
  text?: string;
}

const decoded = new WeakMap<Decoder, WeakMap<KeyValue, Shared>>();
/** Per list: for each item, the shared object it is a view of (undefined: not shared). */
const lists = new WeakMap<object, (Shared | undefined)[]>();

/**
 * The object in `kv` as `d` decodes it: decoded once and shared when the KeyValue is the cache's,
 * else decoded now. With `sources`, what the result is a view of is appended to it (undefined
 * when it is not a view).
 */
export function decodeShared(d: Decoder, kv: KeyValue, sources?: (Shared | undefined)[]): Obj {
  if (!Object.isFrozen(kv)) {
    sources?.push(undefined);
    return d.decode(kv);
  }
  let memo = decoded.get(d);
  if (!memo) decoded.set(d, (memo = new WeakMap()));
  let shared = memo.get(kv);
  if (!shared) {
    shared = { frozen: deepFreeze(d.decode(kv)) };
    memo.set(kv, shared);
  }
  sources?.push(shared);
  return view(shared.frozen);
}

function view(frozen: Obj): Obj {
  const out: Obj = { ...frozen };
  const m = frozen.metadata;
  if (m !== null && typeof m === 'object' && !Array.isArray(m)) out.metadata = { ...(m as Record<string, unknown>) };
  return out;
}

/** Remembers, for `list` (whose items array is `sources`' parallel), what each item is a view of. */
export function rememberSources(list: object, sources: (Shared | undefined)[]): void {
  if (sources.some((s) => s !== undefined)) lists.set(list, sources);
}

/**
 * A function giving the JSON text of `list`'s item `i` when it is an unchanged view of a shared
 * object (kept from the first time), else undefined (the caller serializes it).
 */
export function sharedItemJSON(list: object): (item: unknown, i: number) => string | undefined {
  const sources = lists.get(list);
  if (!sources) return () => undefined;
  return (item, i) => {
    const s = sources[i];
    if (s === undefined || item === null || typeof item !== 'object' || !unchanged(item as Obj, s.frozen)) return undefined;
    return (s.text ??= JSON.stringify(s.frozen));
  };
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
