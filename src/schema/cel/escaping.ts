/**
 * Property-name escaping for CEL (k8s.io/apiserver pkg/cel/escaping.go): a schema property becomes
 * a CEL field under an identifier-safe name (`foo-bar` -> `foo__dash__bar`, `namespace` ->
 * `__namespace__`), and the runtime maps the escaped name back to the JSON key.
 */

/** The CEL lexer's reserved words; a property named exactly so is escaped to `__{word}__`. */
export const CEL_RESERVED_SYMBOLS: ReadonlySet<string> = new Set([
  'true', 'false', 'null', 'in',
  'as', 'break', 'const', 'continue', 'else',
  'for', 'function', 'if', 'import', 'let',
  'loop', 'package', 'namespace', 'return',
  'var', 'void', 'while',
]);

const SIMPLE = /^[a-zA-Z_][a-zA-Z0-9_]*$/;

/**
 * Escape: the CEL identifier for a property name, or undefined when the name is not of the form
 * `[a-zA-Z_.-/][a-zA-Z0-9_.-/]*` (such properties are not accessible from rules).
 * `__` -> `__underscores__`, `.` -> `__dot__`, `-` -> `__dash__`, `/` -> `__slash__`.
 */
export function escape(ident: string): string | undefined {
  if (ident.length === 0) return undefined;
  const c0 = ident.charCodeAt(0);
  if (c0 >= 48 && c0 <= 57) return undefined;
  if (CEL_RESERVED_SYMBOLS.has(ident)) return `__${ident}__`;
  if (SIMPLE.test(ident) && !ident.includes('__')) return ident;
  let out = '';
  for (let i = 0; i < ident.length; i++) {
    const c = ident[i]!;
    if (c === '_' && ident[i + 1] === '_') {
      out += '__underscores__';
      i++;
    } else if (c === '.') out += '__dot__';
    else if (c === '-') out += '__dash__';
    else if (c === '/') out += '__slash__';
    else if (/[a-zA-Z0-9_]/.test(c)) out += c;
    else return undefined;
  }
  return out;
}

/**
 * Unescape: the property name for an escaped CEL identifier, or undefined when it contains an
 * unknown escape sequence (Go's `(_{2}[^_]+_{2})` matcher).
 */
export function unescape(escaped: string): string | undefined {
  if (!escaped.includes('__')) return escaped;
  let ok = true;
  const r = escaped.replace(/__[^_]+__/g, (s) => {
    const contents = s.slice(2, -2);
    switch (contents) {
      case 'underscores':
        return '__';
      case 'dot':
        return '.';
      case 'dash':
        return '-';
      case 'slash':
        return '/';
    }
    if (CEL_RESERVED_SYMBOLS.has(contents)) {
      if (s.length !== escaped.length) ok = false;
      return contents;
    }
    ok = false;
    return '';
  });
  return ok ? r : undefined;
}
