/**
 * A JSON reader that keeps what Go's decoder keeps: integer literals that do not fit a safe JS
 * integer become `bigint` (int64), and — when asked — literals written with a fraction or exponent
 * become `GoFloat` even when integral (`1.0` is a float64 in Go). Used to load Kubernetes' test
 * tables, whose expectations depend on that distinction; see value.ts for the model.
 */
import { GoFloat } from '../apimachinery/index.ts';
import { parseGoJSONText } from '../apimachinery/index.ts';

export interface GoJSONOptions {
  /** Wrap integral float literals (`42.0`, `1e3`) in GoFloat instead of returning a number. */
  keepIntegralFloats?: boolean;
  /** Every number is a float64 (GoFloat when integral), as encoding/json decodes into interface{}. */
  allFloats?: boolean;
}

/** Parse JSON text (Go's syntax rules, via apimachinery's reader); throws SyntaxError on malformed input. */
export function parseGoJSON(text: string, opts: GoJSONOptions = {}): unknown {
  const keep = opts.keepIntegralFloats === true;
  const allFloats = opts.allFloats === true;
  const r = parseGoJSONText(text, (literal) => {
    const isFloat = allFloats || /[.eE]/.test(literal);
    if (!isFloat) {
      const n = Number(literal);
      return Number.isSafeInteger(n) ? n : BigInt(literal);
    }
    const f = Number(literal);
    if ((keep || allFloats) && Number.isInteger(f)) return new GoFloat(f);
    return f;
  });
  if (r.error !== undefined) throw new SyntaxError(r.error);
  return r.value;
}
