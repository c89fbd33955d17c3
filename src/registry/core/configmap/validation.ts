/**
 * ConfigMap's native rules (pkg/apis/core/validation ValidateConfigMap and
 * ValidateConfigMapUpdate): keys that can name projected files, no key in both data and
 * binaryData, 1 MiB in all, and nothing but metadata changes once `immutable` is set.
 */
import { type FieldError, forbidden, invalid, isConfigMapKey, jsonEqual, Path, tooLong } from '../../../apimachinery/index.ts';
import type { NativeRules } from '../../builtin/native.ts';
import { rec } from '../../fieldvalues/fields.ts';
import type { Obj } from '../../rest.ts';

/** core.MaxSecretSize: the limit of a ConfigMap's or Secret's data (what etcd's request size leaves). */
export const MaxSecretSize = 1 * 1024 * 1024;

export const immutableSetMsg = 'field is immutable when `immutable` is set';

const dataPath = Path.of('data');
const binaryDataPath = Path.of('binaryData');

/** The bytes a base64 value decodes to (binaryData and Secret data are []byte in Go). */
export function decodedLength(v: unknown): number {
  return typeof v === 'string' ? Buffer.from(v, 'base64').length : 0;
}

/** ValidateConfigMap without its ObjectMeta part (the common strategy checks that first). */
export function validateConfigMap(obj: Obj): FieldError[] {
  const errs: FieldError[] = [];
  const data = rec(obj.data);
  const binary = rec(obj.binaryData);
  let total = 0;
  for (const [key, value] of Object.entries(data)) {
    for (const msg of isConfigMapKey(key)) errs.push(invalid(dataPath.key(key), key, msg));
    if (Object.hasOwn(binary, key)) errs.push(invalid(dataPath.key(key), key, 'duplicate of key present in binaryData'));
    total += typeof value === 'string' ? Buffer.byteLength(value, 'utf8') : 0;
  }
  for (const [key, value] of Object.entries(binary)) {
    for (const msg of isConfigMapKey(key)) errs.push(invalid(binaryDataPath.key(key), key, msg));
    total += decodedLength(value);
  }
  // Upstream reports the whole object with an empty path.
  if (total > MaxSecretSize) errs.push(tooLong('', '', MaxSecretSize));
  return errs;
}

/** reflect.DeepEqual of two map fields: an absent map differs from an empty one. */
export function sameMap(a: unknown, b: unknown): boolean {
  return jsonEqual(a ?? null, b ?? null);
}

/** ValidateConfigMapUpdate's own part, then the new object's rules. */
export function validateConfigMapUpdate(obj: Obj, old: Obj): FieldError[] {
  const errs: FieldError[] = [];
  if (old.immutable === true) {
    if (obj.immutable !== true) errs.push(forbidden(Path.of('immutable'), immutableSetMsg));
    if (!sameMap(obj.data, old.data)) errs.push(forbidden(dataPath, immutableSetMsg));
    if (!sameMap(obj.binaryData, old.binaryData)) errs.push(forbidden(binaryDataPath, immutableSetMsg));
  }
  errs.push(...validateConfigMap(obj));
  return errs;
}

export const configMapRules: NativeRules = {
  validate: (_ctx, obj) => validateConfigMap(obj),
  validateUpdate: (_ctx, obj, old) => validateConfigMapUpdate(obj, old),
};
