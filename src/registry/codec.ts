/**
 * The codec stage of the write path, as the registry runs it: each served kind decodes request
 * objects with its own Codec (a custom resource version's schema codec, a built-in kind's typed
 * decoding), and `reportDecoding` turns what decoding found into the answer kube-apiserver gives —
 * per fieldValidation, and worded as the create/update handler words a body's decoding problems
 * (400, `Kind in version "v" cannot be handled as a Kind: ...`) or as the patch handler words a
 * patch result's (422 Invalid on field `patch`, the patched object as the value).
 */
import { invalid } from '../apimachinery/index.ts';
import { newBadRequest, newInvalid } from '../apimachinery/index.ts';
import type { Codec, Decoded } from '../schema/index.ts';
import { dropUnknownFields, type GoType } from './typed-fields.ts';
import { canonicalJSON } from './meta.ts';
import type { FieldValidation, Obj } from './rest.ts';

export type { Codec, Decoded };

/** What reportDecoding needs of the request. */
export interface DecodeReport {
  kind: string;
  version: string;
  fieldValidation: FieldValidation;
  /** The body's own strict decoding errors (duplicate fields), reported first. */
  decodeErrors?: readonly string[];
  /** The object is a patch result: its JSON as patched (before decoding), for the 422 answer. */
  patchedJSON?: string;
  /** Warnings for the client (Warn). */
  warnings: string[];
}

/** The patched object's JSON as the patch handler quotes it (Go's encoding of the object: keys sorted). */
export function patchedObjectJSON(obj: Obj): string {
  return canonicalJSON(obj);
}

/**
 * Throws the StatusError upstream answers for what decoding found, or adds warnings (Warn), or
 * ignores strict errors (Ignore). A decode error is always an error, and nothing else is reported
 * with it (upstream's decoder stops there).
 */
export function reportDecoding(r: DecodeReport, d: Decoded): void {
  const refuse = (message: string): never => {
    if (r.patchedJSON !== undefined) {
      throw newInvalid({ group: '', kind: '' }, '', [invalid('patch', r.patchedJSON, message)]);
    }
    throw newBadRequest(`${r.kind} in version ${JSON.stringify(r.version)} cannot be handled as a ${r.kind}: ${message}`);
  };
  if (d.error !== undefined) refuse(d.error);
  if (r.fieldValidation === 'Ignore') return;
  const pre = r.decodeErrors ?? [];
  if (pre.length === 0 && d.strictErrors.length === 0) return;
  const msgs = pre.length === 0 ? d.strictErrors : [...pre, ...d.strictErrors];
  if (r.fieldValidation === 'Strict') refuse(`strict decoding error: ${msgs.join(', ')}`);
  r.warnings.push(...msgs);
}

const none: string[] = [];

/**
 * The codec of a built-in kind decoded into its Go type: fields the type lacks are dropped (and
 * reported when tracked), then the kind's defaulting (SetDefaults_*) runs — on requests and reads.
 */
export function typedCodec(type: GoType, defaults?: (obj: Obj) => void): Codec {
  return {
    decode(obj, trackUnknown) {
      const unknown = dropUnknownFields(obj, type);
      defaults?.(obj);
      return { strictErrors: trackUnknown && unknown.length > 0 ? unknown.map((p) => `unknown field ${JSON.stringify(p)}`) : none };
    },
    decodeStored(obj) {
      defaults?.(obj);
    },
  };
}
