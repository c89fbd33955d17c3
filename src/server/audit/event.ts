/**
 * The audit.k8s.io/v1 Event of one request (k8s.io/apiserver `pkg/audit/request.go`): its fields in
 * upstream's order, the request metadata (verb, URI, user, source IPs, user agent, objectRef), the
 * objectRef completed from the request object (name, namespace, uid, resourceVersion), the bounded
 * fields of a Status answer, the request and response objects at the levels that carry them, and
 * the two formats of the log backend (`json` lines, and `legacy` text).
 */
import type { IncomingMessage } from 'node:http';
import { isIP } from 'node:net';
import { goQuote } from '../../apimachinery/index.ts';
import type { UserInfo } from '../../registry/index.ts';
import type { RequestInfo } from '../requestinfo.ts';
import type { Level, Stage } from './policy.ts';

export interface ObjectReference {
  resource?: string;
  namespace?: string;
  name?: string;
  uid?: string;
  apiGroup?: string;
  apiVersion?: string;
  resourceVersion?: string;
  subresource?: string;
}

/** authenticationv1.UserInfo: groups and extra left out when empty. */
export interface EventUser {
  username: string;
  uid?: string;
  groups?: string[];
  extra?: Record<string, string[]>;
}

export interface AuditEvent {
  level: Level;
  auditID: string;
  stage: Stage;
  requestURI: string;
  verb: string;
  user: EventUser | Record<string, never>;
  impersonatedUser?: EventUser;
  sourceIPs: string[];
  userAgent?: string;
  objectRef?: ObjectReference;
  responseStatus?: Record<string, unknown>;
  requestObject?: unknown;
  responseObject?: unknown;
  requestReceivedTimestamp: string;
  stageTimestamp: string;
  annotations?: Record<string, string>;
}

/** metav1.MicroTime as JSON: RFC 3339 with microseconds, in UTC. */
export function microTime(ms: number, micros: number): string {
  return `${new Date(ms).toISOString().slice(0, -1)}${String(micros).padStart(3, '0')}Z`;
}

export function nowMicro(): string {
  return microTime(Date.now(), Number((process.hrtime.bigint() / 1000n) % 1000n));
}

/** An IPv4-mapped IPv6 address as Go prints it (the IPv4 form). */
function ipString(ip: string): string {
  const m = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  return m ? m[1]! : ip;
}

/** utilnet.SourceIPs: X-Forwarded-For's addresses, X-Real-Ip, then the peer (each once at the end). */
export function sourceIPs(req: IncomingMessage): string[] {
  const out: string[] = [];
  const header = (h: string) => {
    const v = req.headers[h];
    return Array.isArray(v) ? v[0] : v;
  };
  for (const part of (header('x-forwarded-for') ?? '').split(',')) {
    const ip = part.trim();
    if (isIP(ip)) out.push(ipString(ip));
  }
  const real = (header('x-real-ip') ?? '').trim();
  if (isIP(real) && !out.includes(ipString(real))) out.push(ipString(real));
  const remote = req.socket?.remoteAddress;
  if (remote && isIP(remote) && out[out.length - 1] !== ipString(remote)) out.push(ipString(remote));
  return out;
}

const maxUserAgentLength = 1024;
const userAgentTruncateSuffix = '...TRUNCATED';

/** maybeTruncateUserAgent. */
export function userAgentOf(req: IncomingMessage): string {
  const ua = req.headers['user-agent'] ?? '';
  return ua.length > maxUserAgentLength ? ua.slice(0, maxUserAgentLength) + userAgentTruncateSuffix : ua;
}

/** The objectRef of a resource request (from its RequestInfo). */
export function objectRefOf(info: RequestInfo): ObjectReference {
  const ref: ObjectReference = { resource: info.resource };
  if (info.namespace) ref.namespace = info.namespace;
  if (info.name) ref.name = info.name;
  if (info.group) ref.apiGroup = info.group;
  ref.apiVersion = info.version;
  if (info.subresource) ref.subresource = info.subresource;
  return ref;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** LogRequestObject's completion of objectRef: the fields the URL did not give, from the object's metadata. */
export function completeObjectRef(ref: ObjectReference, obj: unknown): void {
  if (!isRecord(obj) || !isRecord(obj.metadata)) return;
  const m = obj.metadata;
  const fill = (k: 'namespace' | 'name' | 'uid' | 'resourceVersion') => {
    if (!ref[k] && typeof m[k] === 'string' && m[k] !== '') ref[k] = m[k] as string;
  };
  fill('namespace');
  fill('name');
  fill('uid');
  fill('resourceVersion');
}

/** LogResponseObject's copy of a Status answer's bounded fields (metadata, status, message, reason, details, code). */
export function responseStatusOf(code: number, body: unknown): Record<string, unknown> {
  if (isRecord(body) && body.kind === 'Status') {
    const s: Record<string, unknown> = { metadata: {} };
    for (const k of ['status', 'message', 'reason', 'details']) if (body[k] !== undefined && body[k] !== '') s[k] = body[k];
    s.code = typeof body.code === 'number' ? body.code : code;
    return s;
  }
  return { metadata: {}, code };
}

/** The object without metadata.managedFields (of its items too, for lists): omitManagedFields. */
export function withoutManagedFields(obj: unknown): unknown {
  if (!isRecord(obj)) return obj;
  const strip = (o: unknown) => {
    if (!isRecord(o) || !isRecord(o.metadata) || o.metadata.managedFields === undefined) return o;
    const { managedFields: _, ...metadata } = o.metadata;
    return { ...o, metadata };
  };
  const out = strip(obj) as Record<string, unknown>;
  return Array.isArray(out.items) ? { ...out, items: out.items.map(strip) } : out;
}

/** One JSON line, fields in the Event's order. */
export function eventJSON(ev: AuditEvent): string {
  const { annotations, ...rest } = ev;
  const sorted = annotations && Object.keys(annotations).length > 0 ? Object.fromEntries(Object.entries(annotations).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : undefined;
  return JSON.stringify({ kind: 'Event', apiVersion: 'audit.k8s.io/v1', ...rest, ...(sorted ? { annotations: sorted } : {}) }) + '\n';
}

/** time.RFC3339Nano of a MicroTime (trailing zeros of the fraction dropped). */
function rfc3339Nano(micro: string): string {
  return micro.replace(/\.(\d*?)0*Z$/, (_m, frac: string) => (frac === '' ? 'Z' : `.${frac}Z`));
}

const quotedList = (xs: readonly string[]) => xs.map(goQuote).join(',');

/** audit.EventString: the legacy format's line. */
export function eventLegacy(ev: AuditEvent): string {
  const user = ev.user as Partial<EventUser>;
  const username = user.username ? user.username : '<none>';
  const groups = user.username && (user.groups ?? []).length > 0 ? quotedList(user.groups!) : '<none>';
  const as = ev.impersonatedUser ? ev.impersonatedUser.username : '<self>';
  const asGroups = ev.impersonatedUser?.groups !== undefined ? quotedList(ev.impersonatedUser.groups) : '<lookup>';
  const namespace = ev.objectRef?.namespace ? ev.objectRef.namespace : '<none>';
  const response = ev.responseStatus ? String(ev.responseStatus.code) : '<deferred>';
  const ip = ev.sourceIPs[0] ?? '<unknown>';
  const q = goQuote;
  return (
    `${rfc3339Nano(ev.requestReceivedTimestamp)} AUDIT: id=${q(ev.auditID)} stage=${q(ev.stage)} ip=${q(ip)} method=${q(ev.verb)} user=${q(username)} ` +
    `groups=${q(groups)} as=${q(as)} asgroups=${q(asGroups)} user-agent=${q(ev.userAgent ?? '')} namespace=${q(namespace)} uri=${q(ev.requestURI)} response="${response}"\n`
  );
}

/** The user as the Event carries it (authenticationv1.UserInfo: username, uid, groups, extra). */
export function eventUser(u: UserInfo): EventUser {
  return {
    username: u.username,
    ...(u.uid ? { uid: u.uid } : {}),
    ...(u.groups.length > 0 ? { groups: u.groups } : {}),
    ...(u.extra && Object.keys(u.extra).length > 0 ? { extra: u.extra } : {}),
  };
}
