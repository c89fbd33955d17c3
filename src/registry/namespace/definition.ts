/** core/v1 Namespace as served: discovery facts, the NamespaceStore, its table, status and finalize. */
import { ownSubresource, type KindDefinition, type KindDeps } from '../kind.ts';
import { namespaceTableConvertor } from '../table/convert.ts';
import { NamespaceStore } from './rest.ts';
import { patchMetaFor } from '../builtin/openapi.ts';
import { namespaceInfo } from './strategy.ts';
import { FieldManagers } from '../field-managers.ts';
import { builtinTypeConverter } from '../builtin/merge-schema.ts';

/** Namespace's field managers, over core/v1's merge schema. */
function namespaceFieldManagers(): FieldManagers {
  return new FieldManagers({ apiVersion: 'v1', kind: 'Namespace', hasStatus: true, typeConverter: () => builtinTypeConverter('', 'v1') });
}

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
    store: new NamespaceStore(deps.store, { admission: deps.admission, fieldManagers: namespaceFieldManagers() }),
    table: namespaceTableConvertor,
    strategicMerge: true,
    patchMeta: patchMetaFor('', 'v1', 'Namespace'),
    protobuf: true,
    custom: false,
  };
}
