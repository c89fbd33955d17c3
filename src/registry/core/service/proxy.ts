/**
 * services/proxy (pkg/registry/core/service/storage ResourceLocation): `services/<name>[:port]/proxy`
 * goes to one of the Service's endpoints. A port number must be one of the Service's ports; a
 * Service without an Endpoints object is that object's 404, one without addresses 503 `no
 * endpoints available for service "x"`; an address found gets the proxy's unreachable-backend
 * answer (this server dials no backends).
 */
import { newBadRequest, newServiceUnavailable } from '../../../apimachinery/index.ts';
import type { ActionResponse, SubresourceAction } from '../../kind.ts';
import type { RESTStore } from '../../rest.ts';
import { joinHostPort, proxyUnreachable, refused, splitSchemeNamePort } from '../node/connection.ts';
import { proxyVerbs } from '../node/proxy.ts';
import { portsOf, str, num, isRec } from './spec.ts';

export function serviceProxyAction(services: () => RESTStore, endpoints: () => RESTStore | undefined): SubresourceAction {
  return {
    verbs: proxyVerbs,
    async serve(req): Promise<ActionResponse> {
      const id = splitSchemeNamePort(req.name);
      if (!id) throw newBadRequest(`invalid service request ${JSON.stringify(req.name)}`);
      let portName = id.port;
      if (/^-?\d+$/.test(id.port)) {
        const svc = await services().get(req.namespace, id.name);
        const p = portsOf(svc).find((x) => num(x.port) === Number(id.port));
        if (!p) throw newServiceUnavailable(`no service port ${Number(id.port)} found for service ${JSON.stringify(id.name)}`);
        portName = str(p.name);
      }
      const ep = await endpoints()!.get(req.namespace, id.name);
      const subsets = Array.isArray(ep.subsets) ? ep.subsets.filter(isRec) : [];
      if (subsets.length === 0) throw newServiceUnavailable(`no endpoints available for service ${JSON.stringify(id.name)}`);
      for (const ss of subsets) {
        const addrs = Array.isArray(ss.addresses) ? ss.addresses.filter(isRec) : [];
        const ports = Array.isArray(ss.ports) ? ss.ports.filter(isRec) : [];
        const port = ports.find((p) => str(p.name) === portName);
        if (addrs.length === 0 || !port) continue;
        const ip = str(addrs[0]!.ip);
        const scheme = id.scheme !== '' ? id.scheme : 'http';
        return proxyUnreachable(refused(ip, num(port.port)), `${scheme}://${joinHostPort(ip, num(port.port))}/${req.path}`);
      }
      throw newServiceUnavailable(`no endpoints available for service ${JSON.stringify(req.name)}`);
    },
  };
}
