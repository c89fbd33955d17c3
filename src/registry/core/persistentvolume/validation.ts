/**
 * PersistentVolume's native rules (pkg/apis/core/validation ValidatePersistentVolume[Update],
 * ValidatePersistentVolumeStatusUpdate, pkg/volume/validation's mount-option check and the PV
 * strategy): access modes, a positive storage capacity, reclaim policy, node affinity (required
 * for local volumes), exactly one volume source by its own rules, class names, volume mode; after
 * creation the source, volume mode and a set node affinity are fixed (the refusal carries the
 * internal source's diff). Creates start Pending with a phase transition time, which status
 * updates move when the phase changes. Warnings: the beta class annotation, Recycle, deprecated
 * node labels and volume plugins.
 */
import { FieldImmutableErrorMsg, GoJSONText, Path, forbidden, formatRFC3339, invalid, nameIsDNSSubdomain, notSupported, objectDiff, required, type FieldError } from '../../../apimachinery/index.ts';
import { parseQuantity, Quantity } from '../../../cel/index.ts';
import type { NativeRules } from '../../builtin/native.ts';
import { ptr, rec, semanticEqual, str, strings } from '../../fieldvalues/fields.ts';
import type { Obj } from '../../rest.ts';
import { hasInvalidLabelValues, nodeSelectorTerms, nodeSelectorTermWarnings, validateNodeSelector } from '../nodeselector/validation.ts';
import { internalPersistentVolumeSource, internalVolumeNodeAffinity } from './internal.ts';
import { validatePersistentVolumeSource } from './sources.ts';
import { validateAccessModes } from './access-modes.ts';
import { quantityOf } from '../podspec/resources.ts';

type Rec = Record<string, unknown>;

const specPath = Path.of('spec');
const reclaimPolicies = ['Delete', 'Recycle', 'Retain'];
const volumeModes = ['Block', 'Filesystem'];
const betaStorageClassAnnotation = 'volume.beta.kubernetes.io/storage-class';
const mountOptionAnnotation = 'volume.beta.kubernetes.io/mount-options';
/** The sources whose plugins take mount options (checkMountOption). */
const mountOptionSources = [
  'gcePersistentDisk', 'awsElasticBlockStore', 'glusterfs', 'nfs', 'rbd', 'quobyte', 'iscsi', 'cinder', 'cephfs', 'azureFile',
  'vsphereVolume', 'azureDisk', 'photonPersistentDisk',
];
/** Volume plugins that no longer work, and where their warning points. */
const deprecatedPlugins: readonly (readonly [field: string, path: string, msg: string])[] = [
  ['cephfs', 'cephfs', 'deprecated in v1.28, non-functional in v1.31+'],
  ['photonPersistentDisk', 'photonPersistentDisk', 'deprecated in v1.11, non-functional in v1.16+'],
  ['scaleIO', 'scaleIO', 'deprecated in v1.16, non-functional in v1.22+'],
  ['storageos', 'storageOS', 'deprecated in v1.22, non-functional in v1.25+'],
  ['glusterfs', 'glusterfs', 'deprecated in v1.25, non-functional in v1.26+'],
  ['rbd', 'rbd', 'deprecated in v1.28, non-functional in v1.31+'],
];

const quantity = quantityOf;
const zero = (): Quantity => parseQuantity('0') as Quantity;

/** A ResourceList as Go marshals it (keys sorted, quantities canonical; nil as null). */
function resourceListJSON(v: unknown): GoJSONText {
  const r = ptr(v);
  if (r === undefined) return new GoJSONText('null');
  return new GoJSONText(JSON.stringify(Object.fromEntries(Object.keys(r).sort().map((k) => [k, (quantity(r[k]) ?? zero()).toString()]))));
}

/** validateBasicResource and ValidatePositiveQuantityValue of one capacity. */
function validateCapacity(q: Quantity, fldPath: Path): FieldError[] {
  const errs: FieldError[] = [];
  // Quantity.Value() rounds up to an integer.
  const value = Math.ceil(q.asApproximateFloat64());
  if (value < 0) errs.push(invalid(fldPath, value, 'must be a valid resource quantity'));
  if (q.cmp(zero()) <= 0) errs.push(invalid(fldPath, q.toString(), 'must be greater than zero'));
  return errs;
}

/** ValidationOptionsForPersistentVolume: bad label values in node affinity are kept where the stored volume had them. */
interface Options {
  allowInvalidLabelValueInRequiredNodeAffinity: boolean;
}

const optionsFor = (old: Obj | undefined): Options => ({
  allowInvalidLabelValueInRequiredNodeAffinity: old !== undefined && hasInvalidLabelValues(rec(rec(old.spec).nodeAffinity).required),
});

/** ValidatePersistentVolumeSpec (not an inline volume). */
export function validatePersistentVolumeSpec(spec: Rec, pvName: string, opts: Options, fldPath: Path): FieldError[] {
  const modes = strings(spec.accessModes);
  const errs: FieldError[] = modes.length === 0 ? [required(fldPath.child('accessModes'), '')] : [];
  errs.push(...validateAccessModes(modes, fldPath.child('accessModes')));

  const capacity = rec(spec.capacity);
  const capPath = fldPath.child('capacity');
  const names = Object.keys(capacity);
  if (names.length === 0) errs.push(required(capPath, ''));
  if (!Object.hasOwn(capacity, 'storage') || names.length > 1) errs.push(notSupported(capPath, resourceListJSON(spec.capacity), ['storage']));
  // Go ranges over the map in no order; sorted here so that the list is stable.
  for (const r of names.sort()) errs.push(...validateCapacity(quantity(capacity[r]) ?? zero(), capPath.key(r)));

  const policy = str(spec.persistentVolumeReclaimPolicy);
  if (policy !== '' && !reclaimPolicies.includes(policy)) errs.push(notSupported(fldPath.child('persistentVolumeReclaimPolicy'), policy, reclaimPolicies));

  // validateVolumeNodeAffinity
  const affinity = ptr(spec.nodeAffinity);
  if (affinity !== undefined) {
    const req = ptr(affinity.required);
    const p = fldPath.child('nodeAffinity', 'required');
    if (req !== undefined) errs.push(...validateNodeSelector(req, opts.allowInvalidLabelValueInRequiredNodeAffinity, p));
    else errs.push(required(p, 'must specify required node constraints'));
  }
  errs.push(...validatePersistentVolumeSource(spec, pvName, affinity !== undefined, fldPath));

  const hostPath = ptr(spec.hostPath);
  if (hostPath !== undefined && cleanPath(str(hostPath.path)) === '/' && policy === 'Recycle') {
    errs.push(forbidden(fldPath.child('persistentVolumeReclaimPolicy'), "may not be 'recycle' for a hostPath mount of '/'"));
  }
  const className = str(spec.storageClassName);
  if (className !== '') errs.push(...nameIsDNSSubdomain(className, false).map((m) => invalid(fldPath.child('storageClassName'), className, m)));
  if (typeof spec.volumeMode === 'string' && !volumeModes.includes(spec.volumeMode)) errs.push(notSupported(fldPath.child('volumeMode'), spec.volumeMode, volumeModes));
  const vac = spec.volumeAttributesClassName;
  if (typeof vac === 'string') {
    if (vac === '') errs.push(required(fldPath.child('volumeAttributesClassName'), 'an empty string is disallowed'));
    else errs.push(...nameIsDNSSubdomain(vac, false).map((m) => invalid(fldPath.child('volumeAttributesClassName'), vac, m)));
    if (ptr(spec.csi) === undefined) errs.push(required(fldPath.child('csi'), 'has to be specified when using volumeAttributesClassName'));
  }
  return errs;
}

/** path.Clean, as far as telling whether a path is the root. */
function cleanPath(p: string): string {
  if (p === '') return '.';
  const rooted = p.startsWith('/');
  const out: string[] = [];
  for (const part of p.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') {
      if (out.length > 0 && out[out.length - 1] !== '..') out.pop();
      else if (!rooted) out.push('..');
    } else out.push(part);
  }
  const s = out.join('/');
  return rooted ? `/${s}` : s === '' ? '.' : s;
}

/** pkg/volume/validation ValidatePersistentVolume: the mount-options annotation only on sources that take it. */
function checkMountOption(obj: Obj): FieldError[] {
  const spec = rec(obj.spec);
  if (mountOptionSources.some((s) => ptr(spec[s]) !== undefined)) return [];
  return Object.hasOwn(rec(rec(obj.metadata).annotations), mountOptionAnnotation)
    ? [forbidden(Path.of('metadata', 'annotations', mountOptionAnnotation), 'may not specify mount options for this volume type')]
    : [];
}

const pvName = (obj: Obj) => str(rec(obj.metadata).name);

/** The strategy's Validate: ValidatePersistentVolume (its spec part; ObjectMeta is the common strategy's), then the mount options. */
function validateCreate(obj: Obj, old?: Obj): FieldError[] {
  return [...validatePersistentVolumeSpec(rec(obj.spec), pvName(obj), optionsFor(old), specPath), ...checkMountOption(obj)];
}

/** ValidatePersistentVolumeUpdate (which validates the new volume again, as upstream's strategy does before it). */
export function validatePersistentVolumeUpdate(obj: Obj, old: Obj): FieldError[] {
  const errs = validatePersistentVolumeSpec(rec(obj.spec), pvName(obj), optionsFor(old), specPath);
  const newSpec = structuredClone(rec(obj.spec));
  const oldSpec = rec(old.spec);
  // A controller expand secret may be added to a CSI volume that had none.
  const oldCSI = ptr(oldSpec.csi);
  const newCSI = ptr(newSpec.csi);
  if (oldCSI !== undefined && ptr(oldCSI.controllerExpandSecretRef) === undefined && newCSI !== undefined && ptr(newCSI.controllerExpandSecretRef) !== undefined) {
    delete newCSI.controllerExpandSecretRef;
  }
  const a = internalPersistentVolumeSource(oldSpec);
  const b = internalPersistentVolumeSource(newSpec);
  if (!semanticEqual(a, b)) {
    errs.push(forbidden(Path.of('spec', 'persistentvolumesource'), `spec.persistentvolumesource is immutable after creation\n${objectDiff(a, b)}`));
  }
  const newMode = rec(obj.spec).volumeMode;
  if (!semanticEqual(newMode, oldSpec.volumeMode)) errs.push(invalid(Path.of('volumeMode'), typeof newMode === 'string' ? newMode : null, FieldImmutableErrorMsg));
  // validatePvNodeAffinity: a node affinity, once set, is fixed (MutablePVNodeAffinity is off).
  if (ptr(oldSpec.nodeAffinity) !== undefined) {
    const n = internalVolumeNodeAffinity(rec(obj.spec).nodeAffinity);
    if (!semanticEqual(n, internalVolumeNodeAffinity(oldSpec.nodeAffinity))) {
      errs.push(invalid(Path.of('nodeAffinity'), n === null ? null : new GoJSONText(JSON.stringify(n)), FieldImmutableErrorMsg));
    }
  }
  const oldVAC = oldSpec.volumeAttributesClassName;
  const newVAC = rec(obj.spec).volumeAttributesClassName;
  if (!semanticEqual(oldVAC, newVAC) && typeof oldVAC === 'string' && typeof newVAC !== 'string') {
    errs.push(forbidden(Path.of('spec', 'volumeAttributesClassName'), 'update from non-nil value to nil is forbidden'));
  }
  return errs;
}

/** GetWarningsForPersistentVolume */
export function persistentVolumeWarnings(obj: Obj): string[] {
  const out: string[] = [];
  const spec = rec(obj.spec);
  if (Object.hasOwn(rec(rec(obj.metadata).annotations), betaStorageClassAnnotation)) {
    out.push(`metadata.annotations[${betaStorageClassAnnotation}]: deprecated since v1.8; use "storageClassName" attribute instead`);
  }
  if (spec.persistentVolumeReclaimPolicy === 'Recycle') {
    out.push('spec.persistentVolumeReclaimPolicy: The Recycle reclaim policy is deprecated. Instead, the recommended approach is to use dynamic provisioning.');
  }
  const req = ptr(rec(spec.nodeAffinity).required);
  if (req !== undefined) {
    const termPath = Path.of('spec', 'nodeAffinity', 'required', 'nodeSelectorTerms');
    nodeSelectorTerms(req).forEach((t, i) => out.push(...nodeSelectorTermWarnings(t, termPath.index(i))));
  }
  for (const [field, path, msg] of deprecatedPlugins) if (ptr(spec[field]) !== undefined) out.push(`spec.${path}: ${msg}`);
  return out;
}

const now = () => formatRFC3339(new Date());

export const persistentVolumeRules: NativeRules = {
  // PrepareForCreate: a new volume is Pending from now.
  prepareForCreate: (_ctx, obj) => {
    obj.status = { phase: 'Pending', lastPhaseTransitionTime: now() };
  },
  validate: (_ctx, obj) => validateCreate(obj),
  validateUpdate: (_ctx, obj, old) => [...validateCreate(obj, old), ...validatePersistentVolumeUpdate(obj, old)],
  warningsOnCreate: (_ctx, obj) => persistentVolumeWarnings(obj),
  warningsOnUpdate: (_ctx, obj) => persistentVolumeWarnings(obj),
  status: {
    // The phase transition time follows the phase unless the client moved it itself.
    prepareForUpdate: (_ctx, obj, old) => {
      const status = rec(obj.status);
      const oldStatus = rec(old.status);
      const t = status.lastPhaseTransitionTime;
      const unset = t === undefined || t === null;
      if (str(oldStatus.phase) === str(status.phase)) {
        if (unset) {
          if (oldStatus.lastPhaseTransitionTime === undefined) delete status.lastPhaseTransitionTime;
          else status.lastPhaseTransitionTime = oldStatus.lastPhaseTransitionTime;
        }
      } else if (unset || t === oldStatus.lastPhaseTransitionTime) status.lastPhaseTransitionTime = now();
      obj.status = status;
    },
    // ValidatePersistentVolumeStatusUpdate: ObjectMeta's update rules (the common strategy's) and a resourceVersion.
    validateUpdate: (_ctx, obj) => (str(rec(obj.metadata).resourceVersion) === '' ? [required(Path.of('resourceVersion'), '')] : []),
    warningsOnUpdate: () => [],
  },
};
