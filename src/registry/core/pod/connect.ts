/**
 * The pod subresources that need the pod's node (pkg/registry/core/pod/rest: log, exec, attach,
 * portforward, proxy), answered as kube-apiserver answers them when no kubelet can be reached —
 * this server runs none and dials none. The checks before the kubelet are upstream's: the pod
 * must exist, the container be named when the pod has several (and be one of them), log options
 * be valid (ValidatePodLogOptions); then a pod without a node has no logs (204) and cannot be
 * exec'd, attached or port-forwarded (`pod x does not have a host assigned`), its node must exist
 * with an address, and the kubelet connection fails as a refused one does.
 */
import { invalid, forbidden, newBadRequest, newInvalid, Path, type FieldError } from '../../../apimachinery/index.ts';
import type { ActionResponse, SubresourceAction } from '../../kind.ts';
import type { Obj, RESTStore } from '../../rest.ts';
import { joinHostPort, kubeletConnection, proxyUnreachable, refused, splitSchemeNamePort } from '../node/connection.ts';
import { proxyVerbs } from '../node/proxy.ts';

const isRec = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
const str = (v: unknown) => (typeof v === 'string' ? v : '');

export interface ConnectStores {
  pods: () => RESTStore;
  nodes: () => RESTStore;
}

const names = (list: unknown) => (Array.isArray(list) ? list.filter(isRec).map((c) => str(c.name)) : []);

function specOf(pod: Obj): Record<string, unknown> {
  return isRec(pod.spec) ? pod.spec : {};
}

/** Every container of the pod (podutil.VisitContainers: init, regular, ephemeral). */
function allContainerNames(pod: Obj): string[] {
  const s = specOf(pod);
  return [...names(s.initContainers), ...names(s.containers), ...names(s.ephemeralContainers)];
}

/** validateContainer (logs): the one container, or the named one. */
function logContainer(pod: Obj, name: string, container: string): string {
  if (container === '') {
    const cs = names(specOf(pod).containers);
    if (cs.length === 1) return cs[0]!;
    if (cs.length === 0) throw newBadRequest(`a container name must be specified for pod ${name}`);
    throw newBadRequest(`a container name must be specified for pod ${name}, choose one of: [${allContainerNames(pod).join(' ')}]`);
  }
  if (!allContainerNames(pod).includes(container)) throw newBadRequest(`container ${container} is not valid for pod ${name}`);
  return container;
}

/** streamLocation's container check (exec, attach). */
function streamContainer(pod: Obj, name: string, container: string): string {
  if (container === '') {
    const cs = names(specOf(pod).containers);
    if (cs.length === 1) return cs[0]!;
    if (cs.length === 0) throw newBadRequest(`a container name must be specified for pod ${name}`);
    const init = names(specOf(pod).initContainers);
    let msg = `a container name must be specified for pod ${name}, choose one of: [${cs.join(' ')}]`;
    if (init.length > 0) msg += ` or one of the init containers: [${init.join(' ')}]`;
    throw newBadRequest(msg);
  }
  if (!allContainerNames(pod).includes(container)) throw newBadRequest(`container ${container} is not valid for pod ${name}`);
  return container;
}

/** ValidatePodLogOptions over the query parameters. */
function validateLogOptions(q: URLSearchParams): FieldError[] {
  const errs: FieldError[] = [];
  const int = (k: string) => (q.has(k) ? Number(q.get(k)) : undefined);
  const tail = int('tailLines');
  if (tail !== undefined && tail < 0) errs.push(invalid(Path.of('tailLines'), tail, 'must be greater than or equal to 0'));
  const limit = int('limitBytes');
  if (limit !== undefined && limit < 1) errs.push(invalid(Path.of('limitBytes'), limit, 'must be greater than 0'));
  const since = int('sinceSeconds');
  if (since !== undefined && q.has('sinceTime')) errs.push(forbidden(Path.root(), 'at most one of `sinceTime` or `sinceSeconds` may be specified'));
  else if (since !== undefined && since < 1) errs.push(invalid(Path.of('sinceSeconds'), since, 'must be greater than 0'));
  return errs;
}

const nodeNameOf = (pod: Obj) => str(specOf(pod).nodeName);

function logAction(s: ConnectStores): SubresourceAction {
  return {
    verbs: ['get'],
    async serve(req): Promise<ActionResponse> {
      const errs = validateLogOptions(req.query);
      if (errs.length > 0) throw newInvalid({ group: '', kind: 'PodLogOptions' }, req.name, errs);
      const pod = await s.pods().get(req.namespace, req.name);
      const container = logContainer(pod, req.name, req.query.get('container') ?? '');
      const node = nodeNameOf(pod);
      // No node yet: an empty location, which the streamer answers with no content.
      if (node === '') return { code: 204, text: '', contentType: 'text/plain' };
      const c = await kubeletConnection(s.nodes(), node);
      const url = `https://${joinHostPort(c.host, c.port)}/containerLogs/${req.namespace}/${req.name}/${container}`;
      throw new Error(`Get ${JSON.stringify(url)}: ${refused(c.host, c.port)}`);
    },
  };
}

/**
 * exec and attach (streamLocation: the container checked), portforward (no container): a pod
 * without a node cannot be reached; otherwise the upgrade's dial to the kubelet fails.
 */
function upgradeAction(s: ConnectStores, checksContainer: boolean): SubresourceAction {
  return {
    verbs: ['create', 'get'],
    async serve(req): Promise<ActionResponse> {
      const pod = await s.pods().get(req.namespace, req.name);
      if (checksContainer) streamContainer(pod, req.name, req.query.get('container') ?? '');
      const node = nodeNameOf(pod);
      if (node === '') throw newBadRequest(`pod ${req.name} does not have a host assigned`);
      const c = await kubeletConnection(s.nodes(), node);
      throw new Error(`error dialing backend: ${refused(c.host, c.port)}`);
    },
  };
}

/** pods/<name>[:port]/proxy: to the pod's IP, on the given or its first declared port. */
function proxyAction(s: ConnectStores): SubresourceAction {
  return {
    verbs: proxyVerbs,
    async serve(req): Promise<ActionResponse> {
      const id = splitSchemeNamePort(req.name);
      if (!id) throw newBadRequest(`invalid pod request ${JSON.stringify(req.name)}`);
      const pod = await s.pods().get(req.namespace, id.name);
      let port = id.port;
      if (port === '') {
        for (const c of Array.isArray(specOf(pod).containers) ? (specOf(pod).containers as unknown[]) : []) {
          const ports = isRec(c) && Array.isArray(c.ports) ? c.ports.filter(isRec) : [];
          if (ports.length > 0) {
            port = String(ports[0]!.containerPort ?? '');
            break;
          }
        }
      }
      const status = isRec(pod.status) ? pod.status : {};
      const ip = str(status.podIP);
      // IsProxyableIP: no IP (the pod has not started anywhere) is not an address.
      if (ip === '' || !/^[0-9a-fA-F.:]+$/.test(ip)) throw newBadRequest('address not allowed');
      const host = port === '' ? (ip.includes(':') ? `[${ip}]` : ip) : joinHostPort(ip, port);
      const scheme = id.scheme !== '' ? id.scheme : 'http';
      return proxyUnreachable(refused(ip, port === '' ? 80 : port), `${scheme}://${host}/${req.path}`);
    },
  };
}

/** The subresources of pods this module serves, for discovery and routing. */
export function podConnectActions(s: ConnectStores): Record<string, SubresourceAction> {
  return { attach: upgradeAction(s, true), exec: upgradeAction(s, true), log: logAction(s), portforward: upgradeAction(s, false), proxy: proxyAction(s) };
}
