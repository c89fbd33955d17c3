/**
 * nodes/proxy (pkg/registry/core/node ResourceLocation): `nodes/<name>[:port]/proxy/<path>` goes
 * to the node's kubelet. Here a missing node is 404, a node without an address upstream's plain
 * error, and otherwise the proxy's unreachable-backend answer (no kubelet runs here).
 */
import { newBadRequest } from '../../../apimachinery/index.ts';
import type { ActionResponse, SubresourceAction } from '../../kind.ts';
import type { RESTStore } from '../../rest.ts';
import { joinHostPort, kubeletConnection, proxyUnreachable, refused, splitSchemeNamePort } from './connection.ts';

export const proxyVerbs = ['create', 'delete', 'get', 'patch', 'update'];

export function nodeProxyAction(nodes: () => RESTStore): SubresourceAction {
  return {
    verbs: proxyVerbs,
    async serve(req): Promise<ActionResponse> {
      const id = splitSchemeNamePort(req.name);
      if (!id) throw newBadRequest(`invalid node request ${JSON.stringify(req.name)}`);
      const c = await kubeletConnection(nodes(), id.name);
      const port = id.port !== '' ? id.port : String(c.port);
      const scheme = id.scheme !== '' ? id.scheme : 'https';
      return proxyUnreachable(refused(c.host, port), `${scheme}://${joinHostPort(c.host, port)}/${req.path}`);
    },
  };
}
