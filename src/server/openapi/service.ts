/**
 * `/openapi/v3` and its group-version documents: an index of `paths` with `serverRelativeURL`s
 * carrying a content hash (kubectl caches by it), each document rendered again only when the
 * resources of its group version change, and answered with kube-openapi's caching headers and
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
  private cacheGeneration = -1;
  private docs = new Map<string, Rendered>();
  /** Built-in group-versions' documents, served as Kubernetes ships them (rendered once). */
  private readonly builtin = new Map<string, Rendered>();
  /** Each group version's document and the served resources it was rendered from. */
  private rendered = new Map<string, { from: ServedResource[]; doc: Rendered }>();

  constructor(private readonly table: ServedTable) {}

  /**
   * The rendered documents keyed `api/v1` / `apis/<group>/<version>`. After a change of the served
   * table only the group versions whose resources changed are rendered again: a CRD created among
   * hundreds costs one document, not all of them.
   */
  documents(): Map<string, Rendered> {
    if (this.cacheGeneration === this.table.generation) return this.docs;
    const byGV = new Map<string, ServedResource[]>();
    for (const r of this.table.all()) {
      const k = r.group === '' ? `api/${r.version}` : `apis/${r.group}/${r.version}`;
      const list = byGV.get(k);
      if (list === undefined) byGV.set(k, [r]);
      else list.push(r);
    }
    const docs = new Map<string, Rendered>();
    const rendered = new Map<string, { from: ServedResource[]; doc: Rendered }>();
    for (const g of this.table.groups()) {
      for (const v of g.versions) {
        const key = g.name === '' ? `api/${v}` : `apis/${g.name}/${v}`;
        const from = byGV.get(key);
        if (from === undefined) continue;
        const shipped = this.builtin.get(key) ?? this.shipped(key, g.name, v);
        if (shipped) {
          docs.set(key, shipped);
          continue;
        }
        const prev = this.rendered.get(key);
        let doc: Rendered;
        if (prev !== undefined && prev.from.length === from.length && prev.from.every((r, i) => r === from[i])) doc = prev.doc;
        else {
          const body = JSON.stringify(groupVersionDocument(from, g.name, v));
          doc = { body, hash: createHash('sha512').update(body).digest('hex').toUpperCase() };
        }
        docs.set(key, doc);
        rendered.set(key, { from, doc });
      }
    }
    this.docs = docs;
    this.rendered = rendered;
    this.cacheGeneration = this.table.generation;
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
    const docs = this.documents();
    if (segs.length === 2) {
      const paths: Record<string, { serverRelativeURL: string }> = {};
      for (const [k, d] of docs) paths[k] = { serverRelativeURL: `/openapi/v3/${k}?hash=${d.hash}` };
      writeJSON(res, 200, { paths });
      return;
    }
    const key = segs.slice(2).join('/');
    const d = docs.get(key);
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
