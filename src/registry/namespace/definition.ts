/** core/v1 Namespace as served: discovery facts, the NamespaceStore, its table, status and finalize. */
import { ownSubresource, type KindDefinition, type KindDeps } from '../kind.ts';
import { namespaceTableConvertor } from '../table/convert.ts';
import { NamespaceStore } from './rest.ts';
import { patchMetaFor } from '../builtin/openapi.ts';
import { namespaceInfo } from './strategy.ts';

export function namespaceKind(deps: KindDeps): KindDefinition {
  const i = namespaceInfo;
  return {
    ...i,
    singular: 'namespace',
    verbs: ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'],
    shortNames: ['ns'],
    categories: [],
    subresources: [ownSubresource('finalize', i, ['update']), ownSubresource('status', i, ['get', 'patch', 'update'])],
    storageVersion: 'v1',
    store: new NamespaceStore(deps.store, { admission: deps.admission }),
    table: namespaceTableConvertor,
    strategicMerge: true,
    patchMeta: patchMetaFor('', 'v1', 'Namespace'),
    protobuf: true,
    custom: false,
  };
}
