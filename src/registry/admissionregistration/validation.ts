/**
 * Object validation of the admission policy kinds, as kube-apiserver's
 * `ValidateValidatingAdmissionPolicy(+Update, +StatusUpdate)`, `...Binding(+Update)`,
 * `ValidateMutatingAdmissionPolicy(+Update)` and `...Binding(+Update)`: the spec rules after
 * ObjectMeta (which the strategy validates), every error collected in upstream's order with its
 * message. Expressions are compiled by the installed PolicyExpressionChecker.
 */
import { duplicate, invalid, jsonEqual, nameIsDNSSubdomain, notSupported, required, validateConditions, Path, type FieldError } from '../../apimachinery/index.ts';
import {
  checkExpression,
  supportedFailurePolicies,
  validateMatchConditions,
  validateMatchResources,
  validateMutatingOperations,
  validateParamKind,
  validateParamRef,
  validateQualifiedName,
  validateValidationActions,
  validateVariable,
  type ExpressionContext,
} from './rules.ts';
import { validateFieldRef } from './status-validation.ts';
import { given, listAt, objectAt, stringAt, stringsAt, type JSONObject } from './values.ts';

const supportedReasons = ['Forbidden', 'Invalid', 'RequestEntityTooLarge'];
const supportedReinvocationPolicies = ['IfNeeded', 'Never'];
const supportedPatchTypes = ['ApplyConfiguration', 'JSONPatch'];
const maxAuditAnnotations = 20;
/** 5 KiB: below the audit annotation value limit (10 KiB), since concatenating expressions produce longer values. */
const maxAuditAnnotationValueExpressionLength = 5 * 1024;

/** A policy object being validated, and on update the stored one. */
interface Options {
  /** Skip matchConditions (an update that changes neither them nor paramKind). */
  ignoreMatchConditions: boolean;
  preexisting: ReadonlySet<string>;
}

const specOf = (obj: JSONObject): JSONObject => objectAt(obj.spec) ?? {};
const nameOf = (obj: JSONObject): string => stringAt(objectAt(obj.metadata)?.name);
const hasNewlines = (s: string) => /[\n\r]/.test(s);

/** Every expression of a policy's spec, to compile unchanged ones in the stored-expressions environment on update. */
function expressionsOf(spec: JSONObject): Set<string> {
  const out = new Set<string>();
  const add = (v: unknown) => {
    if (typeof v === 'string' && v !== '') out.add(v);
  };
  for (const mc of listAt(spec.matchConditions)) add(objectAt(mc)?.expression);
  for (const v of listAt(spec.validations)) {
    add(objectAt(v)?.expression);
    add(objectAt(v)?.messageExpression);
  }
  for (const a of listAt(spec.auditAnnotations)) add(objectAt(a)?.valueExpression);
  for (const v of listAt(spec.variables)) add(objectAt(v)?.expression);
  for (const m of listAt(spec.mutations)) {
    add(objectAt(objectAt(m)?.applyConfiguration)?.expression);
    add(objectAt(objectAt(m)?.jsonPatch)?.expression);
  }
  return out;
}

function updateOptions(obj: JSONObject, old: JSONObject): Options {
  const s = specOf(obj);
  const o = specOf(old);
  return {
    ignoreMatchConditions: jsonEqual(s.paramKind ?? null, o.paramKind ?? null) && jsonEqual(s.matchConditions ?? null, o.matchConditions ?? null),
    preexisting: expressionsOf(o),
  };
}

const createOptions: Options = { ignoreMatchConditions: false, preexisting: new Set() };

/** The common head of both policies' specs: failurePolicy, paramKind, matchConstraints, matchConditions, variables. */
function validatePolicyHead(spec: JSONObject, opts: Options, path: Path, mutating: boolean): { errs: FieldError[]; ctx: ExpressionContext; hasParams: boolean } {
  const errs: FieldError[] = [];
  const paramKind = objectAt(spec.paramKind);
  const ctx: ExpressionContext = { allowParamsInMatchConditions: paramKind !== undefined, preexisting: opts.preexisting, variables: [] };
  if (!given(spec.failurePolicy)) errs.push(required(path.child('failurePolicy'), ''));
  else if (!supportedFailurePolicies.includes(stringAt(spec.failurePolicy))) errs.push(notSupported(path.child('failurePolicy'), spec.failurePolicy, supportedFailurePolicies));
  if (paramKind !== undefined) errs.push(...validateParamKind(paramKind, path.child('paramKind')));
  const mc = objectAt(spec.matchConstraints);
  if (mc === undefined) errs.push(required(path.child('matchConstraints'), ''));
  else {
    errs.push(...validateMatchResources(mc, path.child('matchConstraints')));
    // At least one resourceRule gives the expressions their type information.
    if (listAt(mc.resourceRules).length === 0) errs.push(required(path.child('matchConstraints', 'resourceRules'), ''));
    if (mutating) errs.push(...validateMutatingOperations(mc, path.child('matchConstraints', 'resourceRules', 'operations')));
  }
  if (!opts.ignoreMatchConditions) errs.push(...validateMatchConditions(listAt(spec.matchConditions), ctx, path.child('matchConditions')));
  listAt(spec.variables).forEach((v, i) => errs.push(...validateVariable(objectAt(v) ?? {}, paramKind !== undefined, ctx, path.child('variables').index(i))));
  return { errs, ctx, hasParams: paramKind !== undefined };
}

function validateValidation(v: JSONObject, hasParams: boolean, ctx: ExpressionContext, path: Path): FieldError[] {
  const errs: FieldError[] = [];
  const expression = stringAt(v.expression);
  const message = stringAt(v.message);
  const messageExpression = stringAt(v.messageExpression);
  const trimmedMsg = message.trim();
  if (expression.trim() === '') errs.push(required(path.child('expression'), 'expression is not specified'));
  else errs.push(...checkExpression(path.child('expression'), expression, ctx, { kind: 'validation', hasParams, hasAuthorizer: true, hasPatchTypes: false }));
  if (messageExpression.length > 0 && messageExpression.trim() === '') errs.push(invalid(path.child('messageExpression'), messageExpression, 'must be non-empty if specified'));
  else if (messageExpression.trim() !== '') {
    // Compiled untrimmed, so that the compiler's columns point into the field as written.
    errs.push(...checkExpression(path.child('messageExpression'), messageExpression, ctx, { kind: 'messageExpression', hasParams: ctx.allowParamsInMatchConditions, hasAuthorizer: false, hasPatchTypes: false }));
  }
  if (message.length > 0 && trimmedMsg === '') errs.push(invalid(path.child('message'), message, 'must be non-empty if specified'));
  else if (hasNewlines(trimmedMsg)) errs.push(invalid(path.child('message'), message, 'must not contain line breaks'));
  if (given(v.reason) && !supportedReasons.includes(stringAt(v.reason))) errs.push(notSupported(path.child('reason'), v.reason, supportedReasons));
  return errs;
}

function validateAuditAnnotation(policyName: string, a: JSONObject, hasParams: boolean, ctx: ExpressionContext, path: Path): FieldError[] {
  const errs: FieldError[] = [];
  const key = stringAt(a.key);
  if (policyName !== '') errs.push(...validateQualifiedName(`${policyName}/${key}`, path.child('key')));
  else errs.push(invalid(path.child('key'), key, 'requires metadata.name be non-empty'));
  const valueExpression = stringAt(a.valueExpression).trim();
  if (valueExpression === '') errs.push(required(path.child('valueExpression'), 'valueExpression is not specified'));
  else if (Buffer.byteLength(valueExpression) > maxAuditAnnotationValueExpressionLength) {
    errs.push(required(path.child('valueExpression'), `must not exceed ${maxAuditAnnotationValueExpressionLength} bytes in length`));
  } else {
    errs.push(...checkExpression(path.child('valueExpression'), valueExpression, ctx, { kind: 'auditAnnotation', hasParams, hasAuthorizer: true, hasPatchTypes: false }));
  }
  return errs;
}

function validateValidatingPolicySpec(policyName: string, spec: JSONObject, opts: Options, path: Path): FieldError[] {
  const { errs, ctx, hasParams } = validatePolicyHead(spec, opts, path, false);
  const validations = listAt(spec.validations);
  const annotations = listAt(spec.auditAnnotations);
  if (validations.length === 0 && annotations.length === 0) {
    errs.push(required(path.child('validations'), 'validations or auditAnnotations must contain at least one item'));
    errs.push(required(path.child('auditAnnotations'), 'validations or auditAnnotations must contain at least one item'));
    return errs;
  }
  validations.forEach((v, i) => errs.push(...validateValidation(objectAt(v) ?? {}, hasParams, ctx, path.child('validations').index(i))));
  if (annotations.length > maxAuditAnnotations) errs.push(invalid(path.child('auditAnnotations'), spec.auditAnnotations, `must not have more than ${maxAuditAnnotations} auditAnnotations`));
  const keys = new Set<string>();
  annotations.forEach((a, i) => {
    const ann = objectAt(a) ?? {};
    errs.push(...validateAuditAnnotation(policyName, ann, hasParams, ctx, path.child('auditAnnotations').index(i)));
    const key = stringAt(ann.key);
    if (keys.has(key)) errs.push(duplicate(path.child('auditAnnotations').index(i).child('key'), key));
    keys.add(key);
  });
  return errs;
}

function validateMutation(m: JSONObject, hasParams: boolean, ctx: ExpressionContext, path: Path): FieldError[] {
  const errs: FieldError[] = [];
  const patchType = stringAt(m.patchType);
  const expressionOf = (field: 'applyConfiguration' | 'jsonPatch') => {
    const e = stringAt(objectAt(m[field])?.expression).trim();
    if (e === '') return [required(path.child(field, 'expression'), '')];
    return checkExpression(path.child(field, 'expression'), e, ctx, { kind: field, hasParams, hasAuthorizer: true, hasPatchTypes: true });
  };
  if (patchType === '') errs.push(required(path.child('patchType'), ''));
  else if (patchType === 'JSONPatch') {
    if (!given(m.jsonPatch)) errs.push(required(path.child('jsonPatch'), 'must be specified when patchType is JSONPatch'));
    else errs.push(...expressionOf('jsonPatch'));
    if (given(m.applyConfiguration)) errs.push(invalid(path.child('applyConfiguration'), '{applyConfiguration}', 'must not be specified when patchType is JSONPatch'));
  } else if (patchType === 'ApplyConfiguration') {
    if (!given(m.applyConfiguration)) errs.push(required(path.child('applyConfiguration'), 'must be specified when patchType is ApplyConfiguration'));
    else errs.push(...expressionOf('applyConfiguration'));
    if (given(m.jsonPatch)) errs.push(invalid(path.child('jsonPatch'), '{jsonPatch}', 'must not be specified when patchType is ApplyConfiguration'));
  } else errs.push(notSupported(path.child('patchType'), patchType, supportedPatchTypes));
  return errs;
}

function validateMutatingPolicySpec(spec: JSONObject, opts: Options, path: Path): FieldError[] {
  const { errs, ctx, hasParams } = validatePolicyHead(spec, opts, path, true);
  const mutations = listAt(spec.mutations);
  if (mutations.length === 0) errs.push(required(path.child('mutations'), 'mutations must contain at least one item'));
  else mutations.forEach((m, i) => errs.push(...validateMutation(objectAt(m) ?? {}, hasParams, ctx, path.child('mutations').index(i))));
  const reinvocation = stringAt(spec.reinvocationPolicy);
  if (reinvocation === '') errs.push(required(path.child('reinvocationPolicy'), ''));
  else if (!supportedReinvocationPolicies.includes(reinvocation)) errs.push(notSupported(path.child('reinvocationPolicy'), reinvocation, supportedReinvocationPolicies));
  return errs;
}

function validateBindingHead(spec: JSONObject, path: Path): FieldError[] {
  const errs: FieldError[] = [];
  const policyName = stringAt(spec.policyName);
  if (policyName === '') errs.push(required(path.child('policyName'), ''));
  else for (const m of nameIsDNSSubdomain(policyName, false)) errs.push(invalid(path.child('policyName'), policyName, m));
  errs.push(...validateParamRef(objectAt(spec.paramRef), path.child('paramRef')));
  errs.push(...validateMatchResources(objectAt(spec.matchResources), path.child('matchResources')));
  return errs;
}

const specPath = Path.of('spec');

/** ValidateValidatingAdmissionPolicy (without ObjectMeta); with `old`, ...Update. */
export function validateValidatingAdmissionPolicy(obj: JSONObject, old?: JSONObject): FieldError[] {
  return validateValidatingPolicySpec(nameOf(obj), specOf(obj), old ? updateOptions(obj, old) : createOptions, specPath);
}

/** ValidateMutatingAdmissionPolicy (without ObjectMeta); with `old`, ...Update. */
export function validateMutatingAdmissionPolicy(obj: JSONObject, old?: JSONObject): FieldError[] {
  return validateMutatingPolicySpec(specOf(obj), old ? updateOptions(obj, old) : createOptions, specPath);
}

/** ValidateValidatingAdmissionPolicyBinding (without ObjectMeta); updates validate the same. */
export function validateValidatingAdmissionPolicyBinding(obj: JSONObject): FieldError[] {
  const spec = specOf(obj);
  return [...validateBindingHead(spec, specPath), ...validateValidationActions(stringsAt(spec.validationActions), specPath.child('validationActions'))];
}

/** ValidateMutatingAdmissionPolicyBinding (without ObjectMeta); updates validate the same. */
export function validateMutatingAdmissionPolicyBinding(obj: JSONObject): FieldError[] {
  const spec = specOf(obj);
  const errs = validateBindingHead(spec, specPath);
  const mr = objectAt(spec.matchResources);
  if (mr !== undefined) errs.push(...validateMutatingOperations(mr, specPath.child('matchResources', 'resourceRules', 'operations')));
  return errs;
}

/** ValidateValidatingAdmissionPolicyStatusUpdate: the type-checking warnings and the conditions. */
export function validateValidatingAdmissionPolicyStatus(obj: JSONObject): FieldError[] {
  const status = objectAt(obj.status) ?? {};
  const path = Path.of('status');
  const errs: FieldError[] = [];
  const tc = objectAt(status.typeChecking);
  if (tc !== undefined) {
    listAt(tc.expressionWarnings).forEach((w, i) => {
      const warning = objectAt(w) ?? {};
      const p = path.child('typeChecking', 'expressionWarnings').index(i);
      if (stringAt(warning.warning) === '') errs.push(required(p.child('warning'), ''));
      errs.push(...validateFieldRef(stringAt(warning.fieldRef), p.child('fieldRef')));
    });
  }
  errs.push(...validateConditions(status.conditions, path.child('conditions')));
  return errs;
}
