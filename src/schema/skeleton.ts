/**
 * Structural-schema transformations used when publishing a CRD's OpenAPI (apiextensions-apiserver
 * pkg/apiserver/schema/unfold.go and skeleton.go): Unfold makes x-kubernetes-int-or-string explicit
 * as anyOf [integer, string]; StripValueValidations and StripNullable drop what published
 * (v2) schemas cannot express.
 */
import { type NestedValueValidation, type Structural, type ValueValidation } from './structural.ts';
import { isIntOrStringAllOfPattern, isIntOrStringAnyOfPattern } from './crd/structural-checks.ts';

/** Visit every Structural node (not nested value validations), parents first. */
function visit(s: Structural, f: (s: Structural) => void): void {
  f(s);
  if (s.items) visit(s.items, f);
  if (s.properties) for (const p of s.properties.values()) visit(p, f);
  if (s.additionalProperties?.structural) visit(s.additionalProperties.structural, f);
}

/** A deep copy of a structural schema (JSON values such as defaults are shared, not copied). */
export function cloneStructural(s: Structural): Structural {
  const out: Structural = { ...s };
  if (s.items) out.items = cloneStructural(s.items);
  if (s.properties) out.properties = new Map([...s.properties].map(([k, v]) => [k, cloneStructural(v)]));
  if (s.additionalProperties) {
    out.additionalProperties = { bool: s.additionalProperties.bool };
    if (s.additionalProperties.structural) out.additionalProperties.structural = cloneStructural(s.additionalProperties.structural);
  }
  if (s.valueValidation) out.valueValidation = cloneValueValidation(s.valueValidation);
  return out;
}

function cloneValueValidation<T extends ValueValidation>(v: T): T {
  const out = { ...v };
  if (v.allOf) out.allOf = v.allOf.map(cloneNested);
  if (v.anyOf) out.anyOf = v.anyOf.map(cloneNested);
  if (v.oneOf) out.oneOf = v.oneOf.map(cloneNested);
  if (v.not) out.not = cloneNested(v.not);
  return out;
}

function cloneNested(v: NestedValueValidation): NestedValueValidation {
  const out = cloneValueValidation(v);
  if (v.items) out.items = cloneNested(v.items);
  if (v.properties) out.properties = new Map([...v.properties].map(([k, p]) => [k, cloneNested(p)]));
  if (v.additionalProperties) out.additionalProperties = cloneNested(v.additionalProperties);
  return out;
}

function typeOnly(t: string): NestedValueValidation {
  return {
    format: '',
    exclusiveMaximum: false,
    exclusiveMinimum: false,
    pattern: '',
    uniqueItems: false,
    forbiddenGenerics: { description: '', type: t, title: '', default: undefined, nullable: false, example: undefined },
    forbiddenExtensions: { xPreserveUnknownFields: false, xEmbeddedResource: false, xIntOrString: false },
  };
}

function emptyValueValidation(): ValueValidation {
  return { format: '', exclusiveMaximum: false, exclusiveMinimum: false, pattern: '', uniqueItems: false };
}

/** Unfold: MUTATES s (and returns it), expanding x-kubernetes-int-or-string into anyOf clauses. */
export function unfold(s: Structural | undefined): Structural | undefined {
  if (s === undefined) return undefined;
  visit(s, (n) => {
    if (!n.xIntOrString || isIntOrStringAnyOfPattern(n) || isIntOrStringAllOfPattern(n)) return;
    n.valueValidation ??= emptyValueValidation();
    const clauses = [typeOnly('integer'), typeOnly('string')];
    if (n.valueValidation.anyOf === undefined) n.valueValidation.anyOf = clauses;
    else n.valueValidation.allOf = [{ ...typeOnly(''), anyOf: clauses }, ...(n.valueValidation.allOf ?? [])];
  });
  return s;
}

/** StripValueValidations: a copy without any value validation. */
export function stripValueValidations(s: Structural): Structural {
  const c = cloneStructural(s);
  visit(c, (n) => {
    delete n.valueValidation;
  });
  return c;
}

/** StripNullable: a copy with nullable false everywhere. */
export function stripNullable(s: Structural): Structural {
  const c = cloneStructural(s);
  visit(c, (n) => {
    n.nullable = false;
  });
  return c;
}
