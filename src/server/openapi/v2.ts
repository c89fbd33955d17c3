/**
 * `/openapi/v2`: the Swagger 2.0 document, as JSON or in gnostic's protobuf encoding
 * (`application/com.github.proto-openapi.spec.v2@v1.0+protobuf`, which kubectl asks for).
 *
 * The server publishes its schemas in `/openapi/v3`; this document carries no paths and no
 * definitions. Clients read v3 first: kubectl falls back to v2 only for a group-version that v3
 * lacks (a kind the server does not serve), finds no schema there and goes on, so that it reports
 * what a cluster reports (`no matches for kind ... ensure CRDs are installed first`) instead of
 * failing to download the document.
 */
import { createHash } from 'node:crypto';
import { versionInfo } from '../version.ts';

/** The protobuf media types a client may ask for: the deprecated spelling, then the one answered. */
export const protobufV2MediaTypes = ['application/com.github.proto-openapi.spec.v2@v1.0+protobuf', 'application/com.github.proto-openapi.spec.v2.v1.0+protobuf'];

export interface RenderedV2 {
  json: string;
  protobuf: Uint8Array;
  etag: string;
}

let rendered: RenderedV2 | undefined;

/** The document, rendered once. */
export function openAPIV2(): RenderedV2 {
  if (rendered === undefined) {
    const title = 'Kubernetes';
    const version = versionInfo.gitVersion;
    const json = JSON.stringify({ swagger: '2.0', info: { title, version }, paths: {} });
    // openapi_v2.Document: swagger = 1, info = 2 (Info: title = 1, version = 2), paths = 8.
    const info = concat([stringField(1, title), stringField(2, version)]);
    const protobuf = concat([stringField(1, '2.0'), messageField(2, info), messageField(8, new Uint8Array(0))]);
    rendered = { json, protobuf, etag: `"${createHash('sha512').update(json).digest('hex').toUpperCase()}"` };
  }
  return rendered;
}

function varint(n: number): number[] {
  const out: number[] = [];
  while (n >= 0x80) {
    out.push((n & 0x7f) | 0x80);
    n >>>= 7;
  }
  out.push(n);
  return out;
}

function messageField(field: number, body: Uint8Array): Uint8Array {
  return concat([Uint8Array.from([...varint((field << 3) | 2), ...varint(body.length)]), body]);
}

function stringField(field: number, s: string): Uint8Array {
  return messageField(field, new TextEncoder().encode(s));
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
