/**
 * The RBAC kinds' escalation-preventing storage (`pkg/registry/rbac/{role,clusterrole,rolebinding,
 * clusterrolebinding}/policybased/storage.go`): a RESTStore around the kind's store whose creates
 * and updates are refused with 403 when the requester would grant rules it does not hold. A role
 * write passes for `system:masters`, for a user allowed to `escalate` the resource, or when the
 * user's own rules cover the role's; a ClusterRole with an aggregationRule needs full authority. A
 * binding passes for `system:masters`, for a user allowed to `bind` the referenced role, or when
 * the user's rules cover the role's. Updates that change only what the garbage collector changes
 * (finalizers, ownerReferences, managedFields) are never refused.
 *
 * What the user holds is known to the auth layer, above this one: it gives its answers through
 * `EscalationChecks`, once the server has an authorizer.
 */
import { newBadRequest, newForbidden, newInternalError, newNotFound, type StatusError } from '../../apimachinery/index.ts';
import type { CreateOptions, Obj, RESTStore, TryUpdate, UpdateOptions, UserInfo } from '../rest.ts';
import { adminUser } from '../rest.ts';

export interface RBACRule {
  verbs: string[];
  apiGroups?: string[];
  resources?: string[];
  resourceNames?: string[];
  nonResourceURLs?: string[];
}

export interface RoleReference {
  apiGroup: string;
  kind: string;
  name: string;
}

/** The answers the auth layer gives (escalation_check.go and the rule resolver). */
export interface EscalationChecks {
  /** EscalationAllowed: the user is in system:masters. */
  escalationAllowed(user: UserInfo): boolean;
  /** RoleEscalationAuthorized: the user may `escalate` the role resource of the request. */
  roleEscalationAuthorized(user: UserInfo, request: { group: string; resource: string; namespace: string; name: string }): boolean;
  /** BindingAuthorized: the user may `bind` the role in the binding's namespace ('' for cluster role bindings). */
  bindingAuthorized(user: UserInfo, ref: RoleReference, namespace: string): boolean;
  /** GetRoleReferenceRules: the role's rules, or why they cannot be had (a missing role, an unsupported kind). */
  roleReferenceRules(ref: RoleReference, namespace: string): { rules: RBACRule[] } | { error: string };
  /** ConfirmNoEscalation: undefined when the user holds every rule in the namespace, else the message. */
  confirmNoEscalation(user: UserInfo, namespace: string, rules: RBACRule[]): string | undefined;
}

const rbacGroup = 'rbac.authorization.k8s.io';

/** fullAuthority: what an aggregationRule may gather, and so what setting one requires. */
const fullAuthority: RBACRule[] = [
  { verbs: ['*'], apiGroups: ['*'], resources: ['*'] },
  { verbs: ['*'], nonResourceURLs: ['*'] },
];

type Kind = 'roles' | 'clusterroles' | 'rolebindings' | 'clusterrolebindings';

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const nameOf = (obj: Obj) => (isRecord(obj.metadata) && typeof obj.metadata.name === 'string' ? obj.metadata.name : '');

function rulesOf(obj: Obj): RBACRule[] {
  return Array.isArray(obj.rules) ? obj.rules.filter(isRecord).map((r) => ({ ...(r as unknown as RBACRule), verbs: Array.isArray(r.verbs) ? (r.verbs as string[]) : [] })) : [];
}

function hasAggregationRule(obj: Obj | undefined): boolean {
  const rule = obj?.aggregationRule;
  return isRecord(rule) && Array.isArray(rule.clusterRoleSelectors) && rule.clusterRoleSelectors.length > 0;
}

/** The roleRef after defaulting (SetDefaults_RoleBinding: an empty apiGroup is RBAC's). */
function roleRefOf(obj: Obj): RoleReference {
  const r = isRecord(obj.roleRef) ? obj.roleRef : {};
  const s = (v: unknown) => (typeof v === 'string' ? v : '');
  return { apiGroup: s(r.apiGroup) || rbacGroup, kind: s(r.kind), name: s(r.name) };
}

/** conversion.Equalities' DeepEqual: as JSON values, with empty and absent slices and maps alike. */
function semanticEqual(a: unknown, b: unknown): boolean {
  const empty = (v: unknown) => v === undefined || v === null || (Array.isArray(v) && v.length === 0) || (isRecord(v) && Object.keys(v).length === 0);
  if (empty(a) && empty(b)) return true;
  if (Array.isArray(a) || Array.isArray(b)) return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => semanticEqual(x, b[i]));
  if (isRecord(a) && isRecord(b)) {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    for (const k of keys) if (!semanticEqual(a[k], b[k])) return false;
    return true;
  }
  return a === b;
}

/** IsOnlyMutatingGCFields: the update changes nothing but ownerReferences, finalizers, selfLink and managedFields. */
export function isOnlyMutatingGCFields(obj: Obj, old: Obj | undefined): boolean {
  if (old === undefined) return false;
  const meta = isRecord(obj.metadata) ? { ...obj.metadata } : {};
  const oldMeta = isRecord(old.metadata) ? old.metadata : {};
  for (const k of ['ownerReferences', 'finalizers', 'selfLink', 'managedFields']) {
    if (oldMeta[k] === undefined) delete meta[k];
    else meta[k] = oldMeta[k];
  }
  return semanticEqual({ ...obj, metadata: meta }, old);
}

/** A RESTStore that runs `check` on each object a create or update would write. */
class CheckedStore implements RESTStore {
  readonly apply: RESTStore['apply'];

  constructor(
    private readonly inner: RESTStore,
    private readonly check: (user: UserInfo, ns: string, obj: Obj, old: Obj | undefined, requestName: string) => void,
  ) {
    this.apply = inner.apply?.bind(inner);
  }

  get info() {
    return this.inner.info;
  }
  get: RESTStore['get'] = (...a) => this.inner.get(...a);
  list: RESTStore['list'] = (...a) => this.inner.list(...a);
  watch: RESTStore['watch'] = (...a) => this.inner.watch(...a);
  delete: RESTStore['delete'] = (...a) => this.inner.delete(...a);
  deleteCollection: RESTStore['deleteCollection'] = (...a) => this.inner.deleteCollection(...a);

  create(ns: string | undefined, obj: Obj, opts: CreateOptions) {
    this.check(opts.user ?? adminUser, ns ?? '', obj, undefined, '');
    return this.inner.create(ns, obj, opts);
  }

  update(ns: string | undefined, name: string, tryUpdate: TryUpdate, opts: UpdateOptions) {
    const user = opts.user ?? adminUser;
    const checked: TryUpdate = async (current) => {
      const next = await tryUpdate(current);
      this.check(user, ns ?? '', next, current, name);
      return next;
    };
    return this.inner.update(ns, name, checked, opts);
  }
}

/**
 * Wraps one of the four RBAC kinds' stores with its escalation check; `checks()` is asked on
 * each write (undefined: the server has no authorizer, and nothing is checked).
 */
export function escalationCheckedStore(kind: Kind, inner: RESTStore, checks: () => EscalationChecks | undefined): RESTStore {
  const gr = { group: rbacGroup, resource: kind };
  const forbidden = (obj: Obj, err: string): StatusError => newForbidden(gr, nameOf(obj), err);
  const confirm = (c: EscalationChecks, user: UserInfo, ns: string, obj: Obj, rules: RBACRule[]) => {
    const err = c.confirmNoEscalation(user, ns, rules);
    if (err !== undefined) throw forbidden(obj, err);
  };
  const roleCheck = (user: UserInfo, ns: string, obj: Obj, old: Obj | undefined, requestName: string) => {
    const c = checks();
    if (c === undefined || c.escalationAllowed(user)) return;
    if (c.roleEscalationAuthorized(user, { group: rbacGroup, resource: kind, namespace: ns, name: requestName })) return;
    if (old !== undefined && isOnlyMutatingGCFields(obj, old)) return;
    confirm(c, user, ns, obj, rulesOf(obj));
    if (kind === 'clusterroles' && (hasAggregationRule(obj) || hasAggregationRule(old))) {
      if (c.confirmNoEscalation(user, ns, fullAuthority) !== undefined) throw forbidden(obj, 'must have cluster-admin privileges to use the aggregationRule');
    }
  };
  const bindingCheck = (user: UserInfo, ns: string, obj: Obj, old: Obj | undefined) => {
    const c = checks();
    if (c === undefined || c.escalationAllowed(user)) return;
    if (kind === 'rolebindings' && ns === '') throw newBadRequest('namespace is required');
    if (old !== undefined && isOnlyMutatingGCFields(obj, old)) return;
    const ref = roleRefOf(obj);
    if (c.bindingAuthorized(user, ref, ns)) return;
    const resolved = c.roleReferenceRules(ref, ns);
    if ('error' in resolved) {
      if (ref.kind === 'Role' || ref.kind === 'ClusterRole') throw newNotFound({ group: rbacGroup, resource: ref.kind.toLowerCase() }, ref.name);
      throw newInternalError(resolved.error);
    }
    confirm(c, user, ns, obj, resolved.rules);
  };
  return new CheckedStore(inner, kind === 'roles' || kind === 'clusterroles' ? roleCheck : bindingCheck);
}
