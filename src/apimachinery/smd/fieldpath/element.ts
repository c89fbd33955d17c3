/**
 * Path elements and paths (structured-merge-diff `fieldpath`): a field name (`.spec`), the key of
 * an associative list item (`[name="a",port=80]`), a set member's value (`[="x"]`) or a list index
 * (`[0]`); their total order (fields < keys < values < indexes), how they print in messages, and
 * their FieldsV1 serialization (`f:spec`, `k:{"name":"a"}`, `v:"x"`, `i:0`).
 */
import { goJSON } from '../../field/govalue.ts';
import { compare, compareStrings, equals, toString, type Value } from '../value.ts';

/** One (name, value) of an associative list item's key, kept sorted by name. */
export interface KeyField {
  name: string;
  value: Value;
}

export type PathElement =
  | { readonly kind: 'field'; readonly name: string }
  | { readonly kind: 'key'; readonly fields: readonly KeyField[] }
  | { readonly kind: 'value'; readonly value: Value }
  | { readonly kind: 'index'; readonly index: number };

export type Path = readonly PathElement[];

export function fieldElement(name: string): PathElement {
  return { kind: 'field', name };
}

/** A key element; the fields are sorted by name here, so callers may pass them in any order. */
export function keyElement(fields: readonly KeyField[]): PathElement {
  return { kind: 'key', fields: sortKeyFields(fields) };
}

export function valueElement(value: Value): PathElement {
  return { kind: 'value', value };
}

export function indexElement(index: number): PathElement {
  return { kind: 'index', index };
}

/** value.FieldList.Sort: a stable sort by name. */
export function sortKeyFields(fields: readonly KeyField[]): KeyField[] {
  return [...fields].sort((a, b) => compareStrings(a.name, b.name));
}

const kindRank = { field: 0, key: 1, value: 2, index: 3 } as const;

function compareKeyFields(a: readonly KeyField[], b: readonly KeyField[]): number {
  for (let i = 0; ; i++) {
    if (i >= a.length && i >= b.length) return 0;
    if (i >= a.length) return -1;
    if (i >= b.length) return 1;
    const c = compareStrings(a[i]!.name, b[i]!.name) || compare(a[i]!.value, b[i]!.value);
    if (c !== 0) return c;
  }
}

/** PathElement.Compare. */
export function compareElements(a: PathElement, b: PathElement): number {
  if (a.kind !== b.kind) return kindRank[a.kind] - kindRank[b.kind] < 0 ? -1 : 1;
  switch (a.kind) {
    case 'field':
      return compareStrings(a.name, (b as typeof a).name);
    case 'key':
      return compareKeyFields(a.fields, (b as typeof a).fields);
    case 'value':
      return compare(a.value, (b as typeof a).value);
    case 'index': {
      const j = (b as typeof a).index;
      return a.index < j ? -1 : a.index > j ? 1 : 0;
    }
  }
}

/** PathElement.Equals. */
export function elementsEqual(a: PathElement, b: PathElement): boolean {
  if (a.kind !== b.kind) return false;
  switch (a.kind) {
    case 'field':
      return a.name === (b as typeof a).name;
    case 'key': {
      const bf = (b as typeof a).fields;
      return a.fields.length === bf.length && a.fields.every((f, i) => f.name === bf[i]!.name && equals(f.value, bf[i]!.value));
    }
    case 'value':
      return equals(a.value, (b as typeof a).value);
    case 'index':
      return a.index === (b as typeof a).index;
  }
}

/** PathElement.String: `.name`, `[k=v,...]`, `[=v]`, `[i]`. */
export function elementString(e: PathElement): string {
  switch (e.kind) {
    case 'field':
      return '.' + e.name;
    case 'key':
      return '[' + e.fields.map((f) => `${f.name}=${toString(f.value)}`).join(',') + ']';
    case 'value':
      return `[=${toString(e.value)}]`;
    case 'index':
      return `[${e.index}]`;
  }
}

/** Path.String: the elements' strings concatenated (`.spec.containers[name="a"].image`). */
export function pathString(p: Path): string {
  return p.map(elementString).join('');
}

export function comparePaths(a: Path, b: Path): number {
  for (let i = 0; ; i++) {
    if (i >= a.length && i >= b.length) return 0;
    if (i >= a.length) return -1;
    if (i >= b.length) return 1;
    const c = compareElements(a[i]!, b[i]!);
    if (c !== 0) return c;
  }
}

export function pathsEqual(a: Path, b: Path): boolean {
  return a.length === b.length && a.every((e, i) => elementsEqual(e, b[i]!));
}

/** Thrown by deserializeElement for a prefix other than f, k, v or i (callers skip such keys). */
export class UnknownPathElementTypeError extends Error {
  constructor() {
    super('unknown path element type');
  }
}

/** SerializePathElement: the FieldsV1 key of an element. Field names are written raw. */
export function serializeElement(e: PathElement): string {
  switch (e.kind) {
    case 'field':
      return 'f:' + e.name;
    case 'key':
      return 'k:{' + e.fields.map((f) => `${goJSON(f.name)}:${goJSON(f.value)}`).join(',') + '}';
    case 'value':
      return 'v:' + goJSON(e.value);
    case 'index':
      return 'i:' + e.index;
  }
}

const atoiRe = /^[+-]?[0-9]+$/;

function parseJSONValue(s: string): Value {
  // encoding/json-compatible readers take any one value with surrounding whitespace.
  return JSON.parse(s) as Value;
}

/**
 * DeserializePathElement. Throws an Error for a malformed key and UnknownPathElementTypeError
 * for an unknown prefix.
 */
export function deserializeElement(s: string): PathElement {
  if (s.length < 2) throw new Error('key must be 2 characters long:');
  if (s[1] !== ':') throw new Error(`missing colon: ${s}`);
  const rest = s.slice(2);
  switch (s[0]) {
    case 'f':
      return fieldElement(rest);
    case 'v':
      return valueElement(parseJSONValue(rest));
    case 'k': {
      const v = parseJSONValue(rest);
      if (v === null || typeof v !== 'object' || Array.isArray(v)) throw new Error(`ReadObjectCB: expect { or n, but found ${rest.trim()[0] ?? ''}`);
      return keyElement(Object.entries(v as Record<string, unknown>).map(([name, value]) => ({ name, value })));
    }
    case 'i': {
      if (!atoiRe.test(rest)) throw new Error(`strconv.Atoi: parsing ${JSON.stringify(rest)}: invalid syntax`);
      const n = Number(rest);
      if (!Number.isSafeInteger(n)) throw new Error(`strconv.Atoi: parsing ${JSON.stringify(rest)}: value out of range`);
      return indexElement(n);
    }
    default:
      throw new UnknownPathElementTypeError();
  }
}
