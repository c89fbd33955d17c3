/**
 * metav1.ObjectMeta from and to unstructured JSON, as Kubernetes' JSON decoder (sigs.k8s.io/json)
 * and runtime.DefaultUnstructuredConverter do it: wrong JSON types fail with Go's
 * `json: cannot unmarshal number into Go struct field ObjectMeta.labels of type string`,
 * unknown fields are dropped, and encoding follows the struct's field order and `omitempty`.
 * This mirrors apiextensions-apiserver's objectmeta.GetObjectMeta / SetObjectMeta.
 */
import { formatRFC3339, parseRFC3339 } from '../time.ts';

export interface OwnerReference {
  apiVersion: string;
  kind: string;
  name: string;
  uid: string;
  controller?: boolean | null;
  blockOwnerDeletion?: boolean | null;
}

export interface ManagedFieldsEntry {
  manager?: string;
  operation?: string;
  apiVersion?: string;
  /** RFC 3339, whole seconds, UTC; null or absent when unset. */
  time?: string | null;
  fieldsType?: string;
  /** Any JSON (FieldsV1 keeps the raw value). */
  fieldsV1?: unknown;
  subresource?: string;
}

/** metav1.ObjectMeta with Go's zero values left out. Timestamps are canonical RFC 3339 strings. */
export interface ObjectMeta {
  name?: string;
  generateName?: string;
  namespace?: string;
  selfLink?: string;
  uid?: string;
  resourceVersion?: string;
  generation?: number;
  creationTimestamp?: string | null;
  deletionTimestamp?: string | null;
  deletionGracePeriodSeconds?: number | null;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  ownerReferences?: OwnerReference[];
  finalizers?: string[];
  managedFields?: ManagedFieldsEntry[];
}

// Go types of the fields, enough to reproduce the decoder's errors.
type GoType =
  | { k: 'string'; name: string }
  | { k: 'int64' }
  | { k: 'bool' }
  | { k: 'time' }
  | { k: 'ptr'; elem: GoType }
  | { k: 'map'; name: string }
  | { k: 'slice'; name: string; elem: GoType }
  | { k: 'struct'; name: string; typeName: string; fields: ReadonlyArray<[string, GoType]> }
  | { k: 'raw' };

const str: GoType = { k: 'string', name: 'string' };
const ownerReferenceType: GoType = {
  k: 'struct',
  name: 'OwnerReference',
  typeName: 'v1.OwnerReference',
  fields: [
    ['apiVersion', str],
    ['kind', str],
    ['name', str],
    ['uid', { k: 'string', name: 'types.UID' }],
    ['controller', { k: 'ptr', elem: { k: 'bool' } }],
    ['blockOwnerDeletion', { k: 'ptr', elem: { k: 'bool' } }],
  ],
};
const managedFieldsEntryType: GoType = {
  k: 'struct',
  name: 'ManagedFieldsEntry',
  typeName: 'v1.ManagedFieldsEntry',
  fields: [
    ['manager', str],
    ['operation', { k: 'string', name: 'v1.ManagedFieldsOperationType' }],
    ['apiVersion', str],
    ['time', { k: 'ptr', elem: { k: 'time' } }],
    ['fieldsType', str],
    ['fieldsV1', { k: 'ptr', elem: { k: 'raw' } }],
    ['subresource', str],
  ],
};
const objectMetaType: GoType = {
  k: 'struct',
  name: 'ObjectMeta',
  typeName: 'v1.ObjectMeta',
  fields: [
    ['name', str],
    ['generateName', str],
    ['namespace', str],
    ['selfLink', str],
    ['uid', { k: 'string', name: 'types.UID' }],
    ['resourceVersion', str],
    ['generation', { k: 'int64' }],
    ['creationTimestamp', { k: 'time' }],
    ['deletionTimestamp', { k: 'ptr', elem: { k: 'time' } }],
    ['deletionGracePeriodSeconds', { k: 'ptr', elem: { k: 'int64' } }],
    ['labels', { k: 'map', name: 'map[string]string' }],
    ['annotations', { k: 'map', name: 'map[string]string' }],
    ['ownerReferences', { k: 'slice', name: '[]v1.OwnerReference', elem: ownerReferenceType }],
    ['finalizers', { k: 'slice', name: '[]string', elem: str }],
    ['managedFields', { k: 'slice', name: '[]v1.ManagedFieldsEntry', elem: managedFieldsEntryType }],
  ],
};

/** The JSON field names of a struct type. */
function fieldNames(t: GoType): ReadonlySet<string> {
  return new Set(t.k === 'struct' ? t.fields.map(([name]) => name) : []);
}

/** ObjectMeta's JSON fields, and those of the structs it holds (what strict decoding knows). */
export const objectMetaFields = fieldNames(objectMetaType);
export const ownerReferenceFields = fieldNames(ownerReferenceType);
export const managedFieldsFields = fieldNames(managedFieldsEntryType);

/** A decoder error that aborts decoding (returned by an UnmarshalJSON method). */
class HardError extends Error {}

interface DecodeState {
  /** The first type error, with its context: Go keeps decoding and reports it at the end. */
  saved?: string;
  struct?: string;
  stack: string[];
}

function jsonKind(v: unknown): string {
  if (typeof v === 'string') return 'string';
  if (typeof v === 'number' || typeof v === 'bigint') return 'number';
  if (typeof v === 'boolean') return 'bool';
  if (Array.isArray(v)) return 'array';
  return 'object';
}

function typeString(t: GoType): string {
  switch (t.k) {
    case 'string':
      return t.name;
    case 'int64':
      return 'int64';
    case 'bool':
      return 'bool';
    case 'time':
      return 'v1.Time';
    case 'ptr':
      return '*' + typeString(t.elem);
    case 'map':
    case 'slice':
      return t.name;
    case 'struct':
      return t.typeName;
    case 'raw':
      return 'v1.FieldsV1';
  }
}

function saveTypeError(st: DecodeState, value: string, type: string): void {
  if (st.saved !== undefined) return;
  if (st.struct !== undefined || st.stack.length > 0) {
    st.saved = `json: cannot unmarshal ${value} into Go struct field ${st.struct ?? ''}.${st.stack.join('.')} of type ${type}`;
  } else {
    st.saved = `json: cannot unmarshal ${value} into Go value of type ${type}`;
  }
}

/** The JSON text Go's encoder writes for a number of unstructured data. */
function numberText(v: number | bigint): string {
  return typeof v === 'bigint' ? v.toString() : JSON.stringify(v);
}

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/** Decodes v into Go type t; undefined is Go's zero value (or "leave as is" for null). */
function decodeValue(v: unknown, t: GoType, st: DecodeState): unknown {
  // Unmarshalers (Time, FieldsV1) see every value, null included.
  if (t.k === 'time') return decodeTime(v);
  if (t.k === 'raw') return v;
  if (v === null || v === undefined) return undefined;
  if (t.k === 'ptr') {
    const inner = decodeValue(v, t.elem, st);
    return inner;
  }
  switch (t.k) {
    case 'string':
      if (typeof v === 'string') return v;
      saveTypeError(st, jsonKind(v), t.name);
      return undefined;
    case 'bool':
      if (typeof v === 'boolean') return v;
      saveTypeError(st, jsonKind(v), 'bool');
      return undefined;
    case 'int64': {
      if (typeof v === 'number' || typeof v === 'bigint') {
        const text = numberText(v);
        if (/^-?\d+$/.test(text)) {
          const n = BigInt(text);
          if (n >= INT64_MIN && n <= INT64_MAX) return Number(n);
        }
        saveTypeError(st, `number ${text}`, 'int64');
        return undefined;
      }
      saveTypeError(st, jsonKind(v), 'int64');
      return undefined;
    }
    case 'map': {
      if (typeof v !== 'object' || Array.isArray(v)) {
        saveTypeError(st, jsonKind(v), t.name);
        return undefined;
      }
      const out: Record<string, string> = {};
      // Map keys do not enter Go's error context; the values are strings.
      for (const k of Object.keys(v as object).sort()) {
        const e = (v as Record<string, unknown>)[k];
        if (e === null) {
          out[k] = '';
          continue;
        }
        if (typeof e === 'string') out[k] = e;
        else {
          saveTypeError(st, jsonKind(e), 'string');
          out[k] = '';
        }
      }
      return out;
    }
    case 'slice': {
      if (!Array.isArray(v)) {
        saveTypeError(st, jsonKind(v), t.name);
        return undefined;
      }
      return v.map((e) => {
        const d = decodeValue(e, t.elem, st);
        if (d !== undefined) return d;
        return t.elem.k === 'string' ? '' : t.elem.k === 'struct' ? zeroStruct(t.elem) : d;
      });
    }
    case 'struct': {
      if (typeof v !== 'object' || Array.isArray(v)) {
        saveTypeError(st, jsonKind(v), t.typeName);
        return undefined;
      }
      return decodeStruct(v as Record<string, unknown>, t, st);
    }
  }
  return undefined;
}

function zeroStruct(t: Extract<GoType, { k: 'struct' }>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  // OwnerReference's identifying fields have no omitempty: they exist, empty.
  if (t.name === 'OwnerReference') Object.assign(out, { apiVersion: '', kind: '', name: '', uid: '' });
  return out;
}

const fieldMaps = new WeakMap<object, ReadonlyMap<string, GoType>>();

/** A struct type's fields by JSON name, built once per type. */
function fieldMap(t: Extract<GoType, { k: 'struct' }>): ReadonlyMap<string, GoType> {
  let m = fieldMaps.get(t);
  if (m === undefined) {
    m = new Map(t.fields);
    fieldMaps.set(t, m);
  }
  return m;
}

function decodeStruct(obj: Record<string, unknown>, t: Extract<GoType, { k: 'struct' }>, st: DecodeState): Record<string, unknown> {
  const out = zeroStruct(t);
  const fields = fieldMap(t);
  // Go reads the keys in the order of the marshalled map: sorted.
  for (const key of Object.keys(obj).sort()) {
    const ft = fields.get(key);
    if (ft === undefined) continue; // unknown fields are ignored
    const saveStruct = st.struct;
    const depth = st.stack.length;
    st.stack.push(key);
    st.struct = t.name;
    const d = decodeValue(obj[key], ft, st);
    if (d !== undefined) out[key] = d;
    else if (obj[key] === null) delete out[key];
    st.stack.length = depth;
    st.struct = saveStruct;
  }
  return out;
}

function decodeTime(v: unknown): string | null {
  if (v === null) return null;
  // metav1.Time.UnmarshalJSON decodes a string with the standard library (no field context).
  if (typeof v !== 'string') throw new HardError(`json: cannot unmarshal ${jsonKind(v)} into Go value of type string`);
  // Every object written in the same second carries the same creationTimestamp: the last
  // text that decoded is kept with its normalized form.
  if (v === lastTime.text) return lastTime.normalized;
  const r = parseRFC3339(v);
  if (!r.ok) throw new HardError(r.error);
  lastTime = { text: v, normalized: formatRFC3339(r.epochMs) };
  return lastTime.normalized;
}
let lastTime = { text: '', normalized: '' };

export type DecodeResult = { meta: ObjectMeta; error?: undefined } | { meta?: undefined; error: string };

/**
 * Decodes unstructured `metadata` into ObjectMeta as Kubernetes' decoder would. With
 * dropMalformedFields (objectmeta.GetObjectMeta's option) a field that does not decode is dropped
 * instead of failing the whole; metadata that is not an object then fails with
 * `invalid metadata: expected object, got <Go type>`.
 */
export function decodeObjectMeta(metadata: unknown, opts: { dropMalformedFields?: boolean } = {}): DecodeResult {
  const whole = tryDecode(metadata);
  if (whole.error === undefined || !opts.dropMalformedFields) return whole;
  if (typeof metadata !== 'object' || metadata === null || Array.isArray(metadata)) {
    return { error: `invalid metadata: expected object, got ${goTypeName(metadata)}` };
  }
  const acc: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(metadata as Record<string, unknown>)) {
    const one = tryDecode({ [k]: v });
    if (one.error === undefined) Object.assign(acc, one.meta);
  }
  return { meta: acc as ObjectMeta };
}

function tryDecode(metadata: unknown): DecodeResult {
  if (metadata !== null && typeof metadata === 'object' && !Array.isArray(metadata)) {
    const usual = decodeUsual(metadata as Record<string, unknown>);
    if (usual !== undefined) return { meta: usual };
  }
  return decodeByWalk(metadata);
}

/** tryDecode by the generic walk over the Go types alone (tests compare decodeUsual with it). */
export function decodeByWalk(metadata: unknown): DecodeResult {
  const st: DecodeState = { stack: [] };
  try {
    const d = metadata === null ? {} : decodeValue(metadata, objectMetaType, st);
    if (st.saved !== undefined) return { error: st.saved };
    return { meta: (d ?? {}) as ObjectMeta };
  } catch (e) {
    if (e instanceof HardError) return { error: e.message };
    throw e;
  }
}

/**
 * The walk's result for metadata of the usual form, written out field by field: every known
 * member of its Go type and not null, map values strings, list elements neither null nor of
 * another type, no `__proto__` key. Undefined for anything else, which the walk decides (with
 * its errors, nulls and zero values).
 */
function decodeUsual(md: Record<string, unknown>): ObjectMeta | undefined {
  const out: Record<string, unknown> = {};
  for (const key of sortedKeys(md)) {
    const v = md[key];
    switch (key) {
      case 'name':
      case 'generateName':
      case 'namespace':
      case 'selfLink':
      case 'uid':
      case 'resourceVersion':
        if (typeof v !== 'string') return undefined;
        out[key] = v;
        break;
      case 'generation':
      case 'deletionGracePeriodSeconds':
        if (typeof v !== 'number' || !Number.isSafeInteger(v)) return undefined;
        out[key] = v === 0 ? 0 : v; // -0 reads as 0
        break;
      case 'creationTimestamp':
      case 'deletionTimestamp': {
        const t = usualTime(v);
        if (t === undefined) return undefined;
        out[key] = t;
        break;
      }
      case 'labels':
      case 'annotations': {
        const m = usualStringMap(v);
        if (m === undefined) return undefined;
        out[key] = m;
        break;
      }
      case 'finalizers': {
        if (!Array.isArray(v)) return undefined;
        for (const e of v) if (typeof e !== 'string') return undefined;
        out[key] = v.slice();
        break;
      }
      case 'ownerReferences': {
        if (!Array.isArray(v)) return undefined;
        const refs: Record<string, unknown>[] = [];
        for (const e of v) {
          const r = usualOwnerReference(e);
          if (r === undefined) return undefined;
          refs.push(r);
        }
        out[key] = refs;
        break;
      }
      case 'managedFields': {
        if (!Array.isArray(v)) return undefined;
        const entries: Record<string, unknown>[] = [];
        for (const e of v) {
          const m = usualManagedFieldsEntry(e);
          if (m === undefined) return undefined;
          entries.push(m);
        }
        out[key] = entries;
        break;
      }
      default:
        if (key === '__proto__') return undefined;
    }
  }
  return out as ObjectMeta;
}

/** The keys of `o` sorted, as Go reads a marshalled map; stored objects' keys are sorted already. */
function sortedKeys(o: object): string[] {
  const keys = Object.keys(o);
  for (let i = 1; i < keys.length; i++) if (keys[i - 1]! > keys[i]!) return keys.sort();
  return keys;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** A timestamp's normalized text, or undefined when it is not a valid one (or is null). */
function usualTime(v: unknown): string | undefined {
  if (typeof v !== 'string') return undefined;
  if (v === lastTime.text) return lastTime.normalized;
  const r = parseRFC3339(v);
  if (!r.ok) return undefined;
  lastTime = { text: v, normalized: formatRFC3339(r.epochMs) };
  return lastTime.normalized;
}

function usualStringMap(v: unknown): Record<string, string> | undefined {
  if (!isPlainObject(v)) return undefined;
  const out: Record<string, string> = {};
  for (const k of sortedKeys(v)) {
    const e = v[k];
    if (typeof e !== 'string' || k === '__proto__') return undefined;
    out[k] = e;
  }
  return out;
}

function usualOwnerReference(v: unknown): Record<string, unknown> | undefined {
  if (!isPlainObject(v)) return undefined;
  // The identifying fields have no omitempty: they exist, empty, where not given.
  const out: Record<string, unknown> = { apiVersion: '', kind: '', name: '', uid: '' };
  for (const k of sortedKeys(v)) {
    const e = v[k];
    switch (k) {
      case 'apiVersion':
      case 'kind':
      case 'name':
      case 'uid':
        if (typeof e !== 'string') return undefined;
        out[k] = e;
        break;
      case 'controller':
      case 'blockOwnerDeletion':
        if (typeof e !== 'boolean') return undefined;
        out[k] = e;
        break;
      default:
        if (k === '__proto__') return undefined;
    }
  }
  return out;
}

function usualManagedFieldsEntry(v: unknown): Record<string, unknown> | undefined {
  if (!isPlainObject(v)) return undefined;
  const out: Record<string, unknown> = {};
  for (const k of sortedKeys(v)) {
    const e = v[k];
    switch (k) {
      case 'manager':
      case 'operation':
      case 'apiVersion':
      case 'fieldsType':
      case 'subresource':
        if (typeof e !== 'string') return undefined;
        out[k] = e;
        break;
      case 'time': {
        const t = usualTime(e);
        if (t === undefined) return undefined;
        out[k] = t;
        break;
      }
      case 'fieldsV1':
        if (e === null || e === undefined) return undefined;
        out[k] = e; // raw: kept as it is
        break;
      default:
        if (k === '__proto__') return undefined;
    }
  }
  return out;
}

/** Go's %T of an unstructured JSON value. */
function goTypeName(v: unknown): string {
  if (v === null || v === undefined) return '<nil>';
  if (typeof v === 'string') return 'string';
  if (typeof v === 'boolean') return 'bool';
  if (typeof v === 'bigint') return 'int64';
  if (typeof v === 'number') return Number.isInteger(v) ? 'int64' : 'float64';
  if (Array.isArray(v)) return '[]interface {}';
  return 'map[string]interface {}';
}

/**
 * ObjectMeta as unstructured JSON (DefaultUnstructuredConverter.ToUnstructured): struct field
 * order, empty fields omitted, `creationTimestamp` always present (null when unset).
 */
export function encodeObjectMeta(m: ObjectMeta): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of ['name', 'generateName', 'namespace', 'selfLink', 'uid', 'resourceVersion'] as const) {
    if (m[k]) out[k] = m[k];
  }
  if (m.generation) out.generation = m.generation;
  out.creationTimestamp = m.creationTimestamp ?? null;
  if (m.deletionTimestamp) out.deletionTimestamp = m.deletionTimestamp;
  if (m.deletionGracePeriodSeconds !== undefined && m.deletionGracePeriodSeconds !== null) {
    out.deletionGracePeriodSeconds = m.deletionGracePeriodSeconds;
  }
  if (m.labels && Object.keys(m.labels).length > 0) out.labels = { ...m.labels };
  if (m.annotations && Object.keys(m.annotations).length > 0) out.annotations = { ...m.annotations };
  if (m.ownerReferences && m.ownerReferences.length > 0) out.ownerReferences = m.ownerReferences.map(encodeOwnerReference);
  if (m.finalizers && m.finalizers.length > 0) out.finalizers = [...m.finalizers];
  if (m.managedFields && m.managedFields.length > 0) out.managedFields = m.managedFields.map(encodeManagedFieldsEntry);
  return out;
}

/** An OwnerReference in struct order (apiVersion, kind, name, uid always present). */
export function encodeOwnerReference(r: OwnerReference): Record<string, unknown> {
  const out: Record<string, unknown> = {
    apiVersion: r.apiVersion ?? '',
    kind: r.kind ?? '',
    name: r.name ?? '',
    uid: r.uid ?? '',
  };
  if (r.controller !== undefined && r.controller !== null) out.controller = r.controller;
  if (r.blockOwnerDeletion !== undefined && r.blockOwnerDeletion !== null) out.blockOwnerDeletion = r.blockOwnerDeletion;
  return out;
}

/** A ManagedFieldsEntry in struct order, empty fields omitted. */
export function encodeManagedFieldsEntry(e: ManagedFieldsEntry): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (e.manager) out.manager = e.manager;
  if (e.operation) out.operation = e.operation;
  if (e.apiVersion) out.apiVersion = e.apiVersion;
  if (e.time) out.time = e.time;
  if (e.fieldsType) out.fieldsType = e.fieldsType;
  if (e.fieldsV1 !== undefined && e.fieldsV1 !== null) out.fieldsV1 = e.fieldsV1;
  if (e.subresource) out.subresource = e.subresource;
  return out;
}
