/**
 * Compiled x-kubernetes-validations rules, shared by what they are compiled from. A CRD's rules
 * are compiled when the CRD is written (to check them and their cost) and again when its first
 * custom resource is validated; the `validate` command compiles them for every CRD it reads, and
 * real CRD sets repeat rules (versions with one schema, the same CRD under several groups). What
 * compiling a node's rules yields depends only on the rules, the node's declared CEL type (its
 * fields, element and key types, size estimates and unbounded sizes), the options, and (for a
 * rule's fieldPath) the node's schema, so one compilation serves every request for equal inputs.
 *
 * The cache holds compilations strongly (a write-time check is usually followed by serving only
 * seconds or minutes later, long after a weakly held value would be collected), the most recently
 * used first, up to a fixed number of rule lists.
 */
import { createHash } from 'node:crypto';
import { formatType } from '../../cel/index.ts';
import { structuralToSchema, type Structural } from '../structural.ts';
import type { ValidationRule } from '../types.ts';
import { unboundedKeyword, type DeclType } from './types.ts';

/** How many nodes' compiled rules are kept (a few kB each; real CRD sets have a few thousand). */
const capacity = 8192;

const entries = new Map<string, object>();
const typeKeys = new WeakMap<DeclType, string>();

/**
 * Numbers of declared types by content: a type's content is written with its nested types' numbers
 * (so each type is read once however deep it sits), and equal content gets the same number. A
 * number is never given to two contents: when the table is dropped (it is bounded, as a long-lived
 * server meets ever new types), contents met again get new numbers, which can only miss the cache.
 */
const typeNumbers = new Map<string, number>();
const typeNumberCapacity = 1 << 17;
let nextTypeNumber = 0;

/**
 * The content number of everything about a declared type that compiling a rule against it can
 * observe: kind, name, CEL type of scalars, the size estimates and the keyword that would bound it,
 * fields (escaped and JSON names, required) and element and key types, recursively. Memoized per
 * type object, so that the types of nested nodes, shared with their parents, are read once.
 */
function declTypeKey(t: DeclType): string {
  const known = typeKeys.get(t);
  if (known !== undefined) return known;
  let content = `${t.kind}\u0000${t.name}\u0000${t.kind === 'scalar' ? formatType(t.celType) : ''}\u0000${t.maxElements}\u0000${t.minSerializedSize}\u0000${unboundedKeyword(t) ?? ''}`;
  if (t.fields !== undefined) {
    for (const f of t.fields.values()) content += `\u0000f${f.name}\u0001${f.property}\u0001${f.required ? 1 : 0}\u0001${declTypeKey(f.type)}`;
  }
  if (t.elemType !== undefined) content += `\u0000e${declTypeKey(t.elemType)}`;
  if (t.keyType !== undefined) content += `\u0000k${declTypeKey(t.keyType)}`;
  let n = typeNumbers.get(content);
  if (n === undefined) {
    if (typeNumbers.size >= typeNumberCapacity) typeNumbers.clear();
    typeNumbers.set(content, (n = nextTypeNumber++));
  }
  const key = String(n);
  typeKeys.set(t, key);
  return key;
}

/** The cache key of compiling `rules` on node `s` of type `declType` with `options` (a JSON-able value). */
export function ruleCacheKey(s: Structural, rules: readonly ValidationRule[], declType: DeclType, options: unknown): string {
  const h = createHash('sha256').update(JSON.stringify([rules, options])).update('\u0000').update(declTypeKey(declType));
  // A rule's fieldPath is resolved against the node's schema, which the type does not fully say.
  if (rules.some((r) => typeof r.fieldPath === 'string' && r.fieldPath !== '')) h.update(JSON.stringify(structuralToSchema(s)) ?? '');
  return h.digest('base64');
}

/** The compilation cached under key, else build()'s result, cached. Holders must not mutate it. */
export function cachedRules<T extends object>(key: string, build: () => T): T {
  const hit = entries.get(key);
  if (hit !== undefined) {
    entries.delete(key);
    entries.set(key, hit);
    return hit as T;
  }
  const v = build();
  entries.set(key, v);
  if (entries.size > capacity) entries.delete(entries.keys().next().value!);
  return v;
}

/** How many rule lists are cached (for tests). */
export function cachedRuleCount(): number {
  return entries.size;
}
