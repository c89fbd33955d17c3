/**
 * CEL validation rules of CRD schemas (x-kubernetes-validations), the public face:
 *
 * - `compileCELValidator(structural, isResourceRoot)` once per CRD version, then
 *   `validator.validate(obj, oldObj?, { budget, ratcheting })` on every write;
 * - `validateRulesAtCRDWrite(openAPIV3Schema, fldPath, opts)` when a CRD is created or updated
 *   (compile errors, cost limits, the CRD's total cost);
 * - `schemaDeclType` and friends for tools that need the CEL types of a schema.
 */
export { compileCELValidator } from './validation.ts';
export type { CELValidator, CELValidateOptions, CELValidationResult, CELCompileOptions } from './validation.ts';
export { validateRulesAtCRDWrite, costErrorMessage, STATIC_ESTIMATED_COST_LIMIT, STATIC_ESTIMATED_CRD_COST_LIMIT } from './crd-rules.ts';
export type { CRDRuleOptions, CRDRuleResult, RuleCost } from './crd-rules.ts';
export { compileRules } from './compile.ts';
export type { CompiledRule, CompileRulesOptions, RuleError } from './compile.ts';
export { PER_CALL_LIMIT, RUNTIME_CEL_COST_BUDGET, MAX_EVALUATED_MESSAGE_EXPRESSION_SIZE_BYTES } from './env.ts';
export { schemaDeclType, withTypeAndObjectMeta, maxCardinality, MAX_REQUEST_SIZE_BYTES } from './types.ts';
export type { DeclType, DeclField } from './types.ts';
export { escape, unescape } from './escaping.ts';
