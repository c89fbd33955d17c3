/**
 * Typed decoding of built-in kinds: the JSON fields their Go types declare, as a small type model,
 * and the walk that drops the others. A field the types do not have is an unknown field, which
 * strict decoding (sigs.k8s.io/json) reports by its path (`spec.versions[0].schemas`: struct
 * fields and map keys joined with '.', list indices in brackets, in the order met) and which
 * decoding drops either way. The kinds' own types live with their strategies.
 */
import { managedFieldsFields, objectMetaFields, ownerReferenceFields } from '../schema/index.ts';

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
  // Tasks on an explicit stack (a CRD's schema nests as deep as its body may), children pushed
  // in reverse so that they pop in document order: reports come depth first, as Go meets them.
  type Task = { v: unknown; t: GoType; path: string; quiet: boolean } | { drop: Record<string, unknown>; key: string; path: string; quiet: boolean };
  const stack: Task[] = [{ v: obj, t, path: '', quiet: false }];
  while (stack.length > 0) {
    const task = stack.pop()!;
    if ('drop' in task) {
      // `quiet`: below a field with its own unmarshaling, unknown fields are dropped unreported.
      if (!task.quiet) out.push(task.path);
      delete task.drop[task.key];
      continue;
    }
    const { v, t: ty, path, quiet } = task;
    if (v === null || typeof v !== 'object') continue;
    const children: Task[] = [];
    switch (ty.k) {
      case 'struct': {
        if (Array.isArray(v)) break;
        const o = v as Record<string, unknown>;
        for (const k of Object.keys(o)) {
          const p = path === '' ? k : `${path}.${k}`;
          const ft = ty.fields.get(k);
          children.push(ft !== undefined ? { v: o[k], t: ft, path: p, quiet } : { drop: o, key: k, path: p, quiet });
        }
        break;
      }
      case 'list':
        if (Array.isArray(v)) v.forEach((e, i) => children.push({ v: e, t: ty.elem, path: `${path}[${i}]`, quiet }));
        break;
      case 'map':
        if (!Array.isArray(v)) for (const [k, e] of Object.entries(v)) children.push({ v: e, t: ty.elem, path: `${path}.${k}`, quiet });
        break;
      case 'lenient':
        if (Array.isArray(v)) v.forEach((e) => children.push({ v: e, t: ty.t, path, quiet: true }));
        else children.push({ v, t: ty.t, path, quiet: true });
        break;
    }
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]!);
  }
  return out;
}
