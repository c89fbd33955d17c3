/**
 * The core kinds' subresources served by their own code, added to their definitions for
 * routing and discovery (as kube-apiserver's /api/v1 lists them): pods/attach, binding,
 * eviction, exec, log, portforward, proxy (pod/), nodes/proxy (node/), services/proxy
 * (service/), serviceaccounts/token (serviceaccount/). Stores are looked up when a request comes, so that the kinds may be defined in any
 * order.
 */
import type { KindDefinition, KindSubresource, SubresourceAction } from '../kind.ts';
import type { RESTStore } from '../rest.ts';
import type { GenericStore } from '../generic-store.ts';
import { bindingAction } from './pod/binding.ts';
import { podConnectActions } from './pod/connect.ts';
import { evictionAction } from './pod/eviction.ts';
import { nodeProxyAction } from './node/proxy.ts';
import { serviceProxyAction } from './service/proxy.ts';
import { tokenRequestAction } from './serviceaccount/token-request.ts';
import type { TokenGenerator } from './serviceaccount/token-generator.ts';

type Find = (group: string, resource: string) => RESTStore | undefined;

const core = (kind: string) => ({ group: '', version: 'v1', kind });

/** Each subresource's discovery entry: the kind it takes or answers with. */
const responseKinds: Record<string, Record<string, { group: string; version: string; kind: string }>> = {
  pods: {
    attach: core('PodAttachOptions'),
    binding: core('Binding'),
    eviction: { group: 'policy', version: 'v1', kind: 'Eviction' },
    exec: core('PodExecOptions'),
    log: core('Pod'),
    portforward: core('PodPortForwardOptions'),
    proxy: core('PodProxyOptions'),
  },
  nodes: { proxy: core('NodeProxyOptions') },
  services: { proxy: core('ServiceProxyOptions') },
  serviceaccounts: { token: { group: 'authentication.k8s.io', version: 'v1', kind: 'TokenRequest' } },
};

function actionsFor(resource: string, find: Find, tokens: TokenGenerator | undefined): Record<string, SubresourceAction> {
  const must = (r: string) => () => find('', r)!;
  switch (resource) {
    case 'pods':
      return {
        ...podConnectActions({ pods: must('pods'), nodes: must('nodes') }),
        binding: bindingAction(() => find('', 'pods') as GenericStore),
        eviction: evictionAction({ pods: must('pods'), budgets: () => find('policy', 'poddisruptionbudgets') }),
      };
    case 'nodes':
      return { proxy: nodeProxyAction(must('nodes')) };
    case 'services':
      return { proxy: serviceProxyAction(must('services'), () => find('', 'endpoints')) };
    case 'serviceaccounts':
      return { token: tokenRequestAction({ serviceAccounts: must('serviceaccounts'), pods: must('pods'), secrets: must('secrets'), nodes: () => find('', 'nodes') }, () => tokens) };
    default:
      return {};
  }
}

/** The definition with its actions and their discovery entries (in name order, as upstream lists them). */
export function withCoreSubresources(k: KindDefinition, find: Find, tokens?: TokenGenerator): KindDefinition {
  if (k.group !== '' || k.version !== 'v1' || !responseKinds[k.resource]) return k;
  const actions = actionsFor(k.resource, find, tokens);
  const listed: KindSubresource[] = Object.entries(actions).map(([name, a]) => ({ name, verbs: a.verbs, responseKind: responseKinds[k.resource]![name]! }));
  const subresources = [...k.subresources, ...listed].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return { ...k, subresources, actions: { ...(k.actions ?? {}), ...actions } };
}
