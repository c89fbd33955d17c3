/**
 * The CEL checker's public face: type-check a parsed expression against an environment (with the
 * AST validators Kubernetes installs), print the checked tree, and estimate its cost statically.
 */
export { check, type CheckedExpr, type Reference } from './checker.ts';
export { CheckEnv, type CheckEnvOptions } from './env.ts';
export { printChecked } from './printer.ts';
export {
  estimateCost,
  type AstNode,
  type CallCostEstimator,
  type CallEstimate,
  type CostEstimate,
  type CostOptions,
  type SizeEstimate,
  type SizeEstimator,
} from './cost.ts';
export { kubernetesCallCost } from './kubernetes-cost.ts';
export {
  kubernetesExtensionCostEstimators,
  listsCostEstimators,
  regexCostEstimators,
  setsCostEstimators,
  stringsCostEstimators,
} from './extension-cost.ts';
export { kubernetesValidators, validateChecked, type ValidatorOptions } from './validators.ts';
export * from './types.ts';
