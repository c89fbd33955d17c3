/**
 * The value helpers the built-in printers share: safe reads of an object's fields (a stored
 * object may lack any of them), and the formats upstream's printers use — label maps and
 * selectors, container names and images, `<none>`/`<unset>` placeholders, `a,b,c + 2 more...`
 * lists, quantities and int-or-strings.
 */
import { humanAge, humanDuration } from '../duration.ts';

export type Obj = Record<string, unknown>;

/** `v` as an object, or an empty one. */
export function obj(v: unknown): Obj {
  return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : {};
}

/** `v` as an array of objects, or an empty one. */
export function objs(v: unknown): Obj[] {
  return Array.isArray(v) ? v.map(obj) : [];
}

/** `v` as a string, or ''. */
export function str(v: unknown): string {
  return typeof v === 'string' ? v : '';
}

/** `v` as an integer (Go's int32/int64 zero value when unset). */
export function int(v: unknown): number {
  return typeof v === 'number' && Number.isFinite(v) ? Math.trunc(v) : 0;
}

/** Whether a (pointer) field is set. */
export function isSet(v: unknown): boolean {
  return v !== undefined && v !== null;
}

export const meta = (o: Obj): Obj => obj(o.metadata);
export const spec = (o: Obj): Obj => obj(o.spec);
export const status = (o: Obj): Obj => obj(o.status);
export const nameOf = (o: Obj): string => str(meta(o).name);

/** translateTimestampSince: the age of a timestamp, `<unknown>` when unset. */
export function since(ts: unknown, now: number): string {
  return humanAge(ts, now);
}

/** The object's AGE cell. */
export function age(o: Obj, now: number): string {
  return humanAge(meta(o).creationTimestamp, now);
}

/** A timestamp in ms, or undefined when unset or unparsable (Go's zero time). */
export function timeOf(ts: unknown): number | undefined {
  if (typeof ts !== 'string' || ts === '') return undefined;
  const t = Date.parse(ts);
  return Number.isNaN(t) ? undefined : t;
}

/** duration.HumanDuration of the span between two timestamps in ms. */
export function span(fromMs: number, toMs: number): string {
  return humanDuration(toMs - fromMs);
}

/** labels.FormatLabels: `k=v` sorted by key, `<none>` when empty. */
export function formatLabels(m: unknown): string {
  const o = obj(m);
  const keys = Object.keys(o).sort();
  if (keys.length === 0) return '<none>';
  return keys.map((k) => `${k}=${str(o[k])}`).join(',');
}

const operators: Record<string, string> = { In: 'in', NotIn: 'notin', Exists: 'exists', DoesNotExist: '!' };

/**
 * metav1.LabelSelectorAsSelector(sel).String(): requirements sorted by key (`a=b`, `a in (x,y)`,
 * `a notin (x)`, `a`, `!a`); '' for a nil or empty selector; undefined when the selector is invalid.
 */
export function selectorString(sel: unknown): string | undefined {
  if (sel === null || sel === undefined) return '';
  const s = obj(sel);
  const reqs: Array<{ key: string; text: string }> = [];
  const ml = obj(s.matchLabels);
  for (const k of Object.keys(ml).sort()) reqs.push({ key: k, text: `${k}=${str(ml[k])}` });
  for (const e of objs(s.matchExpressions)) {
    const op = operators[str(e.operator)];
    if (op === undefined) return undefined;
    const key = str(e.key);
    const values = Array.isArray(e.values) ? e.values.map(str) : [];
    if ((op === 'in' || op === 'notin') !== values.length > 0) return undefined;
    if (op === 'exists') reqs.push({ key, text: key });
    else if (op === '!') reqs.push({ key, text: `!${key}` });
    else reqs.push({ key, text: `${key} ${op} (${[...values].sort().join(',')})` });
  }
  // sort.Sort(ByKey) over requirements; keys from matchLabels come first for equal keys.
  return reqs
    .map((r, i) => ({ ...r, i }))
    .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : a.i - b.i))
    .map((r) => r.text)
    .join(',');
}

/** metav1.FormatLabelSelector: the selector string, `<none>` when empty, `<error>` when invalid. */
export function formatLabelSelector(sel: unknown): string {
  const s = selectorString(sel);
  if (s === undefined) return '<error>';
  return s === '' ? '<none>' : s;
}

/** layoutContainerCells: container names and images, each joined by ','. */
export function containerCells(containers: unknown): [string, string] {
  const cs = objs(containers);
  return [cs.map((c) => str(c.name)).join(','), cs.map((c) => str(c.image)).join(',')];
}

/** The pod template's containers of a workload's spec. */
export function templateContainers(s: Obj): unknown {
  return obj(spec(obj(s.template))).containers;
}

/** listWithMoreString: `a,b,c + 2 more...`, `<unset>` when empty. */
export function listWithMore(list: string[], more: boolean, count: number, max: number): string {
  const ret = list.join(',');
  if (more) return `${ret} + ${count - max} more...`;
  return ret === '' ? '<unset>' : ret;
}

/**
 * Quantity.String(). Stored quantities are printed as written; kube-apiserver stores them in
 * canonical form, which the write path here does not yet produce.
 */
export function quantity(v: unknown): string {
  if (typeof v === 'number') return String(v);
  return typeof v === 'string' && v !== '' ? v : '0';
}

/** intstr.IntOrString.String(). */
export function intOrString(v: unknown): string {
  if (typeof v === 'number') return String(Math.trunc(v));
  return str(v);
}

/** printBool / printBoolPtr: `True`, `False`, `<unset>`. */
export function boolPtr(v: unknown): string {
  if (typeof v !== 'boolean') return '<unset>';
  return v ? 'True' : 'False';
}

/** A *bool with a default. */
export function boolOr(v: unknown, dflt: boolean): boolean {
  return typeof v === 'boolean' ? v : dflt;
}

/** A string, or `placeholder` when empty. */
export function orElse(v: unknown, placeholder: string): string {
  const s = str(v);
  return s === '' ? placeholder : s;
}
