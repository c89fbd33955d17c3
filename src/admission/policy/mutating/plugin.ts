/**
 * The MutatingAdmissionPolicy admission plugin (k8s.io/apiserver pkg/admission/plugin/policy/
 * mutating plugin.go and dispatcher.go): for every policy whose matchConstraints match, every
 * binding whose matchResources match and every param it selects, the policy's mutations change
 * the request's object in turn. Errors refuse under failurePolicy Fail (`policy 'p' with binding
 * 'b' denied request: ...`) and are skipped under Ignore. Policies with reinvocationPolicy
 * IfNeeded run once more when a later mutation changed the object after them. Admission
 * configuration kinds are exempt. The registry validates the final object afterwards, and
 * validating policies see it.
 */
import { jsonEqual, newForbidden, newInternalError, StatusError } from '../../../apimachinery/index.ts';
import { builtinTypeConverter, resourcePrefix, type AdmissionAttributes, type Obj } from '../../../registry/index.ts';
import type { Store } from '../../../storage/index.ts';
import type { Authorizer } from '../../../cel/index.ts';
import type { AdmissionInput } from '../../../schema/index.ts';
import type { Plugin } from '../../chain.ts';
import { objectCache } from '../../informer.ts';
import { bindingMatches, definitionMatches, isExemptAdmissionConfiguration, MatchConfigError, type GVK, type GVR, type MatchContext } from '../matching.ts';
import { collectParams } from '../params.ts';
import { admissionRequest, allowAllAuthorizer, errorMessage, withMatchDefaults } from '../plugin.ts';
import { VersionedAttributes, type Versioned } from '../versioned.ts';
import { PolicySource, type PolicyHook } from '../policy-source.ts';
import { KindSchemas } from './kind-schemas.ts';
import { PolicyMutator } from './mutator.ts';

export interface MutatingAdmissionPolicyOptions {
  authorizer?: Authorizer;
}

export interface MutatingAdmissionPolicyPlugin extends Plugin {
  readonly synced: Promise<void>;
  stop(): void;
}

/** One evaluation to run: a policy, one of its bindings, one param. */
interface Invocation {
  hook: PolicyHook<PolicyMutator>;
  mutator: PolicyMutator;
  binding: string;
  input: Omit<AdmissionInput, 'object'>;
  matchedKind: GVK;
  matchedResource: GVR;
}

/** The plugin over the MutatingAdmissionPolicies, bindings, params and namespaces in `store`. */
export function mutatingAdmissionPolicy(store: Store, opts: MutatingAdmissionPolicyOptions = {}): MutatingAdmissionPolicyPlugin {
  const source = new PolicySource(store, {
    policies: 'mutatingadmissionpolicies',
    bindings: 'mutatingadmissionpolicybindings',
    compile: (spec) => new PolicyMutator(spec),
  });
  const namespaces = objectCache(store, resourcePrefix('', 'namespaces'));
  const schemas = new KindSchemas(store);
  const authorizer = opts.authorizer ?? allowAllAuthorizer;
  const getNamespace = async (name: string): Promise<Obj | undefined> => {
    const cached = namespaces.isSynced() ? namespaces.get(name) : undefined;
    if (cached !== undefined) return cached;
    const kv = await store.get(resourcePrefix('', 'namespaces') + name);
    return kv === undefined ? undefined : (JSON.parse(kv.value) as Obj);
  };
  const ctx: MatchContext = { getNamespace, equivalents: (r, sub) => source.equivalents(r, sub) };

  /** Refusal under Fail (and for a failure policy the API does not know). */
  const refuse = (a: AdmissionAttributes, hook: PolicyHook<PolicyMutator>, binding: string | undefined, message: string): StatusError | undefined => {
    if (hook.spec.failurePolicy === 'Ignore') return undefined;
    const text = binding === undefined ? `policy '${hook.name}' denied request: ${message}` : `policy '${hook.name}' with binding '${binding}' denied request: ${message}`;
    return deniedError(a, text);
  };

  async function invocations(a: AdmissionAttributes, versions: VersionedAttributes, hooks: PolicyHook<PolicyMutator>[]): Promise<Invocation[]> {
    const out: Invocation[] = [];
    for (const hook of hooks) {
      const m = await definitionMatches(withMatchDefaults(hook.spec.matchConstraints), a, ctx);
      if (m instanceof MatchConfigError || !m.matches || hook.configurationError !== undefined) {
        const err = m instanceof MatchConfigError ? m.message : !m.matches ? m.error?.message : `failed to configure policy: ${hook.configurationError}`;
        if (err !== undefined) {
          const e = refuse(a, hook, undefined, err);
          if (e) throw e;
        }
        continue;
      }
      const mutator = hook.evaluator;
      for (const binding of hook.bindings) {
        const bname = String((binding.metadata as { name?: string }).name ?? '');
        const bspec = (binding.spec ?? {}) as Obj;
        const bm = await bindingMatches(withMatchDefaults(bspec.matchResources), a, ctx);
        if (bm instanceof MatchConfigError || !bm.matches) {
          const err = bm instanceof MatchConfigError ? bm.message : bm.error?.message;
          if (err !== undefined) {
            const e = refuse(a, hook, bname, `failed to configure binding: ${err}`);
            if (e) throw e;
          }
          continue;
        }
        // The objects at the matched version, converted before params are read, as upstream does.
        let versioned: Versioned;
        try {
          versioned = await versions.at(m);
        } catch (e) {
          if (hook.spec.failurePolicy !== 'Ignore') throw configurationRefusal(a, hook.name, `failed to configure policy: ${errorMessage(e)}`);
          continue;
        }
        const params = await collectParams(hook.spec.paramKind as Obj | undefined, hook.params, (bspec.paramRef ?? undefined) as Obj | undefined, a.namespace);
        if ('error' in params) {
          const e = refuse(a, hook, bname, `failed to configure binding: ${params.error}`);
          if (e) throw e;
          continue;
        }
        const isNamespace = a.kind.group === '' && a.kind.kind === 'Namespace';
        const namespace = a.namespace !== '' && !isNamespace ? ((await getNamespace(a.namespace)) ?? null) : null;
        for (const param of params) {
          out.push({
            hook,
            mutator,
            binding: bname,
            matchedKind: m.kind,
            matchedResource: m.resource,
            input: {
              oldObject: versioned.oldObject ?? null,
              params: param,
              request: admissionRequest(a, m.resource, m.kind),
              namespace,
              authorizer: {
                user: { name: a.user.username, uid: a.user.uid, groups: a.user.groups, extra: a.user.extra },
                authorizer,
                resource: { group: a.resource.group, resource: a.resource.resource, subresource: a.subresource, namespace: a.namespace, name: a.name },
              },
            },
          });
        }
      }
    }
    return out;
  }

  /** Runs one invocation over `a.object`; true when it changed the object. */
  async function run(a: AdmissionAttributes, versions: VersionedAttributes, inv: Invocation): Promise<boolean> {
    const object = a.object!;
    const schema = schemas.get(inv.matchedKind, inv.matchedResource);
    const matched = { resource: inv.matchedResource, kind: inv.matchedKind };
    let versioned: Versioned;
    try {
      versioned = await versions.at(matched);
    } catch (e) {
      throw newInternalError(errorMessage(e));
    }
    const r = inv.mutator.mutate({ ...inv.input, object: versioned.object ?? null }, schema.typeConverter);
    if (r.error !== undefined) {
      const e = refuse(a, inv.hook, inv.binding, r.error);
      if (e) throw e;
      return false;
    }
    if (!r.matched) return false;
    // Defaults re-applied after each policy, as upstream's dispatcher does (in the matched
    // version, whose schema they are), then the object back in the request's version.
    const atMatched = { ...r.object };
    schema.default?.(atMatched);
    let back: Obj;
    try {
      back = await versions.back(atMatched, matched);
    } catch (e) {
      throw newInternalError(`failed to convert object: ${errorMessage(e)}`);
    }
    const mutated = { ...back, apiVersion: object.apiVersion };
    if (jsonEqual(mutated, object)) return false;
    a.object = mutated;
    return true;
  }

  return {
    name: 'MutatingAdmissionPolicy',
    synced: Promise.all([source.synced, namespaces.synced, schemas.synced]).then(() => {}),
    handles: (op) => op === 'CREATE' || op === 'UPDATE',
    mayMutate: (a) => !isExemptAdmissionConfiguration(a.kind) && a.object !== undefined && source.hooks().length > 0,
    async admit(a) {
      if (isExemptAdmissionConfiguration(a.kind) || a.object === undefined) return;
      const hooks = source.hooks();
      if (hooks.length === 0) return;
      const versions = new VersionedAttributes(a);
      const all = await invocations(a, versions, hooks);
      // Reinvocation: an IfNeeded policy runs again when the object changed after it ran.
      let lastChange = -1;
      for (let i = 0; i < all.length; i++) if (await run(a, versions, all[i]!)) lastChange = i;
      for (let i = 0; i < lastChange; i++) {
        const inv = all[i]!;
        if (inv.mutator.reinvocationPolicy === 'IfNeeded') await run(a, versions, inv);
      }
    },
    stop() {
      source.stop();
      namespaces.stop();
      schemas.stop();
    },
  };
}

/**
 * A configuration error of the policy dispatcher shared by both policy kinds (PolicyError without
 * a binding): admission.NewForbidden with the error as its message and only cause.
 */
function configurationRefusal(a: AdmissionAttributes, policy: string, message: string): StatusError {
  const text = `policy ${JSON.stringify(policy)} denied request: ${message}`;
  const name = a.name || String((a.object?.metadata as { name?: unknown } | undefined)?.name ?? '');
  const base = newForbidden({ group: a.resource.group, resource: a.resource.resource }, name, text);
  const details = base.status.details ?? {};
  return new StatusError({ ...base.status, message: text, details: { ...details, causes: [...(details.causes ?? []), { message: text }] } } as typeof base.status);
}

/**
 * The refusal, shaped as ValidatingAdmissionPolicy's (a 422 Invalid whose cause carries the
 * message and no field), which kubectl prints as a cluster's: `The deployments "x" is invalid: :
 * policy 'p' with binding 'b' denied request: ...`.
 */
function deniedError(a: AdmissionAttributes, message: string): StatusError {
  const name = a.name || String((a.object?.metadata as { name?: unknown } | undefined)?.name ?? '');
  const base = newForbidden({ group: a.resource.group, resource: a.resource.resource }, name, message);
  const details = base.status.details ?? {};
  return new StatusError({
    ...base.status,
    reason: 'Invalid',
    code: 422,
    details: { ...details, causes: [...(details.causes ?? []), { message }] },
  } as typeof base.status);
}
