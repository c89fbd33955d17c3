/**
 * The edits upstream's Service test tables make to a base object (`tweakSvc` functions), as
 * data: `["set" | "push" | "del", path, value]` with dotted paths, numbers indexing lists, and
 * the rest of the path one key inside the map fields (labels, annotations, selector), whose keys
 * hold dots. Used by the vector suites to build each case's object.
 */
import type { Obj } from '../../rest.ts';

export type Tweak = [op: 'set' | 'push' | 'del', path: string, value?: unknown];

const mapFields = ['metadata.labels.', 'metadata.annotations.', 'spec.selector.'];

function segments(path: string): string[] {
  const m = mapFields.find((f) => path.startsWith(f));
  if (m) return [...m.slice(0, -1).split('.'), path.slice(m.length)];
  return path.split('.');
}

/** Applies the edits to `obj` (MUTATES it), creating maps on the way as Go's struct fields are always there. */
export function applyTweaks(obj: Obj, tweaks: readonly Tweak[]): Obj {
  for (const [op, path, value] of tweaks) {
    const segs = segments(path);
    let cur = obj as Record<string, unknown> | unknown[];
    for (const s of segs.slice(0, -1)) {
      const next = (cur as Record<string, unknown>)[s];
      if (next === undefined || next === null) (cur as Record<string, unknown>)[s] = {};
      cur = (cur as Record<string, unknown>)[s] as Record<string, unknown>;
    }
    const last = segs[segs.length - 1]!;
    const c = cur as Record<string, unknown>;
    if (op === 'del') delete c[last];
    else if (op === 'set') c[last] = structuredClone(value);
    else {
      if (!Array.isArray(c[last])) c[last] = [];
      (c[last] as unknown[]).push(structuredClone(value));
    }
  }
  return obj;
}
