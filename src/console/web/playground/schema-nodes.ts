/**
 * A CRD schema's nodes as the playground names them (`spec.rules[*].matches[*]`: `[*]` an array's
 * items, `.*` a map's values), the rules already on them, and a copy of the schema with one
 * expression as the only rule, on the chosen node: the CRD the playground's expression is
 * compiled, costed and run in, exactly as the server would run it.
 */
import type { JSONSchemaProps } from '../../../schema/index.ts';

type Step = { prop: string } | { items: true } | { values: true };

/** The steps of a node path (`''` is the root). */
export function parseNodePath(path: string): Step[] | string {
  const steps: Step[] = [];
  const re = /\[\*\]|\.\*|\.?([^.[\]*]+)/gy;
  let m: RegExpExecArray | null;
  let at = 0;
  while (at < path.length && (m = re.exec(path)) !== null) {
    if (m[0] === '[*]') steps.push({ items: true });
    else if (m[0] === '.*') steps.push({ values: true });
    else steps.push({ prop: m[1]! });
    at = re.lastIndex;
  }
  if (at !== path.length) return `invalid schema path "${path}" (write it as spec.rules[*].name, maps' values as .*)`;
  return steps;
}

function child(s: JSONSchemaProps | undefined, step: Step): JSONSchemaProps | undefined {
  if (s === undefined) return undefined;
  if ('prop' in step) return s.properties?.[step.prop];
  if ('items' in step) return Array.isArray(s.items) ? undefined : (s.items as JSONSchemaProps | undefined);
  return typeof s.additionalProperties === 'object' ? (s.additionalProperties as JSONSchemaProps) : undefined;
}

/** The node at a path, or undefined. */
export function nodeAt(schema: JSONSchemaProps, path: string): JSONSchemaProps | undefined {
  const steps = parseNodePath(path);
  if (typeof steps === 'string') return undefined;
  let s: JSONSchemaProps | undefined = schema;
  for (const st of steps) s = child(s, st);
  return s;
}

/** Every node's path, root first, depth first (bounded: schemas of real CRDs have thousands). */
export function schemaNodes(schema: JSONSchemaProps, limit = 5000): string[] {
  const out: string[] = [];
  const walk = (s: JSONSchemaProps, path: string, depth: number) => {
    if (out.length >= limit || depth > 64) return;
    out.push(path);
    for (const [k, v] of Object.entries(s.properties ?? {})) walk(v, path === '' ? k : `${path}.${k}`, depth + 1);
    if (s.items && !Array.isArray(s.items)) walk(s.items as JSONSchemaProps, `${path}[*]`, depth + 1);
    if (typeof s.additionalProperties === 'object') walk(s.additionalProperties as JSONSchemaProps, `${path}.*`, depth + 1);
  };
  walk(schema, '', 0);
  return out;
}

/** The x-kubernetes-validations rules of a schema with their nodes' paths. */
export function schemaRules(schema: JSONSchemaProps): { node: string; rule: string; message?: string }[] {
  const out: { node: string; rule: string; message?: string }[] = [];
  for (const node of schemaNodes(schema)) {
    for (const r of nodeAt(schema, node)?.['x-kubernetes-validations'] ?? []) out.push({ node, rule: r.rule, ...(r.message ? { message: r.message } : {}) });
  }
  return out;
}

function stripRules(v: unknown): void {
  if (Array.isArray(v)) for (const x of v) stripRules(x);
  else if (v !== null && typeof v === 'object') {
    delete (v as Record<string, unknown>)['x-kubernetes-validations'];
    for (const x of Object.values(v)) stripRules(x);
  }
}

/** A copy of the schema whose only rule is `rule`, on the node at `path`; or why it cannot be. */
export function withOnlyRule(schema: JSONSchemaProps, path: string, rule: string): JSONSchemaProps | string {
  const copy = structuredClone(schema);
  stripRules(copy);
  const node = nodeAt(copy, path);
  if (node === undefined) return `the schema has no node at "${path}"`;
  node['x-kubernetes-validations'] = [{ rule }];
  return copy;
}

/** The values of an object at a node path (every item of every array on the way). */
export function valuesAt(obj: unknown, path: string): unknown[] {
  const steps = parseNodePath(path);
  if (typeof steps === 'string') return [];
  let vals: unknown[] = obj === undefined ? [] : [obj];
  for (const st of steps) {
    const next: unknown[] = [];
    for (const v of vals) {
      if ('prop' in st) {
        if (v !== null && typeof v === 'object' && !Array.isArray(v) && Object.hasOwn(v, st.prop)) next.push((v as Record<string, unknown>)[st.prop]);
      } else if ('items' in st) {
        if (Array.isArray(v)) next.push(...v);
      } else if (v !== null && typeof v === 'object' && !Array.isArray(v)) next.push(...Object.values(v));
    }
    vals = next;
  }
  return vals;
}
