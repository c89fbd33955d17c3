/**
 * The CEL environment of admission policies (k8s.io/apiserver pkg/admission/plugin/cel): compiling
 * expressions with the admission variables and evaluating them within budgets. Here, below the
 * registry, so that write-time checks of policy objects and the admission plugins share it.
 */
export { AdmissionCompiler, type CompiledExpression, type CompiledVariable, type OptionalDeclarations, type ReturnTypes, type TypeOverwrite } from './compile.ts';
export { kindDeclType } from './kind-types.ts';
export { AdmissionActivation, OUT_OF_BUDGET, evaluate, namespaceObjectValue, type AdmissionInput, type AuthorizerUser, type Evaluation } from './activation.ts';
export { NAMESPACE_TYPE, REQUEST_TYPE, VARIABLES_TYPE, admissionTypeProvider } from './types.ts';
export { JSON_PATCH_TYPE, OBJECT_TYPE, patchObjectToJSON, patchTypeNamesIn } from './patch-types.ts';
