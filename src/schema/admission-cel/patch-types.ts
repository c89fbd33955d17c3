/**
 * The types mutation expressions construct (k8s.io/apiserver pkg/admission/plugin/policy/mutating/
 * patch's typed JSONPatch and pkg/cel/mutation's dynamic type resolver): `JSONPatch` with `op`,
 * `path`, `from` and `value`, and `Object` with a type for every field path below it
 * (`Object.spec.template`), each field dyn — the object's schema is not known when the policy
 * compiles, so names are checked against field paths when the result is read
 * (`patchObjectToJSON`). Every name an expression constructs is found before it compiles, since
 * the planner builds only the object types it was told of.
 */
import { CelError, CelMap, DynType, StringType, structType, toJSON, type Library, type Type, type TypeProvider, type Val } from '../../cel/index.ts';

export const OBJECT_TYPE_NAME = 'Object';
export const JSON_PATCH_TYPE_NAME = 'JSONPatch';
export const OBJECT_TYPE = structType(OBJECT_TYPE_NAME);
export const JSON_PATCH_TYPE = structType(JSON_PATCH_TYPE_NAME);

const jsonPatchFields: ReadonlyMap<string, Type> = new Map([
  ['op', StringType],
  ['path', StringType],
  ['from', StringType],
  ['value', DynType],
]);

/** `jsonpatch.escapeKey(k)`: a map key as one JSON Pointer segment (RFC 6901: `~` as `~0`, `/` as `~1`). */
export const jsonPatchLibrary: Library = {
  name: 'kubernetes.jsonpatch',
  functions: [
    {
      name: 'jsonpatch.escapeKey',
      overloads: [{ id: 'string_jsonpatch_escapeKey_string', params: [StringType], result: StringType, impl: (k: string) => k.replaceAll('~', '~0').replaceAll('/', '~1') }],
    },
  ],
};

const isObjectTypeName = (name: string): boolean => name === OBJECT_TYPE_NAME || name.startsWith(OBJECT_TYPE_NAME + '.');

/** `provider` with the mutation types in front of it. */
export function withPatchTypes(provider: TypeProvider): TypeProvider {
  return {
    findStructType: (name) => (name === JSON_PATCH_TYPE_NAME || isObjectTypeName(name) ? structType(name) : provider.findStructType(name)),
    findFieldType: (structName, field) => {
      if (structName === JSON_PATCH_TYPE_NAME) {
        const t = jsonPatchFields.get(field);
        return t === undefined ? undefined : { type: t };
      }
      if (isObjectTypeName(structName)) return { type: DynType };
      return provider.findFieldType(structName, field);
    },
    fieldNames: (structName) => {
      if (structName === JSON_PATCH_TYPE_NAME) return [...jsonPatchFields.keys()];
      if (isObjectTypeName(structName)) return undefined;
      return provider.fieldNames?.(structName);
    },
    ...(provider.findEnumValue ? { findEnumValue: provider.findEnumValue.bind(provider) } : {}),
  };
}

/** The `Object...` and `JSONPatch` names an expression may construct (a superset: names in strings count too). */
export function patchTypeNamesIn(expression: string): string[] {
  const names = new Set<string>([OBJECT_TYPE_NAME, JSON_PATCH_TYPE_NAME]);
  for (const m of expression.matchAll(/\bObject(?:\s*\.\s*[A-Za-z_][A-Za-z0-9_]*)*/g)) names.add(m[0].replace(/\s+/g, ''));
  return [...names].sort();
}

/**
 * The JSON of an `Object{...}` value, its type names checked against field paths from the root
 * (`Object.spec.template` under `spec.template`; a list's items named by the list's field). An
 * error names the first mismatch as upstream words it. With `root` null (a JSONPatch value),
 * an `Object...` value's own name is the root of the paths below it.
 */
export function patchObjectToJSON(v: Val, root: string | null = OBJECT_TYPE_NAME): unknown | CelError {
  const walk = (x: Val, expected: string | undefined): unknown | CelError => {
    if (x instanceof CelMap && x.typeName !== undefined && isObjectTypeName(x.typeName)) {
      if (expected === undefined) expected = x.typeName;
      else if (x.typeName !== expected) {
        return new CelError(`type mismatch: unexpected type name "${x.typeName}", expected "${expected}", which matches field name path from root Object type`);
      }
      const o: Record<string, unknown> = {};
      for (const [k, fv] of x.entries()) {
        const r = walk(fv, `${expected}.${String(k)}`);
        if (r instanceof CelError) return r;
        o[String(k)] = r;
      }
      return o;
    }
    if (Array.isArray(x)) {
      const out: unknown[] = [];
      for (const item of x) {
        const r = walk(item, expected);
        if (r instanceof CelError) return r;
        out.push(r);
      }
      return out;
    }
    if (x instanceof CelMap) {
      const o: Record<string, unknown> = {};
      for (const [k, fv] of x.entries()) {
        const r = walk(fv, expected === undefined ? undefined : `${expected}.${String(k)}`);
        if (r instanceof CelError) return r;
        o[typeof k === 'string' ? k : String(k)] = r;
      }
      return o;
    }
    return toJSON(x);
  };
  return walk(v, root ?? undefined);
}
