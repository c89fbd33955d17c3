/**
 * core/v1 PersistentVolume's defaulting (SetObjectDefaults_PersistentVolume): status.phase
 * Pending, reclaim policy Retain, volume mode Filesystem (SetDefaults_PersistentVolume), then the
 * declarative defaults of its volume source's types (`+default=` in k8s.io/api's types.go), which a
 * VolumeAttachment's inline volume spec gets too.
 */
import type { Obj } from '../../rest.ts';
import { child, setDefault, struct, type Fields } from '../../defaulting/fields.ts';

/** MUTATES spec: the `+default=` tags of the PersistentVolumeSource types (HostPath, RBD, ISCSI, AzureDisk, ScaleIO). */
export function defaultPersistentVolumeSource(spec: Fields): void {
  const hostPath = child(spec, 'hostPath');
  if (hostPath) setDefault(hostPath, 'type', '');
  const rbd = child(spec, 'rbd');
  if (rbd) {
    setDefault(rbd, 'pool', 'rbd', '');
    setDefault(rbd, 'user', 'admin', '');
    setDefault(rbd, 'keyring', '/etc/ceph/keyring', '');
  }
  const iscsi = child(spec, 'iscsi');
  if (iscsi) setDefault(iscsi, 'iscsiInterface', 'default', '');
  const azure = child(spec, 'azureDisk');
  if (azure) {
    setDefault(azure, 'cachingMode', 'ReadWrite');
    setDefault(azure, 'fsType', 'ext4');
    setDefault(azure, 'readOnly', false);
    setDefault(azure, 'kind', 'Shared');
  }
  const scaleIO = child(spec, 'scaleIO');
  if (scaleIO) {
    setDefault(scaleIO, 'storageMode', 'ThinProvisioned', '');
    setDefault(scaleIO, 'fsType', 'xfs', '');
  }
}

/** MUTATES obj. */
export function defaultPersistentVolume(obj: Obj): void {
  const status = struct(obj, 'status');
  if (status) setDefault(status, 'phase', 'Pending', '');
  const spec = struct(obj, 'spec');
  if (!spec) return;
  setDefault(spec, 'persistentVolumeReclaimPolicy', 'Retain', '');
  setDefault(spec, 'volumeMode', 'Filesystem');
  defaultPersistentVolumeSource(spec);
}

export const persistentVolumeDefaulters = { '/v1/persistentvolumes': defaultPersistentVolume };
