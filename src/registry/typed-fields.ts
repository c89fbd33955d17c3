/**
 * Typed decoding of built-in kinds: the JSON fields their Go types declare, as a small type model,
 * and the walk that drops the others. A field the types do not have is an unknown field, which
 * strict decoding (sigs.k8s.io/json) reports by its path (`spec.versions[0].schemas`: struct
 * fields and map keys joined with '.', list indices in brackets, in the order met) and which
 * decoding drops either way. The kinds' own types live with their strategies.
 */
import { managedFieldsFields, objectMetaFields, ownerReferenceFields } from '../schema/objectmeta.ts';

export type GoType =
  | { k: 'struct'; fields: Map<string, GoType> }
  | { k: 'list'; elem: GoType }
  | { k: 'map'; elem: GoType }
  /**
   * A field with its own JSON unmarshaling that decodes `t` leniently when the value is an object
   * (or each element of a list): unknown fields below it are dropped without a report.
   */
  | { k: 'lenient'; t: GoType }
  /** A scalar or any JSON: nothing below it is checked. */
  | { k: 'leaf' };

export const leaf: GoType = { k: 'leaf' };
export const list = (elem: GoType): GoType => ({ k: 'list', elem });
export const map = (elem: GoType): GoType => ({ k: 'map', elem });
export const lenient = (t: GoType): GoType => ({ k: 'lenient', t });
export const struct = (fields: Record<string, GoType>): { k: 'struct'; fields: Map<string, GoType> } => ({
  k: 'struct',
  fields: new Map(Object.entries(fields)),
});
/** A struct whose fields are all leaves. */
export const leaves = (...names: Iterable<string>[]) => struct(Object.fromEntries(names.flatMap((n) => [...n]).map((n) => [n, leaf])));

/** metav1.ObjectMeta. */
export const objectMetaType = leaves(objectMetaFields);
objectMetaType.fields.set('ownerReferences', list(leaves(ownerReferenceFields)));
objectMetaType.fields.set('managedFields', list(leaves(managedFieldsFields)));

/**
 * Drops the fields of obj (a kind's JSON) that its type t does not have and returns the paths
 * of those strict decoding reports, in the order met.
 */
export function dropUnknownFields(obj: Record<string, unknown>, t: GoType): string[] {
  const out: string[] = [];
  walk(obj, t, '', out, false);
  return out;
}

/** `quiet`: below a field with its own unmarshaling, unknown fields are dropped unreported. */
function walk(v: unknown, t: GoType, path: string, out: string[], quiet: boolean): void {
  if (v === null || typeof v !== 'object') return;
  switch (t.k) {
    case 'struct': {
      if (Array.isArray(v)) return;
      const o = v as Record<string, unknown>;
      for (const k of Object.keys(o)) {
        const p = path === '' ? k : `${path}.${k}`;
        const ft = t.fields.get(k);
        if (ft !== undefined) walk(o[k], ft, p, out, quiet);
        else {
          if (!quiet) out.push(p);
          delete o[k];
        }
      }
      return;
    }
    case 'list':
      if (Array.isArray(v)) v.forEach((e, i) => walk(e, t.elem, `${path}[${i}]`, out, quiet));
      return;
    case 'map':
      if (!Array.isArray(v)) for (const [k, e] of Object.entries(v)) walk(e, t.elem, `${path}.${k}`, out, quiet);
      return;
    case 'lenient':
      if (Array.isArray(v)) v.forEach((e) => walk(e, t.t, path, out, true));
      else walk(v, t.t, path, out, true);
      return;
  }
}
