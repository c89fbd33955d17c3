/**
 * events.k8s.io/v1 Event and core/v1 Event are one storage, as in kube-apiserver: events.k8s.io
 * serves the core Event store (`/registry/events`, written as core/v1), converting each object
 * with upstream's field mapping (`pkg/apis/events/v1/conversion.go`): regarding is
 * involvedObject, note message, reportingController reportingComponent, deprecatedSource source,
 * deprecatedFirstTimestamp/LastTimestamp/Count firstTimestamp/lastTimestamp/count; the other
 * fields have the same names. `regarding` and `involvedObject` are Go structs, never absent.
 */
import type { Obj } from '../rest.ts';
import type { VersionConversion } from './converted-store.ts';

/** events.k8s.io/v1 field -> core/v1 field, for the fields that are renamed. */
const renamed: ReadonlyArray<readonly [events: string, core: string]> = [
  ['regarding', 'involvedObject'],
  ['note', 'message'],
  ['reportingController', 'reportingComponent'],
  ['deprecatedSource', 'source'],
  ['deprecatedFirstTimestamp', 'firstTimestamp'],
  ['deprecatedLastTimestamp', 'lastTimestamp'],
  ['deprecatedCount', 'count'],
];

/** MUTATES obj: renames `from` fields to `to` fields, in the object's key order. */
function rename(obj: Obj, pairs: ReadonlyArray<readonly [string, string]>): Obj {
  const to = new Map(pairs);
  const out: Obj = {};
  for (const [k, v] of Object.entries(obj)) out[to.get(k) ?? k] = v;
  for (const k of Object.keys(obj)) delete obj[k];
  return Object.assign(obj, out);
}

export const eventsV1Conversion: VersionConversion = {
  toStorage(obj) {
    rename(obj, renamed);
    obj.involvedObject ??= {};
    return obj;
  },
  fromStorage(obj) {
    rename(
      obj,
      renamed.map(([e, c]) => [c, e] as const),
    );
    obj.regarding ??= {};
    return obj;
  },
};
