/**
 * Watch streaming: a chunked `application/json` response with one event per line (or, for a
 * client preferring protobuf, upstream's length-delimited protobuf frames), headers
 * flushed at once (client-node's watch waits for the first byte), events converted to Tables for
 * `kubectl get -w`, ended at timeoutSeconds or when the store ends the watch, and cleaned up
 * when the client goes away.
 */
import { canonicalJSON, stringifyJSON } from '../../apimachinery/index.ts';
import { parseIncludeObject, toTable, type Obj, type WatchEvent } from '../../registry/index.ts';
import { watchOptions } from './options.ts';
import { embeddedCustom, negotiateFor, toRequestVersion, type ResourceRequest } from './resource.ts';
import { protobufWatchFrame, protobufWatchMediaType } from '../http/protobuf-watch.ts';

/** Bytes a watch may have queued for a client that does not read before it is closed. */
const maxBufferedBytes = 32 * 1024 * 1024;

/** Serves `?watch=true`; resolves once the stream is set up (it keeps running afterwards). */
export async function serveWatch(r: ResourceRequest): Promise<void> {
  const n = negotiateFor(r, { table: true, partialMetadata: true, yaml: false, protobuf: r.served.protobuf });
  const contentType = n.encoding === 'protobuf' ? protobufWatchMediaType : 'application/json';
  if (n.target?.as === 'PartialObjectMetadataList') n.target.as = 'PartialObjectMetadata';
  const opts = watchOptions(r.query);
  const includeObject = n.target?.as === 'Table' ? parseIncludeObject(r.query.str('includeObject')) : 'Metadata';
  let headersSent = false;
  let ended = false;
  let firstTable = true;
  const pending: WatchEvent[] = [];
  let timer: NodeJS.Timeout | undefined;
  let watcherRef: { stop(): void } | undefined;

  const encode = (ev: WatchEvent): string | Buffer => {
    if (n.encoding === 'protobuf') return protobufWatchFrame(ev.type, ev.type === 'ERROR' || ev.type === 'BOOKMARK' ? ev.object : toRequestVersion(r.served, ev.object));
    // As upstream's watchEmbeddedEncoder: every object but an ERROR's Status is transformed,
    // bookmarks included, and a Table carries its column definitions only on the first event.
    if (ev.type === 'ERROR') return stringifyJSON(ev) + '\n';
    let object: Obj = ev.type === 'BOOKMARK' ? ev.object : toRequestVersion(r.served, ev.object);
    if (n.target?.as === 'Table') {
      object = toTable(r.served.table, ev.object, false, {
        includeObject,
        tableVersion: n.target.version,
        noHeaders: !firstTable,
        embed: r.served.custom ? embeddedCustom : undefined,
      });
      firstTable = false;
    } else if (n.target?.as === 'PartialObjectMetadata') {
      object = { kind: 'PartialObjectMetadata', apiVersion: `meta.k8s.io/${n.target.version}`, metadata: ev.object.metadata ?? {} };
    } else if (r.served.custom) {
      // A custom resource's event carries it unstructured: every key sorted (see asUnstructured).
      return `{"type":${JSON.stringify(ev.type)},"object":${canonicalJSON(object)}}\n`;
    }
    return stringifyJSON({ type: ev.type, object }) + '\n';
  };

  const send = (ev: WatchEvent): void => {
    if (ended) return;
    if (!headersSent) {
      pending.push(ev);
      return;
    }
    try {
      r.res.write(encode(ev));
      // A client that stops reading is dropped (as the watch cache drops slow watchers) rather
      // than buffered without bound; it re-lists and watches again.
      if (r.res.writableLength > maxBufferedBytes) {
        watcherRef?.stop();
        finish();
      }
    } catch {
      // An event that cannot be encoded ends this stream (the client re-lists), never the server.
      watcherRef?.stop();
      finish();
    }
  };

  const finish = (): void => {
    if (ended) return;
    ended = true;
    clearTimeout(timer);
    if (headersSent) r.res.end();
  };

  // Registered before the watch starts, so that a client gone while it starts leaks nothing.
  let closed = false;
  r.res.on('close', () => {
    closed = true;
    watcherRef?.stop();
    ended = true;
    clearTimeout(timer);
  });
  const watcher = await r.served.store.watch(r.info.namespace, opts, send, () => finish());
  watcherRef = watcher;
  if (closed) {
    watcher.stop();
    return;
  }
  if (ended) {
    // The store ended the watch before it was established (e.g. an ERROR event): send what came.
    r.res.writeHead(200, { 'Content-Type': contentType, 'Cache-Control': 'no-cache, private' });
    for (const ev of pending) r.res.write(encode(ev));
    r.res.end();
    return;
  }
  timer = setTimeout(() => {
    watcher.stop();
    finish();
  }, (opts.timeoutSeconds ?? 1800) * 1000);
  // The stream's media type is the serializer's, whatever the embedded objects were converted to.
  r.res.writeHead(200, { 'Content-Type': contentType, 'Cache-Control': 'no-cache, private', 'Transfer-Encoding': 'chunked' });
  r.res.flushHeaders();
  headersSent = true;
  for (const ev of pending.splice(0)) r.res.write(encode(ev));
}
