/**
 * Pruning (apiextensions-apiserver pkg/apiserver/schema/pruning): drops object fields the schema
 * does not specify, unless x-kubernetes-preserve-unknown-fields keeps them; apiVersion, kind and
 * metadata are kept at embedded resources and at the resource root. The pruned paths are reported
 * (sorted) for fieldValidation=Warn/Strict. Pruning ObjectMeta itself down to its known fields is
 * objectmeta.ts's job (coerce), as upstream.
 *
 * A pruner is compiled once per schema; pruning MUTATES the object passed in.
 */
import { emptyStructural, type Structural } from './structural.ts';
import { isObject } from './value.ts';

export interface PruneOptions {
  /** Report the paths of pruned fields (UnknownFieldPathOptions.TrackUnknownFieldPaths). */
  trackUnknown?: boolean;
}

/** A compiled pruner: mutates obj, returns the sorted pruned paths ([] unless tracking). */
export type Pruner = (obj: unknown, opts?: PruneOptions) => string[];

const metaFields = new Set(['apiVersion', 'kind', 'metadata']);

/** Path tracking as UnknownFieldPathOptions: a stack of key/index segments, joined on record. */
class Track {
  readonly paths: string[] = [];
  readonly segs: string[] = [];
  constructor(readonly on: boolean) {}
  key(k: string): void {
    if (this.on) this.segs.push(this.segs.length > 0 ? '.' + k : k);
  }
  index(i: number): void {
    if (this.on) this.segs.push(`[${i}]`);
  }
  pop(): void {
    if (this.on) this.segs.pop();
  }
  record(k: string): void {
    if (this.on) this.paths.push(this.segs.join('') + (this.segs.length > 0 ? '.' + k : k));
  }
  get atRoot(): boolean {
    return this.segs.length === 0;
  }
}

type P = (x: unknown, t: Track) => void;

/** Everything below a missing schema is pruned: keys of objects (at any depth) are dropped. */
const pruneAll: P = (x, t) => {
  if (Array.isArray(x)) {
    for (let i = 0; i < x.length; i++) {
      t.index(i);
      pruneAll(x[i], t);
      t.pop();
    }
  } else if (isObject(x)) {
    for (const k in x) {
      t.record(k);
      delete x[k];
    }
  }
};

const noop: P = () => {};

/**
 * Compile a pruner. `isResourceRoot`: the object is a whole resource, so apiVersion/kind/metadata
 * at its top are kept as for an embedded resource.
 */
export function compilePruner(s: Structural | undefined, isResourceRoot: boolean): Pruner {
  if (isResourceRoot) s = { ...(s ?? emptyStructural()), xEmbeddedResource: true };
  const memo = new Map<Structural, P>();
  const root = prunerFor(s, memo);
  return (obj, opts) => {
    const t = new Track(opts?.trackUnknown === true);
    root(obj, t);
    return t.on ? t.paths.sort() : t.paths;
  };
}

/** Prune(obj, s, isResourceRoot) in one call (compiles; prefer compilePruner on hot paths). MUTATES obj. */
export function prune(obj: unknown, s: Structural | undefined, isResourceRoot: boolean, opts?: PruneOptions): string[] {
  return compilePruner(s, isResourceRoot)(obj, opts);
}


function prunerFor(s: Structural | undefined, memo: Map<Structural, P>): P {
  if (s === undefined) return pruneAll;
  let p = memo.get(s);
  if (p !== undefined) return p;
  // Recursive schemas do not occur in CRDs, but the memo makes sharing cheap.
  const ref: { fn: P } = { fn: noop };
  memo.set(s, (x, t) => ref.fn(x, t));
  ref.fn = s.xPreserveUnknownFields ? buildSkip(s, memo) : buildPrune(s, memo);
  memo.set(s, ref.fn);
  return ref.fn;
}

function childMaps(s: Structural, memo: Map<Structural, P>) {
  const props = new Map<string, P>();
  if (s.properties) for (const [k, v] of s.properties) props.set(k, prunerFor(v, memo));
  const hasAP = s.additionalProperties !== undefined;
  const ap = hasAP ? prunerFor(s.additionalProperties!.structural, memo) : pruneAll;
  return { props, hasAP, ap };
}

function buildPrune(s: Structural, memo: Map<Structural, P>): P {
  const { props, hasAP, ap } = childMaps(s, memo);
  const embedded = s.xEmbeddedResource;
  let items: P | undefined;
  return (x, t) => {
    if (Array.isArray(x)) {
      items ??= prunerFor(s.items, memo);
      for (let i = 0; i < x.length; i++) {
        t.index(i);
        items(x[i], t);
        t.pop();
      }
      return;
    }
    if (!isObject(x)) return;
    for (const k in x) {
      if (embedded && metaFields.has(k)) continue;
      const p = props.get(k);
      if (p !== undefined) {
        t.key(k);
        p(x[k], t);
        t.pop();
      } else if (hasAP) {
        t.key(k);
        ap(x[k], t);
        t.pop();
      } else {
        if (!metaFields.has(k) || !t.atRoot) t.record(k);
        delete x[k];
      }
    }
  };
}

/** skipPrune: under x-kubernetes-preserve-unknown-fields unknown fields stay; known ones are pruned inside. */
function buildSkip(s: Structural, memo: Map<Structural, P>): P {
  const { props, hasAP, ap } = childMaps(s, memo);
  const embedded = s.xEmbeddedResource;
  let items: P | undefined;
  const skip: P = (x, t) => {
    if (Array.isArray(x)) {
      if (s.items === undefined) return;
      // upstream recurses skipPrune into items, whether or not the items preserve unknown fields
      items ??= s.items.xPreserveUnknownFields ? prunerFor(s.items, memo) : buildSkip(s.items, memo);
      for (let i = 0; i < x.length; i++) {
        t.index(i);
        items(x[i], t);
        t.pop();
      }
      return;
    }
    if (!isObject(x)) return;
    for (const k in x) {
      if (embedded && metaFields.has(k)) continue;
      const p = props.get(k);
      if (p !== undefined) {
        t.key(k);
        p(x[k], t);
        t.pop();
      } else if (hasAP) {
        t.key(k);
        ap(x[k], t);
        t.pop();
      }
    }
  };
  return skip;
}
