/**
 * Running ported Kubernetes validation tables as data: each vector file names a built-in
 * resource and holds cases (an object, on update its stored predecessor, and the exact errors a
 * cluster reports, ObjectMeta's included) and skipped cases with their reasons. Each case runs
 * through the kind's real strategy (the common ObjectMeta checks, then its native rules).
 * Long values are written `{"$repeat": "a", "times": 254}` (with `"base64": true` for []byte
 * fields) so that size limits can be tested without megabytes of JSON.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { errorString, nameIsDNSSubdomain } from '../../apimachinery/index.ts';
import type { NativeRules } from '../builtin/native.ts';
import { validateObjectMetaUpdateOnly, validateObjectMetaWith } from '../objectmeta-checks.ts';
import { builtinResources } from '../builtin/catalog.ts';
import { BuiltinStrategy } from '../builtin/strategy.ts';
import type { Obj } from '../rest.ts';
import type { RequestContext } from '../strategy.ts';

export interface VectorCase {
  name: string;
  /** The object as the rules see it (in its storage version, with its defaults). */
  object: Obj;
  /** On update: the stored object. */
  old?: Obj;
  /** The errors, as field.Error.Error() prints them, in upstream's order. */
  errors: string[];
  /** Warnings the strategy returns, when the case checks them. */
  warnings?: string[];
}

export interface VectorFile {
  source: string;
  /** `group/resource` of the kind. */
  resource: string;
  /**
   * The API group the writes come through, when the kind's rules depend on it (Events): the
   * cases then run the rules for that group (`eventRules`), after the strategy's ObjectMeta checks.
   */
  requestGroup?: string;
  /** The fewest cases the file may hold (so that a truncated file fails). */
  minCases: number;
  cases: VectorCase[];
  skipped: { name: string; reason: string }[];
}

/** Expands `{"$repeat": s, "times": n, "base64"?: true}` anywhere in a value. */
export function expand(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(expand);
  if (v === null || typeof v !== 'object') return v;
  const o = v as Record<string, unknown>;
  if (typeof o.$repeat === 'string' && typeof o.times === 'number') {
    const s = o.$repeat.repeat(o.times);
    return o.base64 === true ? Buffer.from(s, 'utf8').toString('base64') : s;
  }
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(o)) out[String(expand(k))] = expand(x);
  return out;
}

/** The vector files of a folder under testdata/k8s-native/. */
export function vectorFiles(folder: string): { file: string; vectors: VectorFile }[] {
  const dir = new URL(`../../../testdata/k8s-native/${folder}/`, import.meta.url);
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((file) => ({ file, vectors: JSON.parse(readFileSync(new URL(file, dir), 'utf8')) as VectorFile }));
}

const strategies = new Map<string, BuiltinStrategy>();

/** The kind's real strategy (its schema is never compiled: native rules stand in for it). */
function strategyOf(resource: string): BuiltinStrategy {
  let s = strategies.get(resource);
  if (s === undefined) {
    const r = builtinResources().find((x) => `${x.group}/${x.resource}` === resource);
    if (r === undefined) throw new Error(`no built-in resource ${resource}`);
    s = new BuiltinStrategy(r, () => {
      throw new Error(`${resource} fell back to its OpenAPI schema: it has no native rules`);
    });
    strategies.set(resource, s);
  }
  return s;
}

/** Another set of rules for a kind than the one registered (see VectorFile.requestGroup). */
export interface RulesOverride {
  rules: NativeRules;
}

const context = (): RequestContext => ({ warnings: [], fieldValidation: 'Strict', dryRun: false });

/** What the strategy says of a case: its errors and warnings, printed. */
export function runCase(resource: string, c: VectorCase, override?: RulesOverride): { errors: string[]; warnings: string[] } {
  if (override !== undefined) return runWith(strategyOf(resource), override.rules, c);
  const s = strategyOf(resource);
  const obj = expand(c.object) as Obj;
  const ctx = context();
  if (c.old === undefined) return { errors: s.validate(ctx, obj).map(errorString), warnings: s.warningsOnCreate(ctx, obj) };
  const old = expand(c.old) as Obj;
  return { errors: s.validateUpdate(ctx, obj, old).map(errorString), warnings: s.warningsOnUpdate(ctx, obj, old) };
}

/** The strategy's order with other rules: ObjectMeta (update: its update rules), then the rules. */
function runWith(s: BuiltinStrategy, rules: NativeRules, c: VectorCase): { errors: string[]; warnings: string[] } {
  const obj = expand(c.object) as Obj;
  const ctx = context();
  if (c.old === undefined) {
    return { errors: [...validateObjectMetaWith(obj, s.namespaced, nameIsDNSSubdomain), ...(rules.validate?.(ctx, obj) ?? [])].map(errorString), warnings: [] };
  }
  const old = expand(c.old) as Obj;
  return { errors: [...validateObjectMetaUpdateOnly(obj, old), ...(rules.validateUpdate?.(ctx, obj, old) ?? [])].map(errorString), warnings: [] };
}
