/**
 * Pruning (apiextensions-apiserver pkg/apiserver/schema/pruning): drops object fields the schema
 * does not specify, unless x-kubernetes-preserve-unknown-fields keeps them; apiVersion, kind and
 * metadata are kept at embedded resources and at the resource root. The pruned paths are reported
 * (sorted) for fieldValidation=Warn/Strict. Pruning ObjectMeta itself down to its known fields is
 * objectmeta.ts's job (coerce), as upstream.
 *
 * A pruner is compiled once per schema into one closure per schema node; pruning MUTATES the object
 * passed in. The decoder's variant also drops the nulls that defaulting's
 * PruneNonNullableNullsWithoutDefaults would drop next, in the same walk: that pass visits exactly
 * the fields pruning keeps, so one visit of each does both. Paths are kept as a stack of keys and
 * indices and only rendered for a field that is dropped.
 */
import { compileDefaulter, compileNullPruner, defaultsBelow, type Defaulter } from './default.ts';
import { emptyStructural, type Structural } from './structural.ts';
import { deepCopyJSON, isObject } from './value.ts';

export interface PruneOptions {
  /** Report the paths of pruned fields (UnknownFieldPathOptions.TrackUnknownFieldPaths). */
  trackUnknown?: boolean;
}

/** A compiled pruner: mutates obj, returns the sorted pruned paths ([] unless tracking). */
export type Pruner = (obj: unknown, opts?: PruneOptions) => string[];

const isObj = isObject;
const isMetaField = (k: string): boolean => k === 'apiVersion' || k === 'kind' || k === 'metadata';

/** Path tracking as UnknownFieldPathOptions: the keys and indices down to the node being walked. */
class Track {
  readonly paths: string[] = [];
  readonly segs: (string | number)[] = [];
  record(k: string): void {
    let p = '';
    for (let i = 0; i < this.segs.length; i++) {
      const s = this.segs[i]!;
      p += typeof s === 'number' ? `[${s}]` : i === 0 ? s : '.' + s;
    }
    this.paths.push(p.length > 0 ? p + '.' + k : k);
  }
}

/** A node's walk; `t` is undefined when paths are not tracked. */
type W = (x: unknown, t: Track | undefined) => void;

/** Everything below a missing schema is pruned: keys of objects (at any depth) are dropped. */
const pruneAll: W = (x, t) => {
  if (Array.isArray(x)) {
    for (let i = 0; i < x.length; i++) {
      const e = x[i];
      if (typeof e !== 'object' || e === null) continue;
      t?.segs.push(i);
      pruneAll(e, t);
      t?.segs.pop();
    }
  } else if (isObj(x)) {
    for (const k in x) {
      t?.record(k);
      delete x[k];
    }
  }
};

/**
 * Compile a pruner. `isResourceRoot`: the object is a whole resource, so apiVersion/kind/metadata
 * at its top are kept as for an embedded resource.
 */
export function compilePruner(s: Structural | undefined, isResourceRoot: boolean): Pruner {
  return finish(new Builder(false, false).root(s, isResourceRoot));
}

/**
 * Compile Prune followed by PruneNonNullableNullsWithoutDefaults (the decoder's two steps, with
 * the same result) as one walk. MUTATES obj.
 */
export function compilePrunerDroppingNulls(s: Structural | undefined, isResourceRoot: boolean, opts: RootOptions = {}): Pruner {
  return finish(new Builder(true, false, opts.metadataReplaced === true).root(s, isResourceRoot));
}

export interface RootOptions {
  /**
   * The caller replaces the root's metadata after the walk (the decoder writes back the ObjectMeta
   * it decoded before pruning): the walk leaves the root's metadata alone instead of dropping its
   * nulls, which nobody would see.
   */
  metadataReplaced?: boolean;
}

/**
 * Compile the decoder's Prune and PruneNonNullableNullsWithoutDefaults followed by the defaulter's
 * Default, as one walk that defaults each node after pruning it, so that defaults are not pruned
 * (as in upstream's order). Only for a resource root whose apiVersion, kind and metadata are not
 * defaulted and without embedded resources below it, where ObjectMeta coercion (which runs
 * between the two upstream) touches nothing the walk does. MUTATES obj.
 */
export function compilePrunerDefaulting(s: Structural | undefined, opts: RootOptions = {}): Pruner {
  return finish(new Builder(true, true, opts.metadataReplaced === true).root(s, true));
}

// One-shot pruners by schema node: CRD checks prune each default against the same schema.
const oneShot = [new WeakMap<Structural, Pruner>(), new WeakMap<Structural, Pruner>()] as const;

/**
 * Prune(obj, s, isResourceRoot) in one call (compiled once per schema node, then cached for as
 * long as the node lives; prefer compilePruner on hot paths). MUTATES obj.
 */
export function prune(obj: unknown, s: Structural | undefined, isResourceRoot: boolean, opts?: PruneOptions): string[] {
  if (s === undefined) return compilePruner(s, isResourceRoot)(obj, opts);
  const cache = oneShot[isResourceRoot ? 1 : 0];
  let p = cache.get(s);
  if (p === undefined) cache.set(s, (p = compilePruner(s, isResourceRoot)));
  return p(obj, opts);
}

function finish(root: W): Pruner {
  return (obj, opts) => {
    if (opts?.trackUnknown !== true) {
      root(obj, undefined);
      return [];
    }
    const t = new Track();
    root(obj, t);
    return t.paths.sort();
  };
}

/**
 * Writes the walk as JavaScript, one function per schema node and mode (as the validator's fast
 * pass is written): property names become `case` labels and what a null means becomes a literal
 * statement, so each node's code sees only its own objects. Property names enter as JSON string
 * literals; everything else the schema holds (defaults, nested passes) is passed in by reference.
 */
class Builder {
  // One walk per schema node and mode: under x-kubernetes-preserve-unknown-fields items are walked
  // in skip mode whatever their own extension says, as upstream's skipPrune recursion does.
  private readonly pruneIds = new Map<Structural, string>();
  private readonly skipIds = new Map<Structural, string>();
  private readonly pending: [Structural, boolean, string][] = [];
  private readonly fns: string[] = [];
  private readonly refs: unknown[] = [];
  private readonly below = new Map<Structural, boolean>();

  /** The resource root's node (its metadata may be left alone: RootOptions.metadataReplaced). */
  private rootNode: Structural | undefined;

  constructor(
    private readonly nulls: boolean,
    private readonly defaults: boolean,
    private readonly rootMetadataReplaced = false,
  ) {}

  root(s: Structural | undefined, isResourceRoot: boolean): W {
    if (isResourceRoot) this.rootNode = s = { ...(s ?? emptyStructural()), xEmbeddedResource: true };
    const root = this.walkFor(s);
    for (let next = this.pending.pop(); next !== undefined; next = this.pending.pop()) this.fns.push(this.build(...next));
    const consts = this.refs.map((_, i) => `const r${i} = R[${i}];`).join('\n');
    const src = `${consts}\n${this.fns.join('\n')}\nreturn ${root};`;
    type Make = (p: W, isObj: (v: unknown) => boolean, isMeta: (k: string) => boolean, hasOwn: typeof Object.hasOwn, copy: typeof deepCopyJSON, r: unknown[]) => W;
    const make = new Function('P', 'isObj', 'isMeta', 'hasOwn', 'copy', 'R', src) as Make;
    return make(pruneAll, isObj, isMetaField, Object.hasOwn, deepCopyJSON, this.refs);
  }

  /** The name of s's walk in the generated code: P (prune everything) without a schema. */
  private walkFor(s: Structural | undefined): string {
    if (s === undefined) return 'P';
    return this.id(s, s.xPreserveUnknownFields);
  }

  private id(s: Structural, skip: boolean): string {
    const ids = skip ? this.skipIds : this.pruneIds;
    let name = ids.get(s);
    if (name === undefined) {
      name = `f${this.pruneIds.size + this.skipIds.size}`;
      ids.set(s, name);
      this.pending.push([s, skip, name]);
    }
    return name;
  }

  private ref(v: unknown): string {
    this.refs.push(v);
    return `r${this.refs.length - 1}`;
  }

  private dropNull(c: Structural): boolean {
    return this.nulls && !c.nullable && c.default === undefined;
  }

  /** Statements walking the object or array `v` with walk `fn`, under path segment `seg`. */
  private static descend(fn: string, v: string, seg: string): string {
    return `if (t === undefined) ${fn}(${v}, undefined); else { t.segs.push(${seg}); ${fn}(${v}, t); t.segs.pop(); }`;
  }

  private build(s: Structural, skip: boolean, name: string): string {
    const d = this.defaults && defaultsBelow(s, this.below) ? nodeDefaults(s) : undefined;
    const out: string[] = [`function ${name}(x, t) {`, 'if (Array.isArray(x)) {'];
    const items = skip ? (s.items === undefined ? undefined : this.id(s.items, true)) : this.walkFor(s.items);
    if (items !== undefined) {
      // Scalars have nothing to prune, and nulls in arrays are kept (unless defaulted).
      const fill = d?.items !== undefined ? `${this.ref(d.items)}.apply(x, i);` : '';
      out.push(`for (let i = 0; i < x.length; i++) { const e = x[i]; if (e === null) { ${fill} continue; } if (typeof e !== 'object') continue; ${Builder.descend(items, 'e', 'i')} }`);
    }
    out.push('return; }', 'if (!isObj(x)) return;', 'for (const k in x) { switch (k) {');
    const embedded = s.xEmbeddedResource;
    if (embedded) {
      // Kept as they are; only the null pass looks inside.
      for (const k of ['apiVersion', 'kind', 'metadata']) {
        const c = s.properties?.get(k) ?? s.additionalProperties?.structural;
        out.push(`case ${JSON.stringify(k)}:`);
        if (this.nulls && c !== undefined) {
          const drop = this.dropNull(c) ? 'delete x[k];' : '';
          // A null metadata is still dropped (it comes back last, which the key order shows).
          const replaced = k === 'metadata' && s === this.rootNode && this.rootMetadataReplaced;
          out.push(`{ const v = x[k]; if (v === null) { ${drop} }${replaced ? '' : ` else if (typeof v === 'object') ${this.ref(compileNullPruner(c))}(v);`} }`);
        }
        out.push('continue;');
      }
    }
    if (s.properties) {
      for (const [k, c] of s.properties) {
        if (embedded && isMetaField(k)) continue;
        out.push(`case ${JSON.stringify(k)}: { const v = x[k]; if (v === null) { ${this.dropNull(c) ? 'delete x[k];' : ''} } else if (typeof v === 'object') { ${Builder.descend(this.walkFor(c), 'v', 'k')} } continue; }`);
      }
    }
    out.push('default:');
    const ap = s.additionalProperties;
    if (ap !== undefined) {
      // additionalProperties without a schema (`true`): its values are pruned of all keys, and nulls kept.
      const c = ap.structural;
      const onNull = c === undefined ? '' : this.dropNull(c) ? 'delete x[k];' : d?.ap !== undefined ? `${this.ref(d.ap)}.apply(x, k);` : '';
      out.push(`{ const v = x[k]; if (v === null) { ${onNull} } else if (typeof v === 'object') { ${Builder.descend(this.walkFor(c), 'v', 'k')} } }`);
    } else if (!skip) {
      out.push('if (t !== undefined && (!isMeta(k) || t.segs.length > 0)) t.record(k); delete x[k];');
    }
    out.push('} }');
    // Defaults go in after the node is pruned, and are defaulted but not pruned themselves.
    for (const f of d?.props ?? []) {
      // Written per property, so that the store of each default is a named one at its own site.
      const k = JSON.stringify(f.key);
      const def = f.s.default;
      const value = def !== null && typeof def === 'object' ? `copy(${this.ref(def)})` : this.ref(def);
      const inner = def !== null && typeof def === 'object' && defaultsBelow(f.s, this.below) ? ` ${this.ref(compileDefaulter(f.s))}(x[${k}]);` : '';
      // Missing (or null where not nullable): a read answers for a key that is there, hasOwn only
      // for one that is not (a builtin call, where the read is an inline cache hit). Keys that
      // Object.prototype has are read through it, so they keep the call.
      const onProto = f.key in Object.prototype || f.key === '__proto__';
      const missing = onProto
        ? `!hasOwn(x, ${k})${f.nullable ? '' : ` || x[${k}] === null`}`
        : f.nullable
          ? `x[${k}] === undefined && !hasOwn(x, ${k})`
          : `x[${k}] === undefined ? !hasOwn(x, ${k}) : x[${k}] === null`;
      out.push(`if (${missing}) { x[${k}] = ${value};${inner} }`);
    }
    out.push('}');
    return out.join('\n');
  }
}

/** A default to put in, then to default inside (compileDefaulter's pass over what it put in). */
class Fill {
  private inner: Defaulter | undefined;
  private readonly copy: boolean;

  constructor(
    readonly key: string,
    readonly s: Structural,
    readonly nullable: boolean,
  ) {
    const def = s.default;
    this.copy = def !== null && typeof def === 'object';
  }

  apply(x: Record<string, unknown> | unknown[], k: string | number): void {
    const v = this.copy ? deepCopyJSON(this.s.default) : this.s.default;
    (x as Record<string | number, unknown>)[k] = v;
    if (v !== null && typeof v === 'object') (this.inner ??= compileDefaulter(this.s))(v);
  }
}

/** What Default fills in at one node: properties with a default, and nulls of items and additionalProperties. */
function nodeDefaults(s: Structural): { props?: Fill[]; items?: Fill; ap?: Fill } {
  const props: Fill[] = [];
  if (s.properties) for (const [k, p] of s.properties) if (p.default !== undefined) props.push(new Fill(k, p, p.nullable));
  // A null item or additionalProperties value of a non-nullable schema becomes its default
  // (without a default it stays null, or the null pass has dropped it).
  const nullFill = (c: Structural | undefined) => (c !== undefined && !c.nullable && c.default !== undefined ? new Fill('', c, false) : undefined);
  return { props: props.length > 0 ? props : undefined, items: nullFill(s.items), ap: nullFill(s.additionalProperties?.structural) };
}
