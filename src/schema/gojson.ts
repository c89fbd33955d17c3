/**
 * A JSON reader that keeps what Go's decoder keeps: integer literals that do not fit a safe JS
 * integer become `bigint` (int64), and — when asked — literals written with a fraction or exponent
 * become `GoFloat` even when integral (`1.0` is a float64 in Go). Used to load Kubernetes' test
 * tables, whose expectations depend on that distinction; see value.ts for the model.
 */
import { GoFloat } from '../apimachinery/field/govalue.ts';

export interface GoJSONOptions {
  /** Wrap integral float literals (`42.0`, `1e3`) in GoFloat instead of returning a number. */
  keepIntegralFloats?: boolean;
  /** Every number is a float64 (GoFloat when integral), as encoding/json decodes into interface{}. */
  allFloats?: boolean;
}

/** Parse JSON text; throws SyntaxError on malformed input. */
export function parseGoJSON(text: string, opts: GoJSONOptions = {}): unknown {
  let i = 0;
  const keep = opts.keepIntegralFloats === true;
  const allFloats = opts.allFloats === true;
  const ws = () => {
    while (i < text.length) {
      const c = text.charCodeAt(i);
      if (c === 32 || c === 9 || c === 10 || c === 13) i++;
      else break;
    }
  };
  const fail = (msg: string): never => {
    throw new SyntaxError(`${msg} at offset ${i}`);
  };
  const value = (): unknown => {
    ws();
    const c = text[i];
    if (c === '{') {
      i++;
      const o: Record<string, unknown> = {};
      ws();
      if (text[i] === '}') {
        i++;
        return o;
      }
      for (;;) {
        ws();
        if (text[i] !== '"') fail('expected string key');
        const k = str();
        ws();
        if (text[i] !== ':') fail('expected :');
        i++;
        o[k] = value();
        ws();
        if (text[i] === ',') {
          i++;
          continue;
        }
        if (text[i] === '}') {
          i++;
          return o;
        }
        fail('expected , or }');
      }
    }
    if (c === '[') {
      i++;
      const a: unknown[] = [];
      ws();
      if (text[i] === ']') {
        i++;
        return a;
      }
      for (;;) {
        a.push(value());
        ws();
        if (text[i] === ',') {
          i++;
          continue;
        }
        if (text[i] === ']') {
          i++;
          return a;
        }
        fail('expected , or ]');
      }
    }
    if (c === '"') return str();
    if (text.startsWith('true', i)) {
      i += 4;
      return true;
    }
    if (text.startsWith('false', i)) {
      i += 5;
      return false;
    }
    if (text.startsWith('null', i)) {
      i += 4;
      return null;
    }
    const m = /^-?(?:0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i, i + 400));
    if (!m) return fail('unexpected token');
    i += m[0].length;
    const isFloat = allFloats || m[1] !== undefined || m[2] !== undefined;
    if (!isFloat) {
      const n = Number(m[0]);
      return Number.isSafeInteger(n) ? n : BigInt(m[0]);
    }
    const f = Number(m[0]);
    if ((keep || allFloats) && Number.isInteger(f)) return new GoFloat(f);
    return f;
  };
  const str = (): string => {
    const start = i;
    i++;
    while (i < text.length && text[i] !== '"') {
      if (text[i] === '\\') i++;
      i++;
    }
    i++;
    return JSON.parse(text.slice(start, i)) as string;
  };
  const v = value();
  ws();
  if (i !== text.length) fail('trailing data');
  return v;
}
