/**
 * ValidFieldPath: resolve a JSON path of field and map accessors (`.spec.foo`, `.spec['a.b']`,
 * `.metadata.labels['x']`) against a schema, as the apiextensions CEL package does for a rule's
 * `fieldPath` and a CRD's `selectableFields`. Returns the field path as Kubernetes prints it and the
 * schema found there, or the error text upstream reports.
 */
import { Path } from '../../apimachinery/field/path.ts';

/** The schema shape this needs: properties and additionalProperties of JSONSchemaProps. */
export interface PathSchema {
  type?: string;
  properties?: Record<string, PathSchema>;
  additionalProperties?: PathSchema | boolean;
  [k: string]: unknown;
}

export type FieldPathResult =
  | { path: Path; schema: PathSchema | undefined; root: string }
  | { error: string };

/** Split into tokens: '.', '[', ']' alone, single-quoted strings kept whole, and names between. */
function tokenize(s: string): string[] {
  const toks: string[] = [];
  let i = 0;
  while (i < s.length) {
    const c = s[i]!;
    if (c === '\'') {
      let j = i + 1;
      while (j < s.length && !(s[j] === '\'' && s[j - 1] !== '\\')) j++;
      if (j >= s.length) {
        toks.push(s.slice(i));
        break;
      }
      toks.push(s.slice(i, j + 1));
      i = j + 1;
      continue;
    }
    if (c === '.' || c === '[' || c === ']') {
      toks.push(c);
      i++;
      continue;
    }
    let j = i;
    while (j < s.length && s[j] !== '.' && s[j] !== '[' && s[j] !== ']') j++;
    toks.push(s.slice(i, j));
    i = j;
  }
  return toks;
}

const escapes: Record<string, string> = {
  a: '\x07',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
  v: '\v',
  "'": "'",
  '\\': '\\',
};

function unescapeSingleQuote(s: string): { value: string } | { error: string } {
  let err: string | undefined;
  const value = s.replace(/\\[\s\S]/g, (m) => {
    const r = escapes[m[1]!];
    if (r === undefined) {
      err ??= `invalid escape char ${m}`;
      return '';
    }
    return r;
  });
  return err !== undefined ? { error: err } : { value };
}

/**
 * Resolve `jsonPath` in `schema`. With allowArrayNotation false (selectable fields), `['x']` is
 * rejected with `array notation is not allowed`.
 */
export function validFieldPath(jsonPath: string, schema: PathSchema | undefined, allowArrayNotation = true): FieldPathResult {
  let path: Path | undefined;
  let root = '';
  let cur: PathSchema | undefined = schema;
  const append = (name: string, named: boolean): string | undefined => {
    if (!named) {
      path = path ? path.key(name) : Path.root().key(name);
      const ap = cur?.additionalProperties;
      cur = typeof ap === 'object' ? ap : undefined;
      return undefined;
    }
    if (path === undefined) root = name;
    path = path ? path.child(name) : Path.of(name);
    const next = cur?.properties?.[name];
    if (next === undefined) return 'does not refer to a valid field';
    cur = next;
    return undefined;
  };
  const kindOf = (): 'named' | 'map' | undefined => {
    if (cur?.properties !== undefined) return 'named';
    if (cur?.additionalProperties !== undefined && cur.additionalProperties !== false) return 'map';
    return undefined;
  };
  const toks = tokenize(jsonPath);
  let i = 0;
  while (i < toks.length) {
    const tok = toks[i++]!;
    if (tok === '[') {
      if (!allowArrayNotation) return { error: 'array notation is not allowed' };
      if (i >= toks.length) return { error: 'unexpected end of JSON path' };
      const q = toks[i++]!;
      if (q.length < 2 || q[0] !== "'" || q[q.length - 1] !== "'") return { error: `expected single quoted string but got ${q}` };
      const un = unescapeSingleQuote(q.slice(1, -1));
      if ('error' in un) return { error: `invalid string literal: ${un.error}` };
      const k = kindOf();
      if (k === undefined) return { error: 'does not refer to a valid field' };
      const e = append(un.value, k === 'named');
      if (e) return { error: e };
      if (i >= toks.length) return { error: 'unexpected end of JSON path' };
      const close = toks[i++]!;
      if (close !== ']') return { error: `expected ] but got ${close}` };
    } else if (tok === '.') {
      if (i >= toks.length) return { error: 'unexpected end of JSON path' };
      const name = toks[i++]!;
      const k = kindOf();
      if (k === undefined) return { error: 'does not refer to a valid field' };
      const e = append(name, k === 'named');
      if (e) return { error: e };
    } else {
      return { error: `expected [ or . but got: ${tok}` };
    }
  }
  return { path: path ?? Path.root(), schema: cur, root };
}
