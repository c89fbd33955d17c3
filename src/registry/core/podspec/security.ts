/**
 * Security contexts (ValidateSecurityContext, validatePodSpecSecurityContext, the parts that are
 * checks of values): user and group IDs in range, privilege escalation consistent with privileged
 * and added capabilities, procMount and seccomp profile types, supplemental groups, sysctls.
 */
import { Path, invalid, notSupported, required, type FieldError } from '../../../apimachinery/index.ts';
import { list, optNum, rec, recs, str, type Rec } from './values.ts';

const idRange = 'must be between 0 and 2147483647, inclusive';

function validateID(v: number | undefined, fldPath: Path): FieldError[] {
  return v !== undefined && (v < 0 || v > 2147483647) ? [invalid(fldPath, v, idRange)] : [];
}

const seccompTypes = ['Localhost', 'RuntimeDefault', 'Unconfined'];

function validateSeccompProfile(p: Rec | undefined, fldPath: Path): FieldError[] {
  if (!p) return [];
  const t = str(p.type);
  if (t === '') return [required(fldPath.child('type'), '')];
  if (!seccompTypes.includes(t)) return [notSupported(fldPath.child('type'), t, seccompTypes)];
  if (t === 'Localhost' && str(p.localhostProfile) === '') return [required(fldPath.child('localhostProfile'), 'must be set when seccomp type is Localhost')];
  if (t !== 'Localhost' && p.localhostProfile !== undefined && p.localhostProfile !== null) {
    return [invalid(fldPath.child('localhostProfile'), str(p.localhostProfile), 'can only be set when seccomp type is Localhost')];
  }
  return [];
}

/** ValidateSecurityContext: a container's. */
export function validateSecurityContext(sc: Rec | undefined, fldPath: Path): FieldError[] {
  if (!sc) return [];
  const errs: FieldError[] = [];
  errs.push(...validateID(optNum(sc.runAsUser), fldPath.child('runAsUser')));
  errs.push(...validateID(optNum(sc.runAsGroup), fldPath.child('runAsGroup')));
  if (typeof sc.procMount === 'string' && sc.procMount !== 'Default' && sc.procMount !== 'Unmasked') {
    errs.push(notSupported(fldPath.child('procMount'), sc.procMount, ['Default', 'Unmasked']));
  }
  errs.push(...validateSeccompProfile(rec(sc.seccompProfile), fldPath.child('seccompProfile')));
  if (sc.allowPrivilegeEscalation === false) {
    if (sc.privileged === true) errs.push(invalid(fldPath, sc, 'cannot set `allowPrivilegeEscalation` to false and `privileged` to true'));
    if (list(rec(sc.capabilities)?.add).includes('CAP_SYS_ADMIN')) {
      errs.push(invalid(fldPath, sc, 'cannot set `allowPrivilegeEscalation` to false and `capabilities.Add` CAP_SYS_ADMIN'));
    }
  }
  return errs;
}

/** validatePodSpecSecurityContext's value checks. */
export function validatePodSecurityContext(sc: Rec | undefined, fldPath: Path): FieldError[] {
  if (!sc) return [];
  const errs: FieldError[] = [];
  errs.push(...validateID(optNum(sc.runAsUser), fldPath.child('runAsUser')));
  errs.push(...validateID(optNum(sc.runAsGroup), fldPath.child('runAsGroup')));
  errs.push(...validateID(optNum(sc.fsGroup), fldPath.child('fsGroup')));
  list(sc.supplementalGroups).forEach((g, i) => errs.push(...validateID(typeof g === 'number' ? g : undefined, fldPath.child('supplementalGroups').index(i))));
  if (typeof sc.fsGroupChangePolicy === 'string' && sc.fsGroupChangePolicy !== 'OnRootMismatch' && sc.fsGroupChangePolicy !== 'Always') {
    errs.push(notSupported(fldPath.child('fsGroupChangePolicy'), sc.fsGroupChangePolicy, ['OnRootMismatch', 'Always']));
  }
  errs.push(...validateSeccompProfile(rec(sc.seccompProfile), fldPath.child('seccompProfile')));
  const seen = new Set<string>();
  recs(sc.sysctls).forEach((s, i) => {
    const p = fldPath.child('sysctls').index(i);
    const name = str(s.name);
    if (name === '') errs.push(required(p.child('name'), ''));
    else if (!sysctlRegexp.test(name)) errs.push(invalid(p.child('name'), name, `must have at most 253 characters and match regex ${sysctlFmt}`));
    else if (seen.has(name)) errs.push({ type: 'FieldValueDuplicate', field: p.child('name').toString(), badValue: name, detail: '' });
    seen.add(name);
  });
  return errs;
}

const sysctlSegmentFmt = '[a-z0-9]([-_a-z0-9]*[a-z0-9])?';
const sysctlFmt = `(${sysctlSegmentFmt}[\\./])*${sysctlSegmentFmt}`;
const sysctlRegexp = new RegExp(`^${sysctlFmt}$`);
