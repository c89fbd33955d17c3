/**
 * Objects read from the watch cache, decoded where a caller needs one and not kept decoded. The
 * cache holds each object version once, as its stored JSON text in a frozen KeyValue; what this
 * module remembers beside it, per store (one served version decodes differently from another), is
 * one of two things, found by decoding the object once:
 *
 * - an object that *serves as stored* — the kind's read decoding and decoration change nothing but
 *   its metadata's order and resourceVersion — is remembered as where its metadata opens in its
 *   text (one small integer): the JSON a client gets is the stored text with the metadata
 *   re-encoded in Go's field order, or kept sorted (a custom resource, which kube-apiserver
 *   writes with every key sorted), with the resourceVersion among its members
 *   (./objectmeta-text.ts);
 * - any other object is kept decoded, deep-frozen, with its JSON text (callers get copy-on-write
 *   views: a fresh top level and `metadata` over the shared frozen value).
 *
 * A list hands out an object that serves as stored as a lazy item: a Proxy that answers
 * `apiVersion` and `kind` (and a same-value `apiVersion` write, the handlers' request-version
 * step) without decoding, and on any other use decodes the object into itself once, a private copy
 * the caller may change. A list response written while the item was never decoded takes the
 * served text, so that listing everything neither decodes nor serializes the objects again. A
 * watch event's object is decoded once for every watcher of a store (the last few are kept, frozen,
 * for the fan-out). KeyValues read from the store itself (not frozen) are decoded as before.
 *
 * (Remembering per list, not per item: registering every item in a WeakMap costs more than
 * serializing it.)
 */
import { canonicalJSON, stringifyJSON } from '../apimachinery/index.ts';
import type { KeyValue } from '../storage/index.ts';
import { insertSorted, objectMetaOrder, reencode, scanObject } from './objectmeta-text.ts';
import type { Obj } from './rest.ts';

/** Whatever decodes stored values (a GenericStore): the objects it decodes carry its apiVersion and kind. */
export interface Decoder {
  decode(kv: KeyValue): Obj;
  readonly apiVersion: string;
  readonly info: { readonly kind: string };
  /** Its objects are served with their keys sorted at every level (unstructured objects). */
  readonly sortsKeys?: boolean;
}

/** One object kept decoded: frozen, with its JSON text. */
export interface Shared {
  readonly frozen: Obj;
  readonly text: string;
}

/**
 * How an object is served from its stored text: `2 * where its metadata opens + form`, the form
 * saying whether the metadata is re-encoded in Go's field order (a codec's ObjectMeta) or keeps its
 * sorted members with the resourceVersion inserted among them (a store without a codec).
 */
type MetaAt = number;
const goOrder = 0;
const sorted = 1;

/** Per store, per cached KeyValue: how the store serves it. */
const served = new WeakMap<Decoder, WeakMap<KeyValue, MetaAt | Shared>>();
/** Per store: the frozen decoded objects of the latest watch events, shared by every watcher. */
const recent = new WeakMap<Decoder, Map<KeyValue, Obj>>();
/** How many decoded watch events a store keeps for the fan-out (one change reaches every watcher within a tick). */
const recentEvents = 256;
/** Per list: for each item, what it is a view of or a lazy item for (undefined: neither). */
const lists = new WeakMap<object, Source[]>();

/** What a list item is: a view of a kept object, a lazy item, or neither (undefined). */
export type Source = Shared | LazyItem | undefined;

/** The served JSON of `kv` as `at` says, or undefined when its text is not as expected. */
function servedText(kv: KeyValue, at: MetaAt): string | undefined {
  const v = kv.value;
  const open = Math.floor(at / 2);
  const rv = String(kv.modRevision);
  const meta = at % 2 === goOrder ? reencode(v, open, objectMetaOrder, rv) : insertSorted(v, open, rv);
  return meta && v.slice(0, open) + meta.text + v.slice(meta.end);
}

/** How `kv` is served from its text when `text` (its served JSON) is what servedText makes of it, else -1. */
function metaAt(kv: KeyValue, text: string): MetaAt {
  const members = scanObject(kv.value, 0);
  const i = members ? members.keys.indexOf('metadata') : -1;
  if (!members || i < 0) return -1;
  const open = members.values[i]!;
  for (const at of [open * 2 + goOrder, open * 2 + sorted]) if (servedText(kv, at) === text) return at;
  return -1;
}

/** How `d` serves the cached `kv`, worked out on first use; `decoded` receives the object decoded then. */
function servedAs(d: Decoder, kv: KeyValue, decoded?: (obj: Obj) => void): MetaAt | Shared {
  let memo = served.get(d);
  if (!memo) served.set(d, (memo = new WeakMap()));
  let e = memo.get(kv);
  if (e !== undefined) return e;
  const obj = d.decode(kv);
  // Both writers handle objects nested deeper than JSON.stringify recurses.
  const text = d.sortsKeys ? canonicalJSON(obj) : stringifyJSON(obj);
  const at = obj.apiVersion === d.apiVersion && obj.kind === d.info.kind ? metaAt(kv, text) : -1;
  e = at >= 0 ? at : { frozen: deepFreeze(obj), text };
  memo.set(kv, e);
  decoded?.(obj);
  return e;
}

/**
 * A list's item for `kv` as `d` decodes it, with what it is a view of or a lazy item for appended
 * to `sources` (undefined when decoded from the store now).
 */
export function listItem(d: Decoder, kv: KeyValue, sources: Source[]): Obj {
  if (!Object.isFrozen(kv)) {
    sources.push(undefined);
    return d.decode(kv);
  }
  const e = servedAs(d, kv);
  if (typeof e !== 'number') {
    sources.push(e);
    return view(e.frozen);
  }
  const lazy = new LazyItem(d, kv, e);
  sources.push(lazy);
  return lazy.proxy;
}

/** The object in `kv` as `d` decodes it, the caller's own (a snapshot's initial events). */
export function decodeOwn(d: Decoder, kv: KeyValue): Obj {
  if (!Object.isFrozen(kv)) return d.decode(kv);
  const e = servedAs(d, kv);
  return typeof e === 'number' ? (JSON.parse(servedText(kv, e)!) as Obj) : view(e.frozen);
}

/**
 * The object of a watch event's `kv` as `d` decodes it: a copy-on-write view of one frozen decoded
 * object that every watcher of the store shares.
 */
export function decodeShared(d: Decoder, kv: KeyValue): Obj {
  if (!Object.isFrozen(kv)) return d.decode(kv);
  let m = recent.get(d);
  if (!m) recent.set(d, (m = new Map()));
  let frozen = m.get(kv);
  if (!frozen) {
    let fresh: Obj | undefined;
    const e = servedAs(d, kv, (obj) => (fresh = obj));
    if (typeof e !== 'number') return view(e.frozen);
    frozen = deepFreeze(fresh ?? (JSON.parse(servedText(kv, e)!) as Obj));
    m.set(kv, frozen);
    if (m.size > recentEvents) m.delete(m.keys().next().value!);
  }
  return view(frozen);
}

/**
 * The object of `kv` as a metadata informer sees it: `d`'s apiVersion and kind, and the stored
 * metadata with its resourceVersion (the caller's own). The metadata is stored as it was validated
 * on its write, so the kind's read decoding would give the same one; the rest is not decoded.
 */
export function decodeMetadataOnly(d: Decoder, kv: KeyValue): Obj {
  const m = (JSON.parse(kv.value) as Obj).metadata;
  const metadata = m !== null && typeof m === 'object' && !Array.isArray(m) ? (m as Record<string, unknown>) : {};
  metadata.resourceVersion = String(kv.modRevision);
  return { apiVersion: d.apiVersion, kind: d.info.kind, metadata };
}

function view(frozen: Obj): Obj {
  const out: Obj = { ...frozen };
  const m = frozen.metadata;
  if (m !== null && typeof m === 'object' && !Array.isArray(m)) out.metadata = { ...(m as Record<string, unknown>) };
  return out;
}

/**
 * The Proxy handler of one lazy item: its target is empty until the item is first used for more
 * than its apiVersion and kind, then holds the decoded object, and every trap is the target's own.
 */
class LazyItem implements ProxyHandler<Obj> {
  readonly proxy: Obj;
  private decoded = false;

  constructor(
    private readonly d: Decoder,
    private readonly kv: KeyValue,
    private readonly at: MetaAt,
  ) {
    this.proxy = new Proxy({}, this);
  }

  /** The item's JSON text while it was never decoded (nothing can have changed it), else undefined. */
  text(item: unknown): string | undefined {
    return !this.decoded && item === this.proxy ? servedText(this.kv, this.at) : undefined;
  }

  private real(t: Obj): Obj {
    if (!this.decoded) {
      this.decoded = true;
      Object.assign(t, JSON.parse(servedText(this.kv, this.at)!));
    }
    return t;
  }

  get(t: Obj, p: string | symbol): unknown {
    if (!this.decoded && p === 'apiVersion') return this.d.apiVersion;
    if (!this.decoded && p === 'kind') return this.d.info.kind;
    return Reflect.get(this.real(t), p);
  }

  set(t: Obj, p: string | symbol, v: unknown): boolean {
    if (!this.decoded && p === 'apiVersion' && v === this.d.apiVersion) return true;
    return Reflect.set(this.real(t), p, v);
  }

  has(t: Obj, p: string | symbol): boolean {
    return Reflect.has(this.real(t), p);
  }

  ownKeys(t: Obj): (string | symbol)[] {
    return Reflect.ownKeys(this.real(t));
  }

  getOwnPropertyDescriptor(t: Obj, p: string | symbol): PropertyDescriptor | undefined {
    return Reflect.getOwnPropertyDescriptor(this.real(t), p);
  }

  defineProperty(t: Obj, p: string | symbol, desc: PropertyDescriptor): boolean {
    return Reflect.defineProperty(this.real(t), p, desc);
  }

  deleteProperty(t: Obj, p: string | symbol): boolean {
    return Reflect.deleteProperty(this.real(t), p);
  }

  preventExtensions(t: Obj): boolean {
    return Reflect.preventExtensions(this.real(t));
  }
}

/** Remembers, for `list` (whose items array is `sources`' parallel), what each item is a view of or a lazy item for. */
export function rememberSources(list: object, sources: Source[]): void {
  if (sources.some((s) => s !== undefined)) lists.set(list, sources);
}

/**
 * A function giving the JSON text of `list`'s item `i` when it is an unchanged view of a kept
 * object or a lazy item never decoded, else undefined (the caller serializes it).
 */
export function sharedItemJSON(list: object): (item: unknown, i: number) => string | undefined {
  const sources = lists.get(list);
  if (!sources) return () => undefined;
  return (item, i) => {
    const s = sources[i];
    if (s === undefined) return undefined;
    if (s instanceof LazyItem) return s.text(item);
    if (item === null || typeof item !== 'object' || !unchanged(item as Obj, s.frozen)) return undefined;
    return s.text;
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
