/**
 * The MutatingAdmissionWebhook plugin (k8s.io/apiserver pkg/admission/plugin/webhook/mutating
 * dispatcher.go): the matching webhooks of the MutatingWebhookConfigurations are called one after
 * another, each seeing the object as the ones before it left it; a response's JSONPatch (base64 in
 * `patch`, `patchType: JSONPatch`) is applied to the object at the version the webhook matched,
 * which is then defaulted again (the registry validates it afterwards, as it validates every
 * admitted object). Webhooks with reinvocationPolicy IfNeeded are called once more when a later
 * webhook changed the object. Refusals, failure policies and dry runs as the validating plugin;
 * each call records `mutation.webhook.admission.k8s.io/round_<r>_index_<i>` (did it mutate) and,
 * failing open, `failed-open.mutation.webhook.admission.k8s.io/...`.
 */
import { applyJSONPatch, decodeJSONPatch, goJSONSyntaxError, jsonEqual, newInternalError, StatusError } from '../../apimachinery/index.ts';
import type { AdmissionAttributes, Obj } from '../../registry/index.ts';
import type { Store } from '../../storage/index.ts';
import { addAuditAnnotation } from '../policy/audit-annotations.ts';
import { KindSchemas } from '../policy/mutating/kind-schemas.ts';
import { callWebhook } from './call.ts';
import { DispatchContext, type WebhookPluginOptions } from './dispatch-context.ts';
import { CallingWebhookError, WebhookRejection } from './errors.ts';
import type { WebhookInvocation } from './matching.ts';
import type { WebhookPlugin } from './validating.ts';

const MUTATION_PREFIX = 'mutation.webhook.admission.k8s.io/';
const FAILED_OPEN_PREFIX = 'failed-open.' + MUTATION_PREFIX;

/** The plugin over the MutatingWebhookConfigurations in `store`. */
export function mutatingWebhooks(store: Store, opts: WebhookPluginOptions = {}): WebhookPlugin {
  const ctx = new DispatchContext(store, 'mutatingwebhookconfigurations', opts);
  const schemas = new KindSchemas(store);

  /** callAttrMutatingHook after the call: applies the patch; true when the object changed. */
  async function mutate(a: AdmissionAttributes, inv: WebhookInvocation): Promise<boolean> {
    const name = inv.webhook.name;
    const r = await callWebhook(ctx.clients, inv, a, true);
    if (r.patch === undefined) return false;
    const syntax = goJSONSyntaxError(r.patch);
    let ops;
    try {
      if (syntax !== undefined) throw new Error(syntax);
      ops = decodeJSONPatch(JSON.parse(r.patch));
    } catch (e) {
      throw new CallingWebhookError(name, `received undecodable patch in webhook response: ${e instanceof Error ? e.message : String(e)}`);
    }
    if (ops.length === 0) return false;
    if (a.object === undefined) throw newInternalError(`admission webhook ${JSON.stringify(name)} attempted to modify the object, which is not supported for this operation`);
    if (r.patchType !== 'JSONPatch') throw new CallingWebhookError(name, `unsupported patch type ${JSON.stringify(r.patchType)}`);
    const versioned = (inv.versioned ?? a).object!;
    let patched: unknown;
    try {
      patched = applyJSONPatch(versioned, ops);
    } catch (e) {
      throw newInternalError(e instanceof Error ? e.message : String(e));
    }
    if (patched === null || typeof patched !== 'object' || Array.isArray(patched)) throw newInternalError('json: cannot unmarshal into Go value of type the object');
    const object = patched as Obj;
    schemas.get(inv.kind, inv.resource).default?.(object);
    const changed = !jsonEqual(versioned, object);
    // Converted back to the version of the request.
    const back = await ctx.fromVersion(a, object, inv);
    a.object = { ...back, apiVersion: a.object.apiVersion, kind: a.object.kind };
    return changed;
  }

  /** One call with its failure policy and annotations; true when it changed the object. */
  async function invoke(a: AdmissionAttributes, inv: WebhookInvocation, round: number, index: number): Promise<boolean> {
    const key = `round_${round}_index_${index}`;
    let changed = false;
    try {
      changed = await mutate(a, inv);
      return changed;
    } catch (e) {
      if (e instanceof CallingWebhookError) {
        if (inv.webhook.hook.failurePolicy === 'Ignore') {
          addAuditAnnotation(FAILED_OPEN_PREFIX + key, inv.webhook.name);
          return false;
        }
        throw newInternalError(e.message);
      }
      if (e instanceof WebhookRejection) throw e.status;
      if (e instanceof StatusError) throw e;
      throw newInternalError(e instanceof Error ? e.message : String(e));
    } finally {
      addAuditAnnotation(MUTATION_PREFIX + key, JSON.stringify({ configuration: inv.webhook.configurationName, webhook: inv.webhook.name, mutated: changed }));
    }
  }

  return {
    name: 'MutatingAdmissionWebhook',
    synced: Promise.all([ctx.synced, schemas.synced]).then(() => {}),
    handles: () => true,
    mayMutate: (a) => ctx.webhooksFor(a).length > 0,
    async admit(a) {
      const hooks = ctx.webhooksFor(a);
      if (hooks.length === 0) return;
      // webhookReinvokeContext: IfNeeded webhooks called before a change are called again.
      let previously = new Set<string>();
      const reinvoke = new Set<string>();
      for (let round = 0; round < 2; round++) {
        if (round === 1 && reinvoke.size === 0) break;
        for (let i = 0; i < hooks.length; i++) {
          const h = hooks[i]!;
          if (round === 1 && !reinvoke.has(h.uid)) continue;
          // Matched against the object as the webhooks before it left it.
          const inv = await ctx.invocation(h, a);
          if (inv === undefined) continue;
          const changed = await invoke(a, inv, round, i);
          if (round === 1) continue;
          if (changed) {
            for (const uid of previously) reinvoke.add(uid);
            previously = new Set();
          }
          if (h.hook.reinvocationPolicy === 'IfNeeded') previously.add(h.uid);
        }
      }
    },
    stop() {
      ctx.stop();
      schemas.stop();
    },
  };
}
