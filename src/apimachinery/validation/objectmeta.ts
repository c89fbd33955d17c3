/**
 * ObjectMeta validation as k8s.io/apimachinery/pkg/api/validation (objectmeta.go) and
 * pkg/apis/meta/v1/validation do it in Kubernetes 1.35: name / generateName, namespace, labels,
 * annotations (256 KiB in total), finalizers, ownerReferences, managedFields, and the rules of an
 * update (immutable identity, no new finalizers while deleting, generation never decreasing).
 *
 * Input is plain JSON metadata; it is first decoded as Kubernetes' decoder would, and metadata
 * that does not decode yields one error at fldPath carrying the decoder's message (as
 * apiextensions' embedded-resource validation reports it). Map keys are visited in sorted order,
 * so errors come out in a stable order (Go visits maps randomly).
 */
import { Path } from '../field/path.ts';
import { forbidden, invalid, required, tooLong, type FieldError } from '../field/errors.ts';
import { GoJSONText, goJSON, goQuote } from '../field/govalue.ts';
import { isQualifiedName, isValidLabelValue, validateNamespaceName, type ValidateNameFunc } from './names.ts';
import {
  decodeObjectMeta,
  encodeOwnerReference,
  type ManagedFieldsEntry,
  type ObjectMeta,
  type OwnerReference,
} from './objectmeta-decode.ts';

export const FieldImmutableErrorMsg = 'field is immutable';
export const IsNegativeErrorMsg = 'must be greater than or equal to 0';
/** TotalAnnotationSizeLimitB: 256 KiB over all keys and values. */
export const TotalAnnotationSizeLimitB = 256 * (1 << 10);
export const FieldManagerMaxLength = 128;
export const MaxSubresourceNameLength = 256;
export const FinalizerOrphanDependents = 'orphan';
export const FinalizerDeleteDependents = 'foregroundDeletion';

function structJSON(o: Record<string, unknown>): string {
  return `{${Object.entries(o)
    .map(([k, v]) => `${goJSON(k)}:${goJSON(v)}`)
    .join(',')}}`;
}

function ownerRefValue(r: OwnerReference): GoJSONText {
  return new GoJSONText(structJSON(encodeOwnerReference(r)));
}

function byteLen(s: string): number {
  return Buffer.byteLength(s, 'utf8');
}

function decodeOrError(meta: object, fldPath: Path): { meta: ObjectMeta } | { errs: FieldError[] } {
  const d = decodeObjectMeta(meta);
  if (d.error !== undefined) return { errs: [invalid(fldPath, meta, d.error)] };
  return { meta: d.meta };
}

/** ValidateLabelName: a qualified name, errors at fldPath. */
export function validateLabelName(labelName: string, fldPath: Path): FieldError[] {
  return isQualifiedName(labelName).map((m) => invalid(fldPath, labelName, m));
}

/** ValidateLabels: keys are qualified names, values label values; errors at fldPath itself. */
export function validateLabels(labels: Record<string, string> | undefined, fldPath: Path): FieldError[] {
  const errs: FieldError[] = [];
  for (const k of Object.keys(labels ?? {}).sort()) {
    errs.push(...validateLabelName(k, fldPath));
    const v = labels![k]!;
    for (const m of isValidLabelValue(v)) errs.push(invalid(fldPath, v, m));
  }
  return errs;
}

/** ValidateAnnotations: keys (lower-cased) are qualified names; keys and values total <= 256 KiB. */
export function validateAnnotations(annotations: Record<string, string> | undefined, fldPath: Path): FieldError[] {
  const errs: FieldError[] = [];
  let total = 0;
  for (const k of Object.keys(annotations ?? {}).sort()) {
    for (const m of isQualifiedName(k.toLowerCase())) errs.push(invalid(fldPath, k, m));
    total += byteLen(k) + byteLen(annotations![k]!);
  }
  if (total > TotalAnnotationSizeLimitB) errs.push(tooLong(fldPath, '', TotalAnnotationSizeLimitB));
  return errs;
}

/** schema.ParseGroupVersion's split, as FromAPIVersionAndKind uses it (errors give an empty GV). */
function parseGroupVersion(gv: string): { group: string; version: string } {
  if (gv === '' || gv === '/') return { group: '', version: '' };
  const n = gv.split('/').length - 1;
  if (n === 0) return { group: '', version: gv };
  if (n === 1) {
    const i = gv.indexOf('/');
    return { group: gv.slice(0, i), version: gv.slice(i + 1) };
  }
  return { group: '', version: '' };
}

function validateOwnerReference(r: OwnerReference, fldPath: Path): FieldError[] {
  const errs: FieldError[] = [];
  const gv = parseGroupVersion(r.apiVersion ?? '');
  const kind = r.kind ?? '';
  if (gv.version === '') errs.push(invalid(fldPath.child('apiVersion'), r.apiVersion ?? '', 'version must not be empty'));
  if (kind === '') errs.push(invalid(fldPath.child('kind'), kind, 'must not be empty'));
  if ((r.name ?? '') === '') errs.push(invalid(fldPath.child('name'), r.name ?? '', 'must not be empty'));
  if ((r.uid ?? '') === '') errs.push(invalid(fldPath.child('uid'), r.uid ?? '', 'must not be empty'));
  // BannedOwners: core/v1 Event.
  if (gv.group === '' && gv.version === 'v1' && kind === 'Event') {
    errs.push(invalid(fldPath, ownerRefValue(r), `${gv.group}/${gv.version}, Kind=${kind} is disallowed from being an owner`));
  }
  return errs;
}

/** ValidateOwnerReferences: each reference complete; at most one with controller=true. */
export function validateOwnerReferences(refs: OwnerReference[] | undefined, fldPath: Path): FieldError[] {
  const errs: FieldError[] = [];
  let firstController = '';
  for (const r of refs ?? []) {
    errs.push(...validateOwnerReference(r, fldPath));
    if (r.controller === true) {
      const cur = `${r.kind ?? ''}/${r.name ?? ''}`;
      if (firstController !== '') {
        const all = new GoJSONText(`[${(refs ?? []).map((x) => ownerRefValue(x).text).join(',')}]`);
        errs.push(
          invalid(
            fldPath,
            all,
            `Only one reference can have Controller set to true. Found "true" in references for ${firstController} and ${cur}`,
          ),
        );
      } else {
        firstController = cur;
      }
    }
  }
  return errs;
}

/** ValidateFinalizerName: a qualified name. */
export function validateFinalizerName(name: string, fldPath: Path): FieldError[] {
  return isQualifiedName(name).map((m) => invalid(fldPath, name, m));
}

/** ValidateFinalizers: names valid; `orphan` and `foregroundDeletion` not both. */
export function validateFinalizers(finalizers: string[] | undefined, fldPath: Path): FieldError[] {
  const errs: FieldError[] = [];
  const list = finalizers ?? [];
  for (const f of list) errs.push(...validateFinalizerName(f, fldPath));
  if (list.includes(FinalizerOrphanDependents) && list.includes(FinalizerDeleteDependents)) {
    errs.push(
      invalid(fldPath, list, `finalizer ${FinalizerOrphanDependents} and ${FinalizerDeleteDependents} cannot be both set`),
    );
  }
  return errs;
}

/** ValidateNoNewFinalizers: while deleting, finalizers may only be removed. */
export function validateNoNewFinalizers(newF: string[] | undefined, oldF: string[] | undefined, fldPath: Path): FieldError[] {
  const old = new Set(oldF ?? []);
  const extra = [...new Set((newF ?? []).filter((f) => !old.has(f)))].sort();
  if (extra.length === 0) return [];
  // %#v of a []string.
  const shown = `[]string{${extra.map(goQuote).join(', ')}}`;
  return [forbidden(fldPath, `no new finalizers can be added if the object is being deleted, found new finalizers ${shown}`)];
}

/** unicode.IsPrint */
const printable = /^[\p{L}\p{M}\p{N}\p{P}\p{S} ]$/u;

/** ValidateFieldManager: at most 128 bytes, printable characters only. */
export function validateFieldManager(fieldManager: string, fldPath: Path): FieldError[] {
  const errs: FieldError[] = [];
  if (byteLen(fieldManager) > FieldManagerMaxLength) errs.push(tooLong(fldPath, '', FieldManagerMaxLength));
  let pos = 0; // byte offset, as Go's range over a string reports it
  for (const ch of fieldManager) {
    if (!printable.test(ch)) {
      const cp = ch.codePointAt(0)!;
      const u = 'U+' + cp.toString(16).toUpperCase().padStart(4, '0');
      errs.push(invalid(fldPath, fieldManager, `invalid character ${u} (at position ${pos})`));
    }
    pos += byteLen(ch);
  }
  return errs;
}

/** ValidateManagedFields: operation Apply/Update, fieldsType FieldsV1, manager, subresource length. */
export function validateManagedFields(entries: ManagedFieldsEntry[] | undefined, fldPath: Path): FieldError[] {
  const errs: FieldError[] = [];
  (entries ?? []).forEach((e, i) => {
    const p = fldPath.index(i);
    const op = e.operation ?? '';
    if (op !== 'Apply' && op !== 'Update') errs.push(invalid(p.child('operation'), op, 'must be `Apply` or `Update`'));
    const ft = e.fieldsType ?? '';
    if (ft.length > 0 && ft !== 'FieldsV1') errs.push(invalid(p.child('fieldsType'), ft, 'must be `FieldsV1`'));
    errs.push(...validateFieldManager(e.manager ?? '', p.child('manager')));
    if (byteLen(e.subresource ?? '') > MaxSubresourceNameLength) {
      errs.push(tooLong(p.child('subresource'), '', MaxSubresourceNameLength));
    }
  });
  return errs;
}

function validateCommon(m: ObjectMeta, requiresNamespace: boolean, fldPath: Path): FieldError[] {
  const errs: FieldError[] = [];
  const ns = m.namespace ?? '';
  if (requiresNamespace) {
    if (ns === '') errs.push(required(fldPath.child('namespace'), ''));
    else for (const msg of validateNamespaceName(ns, false)) errs.push(invalid(fldPath.child('namespace'), ns, msg));
  } else if (ns !== '') {
    errs.push(forbidden(fldPath.child('namespace'), 'not allowed on this type'));
  }
  if ((m.generation ?? 0) < 0) errs.push(invalid(fldPath.child('generation'), m.generation, IsNegativeErrorMsg));
  errs.push(...validateLabels(m.labels, fldPath.child('labels')));
  errs.push(...validateAnnotations(m.annotations, fldPath.child('annotations')));
  errs.push(...validateOwnerReferences(m.ownerReferences, fldPath.child('ownerReferences')));
  errs.push(...validateFinalizers(m.finalizers, fldPath.child('finalizers')));
  errs.push(...validateManagedFields(m.managedFields, fldPath.child('managedFields')));
  return errs;
}

/**
 * ValidateObjectMeta(Accessor): checks metadata of an object being created. nameFn checks the
 * name (and, with prefix=true, generateName); custom resources use validatePathSegmentName,
 * most built-in kinds nameIsDNSSubdomain.
 */
export function validateObjectMeta(
  meta: object,
  requiresNamespace: boolean,
  nameFn: ValidateNameFunc,
  fldPath: Path,
): FieldError[] {
  const d = decodeOrError(meta, fldPath);
  if ('errs' in d) return d.errs;
  const m = d.meta;
  const errs: FieldError[] = [];
  const gen = m.generateName ?? '';
  if (gen !== '') for (const msg of nameFn(gen, true)) errs.push(invalid(fldPath.child('generateName'), gen, msg));
  const name = m.name ?? '';
  if (name === '') errs.push(required(fldPath.child('name'), 'name or generateName is required'));
  else for (const msg of nameFn(name, false)) errs.push(invalid(fldPath.child('name'), name, msg));
  errs.push(...validateCommon(m, requiresNamespace, fldPath));
  return errs;
}

function immutable(newVal: unknown, oldVal: unknown, fldPath: Path): FieldError[] {
  const a = newVal ?? null;
  const b = oldVal ?? null;
  return a === b ? [] : [invalid(fldPath, a, FieldImmutableErrorMsg)];
}

/**
 * ValidateObjectMetaUpdate: checks metadata of an update of oldMeta to newMeta. resourceVersion
 * must be set (the registry fills it in for unconditional updates before calling this).
 */
export function validateObjectMetaUpdate(newMeta: object, oldMeta: object, fldPath: Path): FieldError[] {
  const dn = decodeOrError(newMeta, fldPath);
  if ('errs' in dn) return dn.errs;
  const dOld = decodeOrError(oldMeta, fldPath);
  if ('errs' in dOld) return dOld.errs;
  const n = dn.meta;
  const o = dOld.meta;
  const errs: FieldError[] = [];
  if (o.deletionTimestamp) errs.push(...validateNoNewFinalizers(n.finalizers, o.finalizers, fldPath.child('finalizers')));
  if ((n.resourceVersion ?? '') === '') {
    errs.push(invalid(fldPath.child('resourceVersion'), n.resourceVersion ?? '', 'must be specified for an update'));
  }
  if ((n.generation ?? 0) < (o.generation ?? 0)) {
    errs.push(invalid(fldPath.child('generation'), n.generation ?? 0, 'must not be decremented'));
  }
  errs.push(...immutable(n.name ?? '', o.name ?? '', fldPath.child('name')));
  errs.push(...immutable(n.namespace ?? '', o.namespace ?? '', fldPath.child('namespace')));
  errs.push(...immutable(n.uid ?? '', o.uid ?? '', fldPath.child('uid')));
  errs.push(...immutable(n.creationTimestamp, o.creationTimestamp, fldPath.child('creationTimestamp')));
  errs.push(...immutable(n.deletionTimestamp, o.deletionTimestamp, fldPath.child('deletionTimestamp')));
  errs.push(...immutable(n.deletionGracePeriodSeconds, o.deletionGracePeriodSeconds, fldPath.child('deletionGracePeriodSeconds')));
  errs.push(...validateLabels(n.labels, fldPath.child('labels')));
  errs.push(...validateAnnotations(n.annotations, fldPath.child('annotations')));
  errs.push(...validateOwnerReferences(n.ownerReferences, fldPath.child('ownerReferences')));
  errs.push(...validateManagedFields(n.managedFields, fldPath.child('managedFields')));
  return errs;
}

export { decodeObjectMeta, encodeObjectMeta } from './objectmeta-decode.ts';
export type { ObjectMeta, OwnerReference, ManagedFieldsEntry } from './objectmeta-decode.ts';
