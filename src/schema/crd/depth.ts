/**
 * The nesting bound on CRD schemas. Every schema algorithm here (structural conversion, the CRD
 * checks, compiled validation, pruning, defaulting, CEL types) recurses over the schema, one or
 * more stack frames per level; a schema nested a thousand levels deep exhausts the JS stack. A
 * request body may nest 10000 levels, so a CRD could carry a schema some 5000 levels deep:
 * kube-apiserver (with Go's growable stacks) has no bound of its own here. We refuse schemas
 * nested deeper than maxSchemaDepth before any of those walks runs, with a field error, rather
 * than fail at an unknown depth; real CRDs nest a few dozen levels.
 */
import { forbidden, type FieldError } from '../../apimachinery/index.ts';
import type { Path } from '../../apimachinery/index.ts';
import type { JSONSchemaProps } from '../types.ts';

/** Schema levels accepted (the root schema is level 1); half of what every walk was measured to survive. */
export const maxSchemaDepth = 500;

/** The sub-schemas of s, in any order (every keyword that holds schemas). */
function subSchemas(s: JSONSchemaProps): unknown[] {
  const out: unknown[] = [];
  const push = (x: unknown) => {
    if (x !== null && typeof x === 'object' && !Array.isArray(x)) out.push(x);
  };
  if (Array.isArray(s.items)) s.items.forEach(push);
  else push(s.items);
  for (const l of [s.allOf, s.anyOf, s.oneOf]) if (Array.isArray(l)) l.forEach(push);
  push(s.not);
  push(s.additionalProperties);
  push(s.additionalItems);
  for (const m of [s.properties, s.patternProperties, s.definitions, s.dependencies]) {
    if (m !== null && typeof m === 'object') Object.values(m).forEach(push);
  }
  return out;
}

/** How many schema levels s nests (0 for none), counted with an explicit stack. */
export function schemaDepth(s: JSONSchemaProps | null | undefined): number {
  if (s === null || s === undefined || typeof s !== 'object') return 0;
  let max = 0;
  const stack: Array<[JSONSchemaProps, number]> = [[s, 1]];
  while (stack.length > 0) {
    const [x, d] = stack.pop()!;
    if (d > max) max = d;
    if (d > maxSchemaDepth) break;
    for (const c of subSchemas(x)) stack.push([c as JSONSchemaProps, d + 1]);
  }
  return max;
}

/** A Forbidden error at path when the schema there nests deeper than maxSchemaDepth. */
export function validateSchemaDepth(s: JSONSchemaProps | null | undefined, path: Path): FieldError[] {
  if (schemaDepth(s) <= maxSchemaDepth) return [];
  return [forbidden(path, `must not nest more than ${maxSchemaDepth} levels of schemas`)];
}
