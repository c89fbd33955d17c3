/**
 * sigs.k8s.io/yaml's conversion of decoded YAML to JSON data (`convertToJSONableObject`, then
 * json.Marshal, then the JSON decoding the result goes through): map keys become strings (ints in
 * decimal, floats by FormatFloat(f, 'g', -1, 32) with `.inf`/`.nan`, booleans as `true`/`false`;
 * a null or uint64 key is an error), NaN and infinities cannot be marshalled, and objects get
 * their keys in Go's sorted order. Numbers are JS numbers, as JSON.parse would give them.
 */
import { GoUint64 } from './resolve.ts';
import { formatFloat32, GoFloat64, GoMap, goSharpV, goTypeName } from './gofmt.ts';
import { YAMLDecodeError } from './decode.ts';

/** Go's encoding/json decoder nesting limit, which the converted document passes through next. */
export const maxJSONDepth = 10000;

function keyString(k: unknown, value: unknown): string {
  if (typeof k === 'string') return k;
  if (typeof k === 'number') return String(k);
  if (typeof k === 'boolean') return k ? 'true' : 'false';
  if (k instanceof GoFloat64) {
    const s = formatFloat32(k.value);
    return s === '+Inf' ? '.inf' : s === '-Inf' ? '-.inf' : s === 'NaN' ? '.nan' : s;
  }
  throw new YAMLDecodeError(`unsupported map key of type: ${goTypeName(k)}, key: ${goSharpV(k)}, value: ${goSharpV(value)}`);
}

function compareUTF8(a: string, b: string): number {
  if (a === b) return 0;
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}

function setKey(o: Record<string, unknown>, k: string, v: unknown): void {
  if (k === '__proto__') Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
  else o[k] = v;
}

type Frame = { src: unknown[]; out: unknown[]; i: number } | { src: [string, unknown][]; out: Record<string, unknown>; i: number };

/**
 * JSON data for decoded Go values. Throws YAMLDecodeError with the conversion's or json.Marshal's
 * message (`json: unsupported value: NaN`), or Go's JSON decoder's past maxJSONDepth.
 */
export function toJSONData(v: unknown): unknown {
  let unsupported: string | undefined;
  const scalar = (x: unknown): unknown => {
    if (x instanceof GoFloat64) {
      if (!Number.isFinite(x.value)) unsupported ??= Number.isNaN(x.value) ? 'NaN' : x.value > 0 ? '+Inf' : '-Inf';
      return x.value;
    }
    if (x instanceof GoUint64) return Number(x.value);
    return x;
  };
  const open = (x: unknown[] | GoMap): Frame => {
    if (Array.isArray(x)) return { src: x, out: new Array(x.length), i: 0 };
    const entries: [string, unknown][] = [];
    for (const e of x.entries.values()) entries.push([keyString(e.key, e.value), e.value]);
    entries.sort((a, b) => compareUTF8(a[0], b[0]));
    return { src: entries, out: {}, i: 0 };
  };
  if (!Array.isArray(v) && !(v instanceof GoMap)) {
    const s = scalar(v);
    if (unsupported) throw new YAMLDecodeError(`json: unsupported value: ${unsupported}`);
    return s;
  }
  const root = open(v);
  const stack: Frame[] = [root];
  while (stack.length > 0) {
    const f = stack[stack.length - 1]!;
    if (f.i >= f.src.length) {
      stack.pop();
      continue;
    }
    const i = f.i++;
    const isArr = Array.isArray(f.out);
    const [k, x] = isArr ? [i, (f.src as unknown[])[i]] : (f.src as [string, unknown][])[i]!;
    let out: unknown;
    if (Array.isArray(x) || x instanceof GoMap) {
      if (stack.length >= maxJSONDepth) {
        throw new YAMLDecodeError(`invalid character '${Array.isArray(x) ? '[' : '{'}' exceeded max depth`);
      }
      const child = open(x);
      out = child.out;
      stack.push(child);
    } else {
      out = scalar(x);
    }
    if (isArr) (f.out as unknown[])[k as number] = out;
    else setKey(f.out as Record<string, unknown>, k as string, out);
  }
  if (unsupported) throw new YAMLDecodeError(`json: unsupported value: ${unsupported}`);
  return root.out;
}
