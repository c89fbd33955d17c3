/**
 * go-yaml's nesting limits (scannerc.go): at most 10000 nested flow collections (`flow_level`)
 * and at most 10000 nested block collections (the indentation stack), each failing with
 * `exceeded max depth of 10000`. Checked on the `yaml` package's CST, with a stack of its own,
 * before anything recursive sees the document.
 */
import type { CST } from 'yaml';

export const maxDepth = 10000;

/** Where a limit is passed: the offset of the collection that opens one level too many. */
export interface DepthExceeded {
  offset: number;
}

type Token = CST.Token;

/** The first collection past either limit in a CST document, or undefined. */
export function findDepthExceeded(doc: CST.Document): DepthExceeded | undefined {
  // Each entry: a token, its block depth, flow depth, and the indentation of the block map it is
  // a value of (a sequence at that same indentation is "indentless": libyaml opens no level).
  const stack: [Token | undefined, number, number, number][] = [[doc.value, 0, 0, -2]];
  while (stack.length > 0) {
    const [t, block, flow, parentMapIndent] = stack.pop()!;
    if (t === undefined) continue;
    switch (t.type) {
      case 'block-map': {
        const b = block + 1;
        if (b > maxDepth) return { offset: t.offset };
        for (const it of t.items) {
          stack.push([it.key ?? undefined, b, flow, -2]);
          stack.push([it.value, b, flow, t.indent]);
        }
        break;
      }
      case 'block-seq': {
        const b = t.indent === parentMapIndent ? block : block + 1;
        if (b > maxDepth) return { offset: t.offset };
        for (const it of t.items) stack.push([it.value, b, flow, -2]);
        break;
      }
      case 'flow-collection': {
        const f = flow + 1;
        if (f > maxDepth) return { offset: t.start.offset };
        for (const it of t.items) {
          stack.push([it.key ?? undefined, block, f, -2]);
          stack.push([it.value, block, f, -2]);
        }
        break;
      }
      default:
        break;
    }
  }
  return undefined;
}

/** The deepest nesting of collections in a CST document (block and flow together). */
export function nestingDepth(doc: CST.Document): number {
  let max = 0;
  const stack: [Token | undefined, number][] = [[doc.value, 0]];
  while (stack.length > 0) {
    const [t, d] = stack.pop()!;
    if (t === undefined) continue;
    if (t.type === 'block-map' || t.type === 'block-seq' || t.type === 'flow-collection') {
      const n = d + 1;
      if (n > max) max = n;
      for (const it of t.items) {
        if ('key' in it) stack.push([it.key ?? undefined, n]);
        stack.push([it.value, n]);
      }
    }
  }
  return max;
}
