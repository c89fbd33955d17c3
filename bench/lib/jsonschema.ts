/**
 * Converts a CRD's openAPIV3Schema (OpenAPI 3.0 / Kubernetes dialect) into the equivalent JSON
 * Schema (draft-07, as ajv reads it), so that a peer validator checks the same constraints on the
 * same objects. What has no JSON Schema equivalent is dropped and reported in `notes`: the
 * `x-kubernetes-*` extensions (CEL rules, list types, embedded resources, preserve-unknown-fields,
 * which only prune) and formats the peer does not know.
 */
import type { JSONSchemaProps } from '../../src/schema/types.ts';

export interface ConvertOptions {
  /** Format names the peer validates; other formats are dropped with a note. */
  knownFormats: ReadonlySet<string>;
  /**
   * Mark where Kubernetes prunes: objects with `properties`, no `additionalProperties` and no
   * `x-kubernetes-preserve-unknown-fields` get `additionalProperties: false`, which ajv's
   * `removeAdditional: true` turns into removal. For a write-path peer only: as a validation
   * schema it would reject what Kubernetes drops.
   */
  prune?: boolean;
}

export interface Conversion {
  /** The JSON Schema. */
  schema: Record<string, unknown>;
  /** What was dropped or rewritten and could change a verdict, one line each, in schema order. */
  notes: string[];
}

/** Keywords copied as they are: same spelling and meaning in OpenAPI 3.0 schemas and draft-07. */
const SAME = new Set([
  'title',
  'description',
  'default',
  'maxLength',
  'minLength',
  'pattern',
  'maxItems',
  'minItems',
  'uniqueItems',
  'multipleOf',
  'maxProperties',
  'minProperties',
  'required',
  'enum',
]);

/** Keywords that only annotate (no JSON Schema meaning, no effect on a verdict): dropped silently. */
const ANNOTATIONS = new Set(['example', 'externalDocs', 'id', '$schema']);

/**
 * toJSONSchema: the JSON Schema equivalent of a CRD version's openAPIV3Schema.
 *
 * - `nullable: true` adds `"null"` to the type (and to the enum, which would otherwise reject it);
 * - `x-kubernetes-int-or-string: true` becomes `type: [integer, string]`;
 * - OpenAPI's boolean `exclusiveMaximum`/`exclusiveMinimum` become draft-07's numeric ones;
 * - with `prune`, objects Kubernetes prunes get `additionalProperties: false` (see ConvertOptions);
 * - `x-kubernetes-*` keys are dropped (counted in the notes), as are unknown formats (each noted
 *   with its path) and pure annotations (`example`, `externalDocs`).
 *
 * The input is not modified.
 */
export function toJSONSchema(schema: JSONSchemaProps, opts: ConvertOptions): Conversion {
  const notes: string[] = [];
  const dropped = new Map<string, number>();
  const out = convert(schema as Record<string, unknown>, '', opts, notes, dropped);
  for (const [k, n] of dropped) notes.push(`dropped ${k} (${n} ${n === 1 ? 'place' : 'places'})`);
  return { schema: out, notes };
}

function convert(
  s: Record<string, unknown>,
  path: string,
  opts: ConvertOptions,
  notes: string[],
  dropped: Map<string, number>,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const sub = (x: unknown, p: string): Record<string, unknown> => convert(x as Record<string, unknown>, p, opts, notes, dropped);
  for (const [k, v] of Object.entries(s)) {
    if (v === undefined) continue;
    if (SAME.has(k)) {
      out[k] = v;
      continue;
    }
    switch (k) {
      case 'type':
      case 'nullable':
      case 'x-kubernetes-int-or-string':
      case 'maximum':
      case 'minimum':
      case 'exclusiveMaximum':
      case 'exclusiveMinimum':
        break; // combined below
      case 'format': {
        if (opts.knownFormats.has(v as string)) out.format = v;
        else notes.push(`dropped format "${String(v)}" at ${path || '.'} (not a format the peer knows)`);
        break;
      }
      case 'properties':
      case 'patternProperties':
      case 'definitions': {
        const m: Record<string, unknown> = {};
        for (const [name, p] of Object.entries(v as Record<string, unknown>)) m[name] = sub(p, k === 'properties' ? `${path}.${name}` : `${path}.*`);
        out[k] = m;
        break;
      }
      case 'additionalProperties':
      case 'additionalItems':
        out[k] = typeof v === 'boolean' ? v : sub(v, k === 'additionalProperties' ? `${path}.*` : `${path}[*]`);
        break;
      case 'items':
        out.items = Array.isArray(v) ? v.map((x, i) => sub(x, `${path}[${i}]`)) : sub(v, `${path}[*]`);
        break;
      case 'allOf':
      case 'anyOf':
      case 'oneOf':
        out[k] = (v as unknown[]).map((x) => sub(x, path));
        break;
      case 'not':
        out.not = sub(v, path);
        break;
      case 'dependencies': {
        const m: Record<string, unknown> = {};
        for (const [name, d] of Object.entries(v as Record<string, unknown>)) m[name] = Array.isArray(d) ? d : sub(d, path);
        out.dependencies = m;
        break;
      }
      default:
        if (k.startsWith('x-kubernetes-')) dropped.set(k, (dropped.get(k) ?? 0) + 1);
        else if (!ANNOTATIONS.has(k)) notes.push(`dropped unknown keyword "${k}" at ${path || '.'}`);
    }
  }

  // type, nullable and int-or-string decide the JSON Schema type together.
  let types: string[] | undefined;
  if (s['x-kubernetes-int-or-string'] === true) types = ['integer', 'string'];
  else if (typeof s.type === 'string' && s.type !== '') types = [s.type];
  if (s.nullable === true) {
    if (types) types.push('null');
    if (Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...out.enum, null];
  }
  if (types) out.type = types.length === 1 ? types[0] : types;

  if (
    opts.prune &&
    s.properties !== undefined &&
    s.additionalProperties === undefined &&
    s['x-kubernetes-preserve-unknown-fields'] !== true &&
    s['x-kubernetes-embedded-resource'] !== true // keeps apiVersion, kind, metadata: left open
  ) {
    out.additionalProperties = false;
  }

  // OpenAPI 3.0 (draft-04 style): exclusiveMaximum is a boolean modifier of maximum.
  if (s.maximum !== undefined) {
    if (s.exclusiveMaximum === true) out.exclusiveMaximum = s.maximum;
    else out.maximum = s.maximum;
  }
  if (s.minimum !== undefined) {
    if (s.exclusiveMinimum === true) out.exclusiveMinimum = s.minimum;
    else out.minimum = s.minimum;
  }
  return out;
}
