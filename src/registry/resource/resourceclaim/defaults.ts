/**
 * resource.k8s.io/v1 ResourceClaim's and ResourceClaimTemplate's defaulting: each request's
 * `exactly` and each `firstAvailable` subrequest get allocationMode ExactCount and, in that mode,
 * count 1 (SetDefaults_ExactDeviceRequest, _DeviceSubRequest); every device toleration —
 * theirs, and the allocation results' in status — gets operator Equal (`+default="Equal"`).
 */
import type { Obj } from '../../rest.ts';
import { child, items, setDefault, type Fields } from '../../defaulting/fields.ts';

function defaultTolerations(o: Fields): void {
  for (const t of items(o, 'tolerations')) setDefault(t, 'operator', 'Equal', '');
}

function defaultDeviceRequest(r: Fields): void {
  setDefault(r, 'allocationMode', 'ExactCount', '');
  if (r.allocationMode === 'ExactCount') setDefault(r, 'count', 1, 0);
  defaultTolerations(r);
}

/** MUTATES claimSpec: a ResourceClaimSpec. */
export function defaultResourceClaimSpec(claimSpec: Fields): void {
  for (const request of items(child(claimSpec, 'devices'), 'requests')) {
    const exactly = child(request, 'exactly');
    if (exactly) defaultDeviceRequest(exactly);
    for (const sub of items(request, 'firstAvailable')) defaultDeviceRequest(sub);
  }
}

/** MUTATES obj. */
export function defaultResourceClaim(obj: Obj): void {
  const spec = child(obj, 'spec');
  if (spec) defaultResourceClaimSpec(spec);
  for (const result of items(child(child(child(obj, 'status'), 'allocation'), 'devices'), 'results')) defaultTolerations(result);
}

/** MUTATES obj. */
export function defaultResourceClaimTemplate(obj: Obj): void {
  const spec = child(child(obj, 'spec'), 'spec');
  if (spec) defaultResourceClaimSpec(spec);
}

export const resourceClaimDefaulters = {
  'resource.k8s.io/v1/resourceclaims': defaultResourceClaim,
  'resource.k8s.io/v1/resourceclaimtemplates': defaultResourceClaimTemplate,
};
