/**
 * The ValidatingAdmissionPolicy admission plugin (k8s.io/apiserver pkg/admission/plugin/policy/
 * validating plugin.go and dispatcher.go): for every policy whose matchConstraints match the
 * request, every binding whose matchResources match, and every param the binding selects, the
 * policy's validations run; failures act as the binding's validationActions say — Deny refuses
 * with the first failure (`ValidatingAdmissionPolicy 'p' with binding 'b' denied request: ...`,
 * the validation's reason and its code), Warn adds a `Warning`, Audit records the
 * `validation.policy.admission.k8s.io/validation_failure` audit annotation — and auditAnnotations
 * are published as `<policy>/<key>`. Configuration errors (matching, params, paramKind) refuse
 * under failurePolicy Fail and are ignored under Ignore. Admission configuration kinds are exempt.
 * `authorizer` asks the authorizer the server gives (its RBAC chain); alone, every check is allowed.
 */
import { newForbidden, newNotFound, StatusError } from '../../apimachinery/index.ts';
import type { AdmissionAttributes, Obj } from '../../registry/index.ts';
import { resourcePrefix } from '../../registry/index.ts';
import type { Store } from '../../storage/index.ts';
import type { Authorizer, Val } from '../../cel/index.ts';
import type { AdmissionInput } from '../../schema/index.ts';
import type { Plugin } from '../chain.ts';
import { addAuditAnnotation } from './audit-annotations.ts';
import { objectCache } from '../informer.ts';
import { bindingMatches, definitionMatches, isExemptAdmissionConfiguration, MatchConfigError, type GVK, type GVR, type MatchContext, type MatchResources } from './matching.ts';
import { VersionedAttributes, type Versioned } from './versioned.ts';
import { collectParams } from './params.ts';
import { PolicySource, type PolicyHook } from './policy-source.ts';
import { PolicyValidator, type PolicyDecision } from './validator.ts';

/** The authorizer of `authorizer` until RBAC is served: every check allowed. */
export const allowAllAuthorizer: Authorizer = { authorize: () => ({ decision: 'Allow', reason: '' }) };

const VALIDATION_FAILURE_KEY = 'validation.policy.admission.k8s.io/validation_failure';
const MAX_VALIDATION_FAILURES = 50;
const MAX_AUDIT_ANNOTATION_VALUE_LENGTH = 10 * 1024;

interface DeniedDecision {
  policy: string;
  binding?: string;
  message: string;
  reason?: string;
}

/** reasonToCode. */
function reasonToCode(reason: string): number {
  switch (reason) {
    case 'Forbidden':
      return 403;
    case 'Unauthorized':
      return 401;
    case 'RequestEntityTooLarge':
      return 413;
    default:
      return 422;
  }
}

/** The API's defaults of MatchResources, for objects stored without them. */
export function withMatchDefaults(m: unknown): MatchResources | undefined {
  if (m === undefined || m === null || typeof m !== 'object') return undefined;
  const mr = m as MatchResources;
  return {
    ...mr,
    namespaceSelector: mr.namespaceSelector ?? {},
    objectSelector: mr.objectSelector ?? {},
    matchPolicy: mr.matchPolicy ?? 'Equivalent',
    resourceRules: mr.resourceRules?.map((r) => ({ ...r, scope: r.scope ?? '*' })),
    excludeResourceRules: mr.excludeResourceRules?.map((r) => ({ ...r, scope: r.scope ?? '*' })),
  };
}

/** CreateAdmissionRequest, with upstream's omitempty fields left out. */
export function admissionRequest(a: AdmissionAttributes, resource: GVR, kind: GVK): Record<string, unknown> {
  const userInfo: Record<string, unknown> = {};
  if (a.user.username) userInfo.username = a.user.username;
  if (a.user.uid) userInfo.uid = a.user.uid;
  if (a.user.groups.length > 0) userInfo.groups = a.user.groups;
  if (a.user.extra && Object.keys(a.user.extra).length > 0) userInfo.extra = a.user.extra;
  const r: Record<string, unknown> = {
    kind,
    resource,
    requestKind: a.kind,
    requestResource: a.resource,
    name: a.name,
    operation: a.operation,
    userInfo,
    dryRun: a.dryRun,
    options: a.options,
  };
  if (a.subresource) {
    r.subResource = a.subresource;
    r.requestSubResource = a.subresource;
  }
  if (a.namespace) r.namespace = a.namespace;
  return r;
}

export interface ValidatingAdmissionPolicyPlugin extends Plugin {
  /** Resolves once policies, bindings and CRDs are listed. */
  readonly synced: Promise<void>;
  stop(): void;
}

/** The plugin over the policies, bindings, params and namespaces in `store`. */
export function validatingAdmissionPolicy(store: Store, opts: { authorizer?: Authorizer } = {}): ValidatingAdmissionPolicyPlugin {
  const source = new PolicySource(store, {
    policies: 'validatingadmissionpolicies',
    bindings: 'validatingadmissionpolicybindings',
    compile: (spec) => new PolicyValidator(spec),
  });
  const namespaces = objectCache(store, resourcePrefix('', 'namespaces'));
  const authorizer = opts.authorizer ?? allowAllAuthorizer;
  const getNamespace = async (name: string): Promise<Obj | undefined> => {
    const cached = namespaces.isSynced() ? namespaces.get(name) : undefined;
    if (cached !== undefined) return cached;
    const kv = await store.get(resourcePrefix('', 'namespaces') + name);
    return kv === undefined ? undefined : (JSON.parse(kv.value) as Obj);
  };
  const ctx: MatchContext = { getNamespace, equivalents: (r, sub) => source.equivalents(r, sub) };

  async function dispatch(a: AdmissionAttributes, hooks: PolicyHook<PolicyValidator>[]): Promise<void> {
    const versions = new VersionedAttributes(a);
    const denied: DeniedDecision[] = [];
    const conversions = new WeakMap<object, Val>();
    const failures: { message: string; policy: string; binding: string; expressionIndex: number; validationActions: string[] }[] = [];
    const configError = (hook: PolicyHook<PolicyValidator>, err: string, binding?: string) => {
      if (hook.spec.failurePolicy === 'Ignore') return;
      if (hook.spec.failurePolicy !== undefined && hook.spec.failurePolicy !== 'Fail') {
        denied.push({ policy: hook.name, binding, message: `unrecognized failure policy: '${String(hook.spec.failurePolicy)}'` });
        return;
      }
      denied.push({ policy: hook.name, binding, message: binding === undefined ? `failed to configure policy: ${err}` : `failed to configure binding: ${err}` });
    };

    for (const hook of hooks) {
      const m = await definitionMatches(withMatchDefaults(hook.spec.matchConstraints), a, ctx);
      if (m instanceof MatchConfigError) {
        configError(hook, m.message);
        continue;
      }
      if (!m.matches) {
        if (m.error) configError(hook, m.error.message);
        continue;
      }
      if (hook.configurationError !== undefined) {
        configError(hook, hook.configurationError);
        continue;
      }
      const annotations = new Map<string, string[]>();
      for (const binding of hook.bindings) {
        const bname = String((binding.metadata as { name?: string }).name ?? '');
        const bspec = (binding.spec ?? {}) as Obj;
        const bm = await bindingMatches(withMatchDefaults(bspec.matchResources), a, ctx);
        if (bm instanceof MatchConfigError) {
          configError(hook, bm.message, bname);
          continue;
        }
        if (!bm.matches) {
          if (bm.error) configError(hook, bm.error.message, bname);
          continue;
        }
        const params = await collectParams(hook.spec.paramKind as Obj | undefined, hook.params, (bspec.paramRef ?? undefined) as Obj | undefined, a.namespace);
        if ('error' in params) {
          configError(hook, params.error, bname);
          continue;
        }
        // The objects at the matched version, converted once there is a param to validate with.
        let versioned: Versioned = a;
        if (params.length > 0) {
          try {
            versioned = await versions.at(m);
          } catch (e) {
            configError(hook, `failed to convert object version: ${errorMessage(e)}`, bname);
            continue;
          }
        }
        // The Namespace object of a namespace itself is not its own namespace.
        const isNamespace = a.kind.group === '' && a.kind.version === 'v1' && a.kind.kind === 'Namespace';
        const nsName = isNamespace ? '' : a.namespace;
        let namespace: Obj | null = null;
        if (nsName !== '' && params.length > 0) {
          const ns = await getNamespace(nsName);
          if (ns === undefined) throw newNotFound({ group: '', resource: 'namespaces' }, nsName);
          namespace = ns;
        }
        const actions = Array.isArray(bspec.validationActions) ? (bspec.validationActions as string[]) : [];
        for (const param of params) {
          const input: AdmissionInput = {
            object: versioned.object ?? null,
            oldObject: versioned.oldObject ?? null,
            params: param,
            conversions,
            request: admissionRequest(a, m.resource, m.kind),
            namespace,
            authorizer: {
              user: { name: a.user.username, uid: a.user.uid, groups: a.user.groups, extra: a.user.extra },
              authorizer,
              resource: { group: a.resource.group, resource: a.resource.resource, subresource: a.subresource, namespace: a.namespace, name: a.name },
            },
          };
          const result = hook.evaluator.validate(input);
          result.decisions.forEach((d: PolicyDecision, i: number) => {
            if (d.action !== 'deny') return;
            for (const action of actions) {
              if (action === 'Deny') denied.push({ policy: hook.name, binding: bname, message: d.message, reason: d.reason });
              else if (action === 'Audit') failures.push({ message: d.message, policy: hook.name, binding: bname, expressionIndex: i, validationActions: actions });
              else if (action === 'Warn') a.warnings.push(`Validation failed for ValidatingAdmissionPolicy '${hook.name}' with binding '${bname}': ${d.message}`);
            }
          });
          for (const ann of result.auditAnnotations) {
            if (ann.action === 'publish') {
              const value = ann.value!.length > MAX_AUDIT_ANNOTATION_VALUE_LENGTH ? ann.value!.slice(0, MAX_AUDIT_ANNOTATION_VALUE_LENGTH) : ann.value!;
              const values = annotations.get(ann.key) ?? [];
              if (!values.includes(value)) values.push(value);
              annotations.set(ann.key, values);
            } else if (ann.action === 'error') {
              denied.push({ policy: hook.name, binding: bname, message: ann.error! });
            }
          }
        }
      }
      for (const [key, values] of annotations) addAuditAnnotation(`${hook.name}/${key}`, values.join(', '));
    }

    if (failures.length > 0) addAuditAnnotation(VALIDATION_FAILURE_KEY, JSON.stringify(failures.slice(0, MAX_VALIDATION_FAILURES)));
    if (denied.length > 0) throw deniedError(a, denied[0]!);
  }

  return {
    name: 'ValidatingAdmissionPolicy',
    synced: Promise.all([source.synced, namespaces.synced]).then(() => {}),
    handles: () => true,
    async validate(a) {
      if (isExemptAdmissionConfiguration(a.kind)) return;
      const hooks = source.hooks();
      if (hooks.length === 0) return;
      await dispatch(a, hooks);
    },
    stop() {
      source.stop();
      namespaces.stop();
    },
  };
}

/** An error's text as Go's err.Error() gives it (a StatusError's is its message). */
export function errorMessage(e: unknown): string {
  if (e instanceof StatusError) return e.status.message ?? '';
  return e instanceof Error ? e.message : String(e);
}

/** admission.NewForbidden with the decision's reason and code, and the message as a cause. */
function deniedError(a: AdmissionAttributes, d: DeniedDecision): StatusError {
  const message =
    d.binding !== undefined
      ? `ValidatingAdmissionPolicy '${d.policy}' with binding '${d.binding}' denied request: ${d.message}`
      : `ValidatingAdmissionPolicy '${d.policy}' denied request: ${d.message}`;
  const name = a.name || String((a.object?.metadata as { name?: unknown } | undefined)?.name ?? '');
  const base = newForbidden({ group: a.resource.group, resource: a.resource.resource }, name, message);
  const reason = d.reason || 'Invalid';
  const details = base.status.details ?? {};
  return new StatusError({
    ...base.status,
    reason,
    code: reasonToCode(reason),
    details: { ...details, causes: [...(details.causes ?? []), { message }] },
  } as typeof base.status);
}
