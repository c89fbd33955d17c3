/**
 * SetDefaults_ResourceList: every quantity of a resource list (a container's limits and
 * requests, a pod's overhead, a claim's requests) rounded up to milli precision, as
 * kube-apiserver keeps it for compatibility (`0.0001` is stored as `1m`), and written in the
 * canonical form Go's encoder gives it (`0.5` reads back as `500m`).
 */
import { parseQuantity, Quantity } from '../../../cel/index.ts';
import { isRec, type Rec } from './go-fields.ts';

const milliScale = -3;

/** Upstream's Quantity.RoundUp(-3): away from zero, to a multiple of 10^-3. */
function roundUpToMilli(q: Quantity): Quantity {
  const d = q.d ?? { unscaled: q.i.value, scale: -q.i.scale };
  const excess = d.scale + milliScale;
  if (excess <= 0) return q;
  const divisor = 10n ** BigInt(excess);
  let unscaled = d.unscaled / divisor;
  if (unscaled * divisor !== d.unscaled) unscaled += d.unscaled > 0n ? 1n : -1n;
  return Quantity.fromScaled(unscaled, milliScale, q.format);
}

/** Results of milliQuantity by text (null: does not parse), for short texts; cleared when full. */
const milliTexts = new Map<string, string | null>();

/** The canonical string of a quantity rounded up to milli precision; a value that does not parse is left as it is. */
export function milliQuantity(v: unknown): unknown {
  if (typeof v !== 'string' && typeof v !== 'number') return v;
  const text = String(v);
  let r = milliTexts.get(text);
  if (r === undefined) {
    const q = parseQuantity(text);
    r = q instanceof Quantity ? roundUpToMilli(q).toString() : null;
    if (text.length <= 64) {
      if (milliTexts.size >= 4096) milliTexts.clear();
      milliTexts.set(text, r);
    }
  }
  return r === null ? v : r;
}

/** SetDefaults_ResourceList on the map at `parent[key]`, if there is one. MUTATES it. */
export function defaultResourceList(parent: Rec | undefined, key: string): void {
  const list = parent?.[key];
  if (!isRec(list)) return;
  for (const [name, v] of Object.entries(list)) list[name] = milliQuantity(v);
}
