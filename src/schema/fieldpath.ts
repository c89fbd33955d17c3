/**
 * ValidFieldPath (apiextensions-apiserver pkg/apiserver/schema/cel): resolves a rule's
 * `fieldPath` (`.spec.a['b.c']`) against a structural schema, giving the field path it names and
 * the schema there, or the reason it does not resolve.
 */
import { Path } from '../apimachinery/index.ts';
import type { Structural } from './structural.ts';

export type FieldPathResult = { path: Path | undefined; schema: Structural | undefined; error?: undefined } | { error: string };

/** Tokens as upstream's scanner splits them: '.', '[', ']', quoted strings and identifiers. */
function tokenize(s: string): string[] {
  const out: string[] = [];
  let i = 0;
  while (i < s.length) {
    if (s[i] === '\'') {
      let j = i + 1;
      while (j < s.length && !(s[j] === '\'' && s[j - 1] !== '\\')) j++;
      out.push(s.slice(i, Math.min(j + 1, s.length)));
      i = j + 1;
      continue;
    }
    if (s[i] === '.' || s[i] === '[' || s[i] === ']') {
      out.push(s[i]!);
      i++;
      continue;
    }
    let j = i;
    while (j < s.length && s[j] !== '.' && s[j] !== '[' && s[j] !== ']') j++;
    out.push(s.slice(i, j));
    i = j;
  }
  return out;
}

const escapes: Record<string, string> = { a: '\x07', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v', "'": "'", '\\': '\\' };

/** unescapeSingleQuote: Go-style escapes inside a single-quoted name; others are errors. */
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

/** ValidFieldPath(jsonPath, schema) with array notation allowed. */
export function validFieldPath(jsonPath: string, schema: Structural | undefined, allowArrayNotation = true): FieldPathResult {
  let path: Path | undefined;
  let s = schema;
  const append = (name: string, named: boolean): string | undefined => {
    if (!named) {
      path = path === undefined ? Path.root().key(name) : path.key(name);
      s = s!.additionalProperties!.structural;
    } else {
      path = path === undefined ? Path.of(name) : path.child(name);
      const v = s!.properties?.get(name);
      if (v === undefined) return 'does not refer to a valid field';
      s = v;
    }
    return undefined;
  };
  const named = (): boolean | undefined => (s?.properties !== undefined ? true : s?.additionalProperties !== undefined ? false : undefined);
  const toks = tokenize(jsonPath);
  for (let i = 0; i < toks.length; i++) {
    const tok = toks[i]!;
    if (tok === '[') {
      if (!allowArrayNotation) return { error: 'array notation is not allowed' };
      const q = toks[++i];
      if (q === undefined) return { error: 'unexpected end of JSON path' };
      if (q.length < 2 || q[0] !== '\'' || q[q.length - 1] !== '\'') return { error: `expected single quoted string but got ${q}` };
      const n = named();
      if (n === undefined) return { error: 'does not refer to a valid field' };
      const un = unescapeSingleQuote(q.slice(1, -1));
      if ('error' in un) return { error: `invalid string literal: ${un.error}` };
      const e = append(un.value, n);
      if (e) return { error: e };
      const close = toks[++i];
      if (close === undefined) return { error: 'unexpected end of JSON path' };
      if (close !== ']') return { error: `expected ] but got ${close}` };
    } else if (tok === '.') {
      const name = toks[++i];
      if (name === undefined) return { error: 'unexpected end of JSON path' };
      const n = named();
      if (n === undefined) return { error: 'does not refer to a valid field' };
      const e = append(name, n);
      if (e) return { error: e };
    } else {
      return { error: `expected [ or . but got: ${tok}` };
    }
  }
  return { path, schema: s };
}
