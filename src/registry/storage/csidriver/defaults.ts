/**
 * storage.k8s.io/v1 CSIDriver's defaulting (SetDefaults_CSIDriver, with Kubernetes 1.35's feature
 * gates: CSIVolumeFSGroupPolicy and CSIInlineVolume are GA, SELinuxMountReadWriteOncePod is on by
 * default): attachRequired true; podInfoOnMount, storageCapacity, requiresRepublish and
 * seLinuxMount false; fsGroupPolicy ReadWriteOnceWithFSType; volumeLifecycleModes [Persistent].
 */
import type { Obj } from '../../rest.ts';
import { onSpec, setDefault } from '../../defaulting/fields.ts';

/** MUTATES obj. */
export const defaultCSIDriver = onSpec((spec) => {
  setDefault(spec, 'attachRequired', true);
  setDefault(spec, 'podInfoOnMount', false);
  setDefault(spec, 'storageCapacity', false);
  setDefault(spec, 'fsGroupPolicy', 'ReadWriteOnceWithFSType');
  if (!Array.isArray(spec.volumeLifecycleModes) || spec.volumeLifecycleModes.length === 0) spec.volumeLifecycleModes = ['Persistent'];
  setDefault(spec, 'requiresRepublish', false);
  setDefault(spec, 'seLinuxMount', false);
});

export const csiDriverDefaulters: Record<string, (obj: Obj) => void> = { 'storage.k8s.io/v1/csidrivers': defaultCSIDriver };
