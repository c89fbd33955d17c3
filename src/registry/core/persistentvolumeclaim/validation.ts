/**
 * PersistentVolumeClaim's native rules (pkg/apis/core/validation ValidatePersistentVolumeClaim
 * [Update] and the claim strategy): access modes (ReadWriteOncePod alone), a positive storage
 * request, class names, volume mode and data source; after creation the spec is frozen but for
 * a first volumeName, a storageClassName set where none was, and, once bound, the storage
 * request (never below the recorded capacity) and volumeAttributesClassName. The refusal
 * carries the diff of the internal spec, as a cluster prints it. dataSource and dataSourceRef
 * are made to agree on create.
 */
import { type FieldError, FieldImmutableErrorMsg, forbidden, invalid, notSupported, objectDiff, Path, required } from '../../../apimachinery/index.ts';
import { GoJSONText, isDNS1123Subdomain, nameIsDNSSubdomain, validateNamespaceName } from '../../../apimachinery/index.ts';
import { parseQuantity, Quantity } from '../../../cel/index.ts';
import type { NativeRules } from '../../builtin/native.ts';
import { immutableField, list, ptr, rec, semanticEqual, str, strings } from '../../fieldvalues/fields.ts';
import { hasInvalidLabelValue, validateSelectorField } from '../../fieldvalues/selector.ts';
import type { Obj } from '../../rest.ts';
import { persistentVolumeClaimStatusRules } from './status.ts';
import { validateAccessModes } from '../persistentvolume/access-modes.ts';

const specPath = Path.of('spec');
const volumeModes = ['Block', 'Filesystem'];
const betaStorageClassAnnotation = 'volume.beta.kubernetes.io/storage-class';

function quantity(v: unknown): Quantity | undefined {
  if (typeof v !== 'string' && typeof v !== 'number') return undefined;
  const q = parseQuantity(String(v));
  return q instanceof Quantity ? q : undefined;
}

const zero = (): Quantity => parseQuantity('0') as Quantity;

/** The spec options an update inherits from the stored claim (ValidationOptionsForPersistentVolumeClaim). */
export interface ClaimSpecOptions {
  allowInvalidLabelValueInSelector: boolean;
  /** The stored claim named an API group in its data source or reference: keep it unchecked. */
  allowInvalidAPIGroupInDataSourceOrRef: boolean;
}

const createOptions: ClaimSpecOptions = { allowInvalidLabelValueInSelector: false, allowInvalidAPIGroupInDataSourceOrRef: false };

/** allowInvalidAPIGroupInDataSourceOrRef: either reference of the stored spec names a group. */
function namesAPIGroup(spec: Record<string, unknown>): boolean {
  return typeof ptr(spec.dataSource)?.apiGroup === 'string' || typeof ptr(spec.dataSourceRef)?.apiGroup === 'string';
}

/** The options for an update from the stored claim's spec. */
export function updateOptions(oldSpec: Record<string, unknown>): ClaimSpecOptions {
  return { allowInvalidLabelValueInSelector: hasInvalidLabelValue(oldSpec.selector), allowInvalidAPIGroupInDataSourceOrRef: namesAPIGroup(oldSpec) };
}

/**
 * validateDataSource / validateDataSourceRef: a name and kind; the core group only for claims; a
 * named group a DNS subdomain; a reference's namespace a namespace name.
 */
function validateDataSource(ds: Record<string, unknown>, fldPath: Path, allowInvalidAPIGroup: boolean, isRef: boolean): FieldError[] {
  const errs: FieldError[] = [];
  if (str(ds.name) === '') errs.push(required(fldPath.child('name'), ''));
  if (str(ds.kind) === '') errs.push(required(fldPath.child('kind'), ''));
  const apiGroup = str(ds.apiGroup);
  if (apiGroup === '' && str(ds.kind) !== 'PersistentVolumeClaim') {
    errs.push(invalid(fldPath, str(ds.kind), "must be 'PersistentVolumeClaim' when referencing the default apiGroup"));
  }
  if (apiGroup !== '' && !allowInvalidAPIGroup) errs.push(...isDNS1123Subdomain(apiGroup).map((m) => invalid(fldPath.child('apiGroup'), apiGroup, m)));
  const ns = isRef ? str(ds.namespace) : '';
  if (ns !== '') errs.push(...validateNamespaceName(ns, false).map((m) => invalid(fldPath.child('namespace'), ns, m)));
  return errs;
}

/** isDataSourceEqualDataSourceRef: the same group (both unset, or equal), kind and name. */
function sameDataSource(ds: Record<string, unknown>, ref: Record<string, unknown>): boolean {
  const group = (v: unknown) => (typeof v === 'string' ? v : null);
  return group(ds.apiGroup) === group(ref.apiGroup) && str(ds.kind) === str(ref.kind) && str(ds.name) === str(ref.name);
}

/** ValidatePersistentVolumeClaimSpec */
export function validatePersistentVolumeClaimSpec(spec: Record<string, unknown>, fldPath: Path, opts: ClaimSpecOptions = createOptions): FieldError[] {
  const { allowInvalidLabelValueInSelector } = opts;
  const errs: FieldError[] = [];
  const modes = strings(spec.accessModes);
  if (modes.length === 0) errs.push(required(fldPath.child('accessModes'), 'at least 1 access mode is required'));
  if (ptr(spec.selector) !== undefined) errs.push(...validateSelectorField(spec.selector, { allowInvalidLabelValueInSelector }, fldPath.child('selector')));
  errs.push(...validateAccessModes(modes, fldPath.child('accessModes')));
  // The path is upstream's: resources[storage], not resources.requests[storage].
  const storagePath = fldPath.child('resources').key('storage');
  const requests = rec(rec(spec.resources).requests);
  if (!Object.hasOwn(requests, 'storage')) errs.push(required(storagePath, ''));
  else {
    const q = quantity(requests.storage) ?? zero();
    if (q.cmp(zero()) <= 0) errs.push(invalid(storagePath, q.toString(), 'must be greater than zero'));
  }
  for (const f of ['storageClassName', 'volumeAttributesClassName']) {
    const v = spec[f];
    if (typeof v === 'string' && v !== '') for (const msg of nameIsDNSSubdomain(v, false)) errs.push(invalid(fldPath.child(f), v, msg));
  }
  if (typeof spec.volumeMode === 'string' && !volumeModes.includes(spec.volumeMode)) errs.push(notSupported(fldPath.child('volumeMode'), spec.volumeMode, volumeModes));
  const ds = ptr(spec.dataSource);
  const ref = ptr(spec.dataSourceRef);
  if (ds !== undefined) errs.push(...validateDataSource(ds, fldPath.child('dataSource'), opts.allowInvalidAPIGroupInDataSourceOrRef, false));
  if (ref !== undefined) errs.push(...validateDataSource(ref, fldPath.child('dataSourceRef'), opts.allowInvalidAPIGroupInDataSourceOrRef, true));
  // The bad value is a *field.Path, which marshals as {} (its fields are unexported).
  const pathValue = new GoJSONText('{}');
  if (ref !== undefined && str(ref.namespace) !== '') {
    if (ds !== undefined) errs.push(invalid(fldPath, pathValue, 'may not be specified when dataSourceRef.namespace is specified'));
  } else if (ds !== undefined && ref !== undefined && !sameDataSource(ds, ref)) errs.push(invalid(fldPath, pathValue, 'must match dataSourceRef'));
  return errs;
}

/** A ResourceList as Go marshals it: keys sorted, quantities canonical. */
function resourceList(v: unknown): Record<string, string> | null {
  const r = ptr(v);
  if (r === undefined) return null;
  const out: Record<string, string> = {};
  for (const k of Object.keys(r).sort()) out[k] = (quantity(r[k]) ?? zero()).toString();
  return out;
}

function selectorValue(v: unknown): unknown {
  const s = ptr(v);
  if (s === undefined) return null;
  const out: Record<string, unknown> = {};
  const labels = rec(s.matchLabels);
  if (Object.keys(labels).length > 0) out.matchLabels = Object.fromEntries(Object.keys(labels).sort().map((k) => [k, str(labels[k])]));
  const exprs = list(s.matchExpressions).map((e) => {
    const r = rec(e);
    return { key: str(r.key), operator: str(r.operator), ...(strings(r.values).length > 0 ? { values: strings(r.values) } : {}) };
  });
  if (exprs.length > 0) out.matchExpressions = exprs;
  return out;
}

const strPtr = (v: unknown) => (typeof v === 'string' ? v : null);

/** The spec as the internal core.PersistentVolumeClaimSpec marshals (no JSON tags: Go's names, declaration order). */
function internalSpec(spec: Record<string, unknown>): unknown {
  const ds = ptr(spec.dataSource);
  const ref = ptr(spec.dataSourceRef);
  const resources = rec(spec.resources);
  return {
    AccessModes: Array.isArray(spec.accessModes) ? strings(spec.accessModes) : null,
    Selector: selectorValue(spec.selector),
    Resources: { Limits: resourceList(resources.limits), Requests: resourceList(resources.requests) },
    VolumeName: str(spec.volumeName),
    StorageClassName: strPtr(spec.storageClassName),
    VolumeMode: strPtr(spec.volumeMode),
    DataSource: ds === undefined ? null : { APIGroup: strPtr(ds.apiGroup), Kind: str(ds.kind), Name: str(ds.name) },
    DataSourceRef: ref === undefined ? null : { APIGroup: strPtr(ref.apiGroup), Kind: str(ref.kind), Name: str(ref.name), Namespace: strPtr(ref.namespace) },
    VolumeAttributesClassName: strPtr(spec.volumeAttributesClassName),
  };
}

const annotationsOf = (o: Obj) => rec(rec(o.metadata).annotations);

/** ValidatePersistentVolumeClaimUpdate's own part (after the new claim's rules). */
export function validatePersistentVolumeClaimUpdateRules(obj: Obj, old: Obj): FieldError[] {
  const errs: FieldError[] = [];
  const newSpec = structuredClone(rec(obj.spec));
  const oldSpec = structuredClone(rec(old.spec));
  // The binder sets volumeName once.
  if (str(oldSpec.volumeName) === '') {
    if (newSpec.volumeName === undefined) delete oldSpec.volumeName;
    else oldSpec.volumeName = newSpec.volumeName;
  }
  const oldAnn = annotationsOf(old);
  const newAnn = annotationsOf(obj);
  const oldHasAnn = Object.hasOwn(oldAnn, betaStorageClassAnnotation);
  const newClass = strPtr(newSpec.storageClassName);
  const oldClass = strPtr(oldSpec.storageClassName);
  // validateStorageClassUpgradeFromAnnotation: the class moves from the beta annotation to the field.
  const fromAnnotation =
    oldHasAnn &&
    oldClass === null &&
    newClass !== null &&
    newClass === str(oldAnn[betaStorageClassAnnotation]) &&
    (!Object.hasOwn(newAnn, betaStorageClassAnnotation) || str(newAnn[betaStorageClassAnnotation]) === newClass);
  if (fromAnnotation) delete newSpec.storageClassName;
  else {
    const newVal = str(newAnn[betaStorageClassAnnotation]);
    const oldVal = str(oldAnn[betaStorageClassAnnotation]);
    if (newVal !== oldVal) errs.push(invalid(Path.of('metadata', 'annotations', betaStorageClassAnnotation), newVal, FieldImmutableErrorMsg));
    // validateStorageClassUpgradeFromNil: a claim without a class may be given one (retroactive default class).
    if (!oldHasAnn && oldClass === null && newClass !== null) delete newSpec.storageClassName;
  }
  const bound = str(rec(obj.status).phase) === 'Bound';
  if (bound && ptr(rec(newSpec.resources).requests) !== undefined) {
    const requests = rec(rec(newSpec.resources).requests);
    const oldStorage = rec(rec(oldSpec.resources).requests).storage;
    if (oldStorage === undefined) delete requests.storage;
    else requests.storage = oldStorage;
  }
  if (bound && newSpec.volumeAttributesClassName !== undefined) {
    if (oldSpec.volumeAttributesClassName === undefined) delete newSpec.volumeAttributesClassName;
    else newSpec.volumeAttributesClassName = oldSpec.volumeAttributesClassName;
  }
  const a = internalSpec(oldSpec);
  const b = internalSpec(newSpec);
  if (!semanticEqual(a, b)) {
    errs.push(forbidden(specPath, `spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims\n${objectDiff(a, b)}`));
  }
  // RecoverVolumeExpansionFailure (GA): a request may shrink, but not to the recorded capacity.
  const newSize = quantity(rec(rec(rec(obj.spec).resources).requests).storage) ?? zero();
  const oldSize = quantity(rec(rec(rec(old.spec).resources).requests).storage) ?? zero();
  const capacity = quantity(rec(rec(old.status).capacity).storage) ?? zero();
  if (newSize.cmp(oldSize) < 0 && newSize.cmp(capacity) <= 0) {
    errs.push(forbidden(Path.of('spec', 'resources', 'requests', 'storage'), 'field can not be less than status.capacity'));
  }
  errs.push(...immutableField(rec(obj.spec).volumeMode, rec(old.spec).volumeMode, Path.of('volumeMode'), strPtr(rec(obj.spec).volumeMode)));
  return errs;
}

/** GetWarningsForPersistentVolumeClaim: the deprecated class annotation, fractional byte quantities. */
function warnings(obj: Obj): string[] {
  const out: string[] = [];
  if (Object.hasOwn(annotationsOf(obj), betaStorageClassAnnotation)) {
    out.push(`metadata.annotations[${betaStorageClassAnnotation}]: deprecated since v1.8; use "storageClassName" attribute instead`);
  }
  const resources = rec(rec(obj.spec).resources);
  for (const kind of ['requests', 'limits']) {
    for (const [name, v] of Object.entries(rec(resources[kind]))) {
      const q = quantity(v);
      if (q !== undefined && name === 'storage' && q.toString().endsWith('m')) {
        out.push(`spec.resources.${kind}[${name}]: fractional byte value "${q.toString()}" is invalid, must be an integer`);
      }
    }
  }
  return out;
}

/**
 * The stored claim with its data sources normalized (a copy), as upstream's PrepareForUpdate
 * normalizes the old claim too, so that one saved before either field existed compares equal.
 */
function normalizedOld(old: Obj): Obj {
  if (ptr(old.spec) === undefined) return old;
  const copy = { ...old, spec: structuredClone(old.spec) as Record<string, unknown> };
  normalizeDataSources(copy.spec);
  return copy;
}

/** dataSourceIsEnabled: a dataSource a client without dataSourceRef may name (a claim or a volume snapshot). */
function dataSourceIsEnabled(ds: Record<string, unknown>): boolean {
  const group = str(ds.apiGroup);
  return (str(ds.kind) === 'PersistentVolumeClaim' && group === '') || (str(ds.kind) === 'VolumeSnapshot' && group === 'snapshot.storage.k8s.io');
}

/**
 * The claim strategy's data source handling before validation (MUTATES spec): the reference's
 * namespace dropped unless the stored claim used one (CrossNamespaceVolumeDataSource is off);
 * EnforceDataSourceBackwardsCompatibility (a dataSource of another kind, with no dataSourceRef and
 * none stored, is ignored as before data populators); then NormalizeDataSources.
 */
export function prepareDataSources(spec: Record<string, unknown>, oldSpec?: Record<string, unknown>): void {
  const ref = ptr(spec.dataSourceRef);
  if (ref !== undefined && str(ptr(oldSpec?.dataSourceRef)?.namespace) === '') delete ref.namespace;
  const oldInUse = oldSpec !== undefined && (ptr(oldSpec.dataSource) !== undefined || ptr(oldSpec.dataSourceRef) !== undefined);
  const ds = ptr(spec.dataSource);
  if (!oldInUse && ref === undefined && ds !== undefined && !dataSourceIsEnabled(ds)) delete spec.dataSource;
  normalizeDataSources(spec);
}

/**
 * NormalizeDataSources (AnyVolumeDataSource, GA): the old dataSource field and the new
 * dataSourceRef say the same, whichever the client set (MUTATES spec).
 */
export function normalizeDataSources(spec: Record<string, unknown>): void {
  const ds = ptr(spec.dataSource);
  const ref = ptr(spec.dataSourceRef);
  const copyRef = (from: Record<string, unknown>) => ({ ...(typeof from.apiGroup === 'string' ? { apiGroup: from.apiGroup } : {}), kind: str(from.kind), name: str(from.name) });
  if (ds !== undefined && ref === undefined) spec.dataSourceRef = copyRef(ds);
  else if (ref !== undefined && ds === undefined && str(ref.namespace) === '') spec.dataSource = copyRef(ref);
}

export const persistentVolumeClaimRules: NativeRules = {
  prepareForCreate: (_ctx, obj) => {
    const spec = ptr(obj.spec);
    if (spec !== undefined) prepareDataSources(spec);
  },
  prepareForUpdate: (_ctx, obj, old) => {
    const spec = ptr(obj.spec);
    if (spec !== undefined) prepareDataSources(spec, rec(old.spec));
  },
  validate: (_ctx, obj) => validatePersistentVolumeClaimSpec(rec(obj.spec), specPath),
  validateUpdate: (_ctx, obj, old) => [
    ...validatePersistentVolumeClaimSpec(rec(obj.spec), specPath, updateOptions(rec(old.spec))),
    ...validatePersistentVolumeClaimUpdateRules(obj, normalizedOld(old)),
  ],
  status: persistentVolumeClaimStatusRules,
  warningsOnCreate: (_ctx, obj) => warnings(obj),
  warningsOnUpdate: (_ctx, obj) => warnings(obj),
};
