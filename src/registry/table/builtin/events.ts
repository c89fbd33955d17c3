/**
 * The Event printer (printEvent), for core/v1 Events and events.k8s.io/v1 Events alike: upstream
 * stores both as one internal Event, so an events.k8s.io object is first read back into the
 * core/v1 field names (regarding → involvedObject, note → message, deprecated* → source, first
 * and last timestamps, count). LAST SEEN falls back to the first timestamp or the event time;
 * a series gives the last observed time and count.
 */
import { col, nameColumn, printer, wide } from './columns.ts';
import { int, isSet, nameOf, obj, since, str, type Obj } from './cells.ts';

/** The core/v1 shape of an events.k8s.io/v1 Event (the fields the printer reads). */
export function coreEventOf(e: Obj): Obj {
  return {
    metadata: e.metadata,
    involvedObject: e.regarding,
    reason: e.reason,
    message: e.note,
    source: e.deprecatedSource,
    firstTimestamp: e.deprecatedFirstTimestamp,
    lastTimestamp: e.deprecatedLastTimestamp,
    count: e.deprecatedCount,
    type: e.type,
    eventTime: e.eventTime,
    series: e.series,
    reportingComponent: e.reportingController,
    reportingInstance: e.reportingInstance,
  };
}

function firstNonEmpty(...ss: string[]): string {
  return ss.find((s) => s !== '') ?? '';
}

/** formatEventSource: `component, host`, falling back to the reporting controller and instance. */
function eventSource(e: Obj): string {
  const src = obj(e.source);
  const component = firstNonEmpty(str(src.component), str(e.reportingComponent));
  const instance = firstNonEmpty(str(src.host), str(e.reportingInstance));
  return instance === '' ? component : `${component}, ${instance}`;
}

function eventCells(e: Obj, now: number): unknown[] {
  const first = isSet(e.firstTimestamp) && str(e.firstTimestamp) !== '' ? since(e.firstTimestamp, now) : since(e.eventTime, now);
  let last = isSet(e.lastTimestamp) && str(e.lastTimestamp) !== '' ? since(e.lastTimestamp, now) : first;
  let count = int(e.count);
  if (isSet(e.series)) {
    last = since(obj(e.series).lastObservedTime, now);
    count = int(obj(e.series).count);
  } else if (count === 0) {
    // Singleton events of the new API have no count.
    count = 1;
  }
  const involved = obj(e.involvedObject);
  const kind = str(involved.kind).toLowerCase();
  const target = str(involved.name) !== '' ? `${kind}/${str(involved.name)}` : kind;
  return [last, str(e.type), str(e.reason), target, str(involved.fieldPath), eventSource(e), str(e.message).trim(), first, count, nameOf(e)];
}

const eventColumns = [
  col('Last Seen', 'string', 'corev1.Event.lastTimestamp'),
  col('Type', 'string', 'corev1.Event.type'),
  col('Reason', 'string', 'corev1.Event.reason'),
  col('Object', 'string', 'corev1.Event.involvedObject'),
  wide('Subobject', 'string', 'corev1.ObjectReference.fieldPath'),
  wide('Source', 'string', 'corev1.Event.source'),
  col('Message', 'string', 'corev1.Event.message'),
  wide('First Seen', 'string', 'corev1.Event.firstTimestamp'),
  wide('Count', 'string', 'corev1.Event.count'),
  { ...nameColumn, priority: 1 },
];

export const eventPrinter = printer(eventColumns, eventCells);

export const eventsV1Printer = printer(eventColumns, (e, now) => eventCells(coreEventOf(e), now));
