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
 * Where a value sits, from the root: a struct field (joined with '.', none before the first), a
 * map key (always after a '.'), or a list index (in brackets). Kept as links and rendered only
 * for an unknown field: a CRD's schema has some hundred thousand nodes and almost never one.
 */
type At = { up: At | undefined; field: string } | { up: At | undefined; key: string } | { up: At | undefined; index: number };

function rendered(at: At | undefined): string {
  const segs: At[] = [];
  for (let a = at; a !== undefined; a = a.up) segs.push(a);
  let path = '';
  for (let i = segs.length - 1; i >= 0; i--) {
    const a = segs[i]!;
    if ('field' in a) path = path === '' ? a.field : `${path}.${a.field}`;
    else if ('key' in a) path = `${path}.${a.key}`;
    else path = `${path}[${a.index}]`;
  }
  return path;
}

/**
 * Drops the fields of obj (a kind's JSON) that its type t does not have and returns the paths
 * of those strict decoding reports, in the order met.
 */
export function dropUnknownFields(obj: Record<string, unknown>, t: GoType): string[] {
  const out: string[] = [];
  // Tasks on an explicit stack (a CRD's schema nests as deep as its body may), children pushed
  // in reverse so that they pop in document order: reports come depth first, as Go meets them.
  type Task = { v: unknown; t: GoType; at: At | undefined; quiet: boolean } | { drop: Record<string, unknown>; key: string; at: At; quiet: boolean };
  const stack: Task[] = [{ v: obj, t, at: undefined, quiet: false }];
  const children: Task[] = [];
  while (stack.length > 0) {
    const task = stack.pop()!;
    if ('drop' in task) {
      // `quiet`: below a field with its own unmarshaling, unknown fields are dropped unreported.
      if (!task.quiet) out.push(rendered(task.at));
      delete task.drop[task.key];
      continue;
    }
    const { v, t: ty, at, quiet } = task;
    if (v === null || typeof v !== 'object') continue;
    children.length = 0;
    switch (ty.k) {
      case 'struct': {
        if (Array.isArray(v)) break;
        const o = v as Record<string, unknown>;
        for (const k of Object.keys(o)) {
          const ft = ty.fields.get(k);
          // A leaf holds nothing to check: not pushed at all.
          if (ft?.k === 'leaf') continue;
          const child: At = { up: at, field: k };
          children.push(ft !== undefined ? { v: o[k], t: ft, at: child, quiet } : { drop: o, key: k, at: child, quiet });
        }
        break;
      }
      case 'list':
        if (Array.isArray(v) && ty.elem.k !== 'leaf') v.forEach((e, i) => children.push({ v: e, t: ty.elem, at: { up: at, index: i }, quiet }));
        break;
      case 'map':
        if (!Array.isArray(v) && ty.elem.k !== 'leaf') for (const k of Object.keys(v)) children.push({ v: (v as Record<string, unknown>)[k], t: ty.elem, at: { up: at, key: k }, quiet });
        break;
      case 'lenient':
        if (Array.isArray(v)) v.forEach((e) => children.push({ v: e, t: ty.t, at, quiet: true }));
        else children.push({ v, t: ty.t, at, quiet: true });
        break;
    }
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]!);
  }
  return out;
}
