/**
 * RE2 regular expressions in linear time, shared by CEL's `matches`/`find`/`findAll` and by
 * schema `pattern` validation. Go's regexp package is RE2; re2js is a port of it, so syntax and
 * error messages (`error parsing regexp: missing closing ): ...`) match what Kubernetes prints.
 * Compiled patterns are cached: rules and schemas reuse a handful of patterns on every request.
 */
import { RE2JS } from 're2js';

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

const MAX_CACHE = 1024;
const cache = new Map<string, CompiledRegex | RegexSyntaxError>();

function build(pattern: string): CompiledRegex {
  const re = RE2JS.compile(pattern);
  return {
    source: pattern,
    test: (s) => re.matcher(s).find(),
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
  return hit;
}
