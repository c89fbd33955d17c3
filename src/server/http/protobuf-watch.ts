/**
 * Watch events for a client that prefers protobuf, framed as kube-apiserver's protobuf watch
 * stream (`application/vnd.kubernetes.protobuf;stream=watch`): each event a metav1.WatchEvent
 * message written without envelope (the raw serializer), preceded by its length as four bytes
 * big-endian (the length-delimited framer); its object is the object's enveloped protobuf.
 */
import { Buffer } from 'node:buffer';
import { ProtoWriter } from '../../apimachinery/index.ts';
import { encodeProtobufObject } from './protobuf-response.ts';

/** The Content-Type of a protobuf watch stream. */
export const protobufWatchMediaType = 'application/vnd.kubernetes.protobuf;stream=watch';

/** One framed event; throws for an object with no protobuf form (which ends the stream). */
export function protobufWatchFrame(type: string, object: Record<string, unknown>): Buffer {
  const pb = encodeProtobufObject(object);
  if (pb === undefined) throw new Error(`no protobuf message for ${String(object.apiVersion)}/${String(object.kind)}`);
  const raw = new ProtoWriter();
  raw.bytesField(1, pb);
  const event = new ProtoWriter();
  event.stringField(1, type);
  event.bytesField(2, raw.finish());
  const body = event.finish();
  const frame = Buffer.alloc(4 + body.length);
  frame.writeUInt32BE(body.length, 0);
  frame.set(body, 4);
  return frame;
}
