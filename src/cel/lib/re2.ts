/**
 * RE2 regular expressions in linear time, shared by CEL's `matches`/`find`/`findAll` and by
 * schema `pattern` validation. Go's regexp package is RE2; re2js is a port of it, so syntax and
 * error messages (`error parsing regexp: missing closing ): ...`) match what Kubernetes prints.
 * Compiled patterns are cached: rules and schemas reuse a handful of patterns on every request.
 */
import { RE2JS } from 're2js';
import { keepInstanceofFast } from '../eval/values.ts';

export interface CompiledRegex {
  readonly source: string;
  /** True if the pattern matches anywhere in s (Go's MatchString). */
  test(s: string): boolean;
  /** The first match, or undefined (Go's FindString / FindStringSubmatch). */
  find(s: string): { match: string; groups: (string | undefined)[] } | undefined;
  /** Every non-overlapping match, at most `limit` (negative: all). */
  findAll(s: string, limit: number): string[];
}

export class RegexSyntaxError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RegexSyntaxError';
  }
}
// compileRegex tests every cached entry against this class.
keepInstanceofFast(RegexSyntaxError);

const MAX_CACHE = 1024;
const cache = new Map<string, CompiledRegex | RegexSyntaxError>();

/**
 * A JS RegExp equivalent to `pattern` for match testing, or undefined. Only a small subset of RE2
 * qualifies: optional `^` and `$` at the ends; atoms that are literal characters, `.`, escaped
 * punctuation, `\d \D \w \W`, or simple character classes (literals, ranges, those escapes);
 * quantifiers `* + ? {n} {n,} {n,m}` on single atoms, at most one of them unbounded, and the
 * bounded choices (`?` two ways, `{n,m}` m-n+1 ways) multiplying to at most MAX_BOUNDED_CHOICES.
 * No groups, alternation or flags, so the backtracking engine does at most O(n^2) work (the one
 * unbounded quantifier times the start positions, times that constant: `a?a?…a?aa…a` would
 * otherwise backtrack exponentially; compileRegex also keeps long inputs of unanchored patterns
 * off it) and the semantics coincide with RE2's: `.` is translated
 * to `[^\n]` (RE2's dot), the `u` flag makes both engines work on code points, and `\s`/`\b`,
 * whose meanings differ, are excluded.
 */
/** The most ways bounded quantifiers of a fast-path pattern may combine (see safeJsRegex). */
const MAX_BOUNDED_CHOICES = 128;

/**
 * The longest input an unanchored fast-path pattern is tried on: backtracking restarts at every
 * position, so its work grows with the square of the input (`a*b` on 100k `a`s took seconds).
 * Patterns anchored with `^` try one start position and stay linear.
 */
const MAX_UNANCHORED_FAST_INPUT = 256;

export function safeJsRegex(pattern: string): RegExp | undefined {
  let i = 0;
  let out = '';
  let unbounded = 0;
  let choices = 1;
  const n = pattern.length;
  const PUNCT = '.\\-/[](){}*+?^$|';
  if (pattern[0] === '^') {
    out += '^';
    i++;
  }
  while (i < n) {
    const c = pattern[i]!;
    if (c === '$' && i === n - 1) {
      out += '$';
      i++;
      break;
    }
    // One atom.
    if (c === '.') {
      out += '[^\\n]';
      i++;
    } else if (c === '\\') {
      const e = pattern[i + 1];
      if (e === undefined) return undefined;
      const hex = hexEscape(pattern, i);
      if (hex !== undefined) {
        out += hex;
        i += 4;
      } else {
        if (!PUNCT.includes(e) && !'dDwW'.includes(e)) return undefined;
        out += e === '-' ? '\\x2d' : '\\' + e;
        i += 2;
      }
    } else if (c === '[') {
      let j = i + 1;
      let cls = '[';
      if (pattern[j] === '^') {
        cls += '^';
        j++;
      }
      if (pattern[j] === ']') return undefined; // RE2 reads a leading ']' literally; JS does not
      for (;;) {
        const d = pattern[j];
        if (d === undefined) return undefined;
        if (d === ']') break;
        if (d === '[') return undefined;
        if (d === '\\') {
          const hex = hexEscape(pattern, j);
          if (hex !== undefined) {
            cls += hex;
            j += 4;
            continue;
          }
          const e = pattern[j + 1];
          if (e === undefined || (!PUNCT.includes(e) && !'dDwW'.includes(e))) return undefined;
          cls += e === '-' ? '\\x2d' : '\\' + e;
          j += 2;
          continue;
        }
        cls += d;
        j++;
      }
      out += cls + ']';
      i = j + 1;
    } else if ('()|*+?{}^$]'.includes(c)) {
      return undefined;
    } else {
      const cp = pattern.codePointAt(i)!;
      const ch = String.fromCodePoint(cp);
      out += ch;
      i += ch.length;
    }
    // Its quantifier, if any.
    const q = pattern[i];
    if (q === '*' || q === '+') {
      unbounded++;
      out += q;
      i++;
    } else if (q === '?') {
      choices *= 2;
      out += q;
      i++;
    } else if (q === '{') {
      const m = /\{(\d{1,3})(,(\d{1,3})?)?\}/y;
      m.lastIndex = i;
      const r = m.exec(pattern);
      if (!r) return undefined;
      if (r[2] && r[3] === undefined) unbounded++;
      if (r[3] !== undefined && Number(r[3]) < Number(r[1])) return undefined;
      if (r[3] !== undefined) choices *= Number(r[3]) - Number(r[1]) + 1;
      out += r[0];
      i = m.lastIndex;
    } else continue;
    if (pattern[i] === '?') {
      out += '?';
      i++;
    }
    const next = pattern[i];
    if (next !== undefined && '*+?{'.includes(next)) return undefined;
  }
  if (i !== n || unbounded > 1 || choices > MAX_BOUNDED_CHOICES) return undefined;
  try {
    return new RegExp(out, 'u');
  } catch {
    return undefined;
  }
}

/**
 * `\xHH` at pattern[i] (two hex digits, as RE2 and JS both read it: one character, never an
 * operator, also inside a class), as JS source; undefined for anything else (`\x{…}` included).
 */
function hexEscape(pattern: string, i: number): string | undefined {
  if (pattern[i + 1] !== 'x') return undefined;
  const hh = pattern.slice(i + 2, i + 4);
  return /^[0-9A-Fa-f]{2}$/.test(hh) ? `\\x${hh}` : undefined;
}

function build(pattern: string): CompiledRegex {
  const re = RE2JS.compile(pattern);
  const fast = safeJsRegex(pattern);
  return {
    source: pattern,
    // RE2JS.test is its DFA path: several times faster than a matcher for a yes/no answer.
    test: !fast ? (s) => re.test(s) : pattern.startsWith('^') ? (s) => fast.test(s) : (s) => (s.length <= MAX_UNANCHORED_FAST_INPUT ? fast.test(s) : re.test(s)),
    find: (s) => {
      const m = re.matcher(s);
      if (!m.find()) return undefined;
      const groups: (string | undefined)[] = [];
      for (let i = 1; i <= m.groupCount(); i++) groups.push(m.group(i) ?? undefined);
      return { match: m.group(0) ?? '', groups };
    },
    findAll: (s, limit) => {
      const out: string[] = [];
      const m = re.matcher(s);
      while ((limit < 0 || out.length < limit) && m.find()) out.push(m.group(0) ?? '');
      return out;
    },
  };
}

/** Compile (or fetch from the cache) an RE2 pattern; throws RegexSyntaxError with Go's message. */
export function compileRegex(pattern: string): CompiledRegex {
  // A call site nearly always sees one pattern (a constant): the last one is checked first.
  if (pattern === lastPattern) return lastCompiled!;
  let hit = cache.get(pattern);
  if (hit === undefined) {
    try {
      hit = build(pattern);
    } catch (e) {
      hit = new RegexSyntaxError((e as Error).message);
    }
    if (cache.size >= MAX_CACHE) cache.delete(cache.keys().next().value!);
    cache.set(pattern, hit);
  }
  if (hit instanceof RegexSyntaxError) throw hit;
  lastPattern = pattern;
  lastCompiled = hit;
  return hit;
}
let lastPattern: string | undefined;
let lastCompiled: CompiledRegex | undefined;
