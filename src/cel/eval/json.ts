/**
 * JSON text straight to CEL values, keeping integers exact: a number is an int when its value is
 * integral (`3`, `3.0`, `1e3`; literals beyond 2^53 are read digit for digit) and a double
 * otherwise; objects become maps with string keys. Used by the CLI's `--vars`.
 */
import { CelMap, type Val } from './values.ts';

export class JSONSyntaxError extends Error {}

/** Parses JSON text into CEL values; throws JSONSyntaxError on malformed input. */
export function parseJSONToCel(text: string): Val {
  let i = 0;
  const ws = () => {
    while (i < text.length && ' \t\n\r'.includes(text[i]!)) i++;
  };
  const fail = (what: string): never => {
    throw new JSONSyntaxError(`invalid JSON: ${what} at offset ${i}`);
  };
  const value = (): Val => {
    ws();
    const c = text[i];
    if (c === '{') {
      i++;
      const m = new CelMap();
      ws();
      if (text[i] === '}') {
        i++;
        return m;
      }
      for (;;) {
        ws();
        if (text[i] !== '"') fail('expected a string key');
        const k = str();
        ws();
        if (text[i++] !== ':') fail("expected ':'");
        const v = value();
        m.m.set(k, v);
        ws();
        if (text[i] === ',') {
          i++;
          continue;
        }
        if (text[i++] !== '}') fail("expected ',' or '}'");
        return m;
      }
    }
    if (c === '[') {
      i++;
      const out: Val[] = [];
      ws();
      if (text[i] === ']') {
        i++;
        return out;
      }
      for (;;) {
        out.push(value());
        ws();
        if (text[i] === ',') {
          i++;
          continue;
        }
        if (text[i++] !== ']') fail("expected ',' or ']'");
        return out;
      }
    }
    if (c === '"') return str();
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
  const str = (): string => {
    const m = /"(?:[^"\\\u0000-\u001f]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*"/y;
    m.lastIndex = i;
    const r = m.exec(text);
    if (!r) return fail('bad string');
    i = m.lastIndex;
    return JSON.parse(r[0]) as string;
  };
  const v = value();
  ws();
  if (i !== text.length) fail('trailing characters');
  return v;
}
