/**
 * `/openapi/v3` and its group-version documents: an index of `paths` with `serverRelativeURL`s
 * carrying a content hash (kubectl caches by it), each document rendered on its first request and
 * again only when the resources of its group version change, and answered with kube-openapi's caching headers and
 * redirects. `/openapi/v2` is v2.ts's document, as JSON or protobuf per Accept.
 */
import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Query } from '../http/query.ts';
import { writeJSON, writeStatus } from '../http/respond.ts';
import { failureStatus } from '../../apimachinery/index.ts';
import type { ServedResource, ServedTable } from '../served.ts';
import { builtinOpenAPIDocument } from '../../registry/index.ts';
import { openAPIV2, protobufV2MediaTypes } from './v2.ts';
import { groupVersionDocument } from './v3.ts';

interface Rendered {
  body: string;
  hash: string;
}

export class OpenAPIService {
  /** The table generation `gvs` was computed at. */
  private cacheGeneration = -1;
  /** Each served group version (keyed as `documents` keys them, in discovery order) and its resources. */
  private gvs = new Map<string, { group: string; version: string; from: ServedResource[] }>();
  /** Built-in group-versions' documents, served as Kubernetes ships them (rendered once). */
  private readonly builtin = new Map<string, Rendered>();
  /** Each group version's document and the served resources it was rendered from. */
  private rendered = new Map<string, { from: ServedResource[]; doc: Rendered }>();

  constructor(private readonly table: ServedTable) {}

  /** The served group versions as of the table's current generation. */
  private current(): Map<string, { group: string; version: string; from: ServedResource[] }> {
    if (this.cacheGeneration === this.table.generation) return this.gvs;
    const byGV = new Map<string, ServedResource[]>();
    for (const r of this.table.all()) {
      const k = r.group === '' ? `api/${r.version}` : `apis/${r.group}/${r.version}`;
      const list = byGV.get(k);
      if (list === undefined) byGV.set(k, [r]);
      else list.push(r);
    }
    const gvs = new Map<string, { group: string; version: string; from: ServedResource[] }>();
    for (const g of this.table.groups()) {
      for (const v of g.versions) {
        const key = g.name === '' ? `api/${v}` : `apis/${g.name}/${v}`;
        const from = byGV.get(key);
        if (from !== undefined) gvs.set(key, { group: g.name, version: v, from });
      }
    }
    // A group version no longer served leaves no document behind.
    for (const k of [...this.rendered.keys()]) if (!gvs.has(k)) this.rendered.delete(k);
    this.gvs = gvs;
    this.cacheGeneration = this.table.generation;
    return gvs;
  }

  /**
   * One group version's document (`api/v1`, `apis/<group>/<version>`), rendered on first request
   * and again only when its resources change: a fetch of one document after a restart or a CRD
   * change renders that one, not the documents of hundreds of CRDs.
   */
  document(key: string): Rendered | undefined {
    const gv = this.current().get(key);
    if (gv === undefined) return undefined;
    const shipped = this.builtin.get(key) ?? this.shipped(key, gv.group, gv.version);
    if (shipped) return shipped;
    const { from } = gv;
    const prev = this.rendered.get(key);
    if (prev !== undefined && prev.from.length === from.length && prev.from.every((r, i) => r === from[i])) return prev.doc;
    const body = JSON.stringify(groupVersionDocument(from, gv.group, gv.version));
    const doc = { body, hash: createHash('sha512').update(body).digest('hex').toUpperCase() };
    this.rendered.set(key, { from, doc });
    return doc;
  }

  /** Every served group version's document, keyed as `document` takes them (the index needs each one's hash). */
  documents(): Map<string, Rendered> {
    const docs = new Map<string, Rendered>();
    for (const key of this.current().keys()) docs.set(key, this.document(key)!);
    return docs;
  }

  /** The document Kubernetes ships for a built-in group-version, if the server serves it as shipped. */
  private shipped(key: string, group: string, version: string): Rendered | undefined {
    const body = builtinOpenAPIDocument(group, version);
    if (body === undefined) return undefined;
    const r = { body, hash: createHash('sha512').update(body).digest('hex').toUpperCase() };
    this.builtin.set(key, r);
    return r;
  }

  /** Serves a GET under /openapi. */
  serve(req: IncomingMessage, res: ServerResponse, segs: string[], query: Query): void {
    const notFound = () => writeStatus(res, failureStatus(404, 'NotFound', 'the server could not find the requested resource', {}));
    if (segs[1] === 'v2' && segs.length === 2) {
      const v2 = openAPIV2();
      const headers = { Etag: v2.etag, Vary: 'Accept' };
      if (req.headers['if-none-match'] === v2.etag) {
        res.writeHead(304, headers);
        res.end();
        return;
      }
      const accept = req.headers.accept ?? '';
      if (protobufV2MediaTypes.some((t) => accept.includes(t))) {
        // As kube-openapi: the deprecated '@' spelling is accepted but never answered (Go's mime
        // parser rejects it).
        res.writeHead(200, { 'Content-Type': protobufV2MediaTypes[1]!, 'Content-Length': v2.protobuf.length, ...headers });
        res.end(v2.protobuf);
      } else {
        writeJSON(res, 200, v2.json, 'application/json', headers);
      }
      return;
    }
    if (segs[1] !== 'v3') {
      notFound();
      return;
    }
    if (segs.length === 2) {
      const paths: Record<string, { serverRelativeURL: string }> = {};
      for (const [k, d] of this.documents()) paths[k] = { serverRelativeURL: `/openapi/v3/${k}?hash=${d.hash}` };
      writeJSON(res, 200, { paths });
      return;
    }
    const key = segs.slice(2).join('/');
    const d = this.document(key);
    if (!d) {
      notFound();
      return;
    }
    // As kube-openapi's handler3: a stale ?hash= is redirected to the current one; a matching
    // one may be cached for good; If-None-Match with the current ETag is a 304.
    const etag = `"${d.hash}"`;
    const hash = query.str('hash');
    const headers: Record<string, string> = { Etag: etag, Vary: 'Accept' };
    if (hash !== undefined && hash !== '') {
      if (hash !== d.hash) {
        res.writeHead(301, { Location: `/openapi/v3/${key}?hash=${d.hash}` });
        res.end();
        return;
      }
      headers['Cache-Control'] = 'public, immutable';
      headers.Expires = new Date(Date.now() + 365 * 24 * 3600 * 1000).toUTCString();
    }
    if (req.headers['if-none-match'] === etag) {
      res.writeHead(304, headers);
      res.end();
      return;
    }
    writeJSON(res, 200, d.body, 'application/json', headers);
  }
}
