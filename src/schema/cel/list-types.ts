/**
 * The behaviour of x-kubernetes-list-type set and map lists as Kubernetes' CEL values define it
 * (k8s.io/apiserver pkg/cel/common/valuesunstructured.go, unstructuredSetList and
 * unstructuredMapList), attached to list values as the engine's ListBehavior:
 * - `==`: sets compare regardless of order (scalar elements only), map lists compare by their map
 *   keys, each element with its own semantics (the engine's equality), the left operand deciding;
 * - `+`: sets union (Add keeps the first occurrence), map lists merge by key (later items replace
 *   earlier ones with the same key, in place).
 * Objects' unseen fields take part in equality through values.ts (HIDDEN_FIELDS_KEY).
 */
import { CelError, CelMap, Duration, type ListBehavior, Timestamp, Uint, type Val, equality, formatValue, withListBehavior } from '../../cel/index.ts';
import { GoFloat } from '../../apimachinery/index.ts';
import { escape } from './escaping.ts';

const RAW = Symbol('raw object');

/**
 * The custom-resource object m was made from, recorded for the items of list-type=map lists (whose
 * equality reads the raw key fields); undefined for other values, CEL map literals and results.
 */
export function rawObjectOf(m: CelMap): Record<string, unknown> | undefined {
  return (m as unknown as { [RAW]?: Record<string, unknown> })[RAW];
}

/** Records the raw object a map-list item was converted from (see rawObjectOf). */
export function recordRawObject(m: CelMap, raw: Record<string, unknown>): CelMap {
  (m as unknown as { [RAW]?: Record<string, unknown> })[RAW] = raw;
  return m;
}

/** A scalar's identity for set membership (Go's raw value as a map key: type and value). */
function setElementKey(v: Val): string | CelError {
  if (Array.isArray(v) || v instanceof CelMap) return new CelError('listSet operations are only supported on lists of scalar values');
  switch (typeof v) {
    case 'string':
      return `s:${v}`;
    case 'bigint':
      return `i:${v}`;
    case 'number':
      return `d:${v}`;
    case 'boolean':
      return `b:${v}`;
  }
  if (v === null) return 'null';
  if (v instanceof Uint) return `u:${v.v}`;
  if (v instanceof Timestamp) return `t:${v.ns}`;
  if (v instanceof Duration) return `D:${v.ns}`;
  if (v instanceof Uint8Array) return `B:${Buffer.from(v).toString('hex')}`;
  return `o:${formatValue(v)}`;
}

/** The set-key of each element of a list, or the first error. */
function setKeys(l: readonly Val[]): Set<string> | CelError {
  const s = new Set<string>();
  for (const e of l) {
    const k = setElementKey(e);
    if (k instanceof CelError) return k;
    s.add(k);
  }
  return s;
}

/** unstructuredSetList.Equal, for lists of equal length. */
function setEqual(a: readonly Val[], b: readonly Val[]): boolean | CelError {
  const ta = setKeys(a);
  if (ta instanceof CelError) return ta;
  const seen = new Set<string>();
  for (const v of b) {
    const k = setElementKey(v);
    if (k instanceof CelError) return k;
    if (!ta.has(k)) return false;
    seen.add(k);
  }
  return seen.size === ta.size;
}

/** unstructuredSetList.Add: the union, in order of first occurrence. */
function setAdd(a: readonly Val[], b: readonly Val[]): Val {
  const elements = [...a];
  const set = setKeys(elements);
  if (set instanceof CelError) return set;
  for (const v of b) {
    const key = setElementKey(v);
    if (key instanceof CelError) return key;
    if (!set.has(key)) {
      set.add(key);
      elements.push(v);
    }
  }
  return withListBehavior(elements, SET_LIST);
}

/** The behaviour of list-type=set lists. */
export const SET_LIST: ListBehavior = { equal: setEqual, add: setAdd };

/**
 * unstructuredMapList.toMapKey for equality: the key of a list element, read from the raw object
 * under the escaped key names (so a key property whose name needs escaping reads as absent, as
 * upstream). Elements that are not custom-resource objects (map literals) have no key.
 */
function rawMapKey(e: Val, keys: readonly string[]): string | undefined {
  const raw = e instanceof CelMap ? rawObjectOf(e) : undefined;
  if (raw === undefined) return undefined;
  const parts: string[] = [];
  for (const k of keys) parts.push(rawKey(raw[escape(k) ?? k]));
  return parts.join('\x00');
}

/** A raw JSON scalar as a Go map key: its Go type and value. */
function rawKey(v: unknown): string {
  switch (typeof v) {
    case 'undefined':
      return 'nil';
    case 'string':
      return `s:${v}`;
    case 'bigint':
      return `i:${v}`;
    case 'number':
      return Number.isInteger(v) ? `i:${v}` : `d:${v}`;
    case 'boolean':
      return `b:${v}`;
  }
  if (v === null) return 'nil';
  if (v instanceof GoFloat) return `d:${v.value}`;
  return `x:${JSON.stringify(v)}`;
}

/** The key of a list element for `+`, read from its CEL fields (map literals included). */
function valueMapKey(e: Val, keys: readonly string[]): string {
  const parts = keys.map((k) => {
    const v = e instanceof CelMap ? e.m.get(escape(k) ?? k) : undefined;
    return v === undefined || v instanceof CelError ? 'nil' : `${typeof v}:${String(v)}`;
  });
  return parts.join('\x00');
}

const mapListBehaviors = new Map<string, ListBehavior>();

/** The behaviour of list-type=map lists with the given x-kubernetes-list-map-keys. */
export function mapList(keys: readonly string[]): ListBehavior {
  const id = keys.join('\x00');
  let lb = mapListBehaviors.get(id);
  if (lb !== undefined) return lb;
  const self: ListBehavior = {
    // unstructuredMapList.Equal, for lists of equal length.
    equal(a, b) {
      const byKey = new Map<string, Val>();
      for (const e of a) {
        const k = rawMapKey(e, keys);
        if (k !== undefined) byKey.set(k, e);
      }
      const seen = new Set<string>();
      for (const v of b) {
        const k = rawMapKey(v, keys);
        if (k === undefined) return false;
        const e = byKey.get(k);
        if (e === undefined) return false;
        const eq = equality(e, v);
        if (eq !== true) return eq;
        seen.add(k);
      }
      return seen.size === byKey.size;
    },
    // unstructuredMapList.Add: items of b replace a's items with the same key, others append.
    add(a, b) {
      const elements = [...a];
      const idx = new Map<string, number>();
      elements.forEach((e, i) => idx.set(valueMapKey(e, keys), i));
      for (const v of b) {
        const k = valueMapKey(v, keys);
        const at = idx.get(k);
        if (at !== undefined) elements[at] = v;
        else {
          idx.set(k, elements.length);
          elements.push(v);
        }
      }
      return withListBehavior(elements, self);
    },
  };
  mapListBehaviors.set(id, (lb = self));
  return lb;
}
