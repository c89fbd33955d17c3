/** apiextensions.k8s.io/v1 CustomResourceDefinition as served: discovery facts, the CRDStore, its table and status. */
import { ownSubresource, type KindDefinition, type KindDeps } from '../kind.ts';
import { defaultTableConvertor } from '../table/convert.ts';
import { CRDStore } from './store.ts';
import { crdInfo } from './strategy.ts';

export function crdKind(deps: KindDeps): KindDefinition {
  return {
    ...crdInfo,
    singular: 'customresourcedefinition',
    verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
    shortNames: ['crd', 'crds'],
    categories: ['api-extensions'],
    subresources: [ownSubresource('status', crdInfo, ['get', 'patch', 'update'])],
    storageVersion: 'v1',
    store: new CRDStore(deps.store, { admission: deps.admission }),
    table: defaultTableConvertor,
    strategicMerge: false,
    protobuf: false,
    custom: false,
  };
}
