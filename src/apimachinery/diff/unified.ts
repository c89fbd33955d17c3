/**
 * k8s.io/apimachinery/pkg/util/diff Diff as kube-apiserver 1.35 is built (without `usegocmp`):
 * both values as `json.MarshalIndent(v, "", " ")`, then go-difflib's unified diff of their
 * lines with three lines of context and no file headers. Validation messages embed it (a
 * PersistentVolumeClaim's `spec is immutable after creation ...`), so its hunks must be the
 * ones Go computes: the matcher is difflib's SequenceMatcher (longest matching blocks, then
 * grouped opcodes), not a shortest-edit diff.
 */

/** Go's json.MarshalIndent(v, "", " ") of a value whose keys are already in Go's order. */
export function goMarshalIndent(v: unknown): string {
  return JSON.stringify(v, null, 1).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** difflib.SplitLines: lines with their `\n`, the last one given one too. */
function splitLines(s: string): string[] {
  const lines = s.split(/(?<=\n)/);
  lines[lines.length - 1] += '\n';
  return lines;
}

type Match = [i: number, j: number, size: number];
type OpCode = [tag: 'e' | 'r' | 'd' | 'i', i1: number, i2: number, j1: number, j2: number];

/** SequenceMatcher over two line lists (no junk; autojunk only matters from 200 lines of b). */
class Matcher {
  private readonly b2j = new Map<string, number[]>();

  constructor(
    private readonly a: string[],
    private readonly b: string[],
  ) {
    b.forEach((line, j) => {
      const js = this.b2j.get(line);
      if (js) js.push(j);
      else this.b2j.set(line, [j]);
    });
    if (b.length >= 200) {
      const ntest = Math.floor(b.length / 100) + 1;
      for (const [line, js] of [...this.b2j]) if (js.length > ntest) this.b2j.delete(line);
    }
  }

  private findLongestMatch(alo: number, ahi: number, blo: number, bhi: number): Match {
    let besti = alo;
    let bestj = blo;
    let bestsize = 0;
    let j2len = new Map<number, number>();
    for (let i = alo; i < ahi; i++) {
      const next = new Map<number, number>();
      for (const j of this.b2j.get(this.a[i]!) ?? []) {
        if (j < blo) continue;
        if (j >= bhi) break;
        const k = (j2len.get(j - 1) ?? 0) + 1;
        next.set(j, k);
        if (k > bestsize) {
          besti = i - k + 1;
          bestj = j - k + 1;
          bestsize = k;
        }
      }
      j2len = next;
    }
    // Extend over equal lines the index left out (popular lines of a long b).
    while (besti > alo && bestj > blo && this.a[besti - 1] === this.b[bestj - 1]) {
      besti--;
      bestj--;
      bestsize++;
    }
    while (besti + bestsize < ahi && bestj + bestsize < bhi && this.a[besti + bestsize] === this.b[bestj + bestsize]) bestsize++;
    return [besti, bestj, bestsize];
  }

  private matchingBlocks(): Match[] {
    const queue: [number, number, number, number][] = [[0, this.a.length, 0, this.b.length]];
    const blocks: Match[] = [];
    while (queue.length > 0) {
      const [alo, ahi, blo, bhi] = queue.pop()!;
      const [i, j, k] = this.findLongestMatch(alo, ahi, blo, bhi);
      if (k === 0) continue;
      blocks.push([i, j, k]);
      if (alo < i && blo < j) queue.push([alo, i, blo, j]);
      if (i + k < ahi && j + k < bhi) queue.push([i + k, ahi, j + k, bhi]);
    }
    blocks.sort((x, y) => x[0] - y[0] || x[1] - y[1]);
    const merged: Match[] = [];
    let [i1, j1, k1] = [0, 0, 0];
    for (const [i2, j2, k2] of blocks) {
      if (i1 + k1 === i2 && j1 + k1 === j2) k1 += k2;
      else {
        if (k1 > 0) merged.push([i1, j1, k1]);
        [i1, j1, k1] = [i2, j2, k2];
      }
    }
    if (k1 > 0) merged.push([i1, j1, k1]);
    merged.push([this.a.length, this.b.length, 0]);
    return merged;
  }

  private opCodes(): OpCode[] {
    let i = 0;
    let j = 0;
    const codes: OpCode[] = [];
    for (const [ai, bj, size] of this.matchingBlocks()) {
      const tag = i < ai && j < bj ? 'r' : i < ai ? 'd' : j < bj ? 'i' : undefined;
      if (tag) codes.push([tag, i, ai, j, bj]);
      i = ai + size;
      j = bj + size;
      if (size > 0) codes.push(['e', ai, i, bj, j]);
    }
    return codes;
  }

  groupedOpCodes(n: number): OpCode[][] {
    const codes = this.opCodes();
    if (codes.length === 0) codes.push(['e', 0, 1, 0, 1]);
    const first = codes[0]!;
    if (first[0] === 'e') codes[0] = ['e', Math.max(first[1], first[2] - n), first[2], Math.max(first[3], first[4] - n), first[4]];
    const last = codes[codes.length - 1]!;
    if (last[0] === 'e') codes[codes.length - 1] = ['e', last[1], Math.min(last[2], last[1] + n), last[3], Math.min(last[4], last[3] + n)];
    const groups: OpCode[][] = [];
    let group: OpCode[] = [];
    for (const c of codes) {
      let [tag, i1, i2, j1, j2] = c;
      if (tag === 'e' && i2 - i1 > 2 * n) {
        group.push([tag, i1, Math.min(i2, i1 + n), j1, Math.min(j2, j1 + n)]);
        groups.push(group);
        group = [];
        i1 = Math.max(i1, i2 - n);
        j1 = Math.max(j1, j2 - n);
      }
      group.push([tag, i1, i2, j1, j2]);
    }
    if (group.length > 0 && !(group.length === 1 && group[0]![0] === 'e')) groups.push(group);
    return groups;
  }
}

function formatRange(start: number, stop: number): string {
  let beginning = start + 1;
  const length = stop - start;
  if (length === 1) return String(beginning);
  if (length === 0) beginning--;
  return `${beginning},${length}`;
}

/** difflib.GetUnifiedDiffString(UnifiedDiff{A, B, Context}) of two texts ('' when they are equal). */
export function unifiedDiff(aText: string, bText: string, context = 3): string {
  const a = splitLines(aText);
  const b = splitLines(bText);
  let out = '';
  for (const g of new Matcher(a, b).groupedOpCodes(context)) {
    const first = g[0]!;
    const last = g[g.length - 1]!;
    out += `@@ -${formatRange(first[1], last[2])} +${formatRange(first[3], last[4])} @@\n`;
    for (const [tag, i1, i2, j1, j2] of g) {
      if (tag === 'e') {
        for (const line of a.slice(i1, i2)) out += ' ' + line;
        continue;
      }
      if (tag === 'r' || tag === 'd') for (const line of a.slice(i1, i2)) out += '-' + line;
      if (tag === 'r' || tag === 'i') for (const line of b.slice(j1, j2)) out += '+' + line;
    }
  }
  return out;
}

/** diff.Diff(a, b): the unified diff of the two values' indented JSON. */
export function objectDiff(a: unknown, b: unknown): string {
  return unifiedDiff(goMarshalIndent(a), goMarshalIndent(b));
}
