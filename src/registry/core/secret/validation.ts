/**
 * Secret's native rules (pkg/apis/core/validation ValidateSecret and ValidateSecretUpdate):
 * data keys as ConfigMap's, 1 MiB of data, the keys each well-known type requires (and the
 * docker configs' JSON), the type fixed at creation, and data frozen once `immutable` is set.
 */
import { type FieldError, forbidden, goJSONSyntaxError, invalid, isConfigMapKey, Path, required, tooLong } from '../../../apimachinery/index.ts';
import type { NativeRules } from '../../builtin/native.ts';
import { decodedLength, immutableSetMsg, MaxSecretSize, sameMap } from '../configmap/validation.ts';
import { immutableField, rec, str } from '../../fieldvalues/fields.ts';
import type { Obj } from '../../rest.ts';

const dataPath = Path.of('data');
const redacted = '<secret contents redacted>';

/**
 * json.Unmarshal of a docker config into map[string]interface{}: Go's syntax error, or its
 * type error when the document is valid JSON but not an object (null leaves the map nil).
 */
function dockerConfigError(bytes: Buffer): string | undefined {
  const syntax = goJSONSyntaxError(bytes);
  if (syntax !== undefined) return syntax;
  const v: unknown = JSON.parse(bytes.toString('utf8'));
  if (v === null || (typeof v === 'object' && !Array.isArray(v))) return undefined;
  const kind = Array.isArray(v) ? 'array' : typeof v === 'boolean' ? 'bool' : typeof v;
  return `json: cannot unmarshal ${kind} into Go value of type map[string]interface {}`;
}

/** A docker config type: its key present, holding a JSON object. */
function dockerConfig(data: Record<string, unknown>, key: string): FieldError[] {
  if (!Object.hasOwn(data, key)) return [required(dataPath.key(key), '')];
  const msg = dockerConfigError(Buffer.from(str(data[key]), 'base64'));
  return msg === undefined ? [] : [invalid(dataPath.key(key), redacted, msg)];
}

/** ValidateSecret without its ObjectMeta part (the common strategy checks that first). */
export function validateSecret(obj: Obj): FieldError[] {
  const errs: FieldError[] = [];
  const data = rec(obj.data);
  let total = 0;
  for (const [key, value] of Object.entries(data)) {
    for (const msg of isConfigMapKey(key)) errs.push(invalid(dataPath.key(key), key, msg));
    total += decodedLength(value);
  }
  if (total > MaxSecretSize) errs.push(tooLong(dataPath, '', MaxSecretSize));
  const has = (k: string) => Object.hasOwn(data, k);
  switch (str(obj.type)) {
    case 'kubernetes.io/service-account-token': {
      // Only the account's name is required: the token controller adds its uid and token later.
      const annotations = rec(rec(obj.metadata).annotations);
      if (str(annotations['kubernetes.io/service-account.name']) === '') {
        errs.push(required(Path.of('metadata', 'annotations').key('kubernetes.io/service-account.name'), ''));
      }
      break;
    }
    case 'kubernetes.io/dockercfg':
      errs.push(...dockerConfig(data, '.dockercfg'));
      break;
    case 'kubernetes.io/dockerconfigjson':
      errs.push(...dockerConfig(data, '.dockerconfigjson'));
      break;
    case 'kubernetes.io/basic-auth':
      // Either may be empty, but one of them must be there.
      if (!has('username') && !has('password')) {
        errs.push(required(dataPath.key('username'), ''), required(dataPath.key('password'), ''));
      }
      break;
    case 'kubernetes.io/ssh-auth':
      if (decodedLength(data['ssh-privatekey']) === 0) errs.push(required(dataPath.key('ssh-privatekey'), ''));
      break;
    case 'kubernetes.io/tls':
      if (!has('tls.crt')) errs.push(required(dataPath.key('tls.crt'), ''));
      if (!has('tls.key')) errs.push(required(dataPath.key('tls.key'), ''));
      break;
    default:
  }
  return errs;
}

/** ValidateSecretUpdate's own part (type, immutability), then the new object's rules. */
export function validateSecretUpdate(obj: Obj, old: Obj): FieldError[] {
  const errs = immutableField(str(obj.type), str(old.type), Path.of('type'));
  if (old.immutable === true) {
    if (obj.immutable !== true) errs.push(forbidden(Path.of('immutable'), immutableSetMsg));
    // stringData was written into data before validation, so data says it all.
    if (!sameMap(obj.data, old.data)) errs.push(forbidden(dataPath, immutableSetMsg));
  }
  errs.push(...validateSecret(obj));
  return errs;
}

export const secretRules: NativeRules = {
  validate: (_ctx, obj) => validateSecret(obj),
  validateUpdate: (_ctx, obj, old) => validateSecretUpdate(obj, old),
};
