/**
 * What the field manager's layers share: the Manager interface each layer implements and wraps
 * (as kube-apiserver's managedfields/internal decorators do), the TypeConverter that turns objects
 * of a kind into typed values, and access to an object's metadata and group/version/kind.
 */
import { deepCopyJSON } from '../json/copy.ts';
import type { TypedValue, ValidationOptions } from '../smd/typed/typed.ts';
import type { Managed, ManagedFieldsEntry } from './entries.ts';

export type Obj = Record<string, unknown>;

/** One layer of the field manager. Objects are unstructured JSON; layers may return new objects. */
export interface Manager {
  update(liveObj: Obj, newObj: Obj, managed: Managed, manager: string): { object: Obj; managed: Managed };
  /** object is undefined when the apply changed nothing. */
  apply(liveObj: Obj, appliedObj: Obj, managed: Managed, manager: string, force: boolean): { object: Obj | undefined; managed: Managed };
}

/** Objects of the served kinds as typed values and back (managedfields.TypeConverter). */
export interface TypeConverter {
  /** Throws NoCorrespondingTypeError for a kind it has no type for, TypedError for a bad object. */
  objectToTyped(obj: Obj, opts?: ValidationOptions): TypedValue;
  typedToObject(tv: TypedValue): Obj;
}

export class NoCorrespondingTypeError extends Error {
  constructor(gvk: string) {
    super(`no corresponding type for ${gvk}`);
  }
}

export function metadataOf(obj: Obj): Obj | undefined {
  const m = obj.metadata;
  return m !== null && typeof m === 'object' && !Array.isArray(m) ? (m as Obj) : undefined;
}

export function getManagedFields(obj: Obj): ManagedFieldsEntry[] | null | undefined {
  const mf = metadataOf(obj)?.managedFields;
  if (mf === undefined || mf === null) return mf as null | undefined;
  return Array.isArray(mf) ? (mf as ManagedFieldsEntry[]) : undefined;
}

/** Sets (or, with undefined, removes) metadata.managedFields. Mutates obj. */
export function setManagedFields(obj: Obj, entries: ManagedFieldsEntry[] | undefined): void {
  let m = metadataOf(obj);
  if (entries === undefined) {
    if (m !== undefined) delete m.managedFields;
    return;
  }
  if (m === undefined) {
    m = {};
    obj.metadata = m;
  }
  m.managedFields = entries;
}

export function apiVersionOf(obj: Obj): string {
  return typeof obj.apiVersion === 'string' ? obj.apiVersion : '';
}

/** schema.GroupVersionKind.String() of an object: `apps/v1, Kind=Deployment`, `/v1, Kind=Pod`. */
export function gvkString(obj: Obj): string {
  const av = apiVersionOf(obj);
  const kind = typeof obj.kind === 'string' ? obj.kind : '';
  const i = av.indexOf('/');
  const [group, version] = i < 0 ? ['', av] : [av.slice(0, i), av.slice(i + 1)];
  return `${group}/${version}, Kind=${kind}`;
}

/** objectGVKNN: `namespace/name; group/version, Kind=kind`, as field manager errors name objects. */
export function objectGVKNN(obj: Obj): string {
  const m = metadataOf(obj);
  const s = (v: unknown) => (typeof v === 'string' ? v : '');
  return `${s(m?.namespace)}/${s(m?.name)}; ${gvkString(obj)}`;
}

export function deepCopy<T>(v: T): T {
  // Not structuredClone: objects may nest 10,000 levels (the decoders' bound), deeper than it recurses.
  return deepCopyJSON(v);
}
