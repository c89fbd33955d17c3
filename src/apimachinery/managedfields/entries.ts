/**
 * `metadata.managedFields` to and from structured-merge-diff's managed fields
 * (k8s.io/apimachinery `managedfields/internal/managedfields.go`): each entry's identity
 * (manager, operation, apiVersion unless applied, subresource) is its manager key, its FieldsV1 its
 * set, its time kept beside. Encoding sorts entries as kube-apiserver does: operation, time,
 * manager, apiVersion, subresource.
 */
import { GoJSONText, goJSON } from '../field/govalue.ts';
import { versionedSet, type ManagedFields } from '../smd/fieldpath/managers.ts';
import { compareElements, serializeElement } from '../smd/fieldpath/element.ts';
import { FieldSet } from '../smd/fieldpath/set.ts';
import { setFromJSON, setToJSON } from '../smd/fieldpath/serialize.ts';
import type { ManagedFieldsEntry } from '../validation/objectmeta-decode.ts';

export type { ManagedFieldsEntry };

/** Managed fields with the time each manager last changed the object (RFC 3339, or undefined). */
export interface Managed {
  fields: ManagedFields;
  times: Map<string, string | undefined>;
}

export function emptyManaged(): Managed {
  return { fields: new Map(), times: new Map() };
}

/** A ManagedFieldsEntry as encoding/json writes it: struct order, empty fields omitted. */
function entryJSON(e: ManagedFieldsEntry): string {
  const parts: string[] = [];
  if (e.manager) parts.push(`"manager":${goJSON(e.manager)}`);
  if (e.operation) parts.push(`"operation":${goJSON(e.operation)}`);
  if (e.apiVersion) parts.push(`"apiVersion":${goJSON(e.apiVersion)}`);
  if (e.time) parts.push(`"time":${goJSON(e.time)}`);
  if (e.fieldsType) parts.push(`"fieldsType":${goJSON(e.fieldsType)}`);
  if (e.subresource) parts.push(`"subresource":${goJSON(e.subresource)}`);
  return `{${parts.join(',')}}`;
}

/**
 * BuildManagerIdentifier: the key of an entry's manager — its JSON without fields and time, and
 * without the apiVersion of an Apply (an applier owns its fields whatever version it applies at).
 */
export function buildManagerIdentifier(e: ManagedFieldsEntry): string {
  return entryJSON({
    manager: e.manager,
    operation: e.operation,
    apiVersion: e.operation === 'Apply' ? '' : e.apiVersion,
    subresource: e.subresource,
  });
}

/** The entry a manager identifier stands for (its manager, operation, apiVersion, subresource). */
export function parseManagerIdentifier(id: string): ManagedFieldsEntry {
  const o = JSON.parse(id) as Record<string, unknown>;
  const e: ManagedFieldsEntry = {};
  if (typeof o.manager === 'string') e.manager = o.manager;
  if (typeof o.operation === 'string') e.operation = o.operation;
  if (typeof o.apiVersion === 'string') e.apiVersion = o.apiVersion;
  if (typeof o.time === 'string') e.time = o.time;
  if (typeof o.subresource === 'string') e.subresource = o.subresource;
  return e;
}

/** Go's time.Time.String() of an RFC 3339 UTC timestamp (`2019-01-01 00:00:00 +0000 UTC`). */
function goTimeString(t: string): string {
  const d = new Date(t);
  if (Number.isNaN(d.getTime())) return t;
  return d.toISOString().replace('T', ' ').replace(/\.000Z$/, '').replace(/Z$/, '') + ' +0000 UTC';
}

function fieldsText(f: unknown): string {
  if (f instanceof GoJSONText) return f.text;
  if (typeof f === 'string') return f;
  return JSON.stringify(f);
}

/** Go's %v of a ManagedFieldsEntry, as decoding errors print the entry. */
function entryV(e: ManagedFieldsEntry): string {
  const time = e.time ? goTimeString(e.time) : '<nil>';
  const fields = e.fieldsV1 === undefined || e.fieldsV1 === null ? '<nil>' : fieldsText(e.fieldsV1);
  return `{${e.manager ?? ''} ${e.operation ?? ''} ${e.apiVersion ?? ''} ${time} ${e.fieldsType ?? ''} ${fields} ${e.subresource ?? ''}}`;
}

/**
 * The sets of the FieldsV1 documents decoded last, by their text: an object's entries are read
 * again on each of its writes, and most are unchanged since the last one. Sets are immutable
 * (every operation returns a new one), so one decoded set serves every write that reads its
 * text; the set's identity also lets per-set results (reconciliation with the schema) be kept.
 */
const decoded = new Map<string, FieldSet>();
const decodedMax = 1024;
/** Larger documents are decoded each time rather than held. */
const decodedMaxText = 64 * 1024;

function decodedSet(text: string): FieldSet {
  let set = decoded.get(text);
  if (set !== undefined) return set;
  set = setFromJSON(text);
  if (text.length > decodedMaxText) return set;
  if (decoded.size >= decodedMax) decoded.delete(decoded.keys().next().value!);
  decoded.set(text, set);
  return set;
}

/** A managedFields list that cannot be decoded; the message is upstream's. */
export class ManagedFieldsDecodeError extends Error {}

/** DecodeManagedFields. Throws ManagedFieldsDecodeError. */
export function decodeManagedFields(entries: readonly ManagedFieldsEntry[] | null | undefined): Managed {
  const managed = emptyManaged();
  (entries ?? []).forEach((e, i) => {
    if (e.operation !== 'Apply' && e.operation !== 'Update') throw new ManagedFieldsDecodeError('operation must be `Apply` or `Update`');
    if (!e.apiVersion) throw new ManagedFieldsDecodeError('apiVersion must not be empty');
    if (!e.fieldsType) throw new ManagedFieldsDecodeError(`missing fieldsType in managed fields entry ${i}`);
    if (e.fieldsType !== 'FieldsV1') throw new ManagedFieldsDecodeError(`invalid fieldsType ${JSON.stringify(e.fieldsType)} in managed fields entry ${i}`);
    const manager = buildManagerIdentifier(e);
    let set;
    try {
      set = e.fieldsV1 === undefined || e.fieldsV1 === null ? new FieldSet() : decodedSet(fieldsText(e.fieldsV1));
    } catch (err) {
      throw new ManagedFieldsDecodeError(`error decoding versioned set from ${entryV(e)}: error decoding set: ${(err as Error).message}`);
    }
    managed.fields.set(manager, versionedSet(set, e.apiVersion, e.operation === 'Apply'));
    managed.times.set(manager, e.time ?? undefined);
  });
  return managed;
}

/**
 * The entries of managed fields, sorted (encodeManagedFields); undefined when there are none. Each
 * fieldsV1 is a plain object whose keys are in upstream's order (the path elements' order, not the
 * alphabet's; no key is integer-like, so JSON.stringify keeps it): a writer that sorts keys, as
 * goJSON does, would change the bytes clients see.
 */
export function encodeManagedFields(managed: Managed): ManagedFieldsEntry[] | undefined {
  if (managed.fields.size === 0) return undefined;
  const out: ManagedFieldsEntry[] = [];
  for (const [manager, vs] of managed.fields) {
    const id = parseManagerIdentifier(manager);
    const e: ManagedFieldsEntry = { manager: id.manager, operation: vs.applied ? 'Apply' : id.operation };
    e.apiVersion = vs.apiVersion;
    const t = managed.times.get(manager);
    if (t) e.time = t;
    e.fieldsType = 'FieldsV1';
    e.fieldsV1 = setToFieldsV1(vs.set);
    if (id.subresource) e.subresource = id.subresource;
    if (!e.manager) delete e.manager;
    if (!e.operation) delete e.operation;
    out.push(e);
  }
  return sortManagedFieldsEntries(out)!;
}

/**
 * JSON.parse(setToJSON(s)) built directly: the same members in the same order (no FieldsV1 key
 * is integer-like, so the object keeps them as written), without writing and reading the text
 * on every write.
 */
export function setToFieldsV1(s: FieldSet): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  fill(out, s, false);
  return out;
}

function fill(out: Record<string, unknown>, s: FieldSet, includeSelf: boolean): void {
  if (includeSelf && !(s.members.length === 0 && s.children.length === 0)) out['.'] = {};
  let mi = 0;
  let ci = 0;
  while (mi < s.members.length || ci < s.children.length) {
    const m = s.members[mi];
    const c = s.children[ci];
    const order = m === undefined ? 1 : c === undefined ? -1 : compareElements(m, c.pe);
    if (order < 0) {
      out[keyOf(serializeElement(m!))] = {};
      mi++;
      continue;
    }
    const sub: Record<string, unknown> = {};
    fill(sub, c!.set, order === 0);
    out[keyOf(serializeElement(c!.pe))] = sub;
    ci++;
    if (order === 0) mi++;
  }
}

/** The key as the text would read back: a lone surrogate is written (and so read) as U+FFFD. */
function keyOf(k: string): string {
  // A loop over the key's code units, not a regex call: this runs for every key of every entry.
  for (let i = 0; i < k.length; i++) {
    const c = k.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdfff) return JSON.parse(goJSON(k)) as string;
  }
  return k;
}

/** Whole seconds, as metav1.Time.Unix(): the fraction (nanoseconds in Go) does not count. */
function seconds(t: string | null | undefined): number {
  return t ? Math.floor(Date.parse(t.replace(/\.[0-9]+/, '')) / 1000) : 0;
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * sortEncodedManagedFields: Apply before Update, then by time (whole seconds; no time first), manager,
 * apiVersion and subresource. Sorts in place and returns the list.
 */
export function sortManagedFieldsEntries<T extends ManagedFieldsEntry[] | null | undefined>(entries: T): T {
  if (entries === null || entries === undefined || entries.length < 2) return entries;
  entries.sort(
    (p, q) =>
      cmp(p.operation ?? '', q.operation ?? '') ||
      seconds(p.time) - seconds(q.time) ||
      cmp(p.manager ?? '', q.manager ?? '') ||
      cmp(p.apiVersion ?? '', q.apiVersion ?? '') ||
      cmp(p.subresource ?? '', q.subresource ?? ''),
  );
  return entries;
}

/**
 * isResetManagedFields: an update that sends `managedFields: []` (or one empty entry) asks for
 * them to be cleared.
 */
export function isResetManagedFields(entries: readonly ManagedFieldsEntry[] | null | undefined): boolean {
  if (entries === undefined || entries === null) return false;
  if (entries.length === 0) return true;
  if (entries.length === 1) {
    const e = entries[0]!;
    return Object.values(e).every((v) => v === undefined || v === '' || v === null);
  }
  return false;
}
