/**
 * Discovery's routes: `/api` and `/apis` (aggregated discovery v2/v2beta1 with an ETag, or the
 * legacy APIVersions / APIGroupList), `/api/v1`, `/apis/<group>` and `/apis/<group>/<version>`,
 * all derived from the served table and rendered once per change of it (rendered.ts).
 */
import { stringifyJSON } from '../../apimachinery/index.ts';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { failureStatus, newMethodNotAllowed } from '../../apimachinery/index.ts';
import { negotiate } from '../http/negotiate.ts';
import { writeJSON, writeStatus } from '../http/respond.ts';
import type { ServedTable } from '../served.ts';
import { aggregatedDiscovery, apiGroup, apiGroupList, apiResourceList, apiVersions } from './documents.ts';
import { renderedDiscovery } from './rendered.ts';

const notFound = () => failureStatus(404, 'NotFound', 'the server could not find the requested resource', {});

/** Serves a discovery path; false when `segs` is not one. `address` is the server's, for APIVersions. */
export function serveDiscovery(req: IncomingMessage, res: ServerResponse, segs: string[], isRead: boolean, table: ServedTable, address: string): boolean {
  const root = segs[0];
  if (root !== 'api' && root !== 'apis') return false;
  const rendered = renderedDiscovery(table);
  if (segs.length === 1) {
    if (!isRead) throw newMethodNotAllowed('the server does not allow this method on the requested resource');
    const n = negotiate(req.headers.accept, { aggregatedDiscovery: true, yaml: false });
    const groups = () => rendered.groups().filter((g) => (root === 'api' ? g.name === '' : g.name !== ''));
    if (n.target) {
      // Aggregated discovery carries an ETag (a hash of the document); a client revalidating
      // its cached copy with If-None-Match gets a 304.
      const v = n.target.version as 'v2' | 'v2beta1';
      const { body, etag } = rendered.get(`${root} ${v}`, () => JSON.stringify(aggregatedDiscovery(groups(), rendered.discovered(), v)), true);
      if (req.headers['if-none-match'] === etag) {
        res.writeHead(304, { Etag: etag, Vary: 'Accept' });
        res.end();
      } else {
        writeJSON(res, 200, body, n.contentType, { Vary: 'Accept', Etag: etag });
      }
    } else if (root === 'api') {
      writeJSON(res, 200, apiVersions(address), 'application/json', { Vary: 'Accept' });
    } else {
      writeJSON(res, 200, rendered.get('apis', () => stringifyJSON(apiGroupList(groups()))).body, 'application/json', { Vary: 'Accept' });
    }
    return true;
  }
  if (!isRead) return false;
  if (root === 'api' && segs.length === 2) {
    if (!rendered.groups().some((g) => g.name === '' && g.versions.includes(segs[1]!))) writeStatus(res, notFound());
    else writeJSON(res, 200, rendered.get(`api/${segs[1]}`, () => stringifyJSON(apiResourceList('', segs[1]!, rendered.discovered()))).body);
    return true;
  }
  if (root === 'apis' && (segs.length === 2 || segs.length === 3)) {
    const g = rendered.groups().find((x) => x.name === segs[1]);
    if (!g || (segs.length === 3 && !g.versions.includes(segs[2]!))) writeStatus(res, notFound());
    else if (segs.length === 2) writeJSON(res, 200, apiGroup(g));
    else writeJSON(res, 200, rendered.get(`apis/${g.name}/${segs[2]}`, () => stringifyJSON(apiResourceList(g.name, segs[2]!, rendered.discovered()))).body);
    return true;
  }
  return false;
}
