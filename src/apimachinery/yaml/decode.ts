/**
 * go-yaml v2's decoder into interface{} (`decode.go`), over a document the `yaml` package
 * composed: scalars resolved as go-yaml resolves them, mappings as Go maps keyed by typed values,
 * merge keys (`<<`: a map, an alias of one, or a sequence of them, later entries overriding
 * earlier ones in document order), aliases bound to the last anchor of their name before them,
 * the alias-expansion limit (`document contains excessive aliasing`), and the duplicate keys a
 * strict decode reports (`line N: key "a" already set in map`) while the value keeps the last one,
 * as the non-strict decode kube-apiserver keeps does. The walk keeps its own stack: alias chains
 * can nest values far deeper than the text does.
 */
import { Alias, isAlias, isMap, isScalar, isSeq, Scalar, YAMLMap, YAMLSeq, type Node } from 'yaml';
import { binaryTag, floatTag, mergeTag, resolveScalar, ResolveError, timestampTag } from './resolve.ts';
import { GoFloat64, GoMap, goBytesToString, goSharpV, keyIdentity } from './gofmt.ts';

/** A document the reader cannot convert; the message is Go's error text, `offset` where in the text (when known). */
export class YAMLDecodeError extends Error {
  constructor(
    message: string,
    readonly offset?: number,
  ) {
    super(message);
    this.name = 'YAMLDecodeError';
  }
}

/** A duplicate key: go-yaml's strict message (line relative to the text) and the value's offset. */
export interface DuplicateKey {
  message: string;
  offset: number;
}

export interface Decoded {
  /** Go values: string, boolean, null, number (int), GoFloat64, GoUint64, arrays, GoMap. */
  value: unknown;
  duplicates: DuplicateKey[];
}

type LineOf = (offset: number) => number;

// allowedAliasRatio's range (decode.go): 99% of decodes may come from aliases in small
// documents, falling to 10% in large ones.
const aliasRatioLow = 400000;
const aliasRatioHigh = 4000000;

function allowedAliasRatio(decodeCount: number): number {
  if (decodeCount <= aliasRatioLow) return 0.99;
  if (decodeCount >= aliasRatioHigh) return 0.1;
  return 0.99 - 0.89 * ((decodeCount - aliasRatioLow) / (aliasRatioHigh - aliasRatioLow));
}

function startOf(n: Node | null | undefined): number {
  return n?.range?.[0] ?? 0;
}

/** Plain and untagged, or tagged `!`: go-yaml's `implicit`, which lets a scalar be resolved. */
function implicit(n: Scalar): boolean {
  return n.tag === '!' || (n.tag === undefined && n.type === 'PLAIN');
}

function isMerge(n: Node | null): boolean {
  return n !== null && isScalar(n) && n.value === '<<' && (implicit(n) || n.tag === mergeTag);
}

const base64Text = /^[A-Za-z0-9+/]*={0,2}$/;

/** encoding/base64 StdEncoding.DecodeString, which skips CR and LF and wants the padding. */
function decodeBase64(s: string): Uint8Array | undefined {
  const t = s.replace(/[\r\n]/g, '');
  if (t.length % 4 !== 0 || !base64Text.test(t)) return undefined;
  return Buffer.from(t, 'base64');
}

/** A scalar's Go value (d.scalar into interface{}). */
function scalarValue(n: Scalar): unknown {
  const text = String(n.value ?? '');
  if (!implicit(n) && n.tag === undefined) return text;
  let r;
  try {
    r = resolveScalar(n.tag ?? '', text);
  } catch (e) {
    if (e instanceof ResolveError) throw new YAMLDecodeError(`yaml: ${e.message}`, startOf(n));
    throw e;
  }
  if (r.tag === binaryTag) {
    const bytes = decodeBase64(text);
    if (bytes === undefined) throw new YAMLDecodeError('yaml: !!binary value contains invalid base64 data', startOf(n));
    return goBytesToString(bytes);
  }
  // A timestamp decoded into interface{} stays the text it was, for backward compatibility.
  if (r.tag === timestampTag) return text;
  if (r.tag === floatTag && typeof r.value === 'number') return new GoFloat64(r.value);
  return r.value;
}

/**
 * Binds every alias to the node its anchor names at that point of the document (go-yaml's parser
 * registers an anchor when its node starts, so a collection's own alias inside it is bound to it).
 */
function bindAliases(root: Node | null, resolve: (n: Node) => Node): Map<Alias, Node> {
  const anchors = new Map<string, Node>();
  const bound = new Map<Alias, Node>();
  const stack: (Node | null)[] = [root];
  while (stack.length > 0) {
    const popped = stack.pop();
    if (!popped) continue;
    const n = resolve(popped);
    if (isAlias(n)) {
      const target = anchors.get(n.source);
      if (target === undefined) throw new YAMLDecodeError(`yaml: unknown anchor '${n.source}' referenced`, startOf(n));
      bound.set(n, target);
      continue;
    }
    if (n.anchor) anchors.set(n.anchor, n);
    if (isMap(n)) {
      for (let i = n.items.length - 1; i >= 0; i--) {
        const p = n.items[i]!;
        stack.push(p.value as Node | null, p.key as Node | null);
      }
    } else if (isSeq(n)) {
      for (let i = n.items.length - 1; i >= 0; i--) stack.push(n.items[i] as Node | null);
    }
  }
  return bound;
}

/** A frame of the walk: a collection being filled, or an alias being expanded. */
type Frame =
  | { kind: 'seq'; node: YAMLSeq; i: number; out: unknown[] }
  | { kind: 'map'; node: YAMLMap; i: number; out: GoMap; merge: boolean; key: unknown; awaiting: 'next' | 'key' | 'value' | 'merge' }
  | { kind: 'mergeSeq'; items: Node[]; i: number; out: GoMap }
  | { kind: 'alias'; alias: Alias };

/** What a frame that filled a map it was given (a merge) delivers instead of a value. */
const merged = Symbol('merged');
/** What enter returns once it has pushed a frame: the value comes later. */
const pending = Symbol('pending');

/** Decodes one composed document's contents as go-yaml decodes into interface{}. */
export function decodeDocument(root: Node | null, lineOf: LineOf, resolve: (n: Node) => Node = (n) => n): Decoded {
  const bound = bindAliases(root, resolve);
  const duplicates: DuplicateKey[] = [];
  const expanding = new Set<Alias>();
  const stack: Frame[] = [];
  let decodeCount = 1; // the document node
  let aliasCount = 0;
  let aliasDepth = 0;
  let result: unknown = null;

  /** Starts decoding `n` (into `into` for a merge): its value now, or `pending` once a frame is pushed. */
  const enter = (node: Node | null, into?: GoMap): unknown => {
    decodeCount++;
    if (aliasDepth > 0) aliasCount++;
    if (aliasCount > 100 && decodeCount > 1000 && aliasCount / decodeCount > allowedAliasRatio(decodeCount)) {
      throw new YAMLDecodeError('yaml: document contains excessive aliasing');
    }
    if (node === null || node === undefined) return null;
    const n = resolve(node);
    if (isAlias(n)) {
      if (expanding.has(n)) throw new YAMLDecodeError(`yaml: anchor '${n.source}' value contains itself`, startOf(n));
      expanding.add(n);
      aliasDepth++;
      stack.push({ kind: 'alias', alias: n });
      const v = enter(bound.get(n)!, into);
      if (v !== pending) {
        stack.pop();
        aliasDepth--;
        expanding.delete(n);
      }
      return v;
    }
    if (isScalar(n)) return scalarValue(n);
    if (isSeq(n)) {
      stack.push({ kind: 'seq', node: n, i: 0, out: [] });
      return pending;
    }
    if (isMap(n)) {
      stack.push({ kind: 'map', node: n, i: 0, out: into ?? new GoMap(), merge: into !== undefined, key: undefined, awaiting: 'next' });
      return pending;
    }
    return null;
  };

  /** Hands a finished value (or `merged`) to the frame below it, closing alias frames on the way. */
  const deliver = (v: unknown): void => {
    for (;;) {
      const top = stack[stack.length - 1];
      if (top === undefined) {
        result = v;
        return;
      }
      switch (top.kind) {
        case 'alias':
          stack.pop();
          aliasDepth--;
          expanding.delete(top.alias);
          continue;
        case 'seq':
          top.out.push(v);
          top.i++;
          return;
        case 'mergeSeq':
          top.i--;
          return;
        case 'map': {
          const pair = top.node.items[top.i]!;
          if (top.awaiting === 'key') {
            if (Array.isArray(v) || v instanceof GoMap) {
              throw new YAMLDecodeError(`yaml: invalid map key: ${goSharpV(v)}`, startOf(pair.key as Node));
            }
            top.key = v;
            top.awaiting = 'value';
            return;
          }
          if (top.awaiting === 'value') {
            const id = keyIdentity(top.key);
            if (top.out.entries.has(id)) {
              const at = pair.value ? startOf(pair.value as Node) : startOf(pair.key as Node);
              duplicates.push({ message: `line ${lineOf(at)}: key ${goSharpV(top.key)} already set in map`, offset: at });
              // A strict decode keeps the first value; the non-strict one kube-apiserver keeps
              // takes the last (in the first one's place: Go maps have no order).
            }
            top.out.entries.set(id, { key: top.key, value: v });
          }
          top.i++;
          top.awaiting = 'next';
          return;
        }
      }
    }
  };

  const failWantMap = (n: Node | null): never => {
    throw new YAMLDecodeError('yaml: map merge requires map or sequence of maps as the value', startOf(n));
  };
  const isMapOrAliasOfMap = (x: Node | null): boolean => {
    if (x === null) return false;
    const n = resolve(x);
    return isMap(n) || (isAlias(n) && isMap(bound.get(n)!));
  };

  const first = enter(root);
  if (first !== pending) return { value: first, duplicates };
  while (stack.length > 0) {
    const top = stack[stack.length - 1]!;
    let v: unknown = pending;
    switch (top.kind) {
      case 'seq':
        if (top.i < top.node.items.length) v = enter(top.node.items[top.i] as Node | null);
        else {
          stack.pop();
          v = top.out;
        }
        break;
      case 'mergeSeq':
        // Earlier entries take precedence: go-yaml merges them last.
        if (top.i >= 0) v = enter(top.items[top.i]!, top.out);
        else {
          stack.pop();
          v = merged;
        }
        break;
      case 'map': {
        if (top.awaiting === 'value') {
          v = enter(top.node.items[top.i]!.value as Node | null);
          break;
        }
        if (top.i >= top.node.items.length) {
          stack.pop();
          v = top.merge ? merged : top.out;
          break;
        }
        const pair = top.node.items[top.i]!;
        const key = (pair.key ?? null) as Node | null;
        if (!isMerge(key)) {
          top.awaiting = 'key';
          v = enter(key);
          break;
        }
        const mv = (pair.value ?? null) as Node | null;
        const m = mv === null ? null : resolve(mv);
        top.awaiting = 'merge';
        if (m !== null && (isMap(m) || isAlias(m))) {
          if (!isMapOrAliasOfMap(m)) failWantMap(m);
          v = enter(m, top.out);
        } else if (m !== null && isSeq(m)) {
          const items = m.items as (Node | null)[];
          for (const x of items) if (!isMapOrAliasOfMap(x)) failWantMap(x);
          stack.push({ kind: 'mergeSeq', items: items as Node[], i: items.length - 1, out: top.out });
        } else failWantMap(m);
        break;
      }
      case 'alias':
        // Alias frames are closed by deliver; one is never left on top.
        stack.pop();
        break;
    }
    if (v !== pending) deliver(v);
  }
  return { value: result, duplicates };
}
