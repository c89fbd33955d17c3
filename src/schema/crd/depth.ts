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

/**
 * Pushes the sub-schemas of s onto `stack`, each with `depth` on `depths`, in any order (every
 * keyword that holds schemas). Reads the node's own keys once: decoded schemas come in thousands
 * of shapes, and reading a dozen mostly absent keywords by name made every read a megamorphic
 * lookup. `for...in` (a schema is JSON data: its keys are its own) walks them about twice as fast
 * as Object.keys, and nothing is gathered in between.
 */
function pushSubSchemas(s: JSONSchemaProps, depth: number, stack: unknown[], depths: number[]): void {
  const o = s as Record<string, unknown>;
  for (const k in o) {
    const v = o[k];
    if (v === null || typeof v !== 'object') continue;
    switch (k) {
      case 'items':
      case 'allOf':
      case 'anyOf':
      case 'oneOf':
        if (Array.isArray(v)) {
          for (const x of v) if (x !== null && typeof x === 'object' && !Array.isArray(x)) (stack.push(x), depths.push(depth));
        } else if (k === 'items') (stack.push(v), depths.push(depth));
        break;
      case 'not':
      case 'additionalProperties':
      case 'additionalItems':
        if (!Array.isArray(v)) (stack.push(v), depths.push(depth));
        break;
      case 'properties':
      case 'patternProperties':
      case 'definitions':
      case 'dependencies': {
        const m = v as Record<string, unknown>;
        for (const name in m) {
          const x = m[name];
          if (x !== null && typeof x === 'object' && !Array.isArray(x)) (stack.push(x), depths.push(depth));
        }
        break;
      }
    }
  }
}

/** How many schema levels s nests (0 for none), counted with an explicit stack. */
export function schemaDepth(s: JSONSchemaProps | null | undefined): number {
  if (s === null || s === undefined || typeof s !== 'object') return 0;
  let max = 0;
  const stack: unknown[] = [s];
  const depths: number[] = [1];
  while (stack.length > 0) {
    const x = stack.pop() as JSONSchemaProps;
    const d = depths.pop()!;
    if (d > max) max = d;
    if (d > maxSchemaDepth) break;
    pushSubSchemas(x, d + 1, stack, depths);
  }
  return max;
}

/** A Forbidden error at path when the schema there nests deeper than maxSchemaDepth. */
export function validateSchemaDepth(s: JSONSchemaProps | null | undefined, path: Path): FieldError[] {
  if (schemaDepth(s) <= maxSchemaDepth) return [];
  return [forbidden(path, `must not nest more than ${maxSchemaDepth} levels of schemas`)];
}
