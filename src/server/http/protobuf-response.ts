/**
 * Protobuf responses (`Accept: application/vnd.kubernetes.protobuf`, as client-go asks when
 * configured for protobuf): a built-in object or list encoded as its message (the codec in
 * apimachinery/protobuf) inside the `k8s\0` envelope that names its apiVersion and kind.
 */
import type { ServerResponse } from 'node:http';
import { encodeEnvelope, encodeProtobufMessage, protobufKindMessage, stringifyJSON } from '../../apimachinery/index.ts';
import { protobufMediaType } from './negotiate.ts';

type Obj = Record<string, unknown>;

/** The envelope bytes of an object (or list) whose kind has a message; undefined for any other. */
export function encodeProtobufObject(value: unknown): Uint8Array | undefined {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const { apiVersion, kind } = value as Obj;
  if (typeof apiVersion !== 'string' || typeof kind !== 'string') return undefined;
  const m = protobufKindMessage(apiVersion, kind);
  if (m === undefined) return undefined;
  return encodeEnvelope(apiVersion, kind, encodeProtobufMessage(m, value as Obj));
}

/**
 * Writes `value` as protobuf; a value with no message (none of the built-in kinds) is written as
 * JSON under its own Content-Type, which clients decode by.
 */
export function writeProtobuf(res: ServerResponse, code: number, value: unknown): void {
  const pb = encodeProtobufObject(value);
  if (pb === undefined) {
    const body = stringifyJSON(value) + '\n';
    res.writeHead(code, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) });
    res.end(body);
    return;
  }
  res.writeHead(code, { 'Content-Type': protobufMediaType, 'Content-Length': pb.length });
  res.end(pb);
}
