/**
 * Reading a decoded object as Go's typed structs see it: a missing or null field is the type's
 * zero value (`''`, `0`, an empty map or list), so the validators can follow upstream's checks
 * (`len(x) == 0`, `x != nil`) without guarding every access; the options validation runs with; and
 * Go's semantic equality of such values (what update rules compare).
 */
import { jsonEqual } from '../../../apimachinery/index.ts';

export type Rec = Record<string, unknown>;

/** An object field, or undefined when absent, null or not an object (a nil pointer). */
export function rec(v: unknown): Rec | undefined {
  return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Rec) : undefined;
}

/** A list field; absent is the empty list. */
export function list(v: unknown): unknown[] {
  return Array.isArray(v) ? v : [];
}

/** A list of objects (non-objects read as empty structs, as they never decode otherwise). */
export function recs(v: unknown): Rec[] {
  return list(v).map((x) => rec(x) ?? {});
}

/** A string field; absent is ''. */
export function str(v: unknown): string {
  return typeof v === 'string' ? v : '';
}

/** A number field; absent is 0. */
export function num(v: unknown): number {
  return typeof v === 'number' ? v : 0;
}

/** A pointer to a number: undefined when absent or null. */
export function optNum(v: unknown): number | undefined {
  return typeof v === 'number' ? v : undefined;
}

/** A map of strings (labels, nodeSelector); absent is empty. */
export function strMap(v: unknown): Record<string, string> {
  const r = rec(v);
  if (!r) return {};
  const out: Record<string, string> = {};
  for (const [k, x] of Object.entries(r)) out[k] = str(x);
  return out;
}

/** A field that is set (a non-nil pointer, a non-empty value). */
export function isSet(v: unknown): boolean {
  return v !== undefined && v !== null;
}

/** The validation choices upstream's callers make (PodValidationOptions, the parts served here). */
export interface PodValidationOptions {
  /**
   * Whether the kind's Go defaults ran before validation, so that fields they fill (a pod's
   * restartPolicy and dnsPolicy, a container's imagePullPolicy and terminationMessagePolicy, a
   * port's protocol, ...) are required as upstream requires them. Until a kind's defaulter is
   * served, an absent defaulted field is taken as the default the server would have set.
   */
  defaultsApplied: boolean;
  /**
   * Label values of the required node affinity's expressions are not checked: the stored pod
   * spec already had invalid ones (GetValidationOptionsFromPodSpecAndMeta), so an update may keep them.
   */
  allowInvalidLabelValueInRequiredNodeAffinity?: boolean;
}

/**
 * Whether a defaulted string field is left to its default: it is empty and the defaults have not
 * run (Go's defaulters fill an empty value as they fill an absent one), so it is not checked.
 */
export function leftToDefault(v: unknown, opts: PodValidationOptions): boolean {
  return !opts.defaultsApplied && str(v) === '';
}

/**
 * The options objects written through the API are validated with: the pod-spec defaults
 * (SetDefaults_PodSpec, _Container, ...) have run, so a defaulted field that is absent is reported.
 */
export const servedPodValidation: PodValidationOptions = { defaultsApplied: true };

/** apiequality.Semantic.DeepEqual over JSON: absent, null, empty strings, false and empty lists are Go's zero values alike. */
export function semanticEqual(a: unknown, b: unknown): boolean {
  return jsonEqual(normalize(a), normalize(b));
}

function normalize(v: unknown): unknown {
  if (Array.isArray(v)) return v.length === 0 ? undefined : v.map(normalize);
  if (v !== null && typeof v === 'object') {
    const out: Rec = {};
    for (const [k, x] of Object.entries(v as Rec)) {
      const n = normalize(x);
      if (n !== undefined) out[k] = n;
    }
    // An empty object stays: it may be a pointer to an empty struct (`emptyDir: {}`), which is not nil.
    return out;
  }
  // Go's zero values of non-pointer fields read the same as absent ones.
  return v === null || v === '' || v === false ? undefined : v;
}
