/**
 * Semantic equality of JSON values (equality.Semantic.DeepEqual over decoded JSON): key order
 * and keys whose value is undefined are ignored. Depth-safe like the deep copy: recursion for
 * the first levels, an explicit stack below them.
 */

const recursionLimit = 200;

/** True when a and b are the same JSON value. */
export function jsonEqual(a: unknown, b: unknown): boolean {
  return equal(a, b, 0);
}

function definedKeys(o: Record<string, unknown>): string[] {
  return Object.keys(o).filter((k) => o[k] !== undefined);
}

/** Compares one level; `sub` is asked about each pair of children. */
function shallowEqual(a: unknown, b: unknown, sub: (x: unknown, y: unknown) => boolean): boolean {
  if (a === b) return true;
  if (typeof a !== typeof b || a === null || b === null || typeof a !== 'object') return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const bb = b as unknown[];
    if (a.length !== bb.length) return false;
    for (let i = 0; i < a.length; i++) if (!sub(a[i], bb[i])) return false;
    return true;
  }
  const ao = a as Record<string, unknown>;
  const bo = b as Record<string, unknown>;
  const ak = definedKeys(ao);
  if (ak.length !== definedKeys(bo).length) return false;
  for (const k of ak) if (!Object.prototype.hasOwnProperty.call(bo, k) || !sub(ao[k], bo[k])) return false;
  return true;
}

function equal(a: unknown, b: unknown, depth: number): boolean {
  if (depth === recursionLimit) return equalIteratively(a, b);
  return shallowEqual(a, b, (x, y) => equal(x, y, depth + 1));
}

function equalIteratively(a: unknown, b: unknown): boolean {
  const pending: unknown[] = [a, b];
  while (pending.length > 0) {
    const y = pending.pop();
    const x = pending.pop();
    // Children are queued, not compared: a queued pair that differs fails when popped.
    const ok = shallowEqual(x, y, (cx, cy) => {
      if (cx === cy) return true;
      if (cx !== null && cy !== null && typeof cx === 'object' && typeof cy === 'object') {
        pending.push(cx, cy);
        return true;
      }
      return false;
    });
    if (!ok) return false;
  }
  return true;
}
