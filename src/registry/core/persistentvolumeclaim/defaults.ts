/**
 * core/v1 PersistentVolumeClaim's defaulting (SetObjectDefaults_PersistentVolumeClaim):
 * status.phase Pending and the spec's volume mode Filesystem. A create's status is cleared by the
 * strategy after this, as upstream's PrepareForCreate clears it; the phase comes back when the
 * stored object is read (defaulted again), as on a cluster.
 */
import type { Obj } from '../../rest.ts';
import { setDefault, struct, type Fields } from '../../defaulting/fields.ts';

/** MUTATES spec: SetDefaults_PersistentVolumeClaimSpec (also a StatefulSet's claim templates' and ephemeral volumes'). */
export function defaultPersistentVolumeClaimSpec(spec: Fields): void {
  setDefault(spec, 'volumeMode', 'Filesystem');
}

/** MUTATES obj. */
export function defaultPersistentVolumeClaim(obj: Obj): void {
  const status = struct(obj, 'status');
  if (status) setDefault(status, 'phase', 'Pending', '');
  const spec = struct(obj, 'spec');
  if (spec) defaultPersistentVolumeClaimSpec(spec);
}

export const persistentVolumeClaimDefaulters = { '/v1/persistentvolumeclaims': defaultPersistentVolumeClaim };
