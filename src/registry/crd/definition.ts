/** apiextensions.k8s.io/v1 CustomResourceDefinition as served: discovery facts, the CRDStore, its table and status. */
import { ownSubresource, type KindDefinition, type KindDeps } from '../kind.ts';
import { defaultTableConvertor } from '../table/convert.ts';
import { CRDStore } from './store.ts';
import { crdInfo } from './strategy.ts';
import { FieldManagers } from '../field-managers.ts';
import { builtinTypeConverter } from '../builtin/merge-schema.ts';

export function crdKind(deps: KindDeps): KindDefinition {
  return {
    ...crdInfo,
    singular: 'customresourcedefinition',
    verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
    shortNames: ['crd', 'crds'],
    categories: ['api-extensions'],
    subresources: [ownSubresource('status', crdInfo, ['get', 'patch', 'update'])],
    storageVersion: 'v1',
    store: new CRDStore(deps.store, {
      admission: deps.admission,
      fieldManagers: new FieldManagers({
        apiVersion: 'apiextensions.k8s.io/v1',
        kind: 'CustomResourceDefinition',
        hasStatus: true,
        typeConverter: () => builtinTypeConverter('apiextensions.k8s.io', 'v1'),
      }),
    }),
    table: defaultTableConvertor,
    strategicMerge: false,
    protobuf: false,
    custom: false,
  };
}
