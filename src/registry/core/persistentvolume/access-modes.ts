/**
 * The access modes of a PersistentVolume or claim (the shared part of ValidatePersistentVolumeSpec
 * and ValidatePersistentVolumeClaimSpec): each known, ReadWriteOncePod alone. (That there is at
 * least one is each caller's check: a claim reports its selector's errors in between.)
 */
import { forbidden, notSupported, type FieldError, type Path } from '../../../apimachinery/index.ts';

export const supportedAccessModes = ['ReadOnlyMany', 'ReadWriteMany', 'ReadWriteOnce', 'ReadWriteOncePod'];

export function validateAccessModes(modes: readonly string[], fldPath: Path): FieldError[] {
  const errs: FieldError[] = [];
  let oncePod = false;
  let other = false;
  for (const m of modes) {
    if (!supportedAccessModes.includes(m)) errs.push(notSupported(fldPath, m, supportedAccessModes));
    if (m === 'ReadWriteOncePod') oncePod = true;
    else if (supportedAccessModes.includes(m)) other = true;
  }
  if (oncePod && other) errs.push(forbidden(fldPath, 'may not use ReadWriteOncePod with other access modes'));
  return errs;
}
