/**
 * `/openapi/v3` and its group-version documents: an index of `paths` with `serverRelativeURL`s
 * carrying a content hash (kubectl caches by it), each document rendered once per change of the
 * served table. `/openapi/v2` is answered 404, which kubectl accepts (a JSON v2 it would fail to
 * parse).
 */
import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Query } from '../http/query.ts';
import { writeJSON, writeStatus } from '../http/respond.ts';
import { failureStatus } from '../../apimachinery/status.ts';
import type { ServedTable } from '../served.ts';
import { groupVersionDocument } from './v3.ts';

interface Rendered {
  body: string;
  hash: string;
}

export class OpenAPIService {
  private cacheGeneration = -1;
  private docs = new Map<string, Rendered>();

  constructor(private readonly table: ServedTable) {}

  /** The rendered documents keyed `api/v1` / `apis/<group>/<version>`, rebuilt after table changes. */
  documents(): Map<string, Rendered> {
    if (this.cacheGeneration === this.table.generation) return this.docs;
    const docs = new Map<string, Rendered>();
    const resources = this.table.all();
    for (const g of this.table.groups()) {
      for (const v of g.versions) {
        if (!resources.some((r) => r.group === g.name && r.version === v)) continue;
        const key = g.name === '' ? `api/${v}` : `apis/${g.name}/${v}`;
        const body = JSON.stringify(groupVersionDocument(resources, g.name, v));
        docs.set(key, { body, hash: createHash('sha512').update(body).digest('hex').toUpperCase() });
      }
    }
    this.docs = docs;
    this.cacheGeneration = this.table.generation;
    return docs;
  }

  /** Serves a GET under /openapi. */
  serve(_req: IncomingMessage, res: ServerResponse, segs: string[], _query: Query): void {
    const notFound = () => writeStatus(res, failureStatus(404, 'NotFound', 'the server could not find the requested resource', {}));
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
    const d = docs.get(segs.slice(2).join('/'));
    if (!d) {
      notFound();
      return;
    }
    writeJSON(res, 200, d.body, 'application/json', { Etag: `"${d.hash}"`, 'Cache-Control': 'no-cache, private' });
  }
}
