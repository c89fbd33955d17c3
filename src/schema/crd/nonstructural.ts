/**
 * The NonStructuralSchema condition of a CRD (apiextensions-apiserver
 * pkg/controller/nonstructuralschema): `spec.preserveUnknownFields: true` and every structural
 * violation of every version's schema, aggregated into one message.
 */
import { Path } from '../../apimachinery/index.ts';
import { aggregateString, invalid, type FieldError } from '../../apimachinery/index.ts';
import { newStructural, StructuralError } from '../structural.ts';
import type { JSONSchemaProps } from '../types.ts';
import { validateStructural } from './structural-checks.ts';

export interface NonStructuralInput {
  preserveUnknownFields: boolean;
  /** spec.versions of a v1 CRD: each version's `schema.openAPIV3Schema`. */
  versions: readonly { name: string; schema?: { openAPIV3Schema?: JSONSchemaProps | null } | null }[];
}

export interface NonStructuralCondition {
  reason: 'Violations' | 'StructuralError';
  message: string;
  errors: FieldError[];
}

/** calculateCondition: undefined when the CRD is structural (no condition). */
export function nonStructuralCondition(crd: NonStructuralInput): NonStructuralCondition | undefined {
  const errs: FieldError[] = [];
  if (crd.preserveUnknownFields) {
    errs.push(invalid(Path.of('spec', 'preserveUnknownFields'), true, 'must be false'));
  }
  for (let i = 0; i < crd.versions.length; i++) {
    const v = crd.versions[i]!;
    const schema = v.schema?.openAPIV3Schema;
    if (schema === undefined || schema === null) continue;
    let s;
    try {
      s = newStructural(schema);
    } catch (e) {
      if (!(e instanceof StructuralError)) throw e;
      return { reason: 'StructuralError', message: `failed to check validation schema for version ${v.name}: ${e.message}`, errors: [] };
    }
    errs.push(...validateStructural(Path.of('spec', 'versions').index(i).child('schema', 'openAPIV3Schema'), s));
  }
  if (errs.length === 0) return undefined;
  return { reason: 'Violations', message: aggregateString(errs), errors: errs };
}
