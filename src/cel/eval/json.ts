/**
 * JSON text straight to CEL values, keeping integers exact: a number is an int when its value is
 * integral (`3`, `3.0`, `1e3`; literals beyond 2^53 are read digit for digit) and a double
 * otherwise; objects become maps with string keys. Used by the CLI's `--vars`.
 */
import { CelMap, type Val } from './values.ts';

export class JSONSyntaxError extends Error {}

/** The deepest nesting accepted (Go encoding/json's maxNestingDepth). */
export const MAX_JSON_DEPTH = 10000;

/**
 * Parses JSON text into CEL values; throws JSONSyntaxError on malformed input. Iterative (an
 * explicit stack of open containers), so nesting is bounded by MAX_JSON_DEPTH, not the JS stack.
 */
export function parseJSONToCel(text: string): Val {
  let i = 0;
  const ws = () => {
    while (i < text.length && ' \t\n\r'.includes(text[i]!)) i++;
  };
  const fail = (what: string): never => {
    throw new JSONSyntaxError(`invalid JSON: ${what} at offset ${i}`);
  };
  const str = (): string => {
    const m = /"(?:[^"\\\u0000-\u001f]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*"/y;
    m.lastIndex = i;
    const r = m.exec(text);
    if (!r) return fail('bad string');
    i = m.lastIndex;
    return JSON.parse(r[0]) as string;
  };
  const key = (): string => {
    ws();
    if (text[i] !== '"') fail('expected a string key');
    const k = str();
    ws();
    if (text[i++] !== ':') fail("expected ':'");
    return k;
  };
  const scalar = (): Val => {
    if (text[i] === '"') return str();
    for (const [lit, v] of [['true', true], ['false', false], ['null', null]] as const) {
      if (text.startsWith(lit, i)) {
        i += lit.length;
        return v;
      }
    }
    const m = /-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/y;
    m.lastIndex = i;
    const r = m.exec(text);
    if (!r) return fail('unexpected character');
    i = m.lastIndex;
    if (!r[2] && !r[3]) return BigInt(r[0]);
    const d = Number(r[0]);
    return Number.isInteger(d) && Math.abs(d) < 2 ** 63 ? BigInt(d) : d;
  };
  /** Open containers, innermost last; a map remembers the key its next value goes under. */
  const open: ({ list: Val[] } | { map: CelMap; key: string })[] = [];
  let v: Val;
  for (;;) {
    // Read one value: a scalar, an empty container, or the opening of a container (then its first element).
    ws();
    const c = text[i];
    if (c === '{' || c === '[') {
      // Go's encoding/json refuses nesting deeper than 10000 ("exceeded max depth").
      if (open.length >= MAX_JSON_DEPTH) fail('exceeded max depth');
      i++;
      ws();
      if (text[i] === (c === '{' ? '}' : ']')) {
        i++;
        v = c === '{' ? new CelMap() : [];
      } else {
        open.push(c === '{' ? { map: new CelMap(), key: key() } : { list: [] });
        continue;
      }
    } else v = scalar();
    // Close every container the value completes.
    for (;;) {
      const top = open[open.length - 1];
      if (!top) {
        ws();
        if (i !== text.length) fail('trailing characters');
        return v;
      }
      if ('list' in top) top.list.push(v);
      else top.map.m.set(top.key, v);
      ws();
      if (text[i] === ',') {
        i++;
        if (!('list' in top)) top.key = key();
        break;
      }
      if (text[i++] !== ('list' in top ? ']' : '}')) fail('list' in top ? "expected ',' or ']'" : "expected ',' or '}'");
      open.pop();
      v = 'list' in top ? top.list : top.map;
    }
  }
}
