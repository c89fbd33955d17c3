/**
 * Reading the policy kinds' decoded JSON as Go reads their typed structs: an absent or null
 * field is Go's nil / zero value, so validation can ask "was it given" the way upstream does.
 */
export type JSONObject = Record<string, unknown>;

/** The object at a field, or undefined when absent, null or not an object (Go's nil pointer). */
export function objectAt(v: unknown): JSONObject | undefined {
  return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as JSONObject) : undefined;
}

/** The list at a field ([] when absent or null, as Go ranges over a nil slice). */
export function listAt(v: unknown): unknown[] {
  return Array.isArray(v) ? v : [];
}

/** The string at a field ('' when absent, Go's zero string). */
export function stringAt(v: unknown): string {
  return typeof v === 'string' ? v : '';
}

/** The strings of a list field. */
export function stringsAt(v: unknown): string[] {
  return listAt(v).map(stringAt);
}

/** A pointer field was set (non-nil). */
export function given(v: unknown): boolean {
  return v !== undefined && v !== null;
}
