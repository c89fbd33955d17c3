/**
 * The codec of one custom-resource version: what apiextensions-apiserver's schemaCoercingDecoder
 * and unstructuredSchemaCoercer do to a decoded request object before the strategy sees it —
 * decode the root ObjectMeta (its unknown fields reported as `metadata.<field>`), prune unknown
 * fields (unless preserved), drop nulls that are neither nullable nor defaulted, coerce the
 * ObjectMeta of embedded resources, then default. Problems are returned as values: a decode error
 * (malformed ObjectMeta: upstream's decoder fails there and reports nothing else), or the unknown
 * field paths, in upstream's order, for fieldValidation.
 */
import type { CompiledSchema, PruneCallOptions } from './compile.ts';

/** What decoding one object found. */
export interface Decoded {
  /** The decoder's error (the request is refused with it); nothing else is reported then. */
  error?: string;
  /** `unknown field "spec.x"` strict decoding errors (only when unknown fields are tracked). */
  strictErrors: string[];
}

/** A served version's decoding of request and stored objects. */
export interface Codec {
  /**
   * MUTATES obj: decodes a request object (after its JSON/YAML/protobuf decoding), tracking
   * unknown fields when `trackUnknown` (fieldValidation Warn or Strict).
   */
  decode(obj: Record<string, unknown>, trackUnknown: boolean): Decoded;
  /** MUTATES obj: decodes a stored object (malformed metadata dropped), defaults included. */
  decodeStored(obj: Record<string, unknown>): void;
}

const noErrors: string[] = [];
// The answer for an object without unknown fields, made once (frozen: it is shared).
const clean: Decoded = Object.freeze({ strictErrors: Object.freeze([]) as unknown as string[] });
// Pruning with defaulting: the schema's one walk where it allows. Made once, not per call.
const decodeTracking: PruneCallOptions = { isResourceRoot: true, trackUnknown: true, applyDefaults: true };
const decodeUntracked: PruneCallOptions = { isResourceRoot: true, trackUnknown: false, applyDefaults: true };
const decodeStored: PruneCallOptions = { isResourceRoot: true, dropInvalidMetadata: true, applyDefaults: true };

/** The codec of a compiled CRD version schema. */
export function schemaCodec(compiled: CompiledSchema): Codec {
  return {
    decode(obj, trackUnknown) {
      const r = compiled.prune(obj, trackUnknown ? decodeTracking : decodeUntracked);
      if (r.error !== undefined) return { error: r.error, strictErrors: noErrors };
      return r.prunedPaths.length === 0 ? clean : { strictErrors: r.prunedPaths.map((p) => `unknown field ${JSON.stringify(p)}`) };
    },
    decodeStored(obj) {
      // Defaults apply even to an object whose metadata could not be decoded (pruning stopped there).
      if (compiled.prune(obj, decodeStored).error !== undefined) compiled.default(obj);
    },
  };
}
