/**
 * A binding's params (k8s.io/apiserver pkg/admission/plugin/policy/generic CollectParams): none
 * without a paramKind or paramRef (one evaluation with `params` null), the named param in the
 * request's namespace or paramRef.namespace (cluster-scoped kinds take none), every param a
 * selector picks, and parameterNotFoundAction Deny turning "none found" into an error. Errors are
 * upstream's configuration errors, as text.
 */
import { labelSelectorAsSelector, matches } from '../../apimachinery/index.ts';
import type { Obj } from '../../registry/index.ts';
import type { ObjectCache } from '../informer.ts';

/** Where a paramKind's objects are: their cache and scope. */
export interface ParamSource {
  cache: ObjectCache;
  namespaced: boolean;
}

/** ParamKind.String() as the generated code prints it. */
export function paramKindString(pk: Obj): string {
  return `&ParamKind{APIVersion:${String(pk.apiVersion ?? '')},Kind:${String(pk.kind ?? '')},}`;
}

const SYNC_WAIT_MS = 1000;

/** The params to evaluate with (null: one evaluation without params), or an error's text. */
export async function collectParams(
  paramKind: Obj | undefined,
  source: ParamSource | undefined,
  paramRef: Obj | undefined,
  namespace: string,
): Promise<(Obj | null)[] | { error: string }> {
  if (paramKind === undefined || paramRef === undefined) return [null];
  if (source === undefined) return { error: `paramKind kind \`${paramKindString(paramKind)}\` not known` };
  const refNamespace = typeof paramRef.namespace === 'string' ? paramRef.namespace : '';
  let prefix = '';
  if (source.namespaced) {
    const ns = refNamespace !== '' ? refNamespace : namespace;
    if (ns === '') return { error: 'cannot use namespaced paramRef in policy binding that matches cluster-scoped resources' };
    prefix = `${ns}/`;
  }
  if (!source.cache.isSynced()) {
    const synced = await Promise.race([source.cache.synced.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), SYNC_WAIT_MS).unref())]);
    if (!synced || !source.cache.isSynced()) return { error: `paramKind kind \`${paramKindString(paramKind)}\` not yet synced to use for admission` };
  }
  if (refNamespace !== '' && !source.namespaced) return { error: 'paramRef.namespace must not be provided for a cluster-scoped `paramKind`' };

  let params: Obj[];
  const name = typeof paramRef.name === 'string' ? paramRef.name : '';
  const selector = paramRef.selector as Obj | undefined | null;
  if (name !== '') {
    if (selector !== undefined && selector !== null) return { error: 'paramRef.name and paramRef.selector are mutually exclusive' };
    const p = source.cache.get(prefix + name);
    params = p === undefined ? [] : [p];
  } else if (selector !== undefined && selector !== null) {
    let sel;
    try {
      sel = labelSelectorAsSelector(selector as never);
    } catch (e) {
      return { error: e instanceof Error ? e.message : String(e) };
    }
    params = [];
    const keys: [string, Obj][] = [];
    for (const [key, obj] of source.cache.entries()) {
      if (source.namespaced ? !key.startsWith(prefix) || key.indexOf('/', prefix.length) >= 0 : key.includes('/')) continue;
      keys.push([key, obj]);
    }
    keys.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
    for (const [, obj] of keys) {
      const labels = (obj.metadata as { labels?: Record<string, string> } | undefined)?.labels;
      if (matches(sel, labels)) params.push(obj);
    }
  } else {
    return { error: 'one of name or selector must be provided' };
  }
  if (params.length === 0 && paramRef.parameterNotFoundAction === 'Deny') {
    return { error: 'no params found for policy binding with `Deny` parameterNotFoundAction' };
  }
  // wrappedParam: params carry their TypeMeta, as CEL expressions may read it.
  return params.map((p) => (p.apiVersion !== undefined && p.kind !== undefined ? p : { apiVersion: paramKind.apiVersion, kind: paramKind.kind, ...p }));
}
