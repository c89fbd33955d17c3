/**
 * ValidatePodUpdate's update rules: containers may not be added or removed, images stay set;
 * activeDeadlineSeconds may be set, or lowered, never removed; tolerations may only be added;
 * terminationGracePeriodSeconds may go from negative to 1; scheduling gates may only be removed.
 * Anything else in the spec is refused with upstream's `pod updates may not change fields other
 * than ...` and the difference.
 */
import { Path, forbidden, invalid, jsonEqual, required, type FieldError } from '../../../apimachinery/index.ts';
import { deepCopyJSON } from '../../../apimachinery/index.ts';
import { optNum, rec, recs, semanticEqual, str, type Rec } from '../podspec/values.ts';
import { podSpecDiff } from './spec-diff.ts';

const specPath = Path.of('spec');
const maxInt32 = 2147483647;

export const updatablePodSpecFields = [
  '`spec.containers[*].image`',
  '`spec.initContainers[*].image`',
  '`spec.activeDeadlineSeconds`',
  '`spec.tolerations` (only additions to existing tolerations)',
  '`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)',
];

/** ValidateContainerUpdates: the same number of containers, each with an image. */
function validateContainerUpdates(newList: Rec[], oldList: Rec[], fldPath: Path): { errs: FieldError[]; stop: boolean } {
  if (newList.length !== oldList.length) return { errs: [forbidden(fldPath, 'pod updates may not add or remove containers')], stop: true };
  const errs: FieldError[] = [];
  newList.forEach((c, i) => {
    const image = str(c.image);
    if (image === '') errs.push(required(fldPath.index(i).child('image'), ''));
    if (image.trim().length !== image.length) errs.push(invalid(fldPath.index(i).child('image'), image, 'must not have leading or trailing whitespace'));
  });
  return { errs, stop: false };
}

/** validateOnlyAddedTolerations: every old toleration is still there (a NoExecute one may lower its seconds). */
function validateOnlyAddedTolerations(newT: Rec[], oldT: Rec[], fldPath: Path): FieldError[] {
  const errs: FieldError[] = [];
  for (const old of oldT) {
    const { tolerationSeconds: oldSecs, ...oldRest } = old;
    const found = newT.some((t) => {
      const { tolerationSeconds: newSecs, ...newRest } = t;
      if (!jsonEqual(stripEmpty(oldRest), stripEmpty(newRest))) return false;
      if (oldSecs === undefined || oldSecs === null) return newSecs === undefined || newSecs === null;
      return typeof newSecs === 'number' && newSecs <= (oldSecs as number) || jsonEqual(oldSecs, newSecs);
    });
    if (!found) {
      errs.push(forbidden(fldPath, 'existing toleration can not be modified except its tolerationSeconds'));
      return errs;
    }
  }
  return errs;
}

function stripEmpty(r: Rec): Rec {
  return Object.fromEntries(Object.entries(r).filter(([, v]) => v !== '' && v !== undefined && v !== null));
}

/** The update rules of ValidatePodUpdate (the new pod's own validation runs beside them). */
export function validatePodUpdateRules(newPod: Rec, oldPod: Rec): FieldError[] {
  const newSpec = rec(newPod.spec) ?? {};
  const oldSpec = rec(oldPod.spec) ?? {};
  const errs: FieldError[] = [];
  const containers = validateContainerUpdates(recs(newSpec.containers), recs(oldSpec.containers), specPath.child('containers'));
  errs.push(...containers.errs);
  if (containers.stop) return errs;
  const inits = validateContainerUpdates(recs(newSpec.initContainers), recs(oldSpec.initContainers), specPath.child('initContainers'));
  errs.push(...inits.errs);
  if (inits.stop) return errs;

  const newADS = optNum(newSpec.activeDeadlineSeconds);
  const oldADS = optNum(oldSpec.activeDeadlineSeconds);
  if (newADS !== undefined) {
    if (newADS < 0 || newADS > maxInt32) {
      errs.push(invalid(specPath.child('activeDeadlineSeconds'), newADS, `must be between 0 and ${maxInt32}, inclusive`));
      return errs;
    }
    if (oldADS !== undefined && oldADS < newADS) {
      errs.push(invalid(specPath.child('activeDeadlineSeconds'), newADS, 'must be less than or equal to previous value'));
      return errs;
    }
  } else if (oldADS !== undefined) {
    errs.push(invalid(specPath.child('activeDeadlineSeconds'), null, 'must not update from a positive integer to nil value'));
  }

  // The updatable fields take their stored values; whatever then still differs is refused.
  const munged = deepCopyJSON(newSpec) as Rec;
  const mungeImages = (k: 'containers' | 'initContainers'): void => {
    const olds = recs(oldSpec[k]);
    if (Array.isArray(munged[k])) {
      munged[k] = (munged[k] as unknown[]).map((c, i) => {
        const copy = { ...(rec(c) ?? {}) };
        if (olds[i]!.image === undefined) delete copy.image;
        else copy.image = olds[i]!.image;
        return copy;
      });
    }
  };
  mungeImages('containers');
  mungeImages('initContainers');
  setOrDelete(munged, 'activeDeadlineSeconds', oldSpec.activeDeadlineSeconds);
  setOrDelete(munged, 'tolerations', oldSpec.tolerations);
  errs.push(...validateOnlyAddedTolerations(recs(newSpec.tolerations), recs(oldSpec.tolerations), specPath.child('tolerations')));
  const oldTGPS = optNum(oldSpec.terminationGracePeriodSeconds);
  if (oldTGPS !== undefined && oldTGPS < 0 && optNum(munged.terminationGracePeriodSeconds) === 1) munged.terminationGracePeriodSeconds = oldTGPS;
  // Scheduling gates may only be removed, and only while the pod is still gated.
  const oldGates = recs(oldSpec.schedulingGates).map((g) => str(g.name));
  const newGates = recs(newSpec.schedulingGates).map((g) => str(g.name));
  if (oldGates.length > 0) {
    if (newGates.some((g) => !oldGates.includes(g))) errs.push(forbidden(specPath.child('schedulingGates'), 'only deletion is allowed, but found new scheduling gate'));
    setOrDelete(munged, 'schedulingGates', oldSpec.schedulingGates);
  } else if (newGates.length > 0) {
    errs.push(forbidden(specPath.child('schedulingGates'), 'only deletion is allowed, but found new scheduling gate'));
    setOrDelete(munged, 'schedulingGates', oldSpec.schedulingGates);
  }
  if (!semanticEqual(munged, oldSpec)) {
    errs.push(forbidden(specPath, `pod updates may not change fields other than ${updatablePodSpecFields.join(',')}\n${podSpecDiff(oldSpec, munged)}`));
  }
  return errs;
}

function setOrDelete(r: Rec, k: string, v: unknown): void {
  if (v === undefined) delete r[k];
  else r[k] = v;
}
