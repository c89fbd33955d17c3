/**
 * Reading fields of unstructured objects by a CRD json path (`.spec.replicas`), with the accessor
 * errors of k8s.io/apimachinery's unstructured.NestedInt64 / NestedString, which custom resource
 * validation reports verbatim.
 */
import type { Obj } from '../rest.ts';

export type Nested<T> = { found: boolean; value: T; error?: string };

/** `.spec.replicas` -> ['spec', 'replicas'] (the leading dot is optional, as upstream trims it). */
export function splitJSONPath(path: string): string[] {
  return path.replace(/^\./, '').split('.');
}

function jsonPath(fields: string[]): string {
  return '.' + fields.join('.');
}

/** Go's %T of a JSON value decoded into interface{}. */
export function goTypeName(v: unknown): string {
  if (v === null || v === undefined) return '<nil>';
  if (typeof v === 'string') return 'string';
  if (typeof v === 'boolean') return 'bool';
  if (typeof v === 'number') return Number.isInteger(v) ? 'int64' : 'float64';
  if (Array.isArray(v)) return '[]interface {}';
  return 'map[string]interface {}';
}

/** Go's %v of such a value (enough for accessor messages). */
function goV(v: unknown): string {
  if (v === null || v === undefined) return '<nil>';
  if (Array.isArray(v)) return `[${v.map(goV).join(' ')}]`;
  if (typeof v === 'object') {
    const o = v as Record<string, unknown>;
    return `map[${Object.keys(o)
      .sort()
      .map((k) => `${k}:${goV(o[k])}`)
      .join(' ')}]`;
  }
  return String(v);
}

/** NestedFieldNoCopy: the value at `fields`, or an accessor error when a step is not a map. */
export function nestedField(obj: Obj, fields: string[]): { found: boolean; value: unknown; error?: string } {
  let cur: unknown = obj;
  for (let i = 0; i < fields.length; i++) {
    if (cur !== null && typeof cur === 'object' && !Array.isArray(cur)) {
      const m = cur as Record<string, unknown>;
      if (!(fields[i]! in m)) return { found: false, value: undefined };
      cur = m[fields[i]!];
    } else {
      return {
        found: false,
        value: undefined,
        error: `${jsonPath(fields.slice(0, i))} accessor error: ${goV(cur)} is of the type ${goTypeName(cur)}, expected map[string]interface{}`,
      };
    }
  }
  return { found: true, value: cur };
}

/** unstructured.NestedInt64 */
export function nestedInt64(obj: Obj, fields: string[]): Nested<number> {
  const r = nestedField(obj, fields);
  if (r.error) return { found: false, value: 0, error: r.error };
  if (!r.found) return { found: false, value: 0 };
  if (typeof r.value === 'number' && Number.isInteger(r.value)) return { found: true, value: r.value };
  return {
    found: true,
    value: 0,
    error: `${jsonPath(fields)} accessor error: ${goV(r.value)} is of the type ${goTypeName(r.value)}, expected int64`,
  };
}

/** unstructured.NestedString */
export function nestedString(obj: Obj, fields: string[]): Nested<string> {
  const r = nestedField(obj, fields);
  if (r.error) return { found: false, value: '', error: r.error };
  if (!r.found) return { found: false, value: '' };
  if (typeof r.value === 'string') return { found: true, value: r.value };
  return {
    found: true,
    value: '',
    error: `${jsonPath(fields)} accessor error: ${goV(r.value)} is of the type ${goTypeName(r.value)}, expected string`,
  };
}

/** unstructured.SetNestedField: creates intermediate maps (replacing non-maps). */
export function setNestedField(obj: Obj, value: unknown, fields: string[]): void {
  let m: Record<string, unknown> = obj;
  for (let i = 0; i < fields.length - 1; i++) {
    const next = m[fields[i]!];
    if (next === null || typeof next !== 'object' || Array.isArray(next)) {
      const fresh: Record<string, unknown> = {};
      m[fields[i]!] = fresh;
      m = fresh;
    } else {
      m = next as Record<string, unknown>;
    }
  }
  m[fields[fields.length - 1]!] = value;
}
