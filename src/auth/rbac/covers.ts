/**
 * Whether one set of RBAC rules covers another, and how the rules it misses are printed
 * (`pkg/registry/rbac/validation/policy_comparator.go` Covers and BreakdownRule,
 * `policy_compact.go` CompactRules, `pkg/apis/rbac/v1/evaluation_helpers.go` CompactString). The
 * escalation check asks this of the rules a user holds and the rules a role or binding would grant.
 */
import { goQuote } from '../../apimachinery/index.ts';
import type { PolicyRule } from './rules.ts';

const has = (set: readonly string[] | undefined, x: string) => (set ?? []).includes(x);

function hasAll(set: readonly string[] | undefined, xs: readonly string[] | undefined): boolean {
  const owned = new Set(set ?? []);
  return (xs ?? []).every((x) => owned.has(x));
}

/**
 * BreakdownRule: the rule as rules of one group, resource, verb and (when it names any) resource
 * name each, then one non-resource URL and verb each.
 */
export function breakdownRule(rule: PolicyRule): PolicyRule[] {
  const out: PolicyRule[] = [];
  for (const group of rule.apiGroups ?? []) {
    for (const resource of rule.resources ?? []) {
      for (const verb of rule.verbs ?? []) {
        const names = rule.resourceNames ?? [];
        if (names.length > 0) for (const n of names) out.push({ apiGroups: [group], resources: [resource], verbs: [verb], resourceNames: [n] });
        else out.push({ apiGroups: [group], resources: [resource], verbs: [verb] });
      }
    }
  }
  for (const url of rule.nonResourceURLs ?? []) for (const verb of rule.verbs ?? []) out.push({ nonResourceURLs: [url], verbs: [verb] });
  return out;
}

/** `*`, every one exactly, or `*\/sub` for each `resource/sub` not held exactly. */
function resourceCoversAll(owned: readonly string[] | undefined, wanted: readonly string[] | undefined): boolean {
  if (has(owned, '*') || hasAll(owned, wanted)) return true;
  for (const path of wanted ?? []) {
    if (has(owned, path)) continue;
    const slash = path.indexOf('/');
    if (slash < 0) return false;
    if (!has(owned, `*/${path.slice(slash + 1)}`)) return false;
  }
  return true;
}

/** nonResourceURLCovers: the same path, or a prefix ending in `*`. */
export function nonResourceURLCovers(owner: string, path: string): boolean {
  if (owner === path) return true;
  return owner.endsWith('*') && path.startsWith(owner.replace(/\*+$/, ''));
}

function nonResourceURLsCoverAll(owned: readonly string[] | undefined, wanted: readonly string[] | undefined): boolean {
  return (wanted ?? []).every((p) => (owned ?? []).some((o) => nonResourceURLCovers(o, p)));
}

/** ruleCovers: whether `owner` covers `sub`, a rule of at most one verb, resource and name. */
function ruleCovers(owner: PolicyRule, sub: PolicyRule): boolean {
  const verbs = has(owner.verbs, '*') || hasAll(owner.verbs, sub.verbs);
  const groups = has(owner.apiGroups, '*') || hasAll(owner.apiGroups, sub.apiGroups);
  const resources = resourceCoversAll(owner.resources, sub.resources);
  const urls = nonResourceURLsCoverAll(owner.nonResourceURLs, sub.nonResourceURLs);
  const ownerNames = owner.resourceNames ?? [];
  const names = (sub.resourceNames ?? []).length === 0 ? ownerNames.length === 0 : ownerNames.length === 0 || hasAll(ownerNames, sub.resourceNames);
  return verbs && groups && resources && names && urls;
}

/** Covers: whether `owner` covers every part of `servant`, and the broken-down parts it does not. */
export function covers(owner: readonly PolicyRule[], servant: readonly PolicyRule[]): { covered: boolean; missing: PolicyRule[] } {
  const missing: PolicyRule[] = [];
  for (const rule of servant) {
    for (const sub of breakdownRule(rule)) if (!owner.some((o) => ruleCovers(o, sub))) missing.push(sub);
  }
  return { covered: missing.length === 0, missing };
}

/** isSimpleResourceRule: verbs on one group and one resource (and at most one name), nothing else; its key. */
export function simpleResourceKey(rule: PolicyRule): string | undefined {
  const names = rule.resourceNames ?? [];
  if (names.length > 1 || (rule.nonResourceURLs ?? []).length > 0) return undefined;
  if ((rule.apiGroups ?? []).length !== 1 || (rule.resources ?? []).length !== 1) return undefined;
  // reflect.DeepEqual against the rule rebuilt from those fields: an empty non-nil
  // nonResourceURLs makes the rule complex there too.
  if (rule.nonResourceURLs !== undefined) return undefined;
  return JSON.stringify([rule.apiGroups![0], rule.resources![0], names.length > 0, names[0] ?? '']);
}

/**
 * CompactRules: simple resource rules that differ only by verb merged into one (verbs in first
 * seen order), after the rules that are not simple. Does not change its input.
 */
export function compactRules(rules: readonly PolicyRule[]): PolicyRule[] {
  const compacted: PolicyRule[] = [];
  const simple = new Map<string, PolicyRule>();
  for (const rule of rules) {
    const key = simpleResourceKey(rule);
    if (key === undefined) {
      compacted.push(rule);
      continue;
    }
    const existing = simple.get(key);
    if (existing === undefined) {
      simple.set(key, { ...rule, ...(rule.verbs ? { verbs: [...rule.verbs] } : {}) });
      continue;
    }
    const verbs = (existing.verbs ??= []);
    for (const v of rule.verbs ?? []) if (!verbs.includes(v)) verbs.push(v);
  }
  return [...compacted, ...simple.values()];
}

/** Go's %q of a []string: `["a" "b"]`. */
export function goQuoteList(xs: readonly string[]): string {
  return `[${xs.map(goQuote).join(' ')}]`;
}

/** CompactString: `{APIGroups:[""], Resources:["pods"], Verbs:["get"]}`, fields present only when non-empty. */
export function compactString(r: PolicyRule): string {
  const parts: string[] = [];
  const field = (name: string, xs: readonly string[] | undefined) => {
    if ((xs ?? []).length > 0) parts.push(`${name}:${goQuoteList(xs!)}`);
  };
  field('APIGroups', r.apiGroups);
  field('Resources', r.resources);
  field('NonResourceURLs', r.nonResourceURLs);
  field('ResourceNames', r.resourceNames);
  field('Verbs', r.verbs);
  return `{${parts.join(', ')}}`;
}
