/**
 * A PersistentVolume's volume source and node affinity as the internal core types marshal them
 * (no JSON tags: Go's field names in declaration order, every field present, nil pointers, maps
 * and slices as null), which is what kube-apiserver prints in a refused update's diff
 * (`spec.persistentvolumesource is immutable after creation`) and as an immutable node affinity.
 */
import { list, ptr, rec, str } from '../../fieldvalues/fields.ts';

type Rec = Record<string, unknown>;

/** How a field's JSON value becomes its internal Go value. */
type Kind = 'string' | 'bool' | 'int' | '*string' | '*bool' | '*int' | '[]string' | 'map' | '*secretRef' | '*objectRef';

/** [JSON name, Go name, kind] of each field of a source's internal struct, in declaration order. */
type Struct = readonly (readonly [json: string, go: string, kind: Kind])[];

const secretRef: Struct = [['name', 'Name', 'string'], ['namespace', 'Namespace', 'string']];
const objectRef: Struct = [
  ['kind', 'Kind', 'string'], ['namespace', 'Namespace', 'string'], ['name', 'Name', 'string'], ['uid', 'UID', 'string'],
  ['apiVersion', 'APIVersion', 'string'], ['resourceVersion', 'ResourceVersion', 'string'], ['fieldPath', 'FieldPath', 'string'],
];

/** The internal PersistentVolumeSource's members (Go name, struct), in declaration order. */
const sources: readonly (readonly [json: string, go: string, fields: Struct])[] = [
  ['gcePersistentDisk', 'GCEPersistentDisk', [['pdName', 'PDName', 'string'], ['fsType', 'FSType', 'string'], ['partition', 'Partition', 'int'], ['readOnly', 'ReadOnly', 'bool']]],
  ['awsElasticBlockStore', 'AWSElasticBlockStore', [['volumeID', 'VolumeID', 'string'], ['fsType', 'FSType', 'string'], ['partition', 'Partition', 'int'], ['readOnly', 'ReadOnly', 'bool']]],
  ['hostPath', 'HostPath', [['path', 'Path', 'string'], ['type', 'Type', '*string']]],
  ['glusterfs', 'Glusterfs', [['endpoints', 'EndpointsName', 'string'], ['path', 'Path', 'string'], ['readOnly', 'ReadOnly', 'bool'], ['endpointsNamespace', 'EndpointsNamespace', '*string']]],
  ['nfs', 'NFS', [['server', 'Server', 'string'], ['path', 'Path', 'string'], ['readOnly', 'ReadOnly', 'bool']]],
  ['rbd', 'RBD', [
    ['monitors', 'CephMonitors', '[]string'], ['image', 'RBDImage', 'string'], ['fsType', 'FSType', 'string'], ['pool', 'RBDPool', 'string'],
    ['user', 'RadosUser', 'string'], ['keyring', 'Keyring', 'string'], ['secretRef', 'SecretRef', '*secretRef'], ['readOnly', 'ReadOnly', 'bool'],
  ]],
  ['quobyte', 'Quobyte', [
    ['registry', 'Registry', 'string'], ['volume', 'Volume', 'string'], ['readOnly', 'ReadOnly', 'bool'], ['user', 'User', 'string'],
    ['group', 'Group', 'string'], ['tenant', 'Tenant', 'string'],
  ]],
  ['iscsi', 'ISCSI', [
    ['targetPortal', 'TargetPortal', 'string'], ['iqn', 'IQN', 'string'], ['lun', 'Lun', 'int'], ['iscsiInterface', 'ISCSIInterface', 'string'],
    ['fsType', 'FSType', 'string'], ['readOnly', 'ReadOnly', 'bool'], ['portals', 'Portals', '[]string'], ['chapAuthDiscovery', 'DiscoveryCHAPAuth', 'bool'],
    ['chapAuthSession', 'SessionCHAPAuth', 'bool'], ['secretRef', 'SecretRef', '*secretRef'], ['initiatorName', 'InitiatorName', '*string'],
  ]],
  ['flexVolume', 'FlexVolume', [
    ['driver', 'Driver', 'string'], ['fsType', 'FSType', 'string'], ['secretRef', 'SecretRef', '*secretRef'], ['readOnly', 'ReadOnly', 'bool'], ['options', 'Options', 'map'],
  ]],
  ['cinder', 'Cinder', [['volumeID', 'VolumeID', 'string'], ['fsType', 'FSType', 'string'], ['readOnly', 'ReadOnly', 'bool'], ['secretRef', 'SecretRef', '*secretRef']]],
  ['cephfs', 'CephFS', [
    ['monitors', 'Monitors', '[]string'], ['path', 'Path', 'string'], ['user', 'User', 'string'], ['secretFile', 'SecretFile', 'string'],
    ['secretRef', 'SecretRef', '*secretRef'], ['readOnly', 'ReadOnly', 'bool'],
  ]],
  ['fc', 'FC', [['targetWWNs', 'TargetWWNs', '[]string'], ['lun', 'Lun', '*int'], ['fsType', 'FSType', 'string'], ['readOnly', 'ReadOnly', 'bool'], ['wwids', 'WWIDs', '[]string']]],
  ['flocker', 'Flocker', [['datasetName', 'DatasetName', 'string'], ['datasetUUID', 'DatasetUUID', 'string']]],
  ['azureFile', 'AzureFile', [['secretName', 'SecretName', 'string'], ['shareName', 'ShareName', 'string'], ['readOnly', 'ReadOnly', 'bool'], ['secretNamespace', 'SecretNamespace', '*string']]],
  ['vsphereVolume', 'VsphereVolume', [['volumePath', 'VolumePath', 'string'], ['fsType', 'FSType', 'string'], ['storagePolicyName', 'StoragePolicyName', 'string'], ['storagePolicyID', 'StoragePolicyID', 'string']]],
  ['azureDisk', 'AzureDisk', [
    ['diskName', 'DiskName', 'string'], ['diskURI', 'DataDiskURI', 'string'], ['cachingMode', 'CachingMode', '*string'], ['fsType', 'FSType', '*string'],
    ['readOnly', 'ReadOnly', '*bool'], ['kind', 'Kind', '*string'],
  ]],
  ['photonPersistentDisk', 'PhotonPersistentDisk', [['pdID', 'PdID', 'string'], ['fsType', 'FSType', 'string']]],
  ['portworxVolume', 'PortworxVolume', [['volumeID', 'VolumeID', 'string'], ['fsType', 'FSType', 'string'], ['readOnly', 'ReadOnly', 'bool']]],
  ['scaleIO', 'ScaleIO', [
    ['gateway', 'Gateway', 'string'], ['system', 'System', 'string'], ['secretRef', 'SecretRef', '*secretRef'], ['sslEnabled', 'SSLEnabled', 'bool'],
    ['protectionDomain', 'ProtectionDomain', 'string'], ['storagePool', 'StoragePool', 'string'], ['storageMode', 'StorageMode', 'string'],
    ['volumeName', 'VolumeName', 'string'], ['fsType', 'FSType', 'string'], ['readOnly', 'ReadOnly', 'bool'],
  ]],
  ['local', 'Local', [['path', 'Path', 'string'], ['fsType', 'FSType', '*string']]],
  ['storageos', 'StorageOS', [
    ['volumeName', 'VolumeName', 'string'], ['volumeNamespace', 'VolumeNamespace', 'string'], ['fsType', 'FSType', 'string'], ['readOnly', 'ReadOnly', 'bool'],
    ['secretRef', 'SecretRef', '*objectRef'],
  ]],
  ['csi', 'CSI', [
    ['driver', 'Driver', 'string'], ['volumeHandle', 'VolumeHandle', 'string'], ['readOnly', 'ReadOnly', 'bool'], ['fsType', 'FSType', 'string'],
    ['volumeAttributes', 'VolumeAttributes', 'map'], ['controllerPublishSecretRef', 'ControllerPublishSecretRef', '*secretRef'],
    ['nodeStageSecretRef', 'NodeStageSecretRef', '*secretRef'], ['nodePublishSecretRef', 'NodePublishSecretRef', '*secretRef'],
    ['controllerExpandSecretRef', 'ControllerExpandSecretRef', '*secretRef'], ['nodeExpandSecretRef', 'NodeExpandSecretRef', '*secretRef'],
  ]],
];

function structValue(v: Rec, fields: Struct): Rec {
  const out: Rec = {};
  for (const [json, go, kind] of fields) out[go] = fieldValue(v[json], kind);
  return out;
}

function fieldValue(v: unknown, kind: Kind): unknown {
  switch (kind) {
    case 'string':
      return str(v);
    case 'bool':
      return v === true;
    case 'int':
      return typeof v === 'number' ? v : 0;
    case '*string':
    case '*bool':
    case '*int':
      return v === undefined ? null : v;
    case '[]string':
      return Array.isArray(v) ? list(v).map(str) : null;
    case 'map': {
      const m = ptr(v);
      return m === undefined ? null : Object.fromEntries(Object.keys(m).sort().map((k) => [k, str(m[k])]));
    }
    case '*secretRef':
    case '*objectRef': {
      const r = ptr(v);
      return r === undefined ? null : structValue(r, kind === '*secretRef' ? secretRef : objectRef);
    }
  }
}

/** The internal PersistentVolumeSource of a spec. */
export function internalPersistentVolumeSource(spec: Rec): Rec {
  const out: Rec = {};
  for (const [json, go, fields] of sources) {
    const s = ptr(spec[json]);
    out[go] = s === undefined ? null : structValue(s, fields);
  }
  return out;
}

const requirement = (r: Rec) => ({ Key: str(r.key), Operator: str(r.operator), Values: Array.isArray(r.values) ? list(r.values).map(str) : null });

/** The internal VolumeNodeAffinity (null when the spec has none). */
export function internalVolumeNodeAffinity(v: unknown): Rec | null {
  const a = ptr(v);
  if (a === undefined) return null;
  const req = ptr(a.required);
  return {
    Required:
      req === undefined
        ? null
        : {
            NodeSelectorTerms: Array.isArray(req.nodeSelectorTerms)
              ? list(req.nodeSelectorTerms).map((t) => {
                  const term = rec(t);
                  const reqs = (k: string) => (Array.isArray(term[k]) ? list(term[k]).map((r) => requirement(rec(r))) : null);
                  return { MatchExpressions: reqs('matchExpressions'), MatchFields: reqs('matchFields') };
                })
              : null,
          },
  };
}
