/**
 * What a conversion webhook may change in an object's metadata (webhook_converter.go's
 * validateConvertedObject and restoreObjectMeta): kind, name, namespace and uid must be the
 * original's; the converted object gets the original metadata back, with the webhook's labels and
 * annotations (validated as labels and annotations when they changed).
 */
import { aggregateString, Path, validateAnnotations, validateLabels } from '../../../apimachinery/index.ts';
import { deepCopy } from '../../meta.ts';
import type { Obj } from '../../rest.ts';
import { isObject } from '../../crd/internal.ts';

/** Go's %T of a value decoded from JSON into interface{} (unstructured keeps integers as int64). */
export function goTypeName(v: unknown): string {
  if (v === null || v === undefined) return '<nil>';
  if (Array.isArray(v)) return '[]interface {}';
  if (typeof v === 'object') return 'map[string]interface {}';
  if (typeof v === 'number') return Number.isInteger(v) ? 'int64' : 'float64';
  if (typeof v === 'boolean') return 'bool';
  return 'string';
}

/** Unstructured's string getters: a field that is not a string reads as "". */
function metaString(o: Obj, field: string): string {
  const m = o.metadata;
  if (!isObject(m)) return '';
  const v = m[field];
  return typeof v === 'string' ? v : '';
}

/** validateConvertedObject: the error text, or undefined. */
export function validateConvertedObject(original: Obj, converted: Obj): string | undefined {
  const kind = (o: Obj) => (typeof o.kind === 'string' ? o.kind : '');
  if (kind(original) !== kind(converted)) return `must have the same kind: ${kind(original)} != ${kind(converted)}`;
  for (const [field, label] of [
    ['name', 'name'],
    ['namespace', 'namespace'],
    ['uid', 'UID'],
  ] as const) {
    const e = metaString(original, field);
    const a = metaString(converted, field);
    if (e !== a) return `must have the same ${label}: ${e} != ${a}`;
  }
  return undefined;
}

/**
 * restoreObjectMeta (MUTATES converted): the original's metadata, deep-copied, with the converted
 * object's labels and annotations. Returns the error text, or undefined.
 */
export function restoreObjectMeta(original: Obj, converted: Obj): string | undefined {
  if (!('metadata' in converted)) return 'missing metadata in converted object';
  const response = converted.metadata;
  if (!isObject(response)) return `invalid metadata of type ${goTypeName(response)} in converted object`;
  converted.metadata = 'metadata' in original ? deepCopy(original.metadata) : {};
  const restored = converted.metadata;
  if (!isObject(restored)) return `invalid metadata of type ${goTypeName(restored)} in input object`;
  for (const fld of ['labels', 'annotations'] as const) {
    const given = response[fld];
    if (given === undefined || given === null) {
      delete restored[fld];
      continue;
    }
    if (!isObject(given)) return `invalid metadata.${fld} of type ${goTypeName(given)} in converted object`;
    const before = restored[fld];
    if (before !== undefined && before !== null && !isObject(before)) return `invalid metadata.${fld} of type ${goTypeName(before)} in original object`;
    const old = (before ?? {}) as Obj;
    let changed = Object.keys(old).length !== Object.keys(given).length;
    for (const [k, v] of Object.entries(given)) {
      if (typeof v !== 'string') return `metadata.${fld}[${k}] must be a string, but is ${goTypeName(v)} in converted object`;
      if (old[k] !== v) changed = true;
    }
    if (changed) {
      const map = given as Record<string, string>;
      // Upstream names the annotations' path `metadata.annotation`.
      const errs = fld === 'labels' ? validateLabels(map, Path.of('metadata', 'labels')) : validateAnnotations(map, Path.of('metadata', 'annotation'));
      if (errs.length > 0) return aggregateString(errs);
    }
    restored[fld] = given;
  }
  return undefined;
}
