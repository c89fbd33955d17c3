/**
 * The DRA feature gates of kube-apiserver 1.35 (pkg/features/kube_features.go) that decide
 * which resource.k8s.io fields a write keeps, at their 1.35 defaults. The server runs with the
 * defaults and has no flag to change them, as a cluster started without --feature-gates: beta
 * gates are on, alpha gates off. An alpha field is dropped on write (dropDisabledFields) unless
 * the stored object already used it.
 */

/** Each gate's default in 1.35, with its stage there. */
export const draFeatureGates = {
  /** beta since 1.34 */
  DRAAdminAccess: true,
  /** beta since 1.34 */
  DRAPrioritizedList: true,
  /** beta since 1.33 */
  DRAResourceClaimDeviceStatus: true,
  /** alpha since 1.33 */
  DRADeviceTaints: false,
  /** alpha since 1.33 */
  DRAPartitionableDevices: false,
  /** alpha since 1.34 */
  DRAConsumableCapacity: false,
  /** alpha since 1.34 */
  DRADeviceBindingConditions: false,
  /** alpha since 1.34 */
  DRAExtendedResource: false,
} as const;

export type DRAFeatureGate = keyof typeof draFeatureGates;

/** utilfeature.DefaultFeatureGate.Enabled for the DRA gates. */
export const enabled = (gate: DRAFeatureGate): boolean => draFeatureGates[gate];
