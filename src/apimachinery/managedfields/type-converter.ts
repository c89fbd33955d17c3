/**
 * TypeConverters (managedfields `typeconverter.go`): objects of known kinds to typed values of
 * their merge schema type, chosen by apiVersion and kind (one schema for all, or one per kind); or, for kinds without a schema, the
 * deduced type (every map granular, every list atomic).
 */
import { deducedSchema, deducedTypeRef, type Schema, type TypeRef } from '../smd/schema/schema.ts';
import { asTyped, type TypedValue, type ValidationOptions } from '../smd/typed/typed.ts';
import { isMap } from '../smd/value.ts';
import { gvkString, NoCorrespondingTypeError, type Obj, type TypeConverter } from './manager.ts';

function toObject(tv: TypedValue): Obj {
  if (!isMap(tv.value)) throw new Error('failed to convert value to unstructured for type ' + typeof tv.value);
  return tv.value as Obj;
}

/** A converter for the kinds in `types`, keyed by `apiVersion` + `/` + `kind` (`apps/v1/Deployment`). */
export function newTypeConverter(schema: Schema, types: Map<string, TypeRef>): TypeConverter {
  return {
    objectToTyped(obj: Obj, opts?: ValidationOptions): TypedValue {
      const tr = types.get(`${String(obj.apiVersion ?? '')}/${String(obj.kind ?? '')}`);
      if (tr === undefined) throw new NoCorrespondingTypeError(gvkString(obj));
      return asTyped(obj, schema, tr, opts);
    },
    typedToObject: toObject,
  };
}

/**
 * A converter for kinds that each have a merge schema of their own (a CRD's versions, whose
 * schemas are built separately), keyed as newTypeConverter's.
 */
export function newSchemasTypeConverter(types: Map<string, { schema: Schema; typeRef: TypeRef }>): TypeConverter {
  return {
    objectToTyped(obj: Obj, opts?: ValidationOptions): TypedValue {
      const t = types.get(`${String(obj.apiVersion ?? '')}/${String(obj.kind ?? '')}`);
      if (t === undefined) throw new NoCorrespondingTypeError(gvkString(obj));
      return asTyped(obj, t.schema, t.typeRef, opts);
    },
    typedToObject: toObject,
  };
}

export const deducedTypeConverter: TypeConverter = {
  objectToTyped: (obj: Obj, opts?: ValidationOptions) => asTyped(obj, deducedSchema, deducedTypeRef, opts),
  typedToObject: toObject,
};
