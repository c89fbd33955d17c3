/**
 * FieldsV1: the JSON form of a field set in `metadata.managedFields[*].fieldsV1`, byte for byte
 * as structured-merge-diff writes it. Each path element is a key (`f:`, `k:`, `v:`, `i:`); a
 * member that also has children writes `".": {}` inside them; keys follow the elements' order
 * (fields, then keys, values, indexes), not JSON's.
 */
import { goJSON } from '../../field/govalue.ts';
import { compareElements, deserializeElement, serializeElement, UnknownPathElementTypeError } from './element.ts';
import { FieldSet } from './set.ts';

/** Set.ToJSON. */
export function setToJSON(s: FieldSet): string {
  return '{' + contents(s, false) + '}';
}

function contents(s: FieldSet, includeSelf: boolean): string {
  const parts: string[] = [];
  if (includeSelf && !(s.members.length === 0 && s.children.length === 0)) parts.push('".":{}');
  let mi = 0;
  let ci = 0;
  // Inline, not helper closures: this runs for every node of every managedFields entry written.
  while (mi < s.members.length && ci < s.children.length) {
    const c = compareElements(s.members[mi]!, s.children[ci]!.pe);
    if (c < 0) parts.push(memberPart(s, mi++));
    else if (c > 0) parts.push(childPart(s, ci++, false));
    else {
      parts.push(childPart(s, ci++, true));
      mi++;
    }
  }
  while (mi < s.members.length) parts.push(memberPart(s, mi++));
  while (ci < s.children.length) parts.push(childPart(s, ci++, false));
  return parts.join(',');
}

function memberPart(s: FieldSet, i: number): string {
  return goJSON(serializeElement(s.members[i]!)) + ':{}';
}

function childPart(s: FieldSet, i: number, self: boolean): string {
  const c = s.children[i]!;
  return goJSON(serializeElement(c.pe)) + ':{' + contents(c.set, self) + '}';
}

/** A FieldsV1 document that is not a valid field set. */
export class FieldsV1Error extends Error {}

/**
 * Set.FromJSON: parses FieldsV1. Unknown element prefixes are skipped, as upstream does so that
 * newer element kinds do not break older readers. Throws FieldsV1Error when the text is not JSON,
 * is not an object of objects, or holds a malformed key.
 */
export function setFromJSON(text: string): FieldSet {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (e) {
    throw new FieldsV1Error((e as Error).message);
  }
  if (doc === null) return new FieldSet();
  if (typeof doc !== 'object' || Array.isArray(doc)) throw new FieldsV1Error('ReadMapCB: expect { or n');
  return read(doc as Record<string, unknown>).children ?? new FieldSet();
}

function read(obj: Record<string, unknown>): { children?: FieldSet; isMember: boolean } {
  let children: FieldSet | undefined;
  let isMember = false;
  for (const [key, v] of Object.entries(obj)) {
    if (v !== null && (typeof v !== 'object' || Array.isArray(v))) throw new FieldsV1Error('ReadMapCB: expect { or n');
    if (key === '.') {
      isMember = true;
      continue;
    }
    let pe;
    try {
      pe = deserializeElement(key);
    } catch (e) {
      if (e instanceof UnknownPathElementTypeError) continue;
      throw new FieldsV1Error(`parsing key as path element: ${(e as Error).message}`);
    }
    const sub = v === null ? { isMember: true } : read(v as Record<string, unknown>);
    if (sub.isMember) {
      children ??= new FieldSet();
      children.insert([pe]);
    }
    if (sub.children !== undefined) {
      children ??= new FieldSet();
      const existing = children.child(pe);
      if (existing !== undefined) {
        existing.members = sub.children.members;
        existing.children = sub.children.children;
      } else {
        children.descend(pe);
        const c = children.child(pe)!;
        c.members = sub.children.members;
        c.children = sub.children.children;
      }
    }
  }
  if (children === undefined) isMember = true;
  return { children, isMember };
}

