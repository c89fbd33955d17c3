/**
 * Discovery's routes: `/api` and `/apis` (aggregated discovery v2/v2beta1 with an ETag, or the
 * legacy APIVersions / APIGroupList), `/api/v1`, `/apis/<group>` and `/apis/<group>/<version>`,
 * all derived from the served table.
 */
import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { failureStatus, newMethodNotAllowed } from '../../apimachinery/index.ts';
import { negotiate } from '../http/negotiate.ts';
import { writeJSON, writeStatus } from '../http/respond.ts';
import type { ServedTable } from '../served.ts';
import { aggregatedDiscovery, apiGroup, apiGroupList, apiResourceList, apiVersions } from './documents.ts';

const notFound = () => failureStatus(404, 'NotFound', 'the server could not find the requested resource', {});

/** Serves a discovery path; false when `segs` is not one. `address` is the server's, for APIVersions. */
export function serveDiscovery(req: IncomingMessage, res: ServerResponse, segs: string[], isRead: boolean, table: ServedTable, address: string): boolean {
  const root = segs[0];
  if (root !== 'api' && root !== 'apis') return false;
  if (segs.length === 1) {
    if (!isRead) throw newMethodNotAllowed('the server does not allow this method on the requested resource');
    const n = negotiate(req.headers.accept, { aggregatedDiscovery: true, yaml: false });
    const groups = table.groups().filter((g) => (root === 'api' ? g.name === '' : g.name !== ''));
    if (n.target) {
      // Aggregated discovery carries an ETag (a hash of the document); a client revalidating
      // its cached copy with If-None-Match gets a 304.
      const v = n.target.version as 'v2' | 'v2beta1';
      const body = JSON.stringify(aggregatedDiscovery(groups, table.discovered(), v));
      const etag = `"${createHash('sha512').update(body).digest('hex').toUpperCase()}"`;
      if (req.headers['if-none-match'] === etag) {
        res.writeHead(304, { Etag: etag, Vary: 'Accept' });
        res.end();
      } else {
        writeJSON(res, 200, body, n.contentType, { Vary: 'Accept', Etag: etag });
      }
    } else {
      writeJSON(res, 200, root === 'api' ? apiVersions(address) : apiGroupList(groups), 'application/json', { Vary: 'Accept' });
    }
    return true;
  }
  if (!isRead) return false;
  if (root === 'api' && segs.length === 2) {
    if (!table.groups().some((g) => g.name === '' && g.versions.includes(segs[1]!))) writeStatus(res, notFound());
    else writeJSON(res, 200, apiResourceList('', segs[1]!, table.discovered()));
    return true;
  }
  if (root === 'apis' && (segs.length === 2 || segs.length === 3)) {
    const g = table.groups().find((x) => x.name === segs[1]);
    if (!g || (segs.length === 3 && !g.versions.includes(segs[2]!))) writeStatus(res, notFound());
    else writeJSON(res, 200, segs.length === 2 ? apiGroup(g) : apiResourceList(g.name, segs[2]!, table.discovered()));
    return true;
  }
  return false;
}
