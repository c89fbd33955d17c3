/**
 * DRA admin access (pkg/registry/resource's AuthorizedForAdmin, DRAAdminAccess: beta and on by
 * default in 1.35): a ResourceClaim or ResourceClaimTemplate whose `exactly` request asks for
 * `adminAccess: true` may only be created in a namespace labelled
 * `resource.kubernetes.io/admin-access: "true"`. Upstream's strategies read the namespace with a
 * client inside Validate; strategies here are synchronous, so the kind's create hook reads the
 * namespace from storage first and the native rules put what it found in front of their own
 * errors, as upstream's Validate does. Spec updates need no check: the spec is immutable.
 *
 * A claim's status update is checked too (AuthorizedForAdminStatus, in the status strategy's
 * ValidateUpdate): an allocation whose results grant admin access needs the label, unless the
 * stored allocation had granted it already (an allocation is fixed once set). Its errors come
 * first, at `status.allocation.devices.results[i].adminAccess`; the update hook finds them.
 */
import { Path, forbidden, internalError, type FieldError } from '../../apimachinery/index.ts';
import type { Store } from '../../storage/index.ts';
import { list, ptr, rec } from '../fieldvalues/fields.ts';
import type { FinishWrite, WriteHooks } from '../generic-store.ts';
import { resourcePrefix } from '../keys.ts';
import { getNamespace } from '../meta.ts';
import type { Obj } from '../rest.ts';
import type { RequestContext } from '../strategy.ts';

/** resource.DRAAdminNamespaceLabelKey. */
export const adminAccessLabel = 'resource.kubernetes.io/admin-access';

/** Reads a namespace as stored; undefined when there is none. */
export type NamespaceReader = (name: string) => Promise<Obj | undefined>;

/** A namespace read straight from storage, as upstream's namespace client reads the latest. */
export function storedNamespaces(store: Store): NamespaceReader {
  const prefix = resourcePrefix('', 'namespaces');
  return async (name) => {
    const kv = await store.get(`${prefix}${name}`);
    return kv === undefined ? undefined : (JSON.parse(kv.value) as Obj);
  };
}

/** The path of the first request asking for admin access (only `exactly` may), as upstream reports it. */
function adminRequestPath(requests: unknown): Path | undefined {
  const i = list(requests).findIndex((r) => rec(ptr(rec(r).exactly)).adminAccess === true);
  return i < 0 ? undefined : Path.of('spec', 'devices', 'requests').index(i).child('adminAccess');
}

/**
 * AuthorizedForAdmin: no error unless a request asks for admin access (then, and only then, the
 * namespace is read); Forbidden when the namespace lacks the label, an internal error when it
 * cannot be read.
 */
export async function authorizedForAdmin(requests: unknown, namespace: string, read: NamespaceReader): Promise<FieldError[]> {
  return namespaceAllows(adminRequestPath(requests), namespace, read);
}

/** The errors of admin access asked for at `p` (none when undefined: nothing is read) in the namespace. */
async function namespaceAllows(p: Path | undefined, namespace: string, read: NamespaceReader): Promise<FieldError[]> {
  if (p === undefined) return [];
  let ns: Obj | undefined;
  try {
    ns = await read(namespace);
  } catch (e) {
    return [internalError(p, `could not retrieve namespace to verify admin access: ${e instanceof Error ? e.message : String(e)}`)];
  }
  if (ns === undefined) return [internalError(p, `could not retrieve namespace to verify admin access: namespaces "${namespace}" not found`)];
  if (rec(rec(ns.metadata).labels)[adminAccessLabel] === 'true') return [];
  return [forbidden(p, `admin access to devices requires the \`${adminAccessLabel}: true\` label on the containing namespace`)];
}

/** The path of the first allocation result granting admin access (adminRequested). */
function adminResultPath(results: unknown): Path | undefined {
  const i = list(results).findIndex((r) => rec(r).adminAccess === true);
  return i < 0 ? undefined : Path.of('status', 'allocation', 'devices', 'results').index(i).child('adminAccess');
}

/**
 * AuthorizedForAdminStatus: no error when the stored results granted admin access already or the
 * new ones grant none (the namespace is then not read); otherwise AuthorizedForAdmin's errors at
 * the first result granting it.
 */
export async function authorizedForAdminStatus(results: unknown, oldResults: unknown, namespace: string, read: NamespaceReader): Promise<FieldError[]> {
  if (adminResultPath(oldResults) !== undefined) return [];
  return namespaceAllows(adminResultPath(results), namespace, read);
}

const allocationResults = (obj: Obj) => rec(rec(rec(obj.status).allocation).devices).results;

/** What a create's hook found, until the strategy's Validate of the same request takes it. */
const found = new WeakMap<RequestContext, FieldError[]>();

const done: FinishWrite = async () => {};

/** Keeps what a hook found for the strategy's Validate of the same request. */
function remember(ctx: RequestContext, errs: FieldError[]): FinishWrite {
  if (errs.length > 0) found.set(ctx, errs);
  else found.delete(ctx);
  return done;
}

/**
 * The hooks of a kind whose device requests are at `requestsOf(obj)`: the create hook; for a
 * claim (`checkStatus`), the hook of a status update too. The namespace is the stored object's:
 * an update's body may leave it out, and it cannot change.
 */
export function adminAccessHooks(read: NamespaceReader, requestsOf: (obj: Obj) => unknown, checkStatus = false): WriteHooks {
  const hooks: WriteHooks = {
    beginCreate: async (ctx, obj) => remember(ctx, await authorizedForAdmin(requestsOf(obj), getNamespace(obj), read)),
  };
  if (checkStatus) {
    hooks.beginStatusUpdate = async (ctx, obj, old) =>
      remember(ctx, await authorizedForAdminStatus(allocationResults(obj), allocationResults(old), getNamespace(old), read));
  }
  return hooks;
}

/** The admin-access errors the create hook found for this request (once), then `errs`. */
export function withAdminAccessErrors(ctx: RequestContext, errs: FieldError[]): FieldError[] {
  const admin = found.get(ctx);
  if (admin === undefined) return errs;
  found.delete(ctx);
  return [...admin, ...errs];
}

const claimRequests = (obj: Obj) => rec(rec(obj.spec).devices).requests;
const templateRequests = (obj: Obj) => rec(rec(rec(obj.spec).spec).devices).requests;

/** The resource.k8s.io kinds' write hooks over `store`, by resource. */
export const resourceWriteHooks: Readonly<Record<string, (store: Store) => WriteHooks>> = {
  resourceclaims: (store) => adminAccessHooks(storedNamespaces(store), claimRequests, true),
  resourceclaimtemplates: (store) => adminAccessHooks(storedNamespaces(store), templateRequests),
};
