/** storage.k8s.io/v1 StorageClass's defaulting: SetDefaults_StorageClass, reclaimPolicy Delete and volumeBindingMode Immediate. */
import type { Obj } from '../../rest.ts';
import { setDefault } from '../../defaulting/fields.ts';

/** MUTATES obj. */
export function defaultStorageClass(obj: Obj): void {
  setDefault(obj, 'reclaimPolicy', 'Delete');
  setDefault(obj, 'volumeBindingMode', 'Immediate');
}

export const storageClassDefaulters = { 'storage.k8s.io/v1/storageclasses': defaultStorageClass };
