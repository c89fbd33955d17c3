/**
 * Writing responses: objects as JSON or YAML in the negotiated form, Status errors with their
 * code, and `Warning: 299 - "..."` headers. Every error path ends here so that a client always
 * gets a Kubernetes Status, never a bare 500 or a dropped connection.
 */
import type { ServerResponse } from 'node:http';
import { stringify as stringifyYaml } from 'yaml';
import { errorToStatus, type Status } from '../../apimachinery/index.ts';
import { canonicalJSON, stringifyJSON } from '../../apimachinery/index.ts';
import { sharedItemJSON } from '../../registry/index.ts';
import type { Negotiated } from './negotiate.ts';
import { writeProtobuf } from './protobuf-response.ts';

/** Formats one warning as kube-apiserver's header value: `299 - "<text>"`, text quoted Go-style. */
export function warningHeaderValue(text: string): string {
  // Header values cannot carry control characters or non-Latin-1 text: replace what Node rejects.
  const safe = text.replace(/[\u0000-\u001f\u007f]/g, ' ').replace(/[^\u0000-\u00ff]/g, '?');
  return `299 - "${safe.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

/** Adds `Warning` headers (deduplicated, in order) to a response that has not started. */
export function setWarnings(res: ServerResponse, warnings: readonly string[]): void {
  if (warnings.length === 0 || res.headersSent) return;
  const uniq = [...new Set(warnings)];
  res.setHeader('Warning', uniq.map(warningHeaderValue));
}

/** Serializes a value in the negotiated encoding. */
export function encode(value: unknown, n: Pick<Negotiated, 'encoding' | 'pretty' | 'sortKeys'>): string {
  const json = n.sortKeys ? canonicalJSON : stringifyJSON;
  if (n.encoding === 'yaml') {
    try {
      return stringifyYaml(value, { lineWidth: 0 });
    } catch (e) {
      // The YAML writer recurses; for a value nested deeper than it can go, JSON (which is
      // YAML's flow style) says the same.
      if (!(e instanceof RangeError)) throw e;
      return json(value) + '\n';
    }
  }
  return json(value, n.pretty ? 2 : 0) + '\n';
}

/** Writes an object with status `code` in the negotiated form. */
export function writeObject(res: ServerResponse, code: number, value: unknown, n: Negotiated): void {
  if (n.encoding === 'protobuf') return writeProtobuf(res, code, value);
  const body = encode(value, n);
  res.writeHead(code, { 'Content-Type': n.contentType, 'Content-Length': Buffer.byteLength(body) });
  res.end(body);
}

/** Chunk size for streamed lists: large enough to keep writes few, small enough not to hold the list. */
const listChunkBytes = 64 * 1024;

/**
 * Writes a list (an object with a `key` array: `items`, or a Table's `rows`) as compact JSON
 * without building the whole document as one string: the members before the array, then its
 * elements in chunks of about 64 KiB, then the members after it. The array is the last member,
 * unless the list's keys are sorted (n.sortKeys: an unstructured list, whose `items` come after
 * `apiVersion`). Small lists and other forms (YAML, pretty) go through writeObject.
 */
export function writeList(res: ServerResponse, code: number, list: Record<string, unknown>, n: Negotiated, key = 'items'): void {
  const elems = list[key];
  if (n.encoding !== 'json' || n.pretty || !Array.isArray(elems) || elems.length < 500) {
    writeObject(res, code, list, n);
    return;
  }
  const before: Record<string, unknown> = {};
  const after: Record<string, unknown> = {};
  const keys = Object.keys(list).filter((k) => k !== key);
  if (n.sortKeys) keys.sort();
  for (const k of keys) (n.sortKeys && k > key ? after : before)[k] = list[k];
  const json = n.sortKeys ? canonicalJSON : stringifyJSON;
  const head = json(before);
  const tail = json(after);
  res.writeHead(code, { 'Content-Type': n.contentType });
  let buf = head.slice(0, -1) + (head.length > 2 ? ',' : '') + `${JSON.stringify(key)}:[`;
  // An item shared from the watch cache and left unchanged has its JSON text kept already (in
  // the order its store serves).
  const shared = sharedItemJSON(list);
  for (let i = 0; i < elems.length; i++) {
    buf += (i === 0 ? '' : ',') + (shared(elems[i], i) ?? json(elems[i]));
    if (buf.length >= listChunkBytes) {
      res.write(buf);
      buf = '';
    }
  }
  res.end(buf + ']' + (tail.length > 2 ? ',' + tail.slice(1) : '}') + '\n');
}

/** Writes raw JSON with an explicit content type (discovery, OpenAPI). */
export function writeJSON(res: ServerResponse, code: number, value: unknown, contentType = 'application/json', extra?: Record<string, string>): void {
  const body = typeof value === 'string' ? value : stringifyJSON(value);
  res.writeHead(code, { 'Content-Type': contentType, 'Content-Length': Buffer.byteLength(body), ...extra });
  res.end(body);
}

/** Writes a Status (as JSON, whatever was negotiated: errors are always JSON to JSON clients), with Retry-After when it names a retry period. */
export function writeStatus(res: ServerResponse, status: Status): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const body = JSON.stringify(status) + '\n';
  // ErrorNegotiated: a Status naming a retry period says it in Retry-After too (429s, 409s of generateName).
  const retry = status.details?.retryAfterSeconds;
  const headers: Record<string, string | number> = { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) };
  if (retry !== undefined && retry > 0) headers['Retry-After'] = String(retry);
  res.writeHead(status.code || 500, headers);
  res.end(body);
}

/** Writes whatever was thrown as its Status (500 for non-Status errors). */
export function writeError(res: ServerResponse, err: unknown): void {
  writeStatus(res, errorToStatus(err));
}
