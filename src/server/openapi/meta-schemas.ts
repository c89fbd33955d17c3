/**
 * The apimachinery meta/v1 schemas every OpenAPI v3 group-version document references
 * (ObjectMeta, ListMeta, Status, DeleteOptions, Patch, ...), in the shape kube-apiserver
 * publishes them, plus the few core/v1 and apiextensions schemas of the built-in kinds.
 */
type Obj = Record<string, unknown>;

export const metaPrefix = 'io.k8s.apimachinery.pkg.apis.meta.v1';
export const ref = (name: string): Obj => ({ $ref: `#/components/schemas/${name}` });
export const allOfRef = (name: string, extra: Obj = {}): Obj => ({ allOf: [ref(name)], ...extra });

const str = (description?: string): Obj => (description ? { type: 'string', description } : { type: 'string' });

export const apiVersionDescription =
  'APIVersion defines the versioned schema of this representation of an object. Servers should convert recognized schemas to the latest internal value, and may reject unrecognized values. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources';
export const kindDescription =
  'Kind is a string value representing the REST resource this object represents. Servers may infer this from the endpoint the client submits requests to. Cannot be updated. In CamelCase. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds';
export const metadataDescription =
  "Standard object's metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata";
export const listMetadataDescription =
  'Standard list metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds';

/** The meta/v1 schemas, keyed by their component names. */
export function metaSchemas(): Record<string, Obj> {
  const p = metaPrefix;
  return {
    [`${p}.ObjectMeta`]: {
      description: 'ObjectMeta is metadata that all persisted resources must have, which includes all objects users must create.',
      type: 'object',
      properties: {
        annotations: { type: 'object', additionalProperties: { type: 'string', default: '' }, description: 'Annotations is an unstructured key value map stored with a resource that may be set by external tools to store and retrieve arbitrary metadata.' },
        creationTimestamp: allOfRef(`${p}.Time`, { description: 'CreationTimestamp is a timestamp representing the server time when this object was created.' }),
        deletionGracePeriodSeconds: { type: 'integer', format: 'int64', description: 'Number of seconds allowed for this object to gracefully terminate before it will be removed from the system.' },
        deletionTimestamp: allOfRef(`${p}.Time`, { description: 'DeletionTimestamp is RFC 3339 date and time at which this resource will be deleted.' }),
        finalizers: { type: 'array', items: { type: 'string', default: '' }, 'x-kubernetes-list-type': 'set', 'x-kubernetes-patch-strategy': 'merge', description: 'Must be empty before the object is deleted from the registry.' },
        generateName: str('GenerateName is an optional prefix, used by the server, to generate a unique name ONLY IF the Name field has not been provided.'),
        generation: { type: 'integer', format: 'int64', description: 'A sequence number representing a specific generation of the desired state. Populated by the system. Read-only.' },
        labels: { type: 'object', additionalProperties: { type: 'string', default: '' }, description: 'Map of string keys and values that can be used to organize and categorize (scope and select) objects.' },
        managedFields: { type: 'array', items: allOfRef(`${p}.ManagedFieldsEntry`, { default: {} }), 'x-kubernetes-list-type': 'atomic', description: 'ManagedFields maps workflow-id and version to the set of fields that are managed by that workflow.' },
        name: str('Name must be unique within a namespace. Is required when creating resources, although some resources may allow a client to request the generation of an appropriate name automatically. Cannot be updated.'),
        namespace: str('Namespace defines the space within which each name must be unique. An empty namespace is equivalent to the "default" namespace, but "default" is the canonical representation.'),
        ownerReferences: { type: 'array', items: allOfRef(`${p}.OwnerReference`, { default: {} }), 'x-kubernetes-list-map-keys': ['uid'], 'x-kubernetes-list-type': 'map', 'x-kubernetes-patch-merge-key': 'uid', 'x-kubernetes-patch-strategy': 'merge', description: 'List of objects depended by this object.' },
        resourceVersion: str('An opaque value that represents the internal version of this object that can be used by clients to determine when objects have changed.'),
        selfLink: str('Deprecated: selfLink is a legacy read-only field that is no longer populated by the system.'),
        uid: str('UID is the unique in time and space value for this object. Populated by the system. Read-only.'),
      },
    },
    [`${p}.ListMeta`]: {
      description: 'ListMeta describes metadata that synthetic resources must have, including lists and various status objects.',
      type: 'object',
      properties: {
        continue: str('continue may be set if the user set a limit on the number of items returned.'),
        remainingItemCount: { type: 'integer', format: 'int64', description: 'remainingItemCount is the number of subsequent items in the list which are not included in this list response.' },
        resourceVersion: str("String that identifies the server's internal version of this object."),
        selfLink: str('Deprecated: selfLink is a legacy read-only field that is no longer populated by the system.'),
      },
    },
    [`${p}.Time`]: { description: 'Time is a wrapper around time.Time which supports correct marshaling to YAML and JSON.', type: 'string', format: 'date-time' },
    [`${p}.ManagedFieldsEntry`]: {
      description: 'ManagedFieldsEntry is a workflow-id, a FieldSet and the group version of the resource that the fieldset applies to.',
      type: 'object',
      properties: {
        apiVersion: str(), fieldsType: str(), fieldsV1: { type: 'object', description: 'FieldsV1 holds the first JSON version format as described in the "FieldsV1" type.' },
        manager: str(), operation: str(), subresource: str(), time: allOfRef(`${p}.Time`),
      },
    },
    [`${p}.OwnerReference`]: {
      description: 'OwnerReference contains enough information to let you identify an owning object.',
      type: 'object',
      required: ['apiVersion', 'kind', 'name', 'uid'],
      properties: {
        apiVersion: { type: 'string', default: '' }, blockOwnerDeletion: { type: 'boolean' }, controller: { type: 'boolean' },
        kind: { type: 'string', default: '' }, name: { type: 'string', default: '' }, uid: { type: 'string', default: '' },
      },
      'x-kubernetes-map-type': 'atomic',
    },
    [`${p}.Status`]: {
      description: 'Status is a return value for calls that don\'t return other objects.',
      type: 'object',
      properties: {
        apiVersion: str(apiVersionDescription), code: { type: 'integer', format: 'int32' }, details: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
        kind: str(kindDescription), message: str(), metadata: allOfRef(`${p}.ListMeta`, { default: {} }), reason: str(), status: str(),
      },
      'x-kubernetes-group-version-kind': [{ group: '', kind: 'Status', version: 'v1' }],
    },
    [`${p}.Preconditions`]: {
      description: 'Preconditions must be fulfilled before an operation (update, delete, etc.) is carried out.',
      type: 'object',
      properties: { resourceVersion: str('Specifies the target ResourceVersion'), uid: str('Specifies the target UID.') },
    },
    [`${p}.DeleteOptions`]: {
      description: 'DeleteOptions may be provided when deleting an API object.',
      type: 'object',
      properties: {
        apiVersion: str(apiVersionDescription),
        dryRun: { type: 'array', items: { type: 'string', default: '' }, 'x-kubernetes-list-type': 'atomic' },
        gracePeriodSeconds: { type: 'integer', format: 'int64' },
        kind: str(kindDescription),
        preconditions: allOfRef(`${p}.Preconditions`),
        propagationPolicy: str(),
      },
    },
    [`${p}.Patch`]: { description: 'Patch is provided to give a concrete name and type to the Kubernetes PATCH request body.', type: 'object' },
  };
}

/** core/v1 Namespace, NamespaceSpec, NamespaceStatus, NamespaceList, NamespaceCondition. */
export function namespaceSchemas(): Record<string, Obj> {
  const c = 'io.k8s.api.core.v1';
  return {
    [`${c}.Namespace`]: {
      description: 'Namespace provides a scope for Names. Use of multiple namespaces is optional.',
      type: 'object',
      properties: {
        apiVersion: str(apiVersionDescription), kind: str(kindDescription),
        metadata: allOfRef(`${metaPrefix}.ObjectMeta`, { default: {}, description: metadataDescription }),
        spec: allOfRef(`${c}.NamespaceSpec`, { default: {}, description: 'Spec defines the behavior of the Namespace.' }),
        status: allOfRef(`${c}.NamespaceStatus`, { default: {}, description: 'Status describes the current status of a Namespace.' }),
      },
      'x-kubernetes-group-version-kind': [{ group: '', kind: 'Namespace', version: 'v1' }],
    },
    [`${c}.NamespaceSpec`]: {
      description: 'NamespaceSpec describes the attributes on a Namespace.',
      type: 'object',
      properties: { finalizers: { type: 'array', items: { type: 'string', default: '' }, 'x-kubernetes-list-type': 'atomic', description: 'Finalizers is an opaque list of values that must be empty to permanently remove object from storage.' } },
    },
    [`${c}.NamespaceStatus`]: {
      description: 'NamespaceStatus is information about the current status of a Namespace.',
      type: 'object',
      properties: {
        conditions: { type: 'array', items: allOfRef(`${c}.NamespaceCondition`, { default: {} }), 'x-kubernetes-list-map-keys': ['type'], 'x-kubernetes-list-type': 'map', 'x-kubernetes-patch-merge-key': 'type', 'x-kubernetes-patch-strategy': 'merge' },
        phase: { type: 'string', enum: ['Active', 'Terminating'], description: 'Phase is the current lifecycle phase of the namespace.' },
      },
    },
    [`${c}.NamespaceCondition`]: {
      type: 'object',
      required: ['type', 'status'],
      properties: { lastTransitionTime: allOfRef(`${metaPrefix}.Time`), message: str(), reason: str(), status: { type: 'string', default: '' }, type: { type: 'string', default: '' } },
    },
    [`${c}.NamespaceList`]: {
      type: 'object',
      required: ['items'],
      properties: {
        apiVersion: str(apiVersionDescription), items: { type: 'array', items: allOfRef(`${c}.Namespace`, { default: {} }) }, kind: str(kindDescription),
        metadata: allOfRef(`${metaPrefix}.ListMeta`, { default: {}, description: listMetadataDescription }),
      },
      'x-kubernetes-group-version-kind': [{ group: '', kind: 'NamespaceList', version: 'v1' }],
    },
  };
}
