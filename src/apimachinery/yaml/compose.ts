/**
 * Composing one YAML document with the `yaml` package, at any depth go-yaml accepts. The
 * package's Composer recurses once per nesting level and runs out of stack near a thousand
 * levels; go-yaml takes 10000 block and 10000 flow levels. So the CST is cut every `slice`
 * levels: each cut subtree is composed as a document of its own and a placeholder scalar stands
 * in its place, which `resolvePlaceholder` maps back to the composed subtree (with the anchor and
 * tag the placeholder received). Offsets stay those of the whole text.
 */
import { Composer, isScalar, type CST, type Node, type Document as YAMLDocument } from 'yaml';

const slice = 200;
const marker = '\u0000yaml-slice:';

export interface Composed {
  root: Node | null;
  /** The composer's errors for the document and its slices, in document order of discovery. */
  errors: { offset: number; message: string }[];
  /** The composed subtree a placeholder stands for, or the node itself. */
  resolvePlaceholder(n: Node): Node;
}

type Token = CST.Token;
type Item = { key?: Token | null; value?: Token };

function isCollectionToken(t: Token | null | undefined): t is CST.BlockMap | CST.BlockSequence | CST.FlowCollection {
  return t != null && (t.type === 'block-map' || t.type === 'block-seq' || t.type === 'flow-collection');
}

/** Replaces each collection `slice` levels below `root` by a placeholder; returns the cut subtrees. */
function cut(root: Token | undefined, nextId: () => number): { id: string; token: Token }[] {
  const cuts: { id: string; token: Token }[] = [];
  const stack: [Token | undefined, number][] = [[root, 0]];
  while (stack.length > 0) {
    const [t, d] = stack.pop()!;
    if (!isCollectionToken(t)) continue;
    for (const it of t.items as Item[]) {
      for (const field of ['key', 'value'] as const) {
        const child = it[field];
        if (!isCollectionToken(child)) continue;
        if (d + 1 >= slice) {
          const id = `${marker}${nextId()}`;
          cuts.push({ id, token: child });
          const placeholder: CST.FlowScalar = { type: 'scalar', offset: child.offset, indent: child.indent, source: id, end: [] };
          it[field] = placeholder;
        } else {
          stack.push([child, d + 1]);
        }
      }
    }
  }
  return cuts;
}

/** Composes a CST document (after the directives in `prelude`) with `options` for the Composer. */
export function composeDocument(prelude: CST.Token[], doc: CST.Document, options: ConstructorParameters<typeof Composer>[0]): Composed {
  let ids = 0;
  const nextId = () => ids++;
  const errors: Composed['errors'] = [];
  const slices = new Map<string, Node | null>();
  const composeOne = (d: CST.Document, before: CST.Token[] = []): YAMLDocument.Parsed | undefined => {
    const docs = [...new Composer(options).compose([...before, d])];
    const out = docs[0];
    for (const x of docs) for (const e of x.errors) errors.push({ offset: e.pos[0], message: e.message });
    return out as YAMLDocument.Parsed | undefined;
  };
  const pendingCuts = cut(doc.value, nextId);
  const top = composeOne(doc, prelude);
  while (pendingCuts.length > 0) {
    const { id, token } = pendingCuts.shift()!;
    pendingCuts.push(...cut(token, nextId));
    const sub = composeOne({ type: 'document', offset: token.offset, start: [], value: token });
    slices.set(id, (sub?.contents as Node | null | undefined) ?? null);
  }
  errors.sort((a, b) => a.offset - b.offset);
  const resolvePlaceholder = (n: Node): Node => {
    if (slices.size === 0 || !isScalar(n) || typeof n.value !== 'string' || !n.value.startsWith(marker)) return n;
    const sub = slices.get(n.value);
    if (!sub) return n;
    if (n.anchor) sub.anchor = n.anchor;
    if (n.tag && !sub.tag) sub.tag = n.tag;
    return sub;
  };
  return { root: (top?.contents as Node | null | undefined) ?? null, errors, resolvePlaceholder };
}
