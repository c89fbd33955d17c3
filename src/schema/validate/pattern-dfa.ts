/**
 * Schema `pattern` matching as a lazily built DFA over ASCII, in front of the RE2 engine
 * (cel/lib/re2.ts, re2js): the patterns CRDs use (DNS labels and subdomains, header names, paths)
 * are groups, alternations, classes and quantifiers, which re2js answers in 100-300 ns per value
 * and a DFA in a few ns per character. Go's MatchString semantics are kept: a match anywhere
 * unless anchored, `^`/`$` at the text's ends only (Go's Perl flags: no multi-line), `.` anything
 * but `\n`.
 *
 * Only a subset of RE2 syntax is translated (literals, `.`, classes with ranges, `\d \w \s` and
 * their negations, escaped punctuation, `\xHH`, groups, `(?:…)`, `|`, `* + ? {n} {n,} {n,m}` and
 * their lazy forms, `^`, `$`); a pattern with anything else, an NFA beyond MAX_NFA states or a DFA
 * beyond MAX_DFA states is left to RE2, and so is every input with a character beyond ASCII (the
 * DFA answers undefined for it). The pattern has been accepted by RE2 before it gets here, so
 * this module never has to report a syntax error.
 */

/** The most NFA states a translated pattern may have (counted repetitions are expanded). */
const MAX_NFA = 2000;
/** The most DFA states built for one pattern before it is left to RE2 for good. */
const MAX_DFA = 512;

const enum K {
  /** Consumes one character of `set`. */
  Char,
  /** Epsilon to `out` and `out2`. */
  Split,
  /** Epsilon to `out` at the start of the text. */
  Begin,
  /** Epsilon to `out` at the end of the text. */
  End,
  Match,
}

interface State {
  k: K;
  out: number;
  out2: number;
  /** For Char: the ASCII characters accepted, one flag per code. */
  set: Uint8Array | undefined;
}

/** A parsed regular expression (the subset above). */
type Node =
  | { t: 'set'; set: Uint8Array }
  | { t: 'cat'; xs: Node[] }
  | { t: 'alt'; xs: Node[] }
  | { t: 'rep'; x: Node; min: number; max: number } // max -1: unbounded
  | { t: 'begin' }
  | { t: 'end' };

class Unsupported extends Error {}

const unsupported = (): never => {
  throw new Unsupported();
};

function charSet(...codes: number[]): Uint8Array {
  const s = new Uint8Array(128);
  for (const c of codes) if (c < 128) s[c] = 1;
  return s;
}

function rangeSet(ranges: readonly [number, number][]): Uint8Array {
  const s = new Uint8Array(128);
  for (const [lo, hi] of ranges) for (let c = lo; c <= Math.min(hi, 127); c++) s[c] = 1;
  return s;
}

function negate(s: Uint8Array): Uint8Array {
  const n = new Uint8Array(128);
  for (let c = 0; c < 128; c++) n[c] = s[c] ? 0 : 1;
  return n;
}

const DIGIT = rangeSet([[48, 57]]);
const WORD = rangeSet([
  [48, 57],
  [65, 90],
  [95, 95],
  [97, 122],
]);
// RE2's \s: [\t\n\f\r ] (no \v).
const SPACE = charSet(9, 10, 12, 13, 32);
const DOT = negate(charSet(10));

/** Escapes standing for one character: Go's \a \f \t \n \r \v. */
const CONTROL: Record<string, number> = { a: 7, f: 12, t: 9, n: 10, r: 13, v: 11 };

class Parser {
  private i = 0;

  constructor(private readonly p: string) {}

  parse(): Node {
    const n = this.alt();
    if (this.i !== this.p.length) unsupported();
    return n;
  }

  private alt(): Node {
    const xs = [this.cat()];
    while (this.p[this.i] === '|') {
      this.i++;
      xs.push(this.cat());
    }
    return xs.length === 1 ? xs[0]! : { t: 'alt', xs };
  }

  private cat(): Node {
    const xs: Node[] = [];
    for (;;) {
      const c = this.p[this.i];
      if (c === undefined || c === '|' || c === ')') break;
      xs.push(this.repeat(this.atom()));
    }
    return { t: 'cat', xs };
  }

  private repeat(x: Node): Node {
    for (;;) {
      const c = this.p[this.i];
      let min: number;
      let max: number;
      if (c === '*' || c === '+' || c === '?') {
        this.i++;
        [min, max] = c === '*' ? [0, -1] : c === '+' ? [1, -1] : [0, 1];
      } else if (c === '{') {
        const m = /\{(\d+)(,(\d*))?\}/y;
        m.lastIndex = this.i;
        const r = m.exec(this.p);
        // RE2 reads a '{' that does not start a repetition as a literal: left to it.
        if (r === null) return unsupported();
        this.i = m.lastIndex;
        min = Number(r[1]);
        max = r[2] === undefined ? min : r[3] === '' ? -1 : Number(r[3]);
      } else return x;
      // A lazy quantifier matches the same texts (only which match is reported differs).
      if (this.p[this.i] === '?') this.i++;
      x = { t: 'rep', x, min, max };
    }
  }

  private atom(): Node {
    const p = this.p;
    const c = p[this.i]!;
    switch (c) {
      case '(': {
        this.i++;
        if (p[this.i] === '?') {
          if (p[this.i + 1] !== ':') return unsupported(); // flags and named groups
          this.i += 2;
        }
        const n = this.alt();
        if (p[this.i] !== ')') return unsupported();
        this.i++;
        return n;
      }
      case '.':
        this.i++;
        return { t: 'set', set: DOT };
      case '^':
        this.i++;
        return { t: 'begin' };
      case '$':
        this.i++;
        return { t: 'end' };
      case '[':
        return { t: 'set', set: this.cls() };
      case '\\':
        return { t: 'set', set: this.escape() };
      case '*':
      case '+':
      case '?':
      case '{':
      case ')':
        return unsupported();
      default: {
        const cp = p.codePointAt(this.i)!;
        this.i += cp > 0xffff ? 2 : 1;
        return { t: 'set', set: charSet(cp) };
      }
    }
  }

  /** The escape at i: the set of characters it stands for. */
  private escape(): Uint8Array {
    const p = this.p;
    const e = p[this.i + 1];
    if (e === undefined) return unsupported();
    this.i += 2;
    switch (e) {
      case 'd':
        return DIGIT;
      case 'D':
        return negate(DIGIT);
      case 'w':
        return WORD;
      case 'W':
        return negate(WORD);
      case 's':
        return SPACE;
      case 'S':
        return negate(SPACE);
      case 'x': {
        const r = /[0-9A-Fa-f]{2}/y;
        r.lastIndex = this.i;
        if (!r.test(p)) return unsupported(); // \x{…} and the like
        const code = parseInt(p.slice(this.i, this.i + 2), 16);
        this.i += 2;
        return charSet(code);
      }
    }
    if (CONTROL[e] !== undefined) return charSet(CONTROL[e]);
    // Escaped punctuation is the character itself; letters and digits are operators (\b, \pL, \1, …).
    const code = e.charCodeAt(0);
    if (code < 128 && !/[0-9A-Za-z]/.test(e)) return charSet(code);
    return unsupported();
  }

  /** A class `[…]` at i. */
  private cls(): Uint8Array {
    const p = this.p;
    this.i++;
    let neg = false;
    if (p[this.i] === '^') {
      neg = true;
      this.i++;
    }
    const set = new Uint8Array(128);
    let first = true;
    for (;;) {
      const c = p[this.i];
      if (c === undefined) return unsupported();
      // RE2 reads a ']' first in the class as a literal.
      if (c === ']' && !first) break;
      first = false;
      if (c === '[' && p[this.i + 1] === ':') return unsupported(); // [:alpha:]
      const lo = this.classAtom(set);
      if (lo === undefined) continue; // \d and the like: added to set whole
      if (p[this.i] === '-' && p[this.i + 1] !== ']' && p[this.i + 1] !== undefined) {
        this.i++;
        const hi = this.classAtom(set);
        if (hi === undefined || hi < lo) return unsupported();
        for (let x = lo; x <= Math.min(hi, 127); x++) set[x] = 1;
      } else if (lo < 128) set[lo] = 1;
    }
    this.i++;
    return neg ? negate(set) : set;
  }

  /** One character of a class as its code; undefined after adding an escaped set (\d …) to set. */
  private classAtom(set: Uint8Array): number | undefined {
    const p = this.p;
    if (p[this.i] !== '\\') {
      const cp = p.codePointAt(this.i)!;
      this.i += cp > 0xffff ? 2 : 1;
      return cp;
    }
    const e = p[this.i + 1];
    const s = this.escape();
    if (e !== undefined && 'dDwWsS'.includes(e)) {
      for (let c = 0; c < 128; c++) if (s[c]) set[c] = 1;
      return undefined;
    }
    // A one-character escape: its code, the only member (one beyond ASCII is left to RE2).
    const code = s.indexOf(1);
    return code < 0 ? unsupported() : code;
  }
}

/** Builds the Thompson NFA of a parsed pattern; returns its start state. */
class NFA {
  readonly states: State[] = [];

  private add(k: K, out = -1, out2 = -1, set?: Uint8Array): number {
    if (this.states.length >= MAX_NFA) unsupported();
    this.states.push({ k, out, out2, set });
    return this.states.length - 1;
  }

  /** The states of n, entered at the returned start and left to `next`. */
  build(n: Node, next: number): number {
    switch (n.t) {
      case 'set':
        return this.add(K.Char, next, -1, n.set);
      case 'begin':
        return this.add(K.Begin, next);
      case 'end':
        return this.add(K.End, next);
      case 'cat': {
        let s = next;
        for (let i = n.xs.length - 1; i >= 0; i--) s = this.build(n.xs[i]!, s);
        return s;
      }
      case 'alt': {
        let s = this.build(n.xs[n.xs.length - 1]!, next);
        for (let i = n.xs.length - 2; i >= 0; i--) s = this.add(K.Split, this.build(n.xs[i]!, next), s);
        return s;
      }
      case 'rep': {
        let s = next;
        if (n.max === -1) {
          // x*: a split that loops back through x.
          const loop = this.add(K.Split, -1, next);
          this.states[loop]!.out = this.build(n.x, loop);
          s = loop;
        } else {
          // Each optional copy may be skipped (to next).
          for (let i = n.min; i < n.max; i++) s = this.add(K.Split, this.build(n.x, s), next);
        }
        for (let i = 0; i < n.min; i++) s = this.build(n.x, s);
        return s;
      }
    }
  }
}

/**
 * The DFA, built as it is walked: state 0 is the start (the text's beginning); a transition is
 * computed the first time a character takes it. Each DFA state is a set of NFA states; the start's
 * epsilon-closure is added at every position, which makes the search unanchored (a pattern starting
 * with `^` adds nothing there: its Begin holds only at 0).
 */
class LazyDFA {
  private readonly ids = new Map<string, number>();
  private readonly sets: number[][] = [];
  /** next[s * 128 + c]: -2 not built yet, -1 dead (no match possible from here). */
  private next = new Int32Array(0);
  /** Per state: 1 a match has been seen (the answer is true), 2 a match at the text's end, 0 neither. */
  private accept = new Uint8Array(0);
  private readonly startLater: number[];
  private readonly matchState: number;
  /** Too many states: the caller falls back to RE2 from now on. */
  overflow = false;

  constructor(
    private readonly nfa: State[],
    private readonly start: number,
  ) {
    this.matchState = nfa.findIndex((s) => s.k === K.Match);
    this.startLater = this.closure([start], false, false);
    this.intern(this.closure([start], true, false), true);
  }

  /** The epsilon-closure of states, with Begin holding when atBegin and End when atEnd, sorted. */
  private closure(from: readonly number[], atBegin: boolean, atEnd: boolean): number[] {
    const seen = new Uint8Array(this.nfa.length);
    const stack = [...from];
    const out: number[] = [];
    while (stack.length > 0) {
      const i = stack.pop()!;
      if (seen[i]) continue;
      seen[i] = 1;
      const s = this.nfa[i]!;
      switch (s.k) {
        case K.Split:
          stack.push(s.out, s.out2);
          break;
        case K.Begin:
          if (atBegin) stack.push(s.out);
          break;
        case K.End:
          // Kept, so that the end-of-text check can go on from it.
          out.push(i);
          if (atEnd) stack.push(s.out);
          break;
        default:
          out.push(i);
      }
    }
    return out.sort((a, b) => a - b);
  }

  private intern(set: number[], isStart: boolean): number {
    const key = (isStart ? 's' : '') + set.join(',');
    let id = this.ids.get(key);
    if (id !== undefined) return id;
    id = this.sets.length;
    if (id >= MAX_DFA) {
      this.overflow = true;
      return -1;
    }
    this.ids.set(key, id);
    this.sets.push(set);
    if (this.next.length < (id + 1) * 128) {
      const grown = new Int32Array(Math.max(128, this.next.length * 2, (id + 1) * 128)).fill(-2);
      grown.set(this.next);
      this.next = grown;
      const acc = new Uint8Array(grown.length / 128);
      acc.set(this.accept);
      this.accept = acc;
    }
    const m = this.matchState;
    this.accept[id] = set.includes(m) ? 1 : this.closure(set, isStart, true).includes(m) ? 2 : 0;
    return id;
  }

  /** The transition of state s on character c (building it the first time). */
  private step(s: number, c: number): number {
    const moved: number[] = [];
    for (const i of this.sets[s]!) {
      const st = this.nfa[i]!;
      if (st.k === K.Char && st.set![c]) moved.push(st.out);
    }
    const set = this.closure([...moved, ...this.startLater], false, false);
    const t = set.length === 0 ? -1 : this.intern(set, false);
    if (t !== -1 || !this.overflow) this.next[s * 128 + c] = t;
    return t;
  }

  /** MatchString on an ASCII text; undefined for a text with other characters (or after an overflow). */
  test(x: string): boolean | undefined {
    let s = 0;
    const n = x.length;
    // Read once: building a state may replace both arrays.
    let next = this.next;
    let accept = this.accept;
    for (let i = 0; i < n; i++) {
      if (accept[s] === 1) return true;
      const c = x.charCodeAt(i);
      if (c >= 128) return undefined;
      let t = next[(s << 7) | c]!;
      if (t === -2) {
        t = this.step(s, c);
        if (this.overflow) return undefined;
        next = this.next;
        accept = this.accept;
      }
      // Dead: no thread is alive and none can start later (the pattern is anchored), whatever follows.
      if (t === -1) return false;
      s = t;
    }
    return accept[s] !== 0;
  }
}

/**
 * A test equivalent to RE2's MatchString for `pattern` on ASCII texts, answering undefined for a
 * text it cannot judge (characters beyond ASCII, or the DFA grew too large); undefined when the
 * pattern is outside the translated subset. The pattern must be valid RE2.
 */
export function compileAsciiPattern(pattern: string): ((x: string) => boolean | undefined) | undefined {
  let dfa: LazyDFA;
  try {
    const tree = new Parser(pattern).parse();
    const nfa = new NFA();
    const match = nfa.states.length;
    nfa.states.push({ k: K.Match, out: -1, out2: -1, set: undefined });
    const start = nfa.build(tree, match);
    dfa = new LazyDFA(nfa.states, start);
  } catch (e) {
    if (e instanceof Unsupported) return undefined;
    throw e;
  }
  return (x) => (dfa.overflow ? undefined : dfa.test(x));
}
