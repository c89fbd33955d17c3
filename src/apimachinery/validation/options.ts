/**
 * Validation of request options as k8s.io/apimachinery/pkg/apis/meta/v1/validation does it
 * (CreateOptions, UpdateOptions, PatchOptions, DeleteOptions: fieldManager, dryRun,
 * fieldValidation, propagationPolicy), and the 422 kube-apiserver answers them with:
 * `CreateOptions.meta.k8s.io "" is invalid: dryRun: Unsupported value: ["x"]: supported values: "All"`.
 */
import { Path } from '../field/path.ts';
import { forbidden, invalid, notSupported, required, type FieldError } from '../field/errors.ts';
import { newInvalid, type StatusError } from '../status.ts';
import { validateFieldManager } from './objectmeta.ts';

export interface CreateOrUpdateOptions {
  fieldManager?: string;
  dryRun?: string[];
  fieldValidation?: string;
}

export interface PatchOptions extends CreateOrUpdateOptions {
  force?: boolean | null;
}

export interface DeleteOptions {
  dryRun?: string[];
  propagationPolicy?: string | null;
  orphanDependents?: boolean | null;
  gracePeriodSeconds?: number | null;
  preconditions?: unknown;
  ignoreStoreReadErrorWithClusterBreakingPotential?: boolean | null;
}

/** ValidateDryRun: only `All`. */
export function validateDryRun(fldPath: Path, dryRun: readonly string[] | undefined): FieldError[] {
  const values = dryRun ?? [];
  return values.every((v) => v === 'All') ? [] : [notSupported(fldPath, [...values], ['All'])];
}

/** ValidateFieldValidation: '', Ignore, Warn or Strict. */
export function validateFieldValidation(fldPath: Path, fieldValidation: string | undefined): FieldError[] {
  const allowed = ['', 'Ignore', 'Strict', 'Warn'];
  const v = fieldValidation ?? '';
  return allowed.includes(v) ? [] : [notSupported(fldPath, v, allowed)];
}

function common(o: CreateOrUpdateOptions): FieldError[] {
  return [
    ...validateFieldManager(o.fieldManager ?? '', Path.of('fieldManager')),
    ...validateDryRun(Path.of('dryRun'), o.dryRun),
    ...validateFieldValidation(Path.of('fieldValidation'), o.fieldValidation),
  ];
}

/** ValidateCreateOptions */
export function validateCreateOptions(o: CreateOrUpdateOptions): FieldError[] {
  return common(o);
}

/** ValidateUpdateOptions */
export function validateUpdateOptions(o: CreateOrUpdateOptions): FieldError[] {
  return common(o);
}

/** ValidatePatchOptions: apply patches need a fieldManager; other patches may not set force. */
export function validatePatchOptions(o: PatchOptions, patchType: string): FieldError[] {
  const errs: FieldError[] = [];
  const apply = patchType === 'application/apply-patch+yaml' || patchType === 'application/apply-patch+cbor';
  if (apply) {
    if ((o.fieldManager ?? '') === '') errs.push(required(Path.of('fieldManager'), 'is required for apply patch'));
  } else if (o.force !== undefined && o.force !== null) {
    errs.push(forbidden(Path.of('force'), 'may not be specified for non-apply patch'));
  }
  return [...errs, ...common(o)];
}

/** ValidateDeleteOptions */
export function validateDeleteOptions(o: DeleteOptions): FieldError[] {
  const errs: FieldError[] = [];
  const pp = o.propagationPolicy;
  const hasPP = pp !== undefined && pp !== null;
  const hasOrphan = o.orphanDependents !== undefined && o.orphanDependents !== null;
  if (hasOrphan && hasPP) {
    errs.push(invalid(Path.of('propagationPolicy'), pp, 'orphanDependents and deletionPropagation cannot be both set'));
  }
  if (hasPP && pp !== 'Foreground' && pp !== 'Background' && pp !== 'Orphan') {
    errs.push(notSupported(Path.of('propagationPolicy'), pp, ['Foreground', 'Background', 'Orphan', 'nil']));
  }
  errs.push(...validateDryRun(Path.of('dryRun'), o.dryRun));
  if (o.ignoreStoreReadErrorWithClusterBreakingPotential === true) {
    const p = Path.of('ignoreStoreReadErrorWithClusterBreakingPotential');
    if ((o.dryRun ?? []).length > 0) errs.push(invalid(p, true, 'cannot be set together with .dryRun'));
    if (hasPP) errs.push(invalid(p, true, 'cannot be set together with .propagationPolicy'));
    if (hasOrphan) errs.push(invalid(p, true, 'cannot be set together with .orphanDependents'));
    if (o.gracePeriodSeconds !== undefined && o.gracePeriodSeconds !== null) {
      errs.push(invalid(p, true, 'cannot be set together with .gracePeriodSeconds'));
    }
    if (o.preconditions !== undefined && o.preconditions !== null) {
      errs.push(invalid(p, true, 'cannot be set together with .preconditions'));
    }
  }
  return errs;
}

/**
 * The 422 for invalid options: kind is `CreateOptions`, `UpdateOptions`, `PatchOptions` or
 * `DeleteOptions`, in group meta.k8s.io, with an empty name.
 */
export function newInvalidOptions(kind: string, errs: readonly FieldError[]): StatusError {
  return newInvalid({ group: 'meta.k8s.io', kind }, '', errs);
}
