/**
 * Object validation of the webhook configuration kinds, as kube-apiserver's
 * `ValidateValidatingWebhookConfiguration(+Update)` and `ValidateMutatingWebhookConfiguration(+Update)`
 * (`pkg/apis/admissionregistration/validation/validation.go`): each webhook's fully qualified,
 * unique name, rules, failurePolicy, matchPolicy, sideEffects (None or NoneOnDryRun on create),
 * timeoutSeconds, selectors, reinvocationPolicy, clientConfig (exactly one of url or service),
 * matchConditions compiled as CEL, and admissionReviewVersions. An update keeps accepting what the
 * stored object already had: side effects, unrecognised review versions, duplicate names, invalid
 * selector values, and unchanged match conditions.
 */
import { duplicate, invalid, isDNS1035Label, isFullyQualifiedName, jsonEqual, notSupported, required, validateLabelSelector, Path, type FieldError, type LabelSelector } from '../../apimachinery/index.ts';
import { supportedFailurePolicies, validateMatchConditions, validateRuleWithOperations, type ExpressionContext } from './rules.ts';
import { validateWebhookService, validateWebhookURL } from './webhook-url.ts';
import { given, listAt, objectAt, stringAt, stringsAt, type JSONObject } from './values.ts';

const supportedMatchPolicies = ['Equivalent', 'Exact'];
const supportedSideEffectClasses = ['None', 'NoneOnDryRun', 'Some', 'Unknown'];
const noSideEffectClasses = ['None', 'NoneOnDryRun'];
const supportedReinvocationPolicies = ['IfNeeded', 'Never'];
/** The AdmissionReview versions the prior server version understands. */
const acceptedAdmissionReviewVersions = ['v1', 'v1beta1'];

interface Options {
  ignoreMatchConditions: boolean;
  requireNoSideEffects: boolean;
  requireRecognizedAdmissionReviewVersion: boolean;
  requireUniqueWebhookNames: boolean;
  allowInvalidLabelValueInSelector: boolean;
  /** matchCondition expressions of the stored object, compiled in the stored-expressions environment. */
  preexisting: ReadonlySet<string>;
}

const createOptions: Options = {
  ignoreMatchConditions: false,
  requireNoSideEffects: true,
  requireRecognizedAdmissionReviewVersion: true,
  requireUniqueWebhookNames: true,
  allowInvalidLabelValueInSelector: false,
  preexisting: new Set(),
};

const webhooksOf = (obj: JSONObject): JSONObject[] => listAt(obj.webhooks).map((w) => objectAt(w) ?? {});

function validateAdmissionReviewVersions(versions: string[], requireRecognized: boolean, path: Path): FieldError[] {
  const errs: FieldError[] = [];
  if (versions.length < 1) return [required(path, `must specify one of ${acceptedAdmissionReviewVersions.join(', ')}`)];
  const seen = new Set<string>();
  let hasAccepted = false;
  versions.forEach((v, i) => {
    if (seen.has(v)) {
      errs.push(invalid(path.index(i), v, 'duplicate version'));
      return;
    }
    seen.add(v);
    for (const m of isDNS1035Label(v)) errs.push(invalid(path.index(i), v, m));
    if (acceptedAdmissionReviewVersions.includes(v)) hasAccepted = true;
  });
  if (requireRecognized && !hasAccepted) errs.push(invalid(path, versions, `must include at least one of ${acceptedAdmissionReviewVersions.join(', ')}`));
  return errs;
}

/** validateValidatingWebhook / validateMutatingWebhook (the mutating one also checks reinvocationPolicy). */
function validateWebhook(hook: JSONObject, mutating: boolean, opts: Options, path: Path): FieldError[] {
  const errs = isFullyQualifiedName(path.child('name'), stringAt(hook.name));
  listAt(hook.rules).forEach((r, i) => errs.push(...validateRuleWithOperations(objectAt(r) ?? {}, path.child('rules').index(i))));
  if (given(hook.failurePolicy) && !supportedFailurePolicies.includes(stringAt(hook.failurePolicy))) errs.push(notSupported(path.child('failurePolicy'), hook.failurePolicy, supportedFailurePolicies));
  if (given(hook.matchPolicy) && !supportedMatchPolicies.includes(stringAt(hook.matchPolicy))) errs.push(notSupported(path.child('matchPolicy'), hook.matchPolicy, supportedMatchPolicies));
  const allowedSideEffects = opts.requireNoSideEffects ? noSideEffectClasses : supportedSideEffectClasses;
  if (!given(hook.sideEffects)) errs.push(required(path.child('sideEffects'), `must specify one of ${allowedSideEffects.join(', ')}`));
  else if (!allowedSideEffects.includes(stringAt(hook.sideEffects))) errs.push(notSupported(path.child('sideEffects'), hook.sideEffects, allowedSideEffects));
  if (given(hook.timeoutSeconds)) {
    const t = Number(hook.timeoutSeconds);
    if (t > 30 || t < 1) errs.push(invalid(path.child('timeoutSeconds'), hook.timeoutSeconds, 'the timeout value must be between 1 and 30 seconds'));
  }
  const selectorOpts = { allowInvalidLabelValueInSelector: opts.allowInvalidLabelValueInSelector };
  for (const sel of ['namespaceSelector', 'objectSelector'] as const) {
    const s = objectAt(hook[sel]);
    if (s !== undefined) errs.push(...validateLabelSelector(s as LabelSelector, selectorOpts, path.child(sel)));
  }
  if (mutating && given(hook.reinvocationPolicy) && !supportedReinvocationPolicies.includes(stringAt(hook.reinvocationPolicy))) {
    errs.push(notSupported(path.child('reinvocationPolicy'), hook.reinvocationPolicy, supportedReinvocationPolicies));
  }
  const cc = objectAt(hook.clientConfig) ?? {};
  const service = objectAt(cc.service);
  if (given(cc.url) === (service !== undefined)) errs.push(required(path.child('clientConfig'), 'exactly one of url or service is required'));
  else if (given(cc.url)) errs.push(...validateWebhookURL(path.child('clientConfig', 'url'), stringAt(cc.url), true));
  else if (service !== undefined) {
    const p = given(service.path) ? stringAt(service.path) : undefined;
    errs.push(...validateWebhookService(path.child('clientConfig', 'service'), stringAt(service.namespace), stringAt(service.name), p, typeof service.port === 'number' ? service.port : 0));
  }
  if (!opts.ignoreMatchConditions) {
    const ctx: ExpressionContext = { allowParamsInMatchConditions: false, preexisting: opts.preexisting, variables: [] };
    errs.push(...validateMatchConditions(listAt(hook.matchConditions), ctx, path.child('matchConditions')));
  }
  return errs;
}

function validateConfiguration(obj: JSONObject, mutating: boolean, opts: Options): FieldError[] {
  const errs: FieldError[] = [];
  const names = new Set<string>();
  webhooksOf(obj).forEach((hook, i) => {
    const path = Path.of('webhooks').index(i);
    errs.push(...validateWebhook(hook, mutating, opts, path));
    errs.push(...validateAdmissionReviewVersions(stringsAt(hook.admissionReviewVersions), opts.requireRecognizedAdmissionReviewVersion, path.child('admissionReviewVersions')));
    const name = stringAt(hook.name);
    if (opts.requireUniqueWebhookNames && name !== '') {
      if (names.has(name)) errs.push(duplicate(path.child('name'), name));
      else names.add(name);
    }
  });
  return errs;
}

/** The stored object's leniencies an update keeps (ValidateValidatingWebhookConfigurationUpdate's options). */
function updateOptions(obj: JSONObject, old: JSONObject): Options {
  const hooks = webhooksOf(obj);
  const oldHooks = webhooksOf(old);
  const hasInvalidSelectorValue = oldHooks.some((h) =>
    (['namespaceSelector', 'objectSelector'] as const).some((sel) => {
      const s = objectAt(h[sel]);
      return s !== undefined && validateLabelSelector(s as LabelSelector, {}, Path.of(sel)).length > 0;
    }),
  );
  const oldNames = oldHooks.map((h) => stringAt(h.name));
  return {
    ignoreMatchConditions: hooks.length === oldHooks.length && hooks.every((h, i) => jsonEqual(h.matchConditions ?? null, oldHooks[i]!.matchConditions ?? null)),
    requireNoSideEffects: oldHooks.every((h) => given(h.sideEffects) && noSideEffectClasses.includes(stringAt(h.sideEffects))),
    requireRecognizedAdmissionReviewVersion: oldHooks.every((h) => {
      const versions = stringsAt(h.admissionReviewVersions);
      return versions.length === 0 || versions.some((v) => acceptedAdmissionReviewVersions.includes(v));
    }),
    requireUniqueWebhookNames: new Set(oldNames).size === oldNames.length,
    allowInvalidLabelValueInSelector: hasInvalidSelectorValue,
    preexisting: new Set(oldHooks.flatMap((h) => listAt(h.matchConditions).map((mc) => stringAt(objectAt(mc)?.expression)))),
  };
}

/** ValidateValidatingWebhookConfiguration (without ObjectMeta); with `old`, ...Update. */
export function validateValidatingWebhookConfiguration(obj: JSONObject, old?: JSONObject): FieldError[] {
  return validateConfiguration(obj, false, old ? updateOptions(obj, old) : createOptions);
}

/** ValidateMutatingWebhookConfiguration (without ObjectMeta); with `old`, ...Update. */
export function validateMutatingWebhookConfiguration(obj: JSONObject, old?: JSONObject): FieldError[] {
  return validateConfiguration(obj, true, old ? updateOptions(obj, old) : createOptions);
}
