/**
 * Audit annotations of the request being admitted (admission.Attributes.AddAnnotation): the HTTP
 * layer's audit filter runs each request with a sink, and the policy plugin adds to whichever
 * sink the current request carries. Without a sink (no audit log) annotations go nowhere.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

/** The annotations one request collects, in the order they were added. */
export type AnnotationSink = Map<string, string>;

const current = new AsyncLocalStorage<AnnotationSink>();

/** Runs `fn` (a request's handling) with `sink` collecting its audit annotations. */
export function withAuditAnnotations<T>(sink: AnnotationSink, fn: () => T): T {
  return current.run(sink, fn);
}

/** AddAnnotation: the first value set for a key stays (upstream refuses to overwrite). */
export function addAuditAnnotation(key: string, value: string): void {
  const sink = current.getStore();
  if (sink !== undefined && !sink.has(key)) sink.set(key, value);
}
