/**
 * Field selectors as k8s.io/apimachinery/pkg/fields parses them: comma-separated terms
 * (`\,` escapes a comma), each `field=value`, `field==value` or `field!=value`, values unescaped
 * with `\\`, `\,` and `\=`, upstream's error texts. Kept in the registry until
 * `src/apimachinery/fields/selector.ts` lands; then this module should go.
 */

export interface FieldRequirement {
  field: string;
  op: '=' | '!=';
  value: string;
}

/** An error whose message is what Kubernetes answers with (as a 400 BadRequest). */
export class FieldSelectorError extends Error {}

function splitTerms(s: string): string[] {
  if (s.length === 0) return [];
  const terms: string[] = [];
  let start = 0;
  let inSlash = false;
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (inSlash) inSlash = false;
    else if (c === '\\') inSlash = true;
    else if (c === ',') {
      terms.push(s.slice(start, i));
      start = i + 1;
    }
  }
  terms.push(s.slice(start));
  return terms;
}

const termOperators = ['!=', '==', '='] as const;

function splitTerm(term: string): { lhs: string; op: string; rhs: string } | undefined {
  for (let i = 0; i < term.length; i++) {
    const rest = term.slice(i);
    for (const op of termOperators) {
      if (rest.startsWith(op)) return { lhs: term.slice(0, i), op, rhs: term.slice(i + op.length) };
    }
  }
  return undefined;
}

/** fields.UnescapeValue */
export function unescapeValue(s: string): string {
  if (!/[\\,=]/.test(s)) return s;
  let out = '';
  let inSlash = false;
  for (const c of s) {
    if (inSlash) {
      if (c === '\\' || c === ',' || c === '=') out += c;
      else throw new FieldSelectorError(`invalid field selector: invalid escape sequence: \\${c}`);
      inSlash = false;
      continue;
    }
    if (c === '\\') inSlash = true;
    else if (c === ',' || c === '=') {
      // Go prints the rune with %v: its code point.
      throw new FieldSelectorError(`invalid field selector: unescaped character in value: ${c.codePointAt(0)}`);
    } else out += c;
  }
  if (inSlash) throw new FieldSelectorError('invalid field selector: invalid escape sequence: \\');
  return out;
}

/** fields.ParseSelector: the requirements, sorted as upstream sorts the terms. */
export function parseFieldSelector(selector: string): FieldRequirement[] {
  const parts = splitTerms(selector).sort();
  const reqs: FieldRequirement[] = [];
  for (const part of parts) {
    if (part === '') continue;
    const t = splitTerm(part);
    if (!t) throw new FieldSelectorError(`invalid selector: '${selector}'; can't understand '${part}'`);
    const value = unescapeValue(t.rhs);
    reqs.push({ field: t.lhs, op: t.op === '!=' ? '!=' : '=', value });
  }
  return reqs;
}

/** Whether a field set satisfies every requirement (a missing field reads as ''). */
export function fieldsMatch(reqs: readonly FieldRequirement[], fields: Readonly<Record<string, string>>): boolean {
  for (const r of reqs) {
    const v = fields[r.field] ?? '';
    if (r.op === '=' ? v !== r.value : v === r.value) return false;
  }
  return true;
}
