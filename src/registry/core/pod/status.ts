/**
 * ValidatePodStatusUpdate: what a status write may not do — change spec.nodeName, set an invalid
 * nominatedNodeName, bring a terminated container back when the pod does not restart it, carry
 * condition types that are not qualified names, or pod IPs that are not one valid IP per family
 * with podIPs[0] equal to podIP.
 */
import { Path, forbidden, invalid, isQualifiedName, tooMany, type FieldError } from '../../../apimachinery/index.ts';
import { validateSubdomainName } from '../podspec/names.ts';
import { list, num, rec, recs, str, type Rec } from '../podspec/values.ts';

const statusPath = Path.of('status');
const systemConditions = new Set(['PodScheduled', 'Ready', 'Initialized']);

function isIPv4(s: string): boolean {
  return /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/.test(s);
}
function isIPv6(s: string): boolean {
  return s.includes(':') && /^[0-9a-fA-F:.]+$/.test(s) && s.split('::').length <= 2;
}

/** validatePodIPs / validateHostIPs over `status.<single>` and `status.<plural>`. */
function validateIPs(status: Rec, single: string, plural: string): FieldError[] {
  const errs: FieldError[] = [];
  const ips = recs(status[plural]).map((x) => str(x.ip));
  const p = statusPath.child(plural);
  if (ips.length > 0 && str(status[single]) !== ips[0]) {
    errs.push(invalid(p.index(0).child('ip'), ips[0], `must be equal to \`${single}\``));
  }
  if (ips.length === 0) return errs;
  if (ips.length > 2) errs.push(tooMany(p, ips.length, 2));
  ips.forEach((ip, i) => {
    if (!isIPv4(ip) && !isIPv6(ip)) errs.push(invalid(p.index(i), ip, 'must be a valid IP address'));
  });
  if (ips.length === 2 && isIPv4(ips[0]!) === isIPv4(ips[1]!)) {
    errs.push(invalid(p, list(status[plural]), 'may specify no more than one IP for each IP family'));
  }
  return errs;
}

/** ValidateContainerStateTransition: a terminated container stays terminated when it is not restarted. */
function validateStateTransition(newS: Rec[], oldS: Rec[], fldPath: Path, restartPolicy: string): FieldError[] {
  if (restartPolicy === 'Always') return [];
  const errs: FieldError[] = [];
  newS.forEach((s, i) => {
    const old = oldS.find((o) => str(o.name) === str(s.name));
    const oldTerm = rec(rec(old?.state)?.terminated);
    if (!oldTerm || rec(rec(s.state)?.terminated)) return;
    if (restartPolicy === 'Never' || (restartPolicy === 'OnFailure' && num(oldTerm.exitCode) === 0)) {
      errs.push(forbidden(fldPath.index(i).child('state'), 'may not be transitioned to non-terminated state'));
    }
  });
  return errs;
}

/** The status rules of ValidatePodStatusUpdate (ObjectMeta's update rules run before them). */
export function validatePodStatusRules(newPod: Rec, oldPod: Rec): FieldError[] {
  const errs: FieldError[] = [];
  const status = rec(newPod.status) ?? {};
  const oldStatus = rec(oldPod.status) ?? {};
  recs(status.conditions).forEach((c, i) => {
    const t = str(c.type);
    if (systemConditions.has(t)) return;
    for (const m of isQualifiedName(t)) errs.push(invalid(statusPath.child('conditions').index(i).child('Type'), t, m));
  });
  if (str(rec(newPod.spec)?.nodeName) !== str(rec(oldPod.spec)?.nodeName)) errs.push(forbidden(statusPath.child('nodeName'), 'may not be changed directly'));
  const nominated = str(status.nominatedNodeName);
  if (nominated !== str(oldStatus.nominatedNodeName) && nominated !== '') errs.push(...validateSubdomainName(nominated, statusPath.child('nominatedNodeName')));
  const restartPolicy = str(rec(oldPod.spec)?.restartPolicy) || 'Always';
  errs.push(...validateStateTransition(recs(status.containerStatuses), recs(oldStatus.containerStatuses), statusPath.child('containerStatuses'), restartPolicy));
  errs.push(...validateStateTransition(recs(status.initContainerStatuses), recs(oldStatus.initContainerStatuses), statusPath.child('initContainerStatuses'), restartPolicy));
  errs.push(...validateIPs(status, 'podIP', 'podIPs'));
  errs.push(...validateIPs(status, 'hostIP', 'hostIPs'));
  return errs;
}
