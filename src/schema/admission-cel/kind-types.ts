/**
 * The declared CEL type of a kind's schema for type-checking policy expressions
 * (typechecking.go's declType: common.SchemaDeclType of the resolved schema as a resource root,
 * with a type name assigned): the kind's structural schema — a CRD version's, or a built-in
 * kind's made from its OpenAPI component — as an object type whose nested objects are named after
 * their paths below `typeName`. Undefined where the schema gives no type (then the expression sees
 * dyn, as upstream).
 */
import type { Structural } from '../structural.ts';
import { assignTypeNames, schemaDeclType, type DeclType } from '../cel/types.ts';

export function kindDeclType(schema: Structural | undefined, typeName: string): DeclType | undefined {
  const t = schemaDeclType(schema, true);
  return t === undefined ? undefined : assignTypeNames(t, typeName);
}
