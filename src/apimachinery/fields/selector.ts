/**
 * Field selectors as k8s.io/apimachinery/pkg/fields implements them: `field=value`,
 * `field==value`, `field!=value`, terms joined by `,`, values escaped with `\,` `\=` `\\`;
 * upstream's parse errors; matching against a field set; the label transform the API server
 * applies (custom resources accept `metadata.name`, `metadata.namespace` when namespaced, and
 * the CRD's selectable fields).
 */

export interface FieldRequirement {
  readonly field: string;
  readonly operator: '=' | '!=';
  readonly value: string;
}

/** A parsed field selector: terms in sorted order of their source text. `nothing` matches nothing. */
export interface FieldSelector {
  readonly requirements: readonly FieldRequirement[];
  readonly nothing?: boolean;
}

export class FieldSelectorParseError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FieldSelectorParseError';
  }
}

/** fields.Everything() */
export function everything(): FieldSelector {
  return { requirements: [] };
}

/** fields.Nothing() */
export function nothing(): FieldSelector {
  return { requirements: [], nothing: true };
}

/** EscapeValue: `\` `,` `=` escaped with a backslash. */
export function escapeValue(s: string): string {
  return s.replace(/[\\,=]/g, (c) => '\\' + c);
}

/** UnescapeValue; throws with upstream's `invalid field selector: ...` messages. */
export function unescapeValue(s: string): string {
  if (!/[\\,=]/.test(s)) return s;
  let out = '';
  let inSlash = false;
  for (const c of s) {
    if (inSlash) {
      if (c === '\\' || c === ',' || c === '=') out += c;
      else throw new FieldSelectorParseError(`invalid field selector: invalid escape sequence: \\${c}`);
      inSlash = false;
      continue;
    }
    if (c === '\\') inSlash = true;
    else if (c === ',' || c === '=') {
      // Go prints the rune with %v: its code point.
      throw new FieldSelectorParseError(`invalid field selector: unescaped character in value: ${c.codePointAt(0)}`);
    } else out += c;
  }
  if (inSlash) throw new FieldSelectorParseError('invalid field selector: invalid escape sequence: \\');
  return out;
}

function splitTerms(sel: string): string[] {
  if (sel.length === 0) return [];
  const terms: string[] = [];
  let start = 0;
  let inSlash = false;
  for (let i = 0; i < sel.length; i++) {
    const c = sel[i];
    if (inSlash) inSlash = false;
    else if (c === '\\') inSlash = true;
    else if (c === ',') {
      terms.push(sel.slice(start, i));
      start = i + 1;
    }
  }
  terms.push(sel.slice(start));
  return terms;
}

function splitTerm(term: string): [string, string, string] | undefined {
  for (let i = 0; i < term.length; i++) {
    for (const op of ['!=', '==', '=']) {
      if (term.startsWith(op, i)) return [term.slice(0, i), op, term.slice(i + op.length)];
    }
  }
  return undefined;
}

function compareBytes(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}

/** A TransformFunc: maps (field, value), or throws; returning ['', ''] drops the term. */
export type FieldTransform = (field: string, value: string) => [string, string];

/** fields.ParseSelector (with an optional transform, as ParseAndTransformSelector). */
export function parseFieldSelector(selector: string, fn?: FieldTransform): FieldSelector {
  const parts = splitTerms(selector).sort(compareBytes);
  const reqs: FieldRequirement[] = [];
  for (const part of parts) {
    if (part === '') continue;
    const t = splitTerm(part);
    if (t === undefined) throw new FieldSelectorParseError(`invalid selector: '${selector}'; can't understand '${part}'`);
    const [lhs, op, rhs] = t;
    const value = unescapeValue(rhs);
    reqs.push({ field: lhs, operator: op === '!=' ? '!=' : '=', value });
  }
  const s: FieldSelector = { requirements: reqs };
  return fn ? transformFieldSelector(s, fn) : s;
}

/** Selector.Transform: applies fn to every term, dropping terms mapped to ('', ''). */
export function transformFieldSelector(s: FieldSelector, fn: FieldTransform): FieldSelector {
  if (s.nothing) return s;
  const out: FieldRequirement[] = [];
  for (const r of s.requirements) {
    const [field, value] = fn(r.field, r.value);
    if (field === '' && value === '') continue;
    out.push({ field, operator: r.operator, value });
  }
  return { requirements: out };
}

/** Selector.Matches: a missing field reads as ''. */
export function fieldsMatch(s: FieldSelector, fields: Readonly<Record<string, string>>): boolean {
  if (s.nothing) return false;
  return s.requirements.every((r) => {
    const v = Object.prototype.hasOwnProperty.call(fields, r.field) ? fields[r.field]! : '';
    return r.operator === '=' ? v === r.value : v !== r.value;
  });
}

/** Selector.RequiresExactMatch: the value an `=` term pins the field to. */
export function fieldRequiresExactMatch(s: FieldSelector, field: string): string | undefined {
  for (const r of s.requirements) if (r.operator === '=' && r.field === field) return r.value;
  return undefined;
}

/** Selector.String: terms joined by ',', values escaped, `==` printed as `=`. */
export function fieldSelectorString(s: FieldSelector): string {
  return s.requirements.map((r) => `${r.field}${r.operator}${escapeValue(r.value)}`).join(',');
}

/** fields.SelectorFromSet */
export function fieldSelectorFromSet(set: Readonly<Record<string, string>>): FieldSelector {
  return { requirements: Object.entries(set).map(([field, value]) => ({ field, operator: '=' as const, value })) };
}

/**
 * The field-label conversion of custom resources (apiextensions crConverter.ConvertFieldLabel):
 * `metadata.name`, `metadata.namespace` unless cluster-scoped, and the version's selectable
 * fields; anything else fails with `field label not supported: <label>`.
 */
export function customResourceFieldLabels(clusterScoped: boolean, selectableFields: Iterable<string> = []): FieldTransform {
  const allowed = new Set(selectableFields);
  return (label, value) => {
    if (label === 'metadata.name') return [label, value];
    if (!clusterScoped && label === 'metadata.namespace') return [label, value];
    if (allowed.has(label)) return [label, value];
    throw new FieldSelectorParseError(`field label not supported: ${label}`);
  };
}
