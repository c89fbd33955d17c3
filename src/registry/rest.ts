/**
 * The REST storage interface the HTTP layer calls: one RESTStore per served resource (a custom
 * resource version, Namespaces, CustomResourceDefinitions, ...). It speaks Kubernetes objects
 * (plain JSON values) and Kubernetes semantics — the verbs of k8s.io/apiserver's
 * `pkg/registry/rest` (Getter, Lister, Watcher, Creater, Updater, GracefulDeleter,
 * CollectionDeleter) folded into one small interface.
 *
 * Every method rejects with a `StatusError` (src/apimachinery/status.ts) carrying the Status that
 * kube-apiserver would answer with (404 NotFound, 409 AlreadyExists/Conflict, 422 Invalid,
 * 410 Gone, 400 BadRequest, 500 InternalError, ...). The server writes that Status as is.
 */

/** A Kubernetes object as decoded JSON. */
export type Obj = Record<string, unknown>;

/** A list as the server returns it: `{ apiVersion, kind: <listKind>, metadata, items }`. */
export interface ObjList {
  apiVersion: string;
  kind: string;
  metadata: { resourceVersion: string; continue?: string; remainingItemCount?: number };
  items: Obj[];
}

/** What is served: group/version/resource and its kinds. `group` is '' for the core group. */
export interface ResourceInfo {
  group: string;
  version: string;
  /** Plural resource name, as in URLs. */
  resource: string;
  kind: string;
  listKind: string;
  namespaced: boolean;
  singular?: string;
}

export type FieldValidation = 'Ignore' | 'Warn' | 'Strict';

export type Subresource = 'status' | 'scale' | 'finalize';

/** The user a request is made as (user.Info): the admin until authentication is served. */
export interface UserInfo {
  username: string;
  uid?: string;
  groups: string[];
  extra?: Record<string, string[]>;
}

/** The admission operation of a request (admission.Operation). */
export type Operation = 'CREATE' | 'UPDATE' | 'DELETE' | 'CONNECT';

/**
 * What admission sees of one request (admission.Attributes): who, which operation on which
 * resource and kind, the object as it will be written (mutating plugins may change it) and the
 * stored one on update and delete, the request's options and whether it is a dry run. Plugins add
 * warnings for the client to `warnings`.
 */
export interface AdmissionAttributes {
  operation: Operation;
  user: UserInfo;
  resource: { group: string; version: string; resource: string };
  /** '' for the main resource. */
  subresource: string;
  kind: { group: string; version: string; kind: string };
  /** '' for cluster-scoped resources. */
  namespace: string;
  name: string;
  /** The new object (CREATE, UPDATE); mutating plugins change it in place. */
  object: Obj | undefined;
  /** The stored object (UPDATE, DELETE). */
  oldObject: Obj | undefined;
  /** CreateOptions, UpdateOptions or DeleteOptions as metav1 sends them to webhooks. */
  options: Obj;
  dryRun: boolean;
  warnings: string[];
  /**
   * How the kind's objects convert to its other versions for plugins that matched one of them
   * (ObjectInterfaces.GetObjectConvertor), when that takes more than setting apiVersion: a CRD's
   * conversion webhook. Absent, built-in kinds convert through their shared storage and custom
   * resources by setting apiVersion.
   */
  convertor?: AdmissionConvertor;
}

/** An object converted to another version of its kind; rejects with the conversion's error (a 500 StatusError). */
export interface AdmissionConvertor {
  convert(obj: Obj, toAPIVersion: string): Promise<Obj>;
}

/**
 * The admission chain as the registry calls it (admission.MutationInterface and
 * ValidationInterface, composed): `admit` runs the mutating plugins after decoding and defaulting,
 * before the strategy; `validate` runs the validating plugins after the strategy's validation,
 * right before storage. Both refuse by throwing a StatusError. The chain itself lives in
 * `admission/`; the registry only knows this seam.
 */
export interface Admission {
  admit(a: AdmissionAttributes): Promise<void>;
  validate(a: AdmissionAttributes): Promise<void>;
  /**
   * False when no mutating step can change `a.object` (none configured matches): the store then
   * skips what only a change needs (the managed-fields check after admission, the version view's
   * comparison). Absent: any may.
   */
  mayMutate?(a: AdmissionAttributes): boolean;
}

/** The user every request runs as while no authentication is served. */
export const adminUser: UserInfo = { username: 'system:admin', groups: ['system:masters', 'system:authenticated'] };

export interface CreateOptions {
  /** Run every stage but write nothing (`dryRun=All`). */
  dryRun?: boolean;
  fieldManager?: string;
  /**
   * The manager the write is recorded under in metadata.managedFields: the fieldManager option,
   * else the user agent's first segment (managerOrUserAgent). Writes without one (the server's
   * own) are not recorded.
   */
  manager?: string;
  fieldValidation?: FieldValidation;
  /** Who makes the request (default: adminUser). */
  user?: UserInfo;
  /**
   * Strict decoding errors the body's (or patch's) decoding found (`duplicate field "x"`),
   * reported per fieldValidation before the unknown fields the kind's codec finds.
   */
  decodeErrors?: string[];
  /**
   * Where the request's warnings are gathered (a store's stages append to it), so that the
   * handler can send them with an error too, as kube-apiserver's warning recorder does.
   */
  warnings?: string[];
  /**
   * The caller hands the body over (a freshly decoded request, a document read for this write
   * alone): create works on it instead of copying it first.
   */
  inputOwned?: boolean;
  /** The version admission sees the write at, when the store's own is another (see AdmissionView). */
  admissionView?: AdmissionView;
  /** The API group of the endpoint the write came through, when it is not the store's own (RequestContext.requestGroup). */
  requestGroup?: string;
}

/**
 * A built-in kind served over another version's storage (ConvertedStore) is admitted at the
 * version of the request, as kube-apiserver's attributes carry the request's kind and resource:
 * plugins get that version's resource, kind and objects, and what mutating plugins change comes
 * back to the store's version.
 */
export interface AdmissionView {
  resource: { group: string; version: string; resource: string };
  kind: { group: string; version: string; kind: string };
  /** A stored-version object as a copy at the view's version. */
  toView(obj: Obj): Obj;
  /** An object of the view's version (MUTATED) at the store's version. */
  fromView(obj: Obj): Obj;
}

export interface UpdateOptions extends CreateOptions {
  /**
   * Write through a subresource: `status` writes only status; `scale` goes through the main
   * strategy (the server maps the Scale object onto the resource, see customresource/scale.ts);
   * `finalize` (Namespace) writes spec.finalizers.
   */
  subresource?: Subresource;
  /** Create when missing even where the kind does not allow create-on-update (server-side apply). */
  forceAllowCreate?: boolean;
  /**
   * Checked against the stored object before tryUpdate runs. A PUT passes the body's
   * metadata.uid here, as upstream's defaultUpdatedObjectInfo does (a mismatch is 409
   * `Precondition failed: UID in precondition: ...`); PATCH passes none.
   */
  preconditions?: Preconditions;
  /**
   * tryUpdate returns a patch's result (PATCH): what its decoding finds is reported as the patch
   * handler reports it (422 on field `patch`), not as a request body's (400).
   */
  patched?: boolean;
  /** The object tryUpdate returns is already decoded (the scale subresource maps a Scale onto it). */
  decoded?: boolean;
  /**
   * tryUpdate returns a server-side apply's result (RESTStore.apply): its managedFields are the
   * apply's, so the write is not recorded again as an Update.
   */
  applied?: boolean;
}

/** A server-side apply of one request (PatchOptions' fieldManager and force, the endpoint). */
export interface ApplyRequest {
  manager: string;
  force: boolean;
  subresource?: Subresource;
}

export interface Preconditions {
  uid?: string;
  resourceVersion?: string;
}

export interface DeleteOptions {
  dryRun?: boolean;
  admissionView?: AdmissionView;
  gracePeriodSeconds?: number;
  preconditions?: Preconditions;
  /** Orphan | Background | Foreground: what becomes of the object's dependents (see deletion/propagation.ts). */
  propagationPolicy?: string;
  /** The legacy form of propagationPolicy (true: Orphan, false: Background); never set with it. */
  orphanDependents?: boolean;
  /** Where a delete's warnings are gathered (deletecollection's, whose answer is a list). */
  warnings?: string[];
  /** Who makes the request (default: adminUser). */
  user?: UserInfo;
}

export interface ListOptions {
  labelSelector?: string;
  fieldSelector?: string;
  limit?: number;
  continue?: string;
  resourceVersion?: string;
  resourceVersionMatch?: string;
}

export interface WatchOptions extends ListOptions {
  allowWatchBookmarks?: boolean;
  sendInitialEvents?: boolean;
  /** End the watch (onEnd with no error) after this many seconds. */
  timeoutSeconds?: number;
  /**
   * The caller reads only apiVersion, kind and metadata (a metadata informer, as the garbage
   * collector's monitors are): a watch without selectors may then deliver its changes as just
   * those, the stored metadata with the resourceVersion, sparing the kind's read decoding of each
   * written object. The initial events are whole objects either way.
   */
  metadataOnly?: boolean;
}

export type WatchEventType = 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR';

/** One watch event as it goes on the wire. ERROR events carry a `Status` object. */
export interface WatchEvent {
  type: WatchEventType;
  object: Obj;
}

export interface Watcher {
  /** Stop delivering events; idempotent. onEnd is not called after stop(). */
  stop(): void;
}

/** The result of create. `warnings` go out as `Warning` headers. */
export interface CreateResult {
  object: Obj;
  warnings: string[];
}

export interface UpdateResult {
  object: Obj;
  /** True when the update created the object (PUT/apply on a missing object, where allowed): 201. */
  created: boolean;
  warnings: string[];
}

export interface DeleteResult {
  object: Obj;
  /** false: finalizers are pending and `object` is the stored object with its deletionTimestamp; true: removed. */
  deleted: boolean;
  /**
   * The body to answer with: the object while finalizers are pending or when the kind returns
   * deleted objects; otherwise the Success `Status` upstream's finalizeDelete builds
   * (details name, group, kind = the resource, uid).
   */
  response: Obj;
  /** Warnings for the client (a Job deleted without a propagation policy keeps its pods). */
  warnings?: string[];
}

/** Computes the desired object from the current one (undefined when it does not exist). */
export type TryUpdate = (current: Obj | undefined) => Obj | Promise<Obj>;

export interface RESTStore {
  readonly info: ResourceInfo;
  /** `ns` must be given for namespaced resources and undefined for cluster-scoped ones. */
  get(ns: string | undefined, name: string, opts?: { resourceVersion?: string }): Promise<Obj>;
  /** `ns` undefined on a namespaced resource lists across all namespaces. */
  list(ns: string | undefined, opts: ListOptions): Promise<ObjList>;
  /**
   * Start a watch. Resolves once the watch is established (an invalid request or a too-old
   * resourceVersion in the request itself rejects; a too-old resourceVersion found while starting
   * is delivered as an ERROR event followed by onEnd). onEnd is called once when the watch ends on
   * its own (timeoutSeconds, a storage error); never after stop().
   */
  watch(
    ns: string | undefined,
    opts: WatchOptions,
    onEvent: (ev: WatchEvent) => void,
    onEnd?: (err?: Error) => void,
  ): Promise<Watcher>;
  create(ns: string | undefined, obj: Obj, opts: CreateOptions): Promise<CreateResult>;
  /**
   * PUT and PATCH. `tryUpdate(current)` returns the desired object; it is called again with the
   * fresh object on a storage conflict when the desired object does not pin a resourceVersion.
   * A resourceVersion in the desired object that differs from the current one is a 409 Conflict.
   */
  update(ns: string | undefined, name: string, tryUpdate: TryUpdate, opts: UpdateOptions): Promise<UpdateResult>;
  /**
   * Server-side apply of `patch` to `current` (undefined: the object does not exist yet), as the
   * field manager merges it: the object tryUpdate should return, with its managedFields. Throws
   * 409 on conflicts, 400 for patches the field manager refuses, 500 for what it cannot convert.
   */
  apply?(current: Obj | undefined, patch: Obj, req: ApplyRequest): Obj;
  delete(ns: string | undefined, name: string, opts: DeleteOptions): Promise<DeleteResult>;
  /** Delete every object matching the list options; returns the list of deleted (or finalizing) objects. */
  deleteCollection(ns: string | undefined, listOpts: ListOptions, opts: DeleteOptions): Promise<ObjList>;
}
