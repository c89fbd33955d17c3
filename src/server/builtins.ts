/**
 * The built-in kinds the server serves besides custom resources: core/v1 Namespaces,
 * apiextensions.k8s.io/v1 CustomResourceDefinitions, and the authorization.k8s.io/v1 self
 * reviews kubectl's `auth can-i` posts (answered as allowed: there is no authorization yet).
 */
import type { Obj, RESTStore } from '../registry/rest.ts';
import { storageVersionHash } from './discovery/model.ts';
import type { ServedTable } from './served.ts';
import { defaultTableConvertor, namespaceTableConvertor } from './table/convert.ts';

const subVerbs = ['get', 'patch', 'update'];

/** Registers the built-in resources in `table`. */
export function registerBuiltins(table: ServedTable, deps: { namespaces: RESTStore; crds: RESTStore }): void {
  const nsKind = { group: '', version: 'v1', kind: 'Namespace' };
  table.addBuiltin({
    group: '',
    version: 'v1',
    resource: 'namespaces',
    kind: 'Namespace',
    listKind: 'NamespaceList',
    namespaced: false,
    store: deps.namespaces,
    table: namespaceTableConvertor,
    status: true,
    finalize: true,
    strategicMerge: true,
    protobuf: true,
    custom: false,
    discovery: {
      group: '',
      version: 'v1',
      resource: 'namespaces',
      singular: 'namespace',
      kind: 'Namespace',
      namespaced: false,
      verbs: ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'],
      shortNames: ['ns'],
      storageVersionHash: storageVersionHash('', 'v1', 'Namespace'),
      subresources: [
        { subresource: 'finalize', responseKind: nsKind, verbs: ['update'] },
        { subresource: 'status', responseKind: nsKind, verbs: subVerbs },
      ],
    },
  });
  const crdKind = { group: 'apiextensions.k8s.io', version: 'v1', kind: 'CustomResourceDefinition' };
  table.addBuiltin({
    group: 'apiextensions.k8s.io',
    version: 'v1',
    resource: 'customresourcedefinitions',
    kind: 'CustomResourceDefinition',
    listKind: 'CustomResourceDefinitionList',
    namespaced: false,
    store: deps.crds,
    table: defaultTableConvertor,
    status: true,
    strategicMerge: false,
    protobuf: false,
    custom: false,
    discovery: {
      group: 'apiextensions.k8s.io',
      version: 'v1',
      resource: 'customresourcedefinitions',
      singular: 'customresourcedefinition',
      kind: 'CustomResourceDefinition',
      namespaced: false,
      verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
      shortNames: ['crd', 'crds'],
      categories: ['api-extensions'],
      storageVersionHash: storageVersionHash('apiextensions.k8s.io', 'v1', 'CustomResourceDefinition'),
      subresources: [{ subresource: 'status', responseKind: crdKind, verbs: subVerbs }],
    },
  });
  for (const [resource, kind, singular] of [
    ['selfsubjectaccessreviews', 'SelfSubjectAccessReview', 'selfsubjectaccessreview'],
    ['selfsubjectrulesreviews', 'SelfSubjectRulesReview', 'selfsubjectrulesreview'],
  ] as const) {
    table.addVirtual({
      group: 'authorization.k8s.io',
      version: 'v1',
      resource,
      kind,
      discovery: {
        group: 'authorization.k8s.io',
        version: 'v1',
        resource,
        singular,
        kind,
        namespaced: false,
        verbs: ['create'],
      },
      create(obj: Obj): Obj {
        const out: Obj = {
          kind,
          apiVersion: 'authorization.k8s.io/v1',
          metadata: { ...((obj.metadata as Obj | undefined) ?? {}), creationTimestamp: null },
          spec: obj.spec ?? {},
        };
        out.status =
          kind === 'SelfSubjectAccessReview'
            ? { allowed: true } // what the AlwaysAllow authorizer answers: no reason
            : {
                resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }],
                nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }],
                incomplete: false,
              };
        return out;
      },
    });
  }
}
