/**
 * One MutatingAdmissionPolicy compiled and evaluated (k8s.io/apiserver pkg/admission/plugin/
 * policy/mutating compilation.go and dispatcher.go's evaluation of one policy, binding and
 * param): variables, matchConditions and the mutations — `Object{...}` apply configurations and
 * `JSONPatch` lists — compiled once per policy generation; `mutate` returns the object after
 * every mutation in order, or the error under the failure policy.
 */
import { BoolType, CelError, listOf } from '../../../cel/index.ts';
import type { TypeConverter } from '../../../apimachinery/index.ts';
import {
  AdmissionActivation,
  AdmissionCompiler,
  JSON_PATCH_TYPE,
  OBJECT_TYPE,
  evaluateAdmissionExpression,
  patchObjectToJSON,
  patchTypeNamesIn,
  type AdmissionInput,
  type CompiledExpression,
} from '../../../schema/index.ts';
import type { Obj } from '../../../registry/index.ts';
import { RUNTIME_CEL_COST_BUDGET } from '../validator.ts';
import { matchConditions, type MatchConditionResult } from '../../match-conditions.ts';
import { applyConfiguration, PatchError } from './apply-configuration.ts';
import { applyJSONPatchMutation, jsonPatchOperations } from './json-patch.ts';

interface CompiledMutation {
  patchType: 'ApplyConfiguration' | 'JSONPatch';
  expression: CompiledExpression;
}

const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const arr = (v: unknown): Obj[] => (Array.isArray(v) ? (v as Obj[]) : []);

/** What one evaluation did: the object (changed or not), whether it matched, or an error. */
export type MutateResult = { matched: false; error?: string } | { matched: true; object: Obj; error?: string };

export class PolicyMutator {
  readonly failurePolicy: 'Fail' | 'Ignore';
  readonly reinvocationPolicy: 'Never' | 'IfNeeded';
  private readonly compiler = new AdmissionCompiler();
  private readonly matchConditions: CompiledExpression[];
  private readonly mutations: CompiledMutation[];

  /** Compiles `spec`, a MutatingAdmissionPolicySpec. */
  constructor(spec: Obj) {
    this.failurePolicy = spec.failurePolicy === 'Ignore' ? 'Ignore' : 'Fail';
    this.reinvocationPolicy = spec.reinvocationPolicy === 'IfNeeded' ? 'IfNeeded' : 'Never';
    const hasParams = spec.paramKind !== undefined && spec.paramKind !== null;
    const decls = { hasParams, hasAuthorizer: true };
    for (const v of arr(spec.variables)) this.compiler.compileVariable(str(v.name), str(v.expression), decls);
    this.matchConditions = arr(spec.matchConditions).map((m) => this.compiler.compile(str(m.expression), [BoolType], decls));
    this.mutations = arr(spec.mutations).map((m) => {
      if (m.patchType === 'JSONPatch') {
        const e = str((m.jsonPatch as Obj | undefined)?.expression);
        return { patchType: 'JSONPatch', expression: this.compiler.compile(e, [listOf(JSON_PATCH_TYPE)], { ...decls, patchTypeNames: patchTypeNamesIn(e) }) };
      }
      const e = str((m.applyConfiguration as Obj | undefined)?.expression);
      return { patchType: 'ApplyConfiguration', expression: this.compiler.compile(e, [OBJECT_TYPE], { ...decls, patchTypeNames: patchTypeNamesIn(e) }) };
    });
  }

  /**
   * matchconditions.Matcher.Match, as for ValidatingAdmissionPolicies; every error is returned
   * (the plugin applies the failure policy).
   */
  private matches(input: AdmissionInput): MatchConditionResult {
    return matchConditions(this.matchConditions, input, this.compiler.variables, 'Fail');
  }

  /**
   * The object after every mutation, each seeing the result of the one before (`input.object` is
   * not changed). `typeConverter` types apply configurations with the object's schema.
   */
  mutate(input: AdmissionInput, typeConverter: TypeConverter, budget = RUNTIME_CEL_COST_BUDGET): MutateResult {
    const mc = this.matches(input);
    if (mc.error !== undefined) return { matched: false, error: mc.error };
    if (!mc.matches) return { matched: false };
    let object = input.object as Obj;
    let remaining = budget;
    for (const m of this.mutations) {
      const act = new AdmissionActivation({ ...input, object, conversions: undefined }, this.compiler.variables);
      const r = evaluateAdmissionExpression(m.expression, act, remaining);
      if (r.outOfBudget !== undefined) return { matched: true, object, error: r.outOfBudget };
      if (r.error !== undefined) return { matched: true, object, error: r.error };
      remaining = r.remaining;
      try {
        if (m.patchType === 'JSONPatch') object = applyJSONPatchMutation(object, jsonPatchOperations(r.value!));
        else {
          const patch = patchObjectToJSON(r.value!);
          if (patch instanceof CelError) return { matched: true, object, error: patch.message };
          object = applyConfiguration(typeConverter, object, patch as Obj);
        }
      } catch (e) {
        if (e instanceof PatchError) return { matched: true, object, error: e.message };
        throw e;
      }
    }
    return { matched: true, object };
  }
}
