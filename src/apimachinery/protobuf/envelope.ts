/**
 * The `k8s\0` envelope of Kubernetes' protobuf serializer
 * (k8s.io/apimachinery/pkg/runtime/serializer/protobuf): the four magic bytes, then a
 * runtime.Unknown whose TypeMeta names the kind and whose `raw` holds the object's message.
 * Reading answers the serializer's own errors (`empty data`, `provided data does not appear to
 * be a protobuf message, expected prefix [107 56 115 0]`, `empty body`, the Unknown's decode
 * errors); writing wraps an encoded object the same way.
 */
import { decodeSlots } from './decode.ts';
import { messageByName } from './descriptors.ts';
import { ProtoError, Writer } from './wire.ts';

/** The serializer's prefix: `k8s` and a zero byte. */
export const protobufMagic = Uint8Array.from([0x6b, 0x38, 0x73, 0x00]);

export interface Envelope {
  apiVersion: string;
  kind: string;
  raw: Uint8Array;
  contentEncoding: string;
  contentType: string;
}

function unknownMessage() {
  const m = messageByName('k8s.io.apimachinery.pkg.runtime.Unknown');
  if (!m) throw new Error('protobuf descriptors: no runtime.Unknown');
  return m;
}

/** Reads an envelope; throws ProtoError with the serializer's message. */
export function decodeEnvelope(data: Uint8Array): Envelope {
  if (data.length === 0) throw new ProtoError('empty data');
  if (data.length < protobufMagic.length || protobufMagic.some((b, i) => data[i] !== b)) {
    throw new ProtoError(`provided data does not appear to be a protobuf message, expected prefix [${protobufMagic.join(' ')}]`);
  }
  if (data.length === protobufMagic.length) throw new ProtoError('empty body');
  const m = unknownMessage();
  const slots = decodeSlots(m, data.subarray(protobufMagic.length));
  const typeMeta = (slots[0] as unknown[] | undefined) ?? [];
  return {
    apiVersion: (typeMeta[0] as string | undefined) ?? '',
    kind: (typeMeta[1] as string | undefined) ?? '',
    raw: (slots[1] as Uint8Array | undefined) ?? new Uint8Array(0),
    contentEncoding: (slots[2] as string | undefined) ?? '',
    contentType: (slots[3] as string | undefined) ?? '',
  };
}

/**
 * Wraps an object's message in the envelope, as the serializer's Encode writes it: TypeMeta
 * (both fields, even empty), raw, and the empty contentEncoding and contentType.
 */
export function encodeEnvelope(apiVersion: string, kind: string, raw: Uint8Array): Uint8Array {
  const typeMeta = new Writer();
  typeMeta.stringField(1, apiVersion);
  typeMeta.stringField(2, kind);
  const w = new Writer();
  w.raw(protobufMagic);
  w.bytesField(1, typeMeta.finish());
  w.bytesField(2, raw);
  w.stringField(3, '');
  w.stringField(4, '');
  return w.finish();
}
