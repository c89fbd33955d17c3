/**
 * The warning a deprecated CRD version answers with when the CRD gives none (the crdHandler's
 * defaultDeprecationWarning): `<group>/<version> <Kind> is deprecated`, and `; use <group>/<v>
 * <Kind>` naming the highest-priority served, non-deprecated version that ranks above it, in
 * Kubernetes' version order.
 */
import { compareKubeAwareVersions } from '../crd/version-priority.ts';

export function defaultDeprecationWarning(
  version: string,
  group: string,
  kind: string,
  versions: readonly { name: string; served: boolean; deprecated: boolean }[],
): string {
  const msg = `${group}/${version} ${kind} is deprecated`;
  const newer = versions
    .filter((v) => v.served && !v.deprecated && compareKubeAwareVersions(version, v.name) > 0)
    .map((v) => v.name)
    .sort(compareKubeAwareVersions);
  return newer.length === 0 ? msg : `${msg}; use ${group}/${newer[0]} ${kind}`;
}
