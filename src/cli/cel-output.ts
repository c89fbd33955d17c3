/**
 * What `crd-apiserver cel` prints, whichever environment it runs in: one JSON line with `", "` and
 * `": "` separators — `{"type": ..., "value": ...}` for a value, `{"type": ..., "cost": {...}}` for
 * a check, `{"error": "..."}` with the exit status for a failure.
 */
import { formatType, toJSON, typeDisplay, type CostEstimate, type Type, type Val } from '../cel/index.ts';

/** JSON with `", "` and `": "` separators, as the command's output format is written: `{"type": "int", "value": 3}`. */
export function jsonLine(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(jsonLine).join(', ')}]`;
  if (v !== null && typeof v === 'object') {
    return `{${Object.entries(v)
      .map(([k, x]) => `${JSON.stringify(k)}: ${jsonLine(x)}`)
      .join(', ')}}`;
  }
  return JSON.stringify(v) ?? 'null';
}

export function out(obj: unknown): void {
  process.stdout.write(jsonLine(obj) + '\n');
}

/** Prints `{"error": message}`; returns `code`. */
export function fail(code: number, message: string): number {
  out({ error: message });
  return code;
}

/** Prints an evaluation's value with its type; 0, or 1 when it cannot be printed. */
export function printValue(value: Val, type: Type): number {
  let line: string;
  try {
    line = jsonLine({ type: typeDisplay(value, type), value: toJSON(value) });
  } catch (e) {
    // A value nested deeper than the JS stack allows to walk (built from deeply nested --vars).
    if (e instanceof RangeError) return fail(1, 'result nested too deeply to print as JSON');
    throw e;
  }
  process.stdout.write(line + '\n');
  return 0;
}

/** Prints a checked expression's type and estimated cost range (strings past 2^53). */
export function printCheck(type: Type, cost: CostEstimate): number {
  const n = (x: bigint | number) => (BigInt(x) <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(x) : String(x));
  // No value to show: a dyn result is `dyn`, not the type of some value.
  out({ type: formatType(type), cost: { min: n(cost.min), max: n(cost.max) } });
  return 0;
}

/** The JSON object a flag holds (`{}` when absent), or the error to print. */
export function objectFlag(flags: Map<string, string>, name: string, what = 'a JSON object'): Record<string, unknown> | string {
  const text = flags.get(name);
  if (text === undefined) return {};
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (e) {
    return `--${name}: invalid JSON: ${(e as Error).message}`;
  }
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return `--${name} must be ${what}`;
  return v as Record<string, unknown>;
}
