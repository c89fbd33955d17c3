/**
 * Sets of field paths (structured-merge-diff `fieldpath.Set`): a trie whose nodes hold the
 * members ending there and the children below, both sorted by path element. Every operation
 * returns a new set except `insert`, which mutates (its doc says so); this is what managedFields
 * are made of, and what apply compares, intersects and subtracts.
 */
import type { Schema, TypeRef } from '../schema/schema.ts';
import { resolve, findField } from '../schema/schema.ts';
import { compareElements, elementsEqual, pathString, type Path, type PathElement } from './element.ts';

interface Child {
  pe: PathElement;
  set: FieldSet;
}

function search<T>(arr: readonly T[], pe: PathElement, key: (t: T) => PathElement): { i: number; found: boolean } {
  let lo = 0;
  let hi = arr.length;
  while (lo < hi) {
    const m = (lo + hi) >>> 1;
    if (compareElements(key(arr[m]!), pe) < 0) lo = m + 1;
    else hi = m;
  }
  return { i: lo, found: lo < arr.length && compareElements(key(arr[lo]!), pe) === 0 };
}

const self = (pe: PathElement) => pe;
const childPE = (c: Child) => c.pe;

export class FieldSet {
  /** Members ending at this node, sorted. */
  members: PathElement[];
  /** Child sets, sorted by their element. */
  children: Child[];

  constructor(members: PathElement[] = [], children: Child[] = []) {
    this.members = members;
    this.children = children;
  }

  static of(...paths: Path[]): FieldSet {
    const s = new FieldSet();
    for (const p of paths) s.insert(p);
    return s;
  }

  /** Adds a path. Mutates this set. */
  insert(p: Path): void {
    if (p.length === 0) return;
    // eslint-disable-next-line @typescript-eslint/no-this-alias
    let s: FieldSet = this;
    for (let i = 0; i < p.length - 1; i++) s = s.descend(p[i]!);
    const last = p[p.length - 1]!;
    const r = search(s.members, last, self);
    if (!r.found) s.members.splice(r.i, 0, last);
  }

  /** The child set under pe, created when missing. Mutates this set. */
  descend(pe: PathElement): FieldSet {
    const r = search(this.children, pe, childPE);
    if (r.found) return this.children[r.i]!.set;
    const set = new FieldSet();
    this.children.splice(r.i, 0, { pe, set });
    return set;
  }

  /** The child set under pe, if any. */
  child(pe: PathElement): FieldSet | undefined {
    const r = search(this.children, pe, childPE);
    return r.found ? this.children[r.i]!.set : undefined;
  }

  hasMember(pe: PathElement): boolean {
    return search(this.members, pe, self).found;
  }

  has(p: Path): boolean {
    if (p.length === 0) return false;
    let s: FieldSet | undefined = this;
    for (let i = 0; i < p.length - 1; i++) {
      s = s.child(p[i]!);
      if (s === undefined) return false;
    }
    return s.hasMember(p[p.length - 1]!);
  }

  /** The subset below pe (empty when there is none): WithPrefix. */
  withPrefix(pe: PathElement): FieldSet {
    return this.child(pe) ?? new FieldSet();
  }

  empty(): boolean {
    return this.members.length === 0 && this.children.every((c) => c.set.empty());
  }

  size(): number {
    return this.members.length + this.children.reduce((n, c) => n + c.set.size(), 0);
  }

  copy(): FieldSet {
    return new FieldSet([...this.members], this.children.map((c) => ({ pe: c.pe, set: c.set.copy() })));
  }

  equals(o: FieldSet): boolean {
    if (this.members.length !== o.members.length || this.children.length !== o.children.length) return false;
    if (!this.members.every((m, i) => elementsEqual(m, o.members[i]!))) return false;
    return this.children.every((c, i) => elementsEqual(c.pe, o.children[i]!.pe) && c.set.equals(o.children[i]!.set));
  }

  union(o: FieldSet): FieldSet {
    const members = mergeSorted(this.members, o.members, true, true, true);
    const children = zipChildren(this.children, o.children, (a, b) => (a && b ? { pe: a.pe, set: a.set.union(b.set) } : (a ?? b)));
    return new FieldSet(members, children);
  }

  intersection(o: FieldSet): FieldSet {
    const members = mergeSorted(this.members, o.members, false, true, false);
    const children = zipChildren(this.children, o.children, (a, b) => (a && b ? nonEmpty(a.pe, a.set.intersection(b.set)) : undefined));
    return new FieldSet(members, children);
  }

  /** Members of this set not in o; a child survives where o has no member for it. */
  difference(o: FieldSet): FieldSet {
    const members = mergeSorted(this.members, o.members, true, false, false);
    const children = zipChildren(this.children, o.children, (a, b) => (a && b ? nonEmpty(a.pe, a.set.difference(b.set)) : a));
    return new FieldSet(members, children);
  }

  /** Like difference, but a member of o also removes everything below it. */
  recursiveDifference(o: FieldSet): FieldSet {
    const members = mergeSorted(this.members, o.members, true, false, false);
    const children = zipChildren(this.children, o.children, (a, b) => {
      if (a === undefined || o.hasMember(a.pe)) return undefined;
      return b ? nonEmpty(a.pe, a.set.recursiveDifference(b.set)) : a;
    });
    return new FieldSet(members, children);
  }

  /** The members that have no children: Leaves. */
  leaves(): FieldSet {
    const members = this.members.filter((m) => {
      const c = this.child(m);
      return c === undefined;
    });
    return new FieldSet(
      members,
      this.children.map((c) => ({ pe: c.pe, set: c.set.leaves() })),
    );
  }

  /**
   * EnsureNamedFieldsAreMembers: a child that is a field the schema declares becomes a member too
   * (older managedFields held such fields only as parents of their children).
   */
  ensureNamedFieldsAreMembers(sc: Schema, tr: TypeRef): FieldSet {
    const atom = resolve(sc, tr);
    const members = [...this.members];
    const children: Child[] = [];
    for (const c of this.children) {
      let ctr: TypeRef = {};
      if (c.pe.kind === 'field' && atom?.map !== undefined) {
        ctr = atom.map.elementType ?? {};
        const sf = findField(atom.map, c.pe.name);
        if (sf !== undefined) {
          const r = search(members, c.pe, self);
          if (!r.found) members.splice(r.i, 0, c.pe);
          ctr = sf.type;
        }
      } else if (c.pe.kind === 'key' && atom?.list !== undefined) {
        ctr = atom.list.elementType;
      }
      children.push({ pe: c.pe, set: c.set.ensureNamedFieldsAreMembers(sc, ctr) });
    }
    return new FieldSet(members, children);
  }

  /** Every path, in order: members of a node first, then its children's. */
  paths(): Path[] {
    const out: Path[] = [];
    const walk = (s: FieldSet, prefix: PathElement[]) => {
      for (const m of s.members) out.push([...prefix, m]);
      for (const c of s.children) walk(c.set, [...prefix, c.pe]);
    };
    walk(this, []);
    return out;
  }

  /** Set.String: one path per line. */
  toString(): string {
    return this.paths().map(pathString).join('\n');
  }
}

/** A sorted merge of two sorted element lists keeping the parts asked for. */
function mergeSorted(a: readonly PathElement[], b: readonly PathElement[], onlyA: boolean, both: boolean, onlyB: boolean): PathElement[] {
  const out: PathElement[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const c = compareElements(a[i]!, b[j]!);
    if (c < 0) {
      if (onlyA) out.push(a[i]!);
      i++;
    } else if (c > 0) {
      if (onlyB) out.push(b[j]!);
      j++;
    } else {
      if (both) out.push(a[i]!);
      i++;
      j++;
    }
  }
  if (onlyA) out.push(...a.slice(i));
  if (onlyB) out.push(...b.slice(j));
  return out;
}

/** Walks two sorted child lists together; f sees each element's child on either side or both. */
function zipChildren(a: readonly Child[], b: readonly Child[], f: (a: Child | undefined, b: Child | undefined) => Child | undefined): Child[] {
  const out: Child[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    const c = i >= a.length ? 1 : j >= b.length ? -1 : compareElements(a[i]!.pe, b[j]!.pe);
    const kept = c < 0 ? f(a[i++], undefined) : c > 0 ? f(undefined, b[j++]) : f(a[i++], b[j++]);
    if (kept !== undefined) out.push(kept);
  }
  return out;
}

function nonEmpty(pe: PathElement, set: FieldSet): Child | undefined {
  return set.empty() ? undefined : { pe, set };
}

/** Matches one path element: a given one or, with wildcard, any. */
export interface PathElementMatcher {
  wildcard?: boolean;
  pe?: PathElement;
}

/** SetMatcher: which paths a filter keeps. */
export interface SetMatcher {
  wildcard: boolean;
  members: { path: PathElementMatcher; child: SetMatcher }[];
}

export function matchAnySet(): SetMatcher {
  return { wildcard: true, members: [] };
}

/** PrefixMatcher: paths that start with the given elements (a wildcard element matches any). */
export function prefixMatcher(...parts: PathElementMatcher[]): SetMatcher {
  let current = matchAnySet();
  for (let i = parts.length - 1; i >= 0; i--) current = { wildcard: false, members: [{ path: parts[i]!, child: current }] };
  return current;
}

function matches(m: PathElementMatcher, pe: PathElement): boolean {
  return m.wildcard === true || (m.pe !== undefined && elementsEqual(m.pe, pe));
}

/** FilterIncludeMatches: the subset of s that the pattern matches. */
export function filterIncludeMatches(s: FieldSet, pattern: SetMatcher): FieldSet {
  if (pattern.wildcard) return s;
  const members = s.members.filter((m) => pattern.members.some((pm) => matches(pm.path, m)));
  const children: Child[] = [];
  for (const c of s.children) {
    const pm = pattern.members.find((p) => matches(p.path, c.pe));
    if (pm === undefined) continue;
    const sub = filterIncludeMatches(c.set, pm.child);
    if (sub.size() > 0) children.push({ pe: c.pe, set: sub });
  }
  return new FieldSet(members, children);
}

/** A Filter: what Updater applies to field sets of a version (status/spec reset fields). */
export interface Filter {
  filter(s: FieldSet): FieldSet;
}

/** NewExcludeSetFilter: drops the given paths and everything below them. */
export function excludeSetFilter(exclude: FieldSet): Filter {
  return { filter: (s) => s.recursiveDifference(exclude) };
}

/** NewIncludeMatcherFilter: keeps only the paths some matcher matches. */
export function includeMatcherFilter(...matchers: SetMatcher[]): Filter {
  return {
    filter: (s) => {
      if (matchers.length === 0) return s;
      return matchers.map((m) => filterIncludeMatches(s, m)).reduce((a, b) => a.union(b));
    },
  };
}
