/**
 * storage.k8s.io/v1 VolumeAttachment's defaulting (SetObjectDefaults_VolumeAttachment): an inline
 * volume spec's source gets a PersistentVolume's source defaults (not the PersistentVolume's own:
 * reclaim policy and volume mode belong to the PersistentVolume object's defaulter).
 */
import type { Obj } from '../../rest.ts';
import { child } from '../../defaulting/fields.ts';
import { defaultPersistentVolumeSource } from '../../core/persistentvolume/defaults.ts';

/** MUTATES obj. */
export function defaultVolumeAttachment(obj: Obj): void {
  const inline = child(child(child(obj, 'spec'), 'source'), 'inlineVolumeSpec');
  if (inline) defaultPersistentVolumeSource(inline);
}

export const volumeAttachmentDefaulters = { 'storage.k8s.io/v1/volumeattachments': defaultVolumeAttachment };
