/**
 * The audit log (kube-apiserver's `--audit-log-path` with a policy logging every request at
 * Metadata level): one audit.k8s.io/v1 Event per request, written as a JSON line when the response
 * ends (stage ResponseComplete) — who, what (verb, requestURI, objectRef), the response's status
 * (code; for errors also status, message, reason, details) and the annotations admission added
 * (ValidatingAdmissionPolicy's validation failures and auditAnnotations). The line is written
 * before the response is flushed, so a client that has its answer finds its event in the file.
 */
import { appendFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { withAuditAnnotations, type AnnotationSink } from '../../admission/index.ts';
import { adminUser } from '../../registry/index.ts';
import { Query } from '../http/query.ts';
import { parseRequestInfo } from '../requestinfo.ts';
import { splitTarget } from '../server.ts';

type Handler = (req: IncomingMessage, res: ServerResponse) => Promise<void>;

/** metav1.MicroTime as JSON: RFC 3339 with microseconds. */
function microTime(ms: number, extraMicros: number): string {
  const iso = new Date(ms).toISOString(); // ...T12:34:56.789Z
  return `${iso.slice(0, -1)}${String(extraMicros).padStart(3, '0')}Z`;
}

function nowMicro(): string {
  const ns = process.hrtime.bigint();
  return microTime(Date.now(), Number((ns / 1000n) % 1000n));
}

/** The Event's verb and objectRef from the request (RequestInfo). */
function describe(req: IncomingMessage): { verb: string; objectRef?: Record<string, string> } {
  const method = (req.method ?? 'GET').toUpperCase();
  const target = splitTarget(req.url ?? '/');
  const segs = target.pathname.split('/').slice(1).filter((s, i, a) => s !== '' || i < a.length - 1);
  const info = parseRequestInfo(method, segs.map((s) => decodeURIComponentSafe(s)), new Query(target.params));
  if (info === undefined) return { verb: method.toLowerCase() };
  const ref: Record<string, string> = { resource: info.resource };
  if (info.namespace) ref.namespace = info.namespace;
  if (info.name) ref.name = info.name;
  if (info.group) ref.apiGroup = info.group;
  ref.apiVersion = info.version;
  if (info.subresource) ref.subresource = info.subresource;
  return { verb: info.verb, objectRef: ref };
}

function decodeURIComponentSafe(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/** The bounded fields of a Status answer (audit.LogResponseObject). */
function responseStatus(code: number, body: Buffer[]): Record<string, unknown> {
  const status: Record<string, unknown> = { metadata: {}, code };
  if (code < 300 || body.length === 0) return status;
  try {
    const s = JSON.parse(Buffer.concat(body).toString('utf8')) as Record<string, unknown>;
    if (s.kind === 'Status') {
      for (const k of ['status', 'message', 'reason', 'details']) if (s[k] !== undefined) status[k] = s[k];
    }
  } catch {
    // Not a JSON Status (protobuf, a table): the code alone.
  }
  return status;
}

const MAX_CAPTURED = 64 * 1024;

/**
 * Wraps `handle` so that each request is logged to `path`; returns the wrapped handler. The
 * annotations admission adds during the request are collected through the admission layer's sink.
 */
export function auditLogged(handle: Handler, path: string): Handler {
  return async (req, res) => {
    const received = nowMicro();
    const sink: AnnotationSink = new Map();
    const captured: Buffer[] = [];
    let size = 0;
    const write = res.write.bind(res) as (...a: unknown[]) => boolean;
    const end = res.end.bind(res) as (...a: unknown[]) => ServerResponse;
    const capture = (chunk: unknown) => {
      if (res.statusCode < 300 || size > MAX_CAPTURED || chunk === undefined || chunk === null || typeof chunk === 'function') return;
      const b = typeof chunk === 'string' ? Buffer.from(chunk) : Buffer.isBuffer(chunk) ? chunk : chunk instanceof Uint8Array ? Buffer.from(chunk) : undefined;
      if (b !== undefined) {
        captured.push(b);
        size += b.length;
      }
    };
    let logged = false;
    const log = () => {
      if (logged) return;
      logged = true;
      const { verb, objectRef } = describe(req);
      const ua = req.headers['user-agent'];
      const event: Record<string, unknown> = {
        kind: 'Event',
        apiVersion: 'audit.k8s.io/v1',
        level: 'Metadata',
        auditID: randomUUID(),
        stage: 'ResponseComplete',
        requestURI: req.url ?? '/',
        verb,
        user: { username: adminUser.username, groups: adminUser.groups },
        sourceIPs: [req.socket?.remoteAddress ?? ''],
        ...(ua ? { userAgent: ua } : {}),
        ...(objectRef ? { objectRef } : {}),
        responseStatus: responseStatus(res.statusCode, captured),
        requestReceivedTimestamp: received,
        stageTimestamp: nowMicro(),
      };
      if (sink.size > 0) event.annotations = Object.fromEntries(sink);
      try {
        appendFileSync(path, JSON.stringify(event) + '\n');
      } catch {
        // An unwritable log must not fail the request (upstream's log backend drops and counts).
      }
    };
    res.write = ((chunk: unknown, ...rest: unknown[]) => {
      capture(chunk);
      return write(chunk, ...rest);
    }) as typeof res.write;
    res.end = ((chunk?: unknown, ...rest: unknown[]) => {
      capture(chunk);
      log();
      return end(chunk, ...rest);
    }) as typeof res.end;
    res.on('close', log);
    await withAuditAnnotations(sink, () => handle(req, res));
  };
}
