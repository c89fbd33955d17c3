/**
 * Event's native rules (pkg/apis/core/validation/events.go), which depend on the API version
 * of the request: every write passes the legacy rules (an old-style event's namespace agrees
 * with its involved object's; a new-style one, with eventTime, names its reporting controller
 * and instance, action and reason within their lengths); writes through events.k8s.io/v1 also
 * get the strict rules (eventTime required, type Normal or Warning, the deprecated fields
 * unset, a series of at least 2, and on update the event's identity fixed). Field names are the
 * core ones, as upstream reports them on its internal type; the reporting controller is
 * `reportingComponent` for core/v1 requests.
 */
import { GoJSONText, invalid, Path, required, type FieldError } from '../../../apimachinery/index.ts';
import { isDNS1123Subdomain, isQualifiedName } from '../../../apimachinery/index.ts';
import type { NativeRules } from '../../builtin/native.ts';
import { immutableField, num, ptr, rec, semanticEqual, str } from '../../fieldvalues/fields.ts';
import type { Obj } from '../../rest.ts';
import type { RequestContext } from '../../strategy.ts';

/** The API group of the request an event was written through. */
export type EventRequestGroup = '' | 'events.k8s.io';

const reportingInstanceLengthLimit = 128;
const actionLengthLimit = 128;
const reasonLengthLimit = 128;
const noteLengthLimit = 1024;

const bytes = (s: string) => Buffer.byteLength(s, 'utf8');
const set = (v: unknown) => typeof v === 'string' && v !== '';

/** legacyValidateEvent */
export function legacyValidateEvent(obj: Obj, group: EventRequestGroup): FieldError[] {
  const errs: FieldError[] = [];
  const reportingField = group === '' ? 'reportingComponent' : 'reportingController';
  const ns = str(rec(obj.metadata).namespace);
  const involvedNs = str(rec(obj.involvedObject).namespace);
  const involvedNsPath = Path.of('involvedObject', 'namespace');
  if (!set(obj.eventTime)) {
    if (involvedNs === '') {
      // An old client may leave both empty, or write into "default".
      if (ns !== '' && ns !== 'default') errs.push(invalid(involvedNsPath, involvedNs, 'does not match event.namespace'));
    } else if (ns !== involvedNs) errs.push(invalid(involvedNsPath, involvedNs, 'does not match event.namespace'));
  } else {
    if (involvedNs === '' && ns !== 'default' && ns !== 'kube-system') errs.push(invalid(involvedNsPath, involvedNs, 'does not match event.namespace'));
    const controller = str(obj.reportingComponent);
    if (controller === '') errs.push(required(Path.of(reportingField), ''));
    errs.push(...isQualifiedName(controller).map((msg) => invalid(Path.of(reportingField), controller, msg)));
    const instance = str(obj.reportingInstance);
    if (instance === '') errs.push(required(Path.of('reportingInstance'), ''));
    if (bytes(instance) > reportingInstanceLengthLimit) errs.push(invalid(Path.of('reportingInstance'), '', `can have at most ${reportingInstanceLengthLimit} characters`));
    const action = str(obj.action);
    if (action === '') errs.push(required(Path.of('action'), ''));
    if (bytes(action) > actionLengthLimit) errs.push(invalid(Path.of('action'), '', `can have at most ${actionLengthLimit} characters`));
    const reason = str(obj.reason);
    if (reason === '') errs.push(required(Path.of('reason'), ''));
    if (bytes(reason) > reasonLengthLimit) errs.push(invalid(Path.of('reason'), '', `can have at most ${reasonLengthLimit} characters`));
    if (bytes(str(obj.message)) > noteLengthLimit) errs.push(invalid(Path.of('message'), '', `can have at most ${noteLengthLimit} characters`));
  }
  errs.push(...isDNS1123Subdomain(ns).map((msg) => invalid(Path.of('namespace'), ns, msg)));
  return errs;
}

/** validateV1EventSeries */
function validateSeries(obj: Obj): FieldError[] {
  const series = ptr(obj.series);
  if (series === undefined) return [];
  const errs: FieldError[] = [];
  if ((num(series.count) ?? 0) < 2) errs.push(invalid(Path.of('series.count'), '', 'should be at least 2'));
  if (!set(series.lastObservedTime)) errs.push(required(Path.of('series.lastObservedTime'), ''));
  return errs;
}

/** ValidateEventCreate's strict part (events.k8s.io/v1 and later); ObjectMeta is the common strategy's. */
export function validateEventCreate(obj: Obj, group: EventRequestGroup): FieldError[] {
  const errs = legacyValidateEvent(obj, group);
  if (group === '') return errs;
  errs.push(...validateSeries(obj));
  if (!set(obj.eventTime)) errs.push(required(Path.of('eventTime'), ''));
  const type = str(obj.type);
  if (type !== 'Normal' && type !== 'Warning') errs.push(invalid(Path.of('type'), '', `has invalid value: ${type}`));
  if (set(obj.firstTimestamp)) errs.push(invalid(Path.of('firstTimestamp'), '', 'needs to be unset'));
  if (set(obj.lastTimestamp)) errs.push(invalid(Path.of('lastTimestamp'), '', 'needs to be unset'));
  if ((num(obj.count) ?? 0) !== 0) errs.push(invalid(Path.of('count'), '', 'needs to be unset'));
  const source = rec(obj.source);
  if (set(source.component) || set(source.host)) errs.push(invalid(Path.of('source'), '', 'needs to be unset'));
  return errs;
}

/** An ObjectReference as the internal struct marshals (Go's field names). */
function objectReference(v: unknown): GoJSONText {
  const r = rec(v);
  const fields = ['Kind', 'Namespace', 'Name', 'UID', 'APIVersion', 'ResourceVersion', 'FieldPath'];
  const keys = ['kind', 'namespace', 'name', 'uid', 'apiVersion', 'resourceVersion', 'fieldPath'];
  return new GoJSONText(`{${fields.map((f, i) => `${JSON.stringify(f)}:${JSON.stringify(str(r[keys[i]!]))}`).join(',')}}`);
}

/** A time field as metav1.Time marshals: its RFC 3339 text, or null when zero. */
const timeValue = (v: unknown) => (set(v) ? v : null);

/** eventTime compared at microsecond precision (clients that truncate nanoseconds may update). */
function sameMicroTime(a: unknown, b: unknown): boolean {
  const micros = (v: unknown) => {
    if (!set(v)) return '';
    const m = /^(.*T\d\d:\d\d:\d\d)(\.\d+)?(.*)$/.exec(v as string);
    if (m === null) return v as string;
    const frac = (m[2] ?? '.').slice(1).padEnd(6, '0').slice(0, 6);
    const t = Date.parse(`${m[1]}${m[3]}`);
    return `${Number.isNaN(t) ? m[1] : t}.${frac}`;
  };
  return micros(a) === micros(b);
}

/** ValidateEventUpdate: the legacy rules; through events.k8s.io, also the event's fields fixed. */
export function validateEventUpdate(obj: Obj, old: Obj, group: EventRequestGroup): FieldError[] {
  const errs = legacyValidateEvent(obj, group);
  if (group === '') return errs;
  if (!semanticEqual(obj.series, old.series)) errs.push(...validateSeries(obj));
  const fixed = (f: string, shown: (v: unknown) => unknown = (v) => v ?? '') =>
    errs.push(...immutableField(obj[f], old[f], Path.of(f), shown(obj[f])));
  if (!semanticEqual(rec(obj.involvedObject), rec(old.involvedObject))) errs.push(invalid(Path.of('involvedObject'), objectReference(obj.involvedObject), 'field is immutable'));
  fixed('reason');
  fixed('message');
  const src = rec(obj.source);
  if (!semanticEqual(src, rec(old.source))) {
    errs.push(invalid(Path.of('source'), new GoJSONText(`{"Component":${JSON.stringify(str(src.component))},"Host":${JSON.stringify(str(src.host))}}`), 'field is immutable'));
  }
  fixed('firstTimestamp', timeValue);
  fixed('lastTimestamp', timeValue);
  fixed('count', (v) => v ?? 0);
  // Again: upstream's ValidateEventUpdate checks reason twice, so a changed reason is reported twice.
  fixed('reason');
  fixed('type');
  if (!sameMicroTime(obj.eventTime, old.eventTime)) errs.push(invalid(Path.of('eventTime'), timeValue(obj.eventTime), 'field is immutable'));
  fixed('action');
  if (!semanticEqual(obj.related, old.related)) errs.push(invalid(Path.of('related'), ptr(obj.related) === undefined ? null : objectReference(obj.related), 'field is immutable'));
  errs.push(...immutableField(obj.reportingComponent, old.reportingComponent, Path.of('reportingController'), obj.reportingComponent ?? ''));
  fixed('reportingInstance');
  return errs;
}

/** The request's group as the rules know it (events.k8s.io, or the core group). */
const groupOf = (ctx: RequestContext): EventRequestGroup => (ctx.requestGroup === 'events.k8s.io' ? 'events.k8s.io' : '');

/**
 * The rules of Event's one storage (core/v1 and events.k8s.io/v1 Events are one), chosen per write
 * by the group of the endpoint it came through, as ValidateEventCreate takes the request's version.
 */
export const eventRulesByRequest: NativeRules = {
  validate: (ctx, obj) => validateEventCreate(obj, groupOf(ctx)),
  validateUpdate: (ctx, obj, old) => validateEventUpdate(obj, old, groupOf(ctx)),
};

/** The rules for writes through one API group (core/v1 Events and events.k8s.io/v1 Events are one storage). */
export function eventRules(group: EventRequestGroup): NativeRules {
  return {
    validate: (_ctx, obj) => validateEventCreate(obj, group),
    validateUpdate: (_ctx, obj, old) => validateEventUpdate(obj, old, group),
  };
}
