/**
 * The defaults of a pod spec's volumes, in the order core/v1's generated defaulter applies them:
 * SetDefaults_Volume (a volume naming no source is an emptyDir; an image volume's pull policy by
 * its tag), then each source's own: hostPath type "", secret/configMap/downwardAPI/projected
 * defaultMode 0644 (420), downward API field references' apiVersion v1, a projected service
 * account token's one-hour expiry, and the declarative defaults of iSCSI, RBD, Azure Disk and
 * ScaleIO; an ephemeral volume's claim template gets the PersistentVolumeClaimSpec defaults.
 */
import { defaultPtr, defaultZero, items, ptr, struct, type Rec } from './go-fields.ts';
import { defaultPullPolicy } from './image-pull-policy.ts';
import { defaultResourceList } from './resource-list.ts';

/** The mode secret, configMap, downwardAPI and projected volumes default to (0644). */
const defaultMode = 0o644;

/** SetDefaults_ObjectFieldSelector on the field reference at `parent[key]`, if there is one. */
export function defaultFieldRef(parent: Rec | undefined, key = 'fieldRef'): void {
  const ref = parent && ptr(parent, key);
  if (ref) defaultZero(ref, 'apiVersion', 'v1');
}

/**
 * SetDefaults_PersistentVolumeClaimSpec and the spec's resource lists, as the generated
 * defaulters apply them wherever a claim spec is embedded (ephemeral volumes, StatefulSets'
 * volumeClaimTemplates). MUTATES `spec`.
 */
export function defaultClaimSpec(spec: Rec): void {
  defaultPtr(spec, 'volumeMode', 'Filesystem');
  const resources = ptr(spec, 'resources');
  defaultResourceList(resources, 'limits');
  defaultResourceList(resources, 'requests');
}

/**
 * Whether a volume names a source: Go's AllPtrFieldsNil over VolumeSource, whose fields are all
 * pointers, so any key besides the name counts (a key set to null is a nil pointer).
 */
const namesSource = (v: Rec): boolean => Object.entries(v).some(([k, x]) => k !== 'name' && x !== undefined && x !== null);

function defaultDownwardItems(source: Rec): void {
  for (const item of items(source, 'items')) defaultFieldRef(item);
}

/** The defaults of one volume of a pod spec. MUTATES `v`. */
export function defaultVolume(v: Rec): void {
  if (!namesSource(v)) v.emptyDir = {};
  const image = ptr(v, 'image');
  if (image) defaultZero(image, 'pullPolicy', defaultPullPolicy(image.reference));
  const hostPath = ptr(v, 'hostPath');
  if (hostPath) defaultPtr(hostPath, 'type', '');
  const secret = ptr(v, 'secret');
  if (secret) defaultPtr(secret, 'defaultMode', defaultMode);
  const iscsi = ptr(v, 'iscsi');
  if (iscsi) defaultZero(iscsi, 'iscsiInterface', 'default');
  const rbd = ptr(v, 'rbd');
  if (rbd) {
    defaultZero(rbd, 'pool', 'rbd');
    defaultZero(rbd, 'user', 'admin');
    defaultZero(rbd, 'keyring', '/etc/ceph/keyring');
  }
  const downwardAPI = ptr(v, 'downwardAPI');
  if (downwardAPI) {
    defaultPtr(downwardAPI, 'defaultMode', defaultMode);
    defaultDownwardItems(downwardAPI);
  }
  const configMap = ptr(v, 'configMap');
  if (configMap) defaultPtr(configMap, 'defaultMode', defaultMode);
  const azureDisk = ptr(v, 'azureDisk');
  if (azureDisk) {
    defaultPtr(azureDisk, 'cachingMode', 'ReadWrite');
    defaultPtr(azureDisk, 'fsType', 'ext4');
    defaultPtr(azureDisk, 'readOnly', false);
    defaultPtr(azureDisk, 'kind', 'Shared');
  }
  const projected = ptr(v, 'projected');
  if (projected) {
    defaultPtr(projected, 'defaultMode', defaultMode);
    for (const source of items(projected, 'sources')) {
      const downward = ptr(source, 'downwardAPI');
      if (downward) defaultDownwardItems(downward);
      const token = ptr(source, 'serviceAccountToken');
      if (token) defaultPtr(token, 'expirationSeconds', 3600);
    }
  }
  const scaleIO = ptr(v, 'scaleIO');
  if (scaleIO) {
    defaultZero(scaleIO, 'storageMode', 'ThinProvisioned');
    defaultZero(scaleIO, 'fsType', 'xfs');
  }
  const ephemeral = ptr(v, 'ephemeral');
  const claim = ephemeral && ptr(ephemeral, 'volumeClaimTemplate');
  if (claim) defaultClaimSpec(struct(claim, 'spec'));
}
