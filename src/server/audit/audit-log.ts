/**
 * The audit filter (k8s.io/apiserver `endpoints/filters/audit.go`, `audit_init.go`) with the log
 * backend of `--audit-log-path`: each request gets an Audit-Id, the policy decides its level
 * from the authenticated user and the request, and an audit.k8s.io/v1 Event is written per stage
 * not omitted — RequestReceived, ResponseStarted (long-running requests only), ResponseComplete, or
 * Panic — with the impersonated user, the authorization decision and the annotations admission
 * adds, and the request and response objects at the Request and RequestResponse levels. No
 * policy, no events (as upstream). Each line is written before the response is flushed, so a
 * client that has its answer finds its event in the file.
 *
 * The server tells the filter who the request is from (`auditRequestUser`) once it knows, whom it
 * impersonates and what authorization decided (`auditImpersonatedUser`, `auditAnnotation`).
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { withAuditAnnotations, type AnnotationSink } from '../../admission/index.ts';
import { decodeEnvelope, decodeProtobufMessage, protobufKindMessage, yamlToJSON } from '../../apimachinery/index.ts';
import type { UserInfo } from '../../registry/index.ts';
import { isLongRunning, requestInfoOf, targetOf } from '../filters/long-running.ts';
import { levelAtLeast, policyRuleEvaluator, type AuditAttributes, type RequestAuditConfig } from './checker.ts';
import {
  completeObjectRef,
  eventJSON,
  eventLegacy,
  eventUser,
  nowMicro,
  objectRefOf,
  responseStatusOf,
  sourceIPs,
  userAgentOf,
  withoutManagedFields,
  type AuditEvent,
} from './event.ts';
import type { Policy, Stage } from './policy.ts';

type Handler = (req: IncomingMessage, res: ServerResponse) => Promise<void>;

/** Where events go (audit.Sink). */
export interface AuditSink {
  processEvent(ev: AuditEvent): void;
}

export type LogFormat = 'json' | 'legacy';
export const logFormats: readonly LogFormat[] = ['legacy', 'json'];

/** The log backend: one line per event in `format`; a failing write drops the event, never the request. */
export function logBackend(out: { write(line: string): void }, format: LogFormat, onError?: (e: unknown) => void): AuditSink {
  return {
    processEvent(ev) {
      try {
        out.write(format === 'legacy' ? eventLegacy(ev) : eventJSON(ev));
      } catch (e) {
        onError?.(e);
      }
    },
  };
}

/** What the server reports while handling one request. */
interface RequestAudit {
  begin(user: UserInfo | undefined): void;
  impersonated(user: UserInfo): void;
  annotations: Map<string, string>;
}

const current = new AsyncLocalStorage<RequestAudit>();

/** The authenticated user of the request being handled: the policy is evaluated for it now. */
export function auditRequestUser(user: UserInfo): void {
  current.getStore()?.begin(user);
}

/** The user the request acts as (LogImpersonatedUser). */
export function auditImpersonatedUser(user: UserInfo): void {
  current.getStore()?.impersonated(user);
}

/** An annotation of the request's event; the first value set for a key stays. */
export function auditAnnotation(key: string, value: string): void {
  const a = current.getStore()?.annotations;
  if (a !== undefined && !a.has(key)) a.set(key, value);
}

/** Largest response body kept for the responseObject (bigger ones are logged without it). */
const maxResponseObjectBytes = 16 * 1024 * 1024;
/** Enough of an error answer to read its Status. */
const maxStatusBytes = 64 * 1024;

/** A request or response body as JSON (protobuf decoded as the kind's message); undefined when it does not decode. */
function parseBody(buf: Buffer, contentType: string | undefined): unknown {
  const media = (contentType ?? 'application/json').split(';')[0]!.trim().toLowerCase();
  if (buf.length === 0) return undefined;
  try {
    if (media.includes('protobuf')) {
      const env = decodeEnvelope(buf);
      const m = protobufKindMessage(env.apiVersion, env.kind);
      return m ? decodeProtobufMessage(m, env.raw, { apiVersion: env.apiVersion, kind: env.kind }) : undefined;
    }
    const text = buf.toString('utf8');
    return media.includes('yaml') ? yamlToJSON(text).value : JSON.parse(text);
  } catch {
    return undefined;
  }
}

const panicStatus = (e: unknown) => ({ metadata: {}, status: 'Failure', message: `APIServer panic'd: ${e instanceof Error ? e.message : String(e)}`, code: 500 });

/** Wraps `handle` with the audit filter: `policy` decides what `sink` receives. */
export function audited(handle: Handler, policy: Policy, sink: AuditSink): Handler {
  const evaluate = policyRuleEvaluator(policy);
  return async (req, res) => {
    const received = nowMicro();
    const headerID = req.headers['audit-id'];
    const auditID = typeof headerID === 'string' && headerID !== '' ? headerID : randomUUID();
    res.setHeader('Audit-Id', auditID);
    const target = targetOf(req.url ?? '/');
    const info = requestInfoOf(req);
    const longRunning = isLongRunning(info, target.pathname);
    const method = (req.method ?? 'GET').toUpperCase();
    const verb = info?.verb ?? method.toLowerCase();

    let config: RequestAuditConfig | undefined;
    let ev: AuditEvent | undefined;
    const emit = (stage: Stage) => {
      if (ev === undefined || config!.omitStages.includes(stage)) return;
      ev.stage = stage;
      ev.stageTimestamp = stage === 'RequestReceived' ? ev.requestReceivedTimestamp : nowMicro();
      if (ctx.annotations.size > 0 || sink_.size > 0) ev.annotations = Object.fromEntries([...sink_, ...ctx.annotations]);
      sink.processEvent({ ...ev });
    };

    // The request body, as the handler reads it: for the requestObject and objectRef's completion.
    const bodyChunks: Buffer[] = [];
    const captureBody = () => {
      let hooked = false;
      req.on('newListener', (event) => {
        if (event !== 'data' || hooked) return;
        hooked = true;
        req.on('data', (c: Buffer) => bodyChunks.push(c));
      });
    };

    const sink_: AnnotationSink = new Map();
    const ctx: RequestAudit = {
      annotations: new Map(),
      begin(user) {
        if (config !== undefined) return;
        const attrs: AuditAttributes = info
          ? { user, verb, resourceRequest: true, apiGroup: info.group, resource: info.resource, subresource: info.subresource ?? '', namespace: info.namespace ?? '', name: info.name ?? '', path: target.pathname }
          : { user, verb, resourceRequest: false, path: target.pathname };
        config = evaluate(attrs);
        if (config.level === 'None') return;
        ev = {
          level: config.level,
          auditID,
          stage: 'RequestReceived',
          requestURI: req.url ?? '/',
          verb,
          user: user ? eventUser(user) : {},
          sourceIPs: sourceIPs(req),
          ...(req.headers['user-agent'] ? { userAgent: userAgentOf(req) } : {}),
          ...(info ? { objectRef: objectRefOf(info) } : {}),
          requestReceivedTimestamp: received,
          stageTimestamp: received,
        };
        captureBody();
        emit('RequestReceived');
      },
      impersonated(user) {
        if (ev !== undefined) ev.impersonatedUser = eventUser(user);
      },
    };

    // The response: its code (ResponseStarted for long-running requests) and its body.
    const captured: Buffer[] = [];
    let capturedBytes = 0;
    let tooBig = false;
    const keepAll = () => !longRunning && ev !== undefined && levelAtLeast(ev.level, 'RequestResponse');
    const capture = (chunk: unknown) => {
      if (ev === undefined || tooBig || chunk === undefined || chunk === null || typeof chunk === 'function') return;
      if (!keepAll() && (res.statusCode < 300 || capturedBytes > maxStatusBytes)) return;
      const b = typeof chunk === 'string' ? Buffer.from(chunk) : chunk instanceof Uint8Array ? Buffer.from(chunk) : undefined;
      if (b === undefined) return;
      capturedBytes += b.length;
      if (capturedBytes > maxResponseObjectBytes) {
        tooBig = true;
        captured.length = 0;
        return;
      }
      captured.push(b);
    };
    let started = false;
    const writeHead = res.writeHead.bind(res) as (...a: unknown[]) => ServerResponse;
    res.writeHead = ((...a: unknown[]) => {
      const out = writeHead(...a);
      if (!started) {
        started = true;
        if (ev !== undefined) {
          ev.responseStatus = { metadata: {}, code: res.statusCode };
          if (longRunning) emit('ResponseStarted');
        }
      }
      return out;
    }) as typeof res.writeHead;
    const write = res.write.bind(res) as (...a: unknown[]) => boolean;
    const end = res.end.bind(res) as (...a: unknown[]) => ServerResponse;
    let completed = false;
    const complete = () => {
      if (completed) return;
      completed = true;
      if (config === undefined) ctx.begin(undefined);
      if (ev === undefined) return;
      const code = res.headersSent || started ? res.statusCode : 200;
      const body = captured.length > 0 ? parseBody(Buffer.concat(captured), String(res.getHeader('content-type') ?? '')) : undefined;
      ev.responseStatus = started ? responseStatusOf(code, body) : { metadata: {}, status: 'Success', message: 'Connection closed early', code: 200 };
      const request = bodyChunks.length > 0 ? parseBody(Buffer.concat(bodyChunks), req.headers['content-type']) : undefined;
      if (request !== undefined && ev.objectRef && (verb === 'create' || verb === 'update')) completeObjectRef(ev.objectRef, request);
      if (request !== undefined && levelAtLeast(ev.level, 'Request')) ev.requestObject = config!.omitManagedFields ? withoutManagedFields(request) : request;
      if (body !== undefined && keepAll()) {
        ev.responseObject = config!.omitManagedFields ? withoutManagedFields(body) : body;
      }
      emit('ResponseComplete');
    };
    res.write = ((chunk: unknown, ...rest: unknown[]) => {
      capture(chunk);
      return write(chunk, ...rest);
    }) as typeof res.write;
    res.end = ((chunk?: unknown, ...rest: unknown[]) => {
      capture(chunk);
      complete();
      return end(chunk, ...rest);
    }) as typeof res.end;
    res.on('close', complete);
    try {
      await current.run(ctx, () => withAuditAnnotations(sink_, () => handle(req, res)));
    } catch (e) {
      if (config === undefined) ctx.begin(undefined);
      if (ev !== undefined && !completed) {
        completed = true;
        ev.responseStatus = panicStatus(e);
        emit('Panic');
      }
      throw e;
    }
  };
}
