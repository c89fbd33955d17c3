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

/**
 * Validating admission (upstream's rest.ValidateObjectFunc / ValidateObjectUpdateFunc): called
 * with copies of the final object — after the strategy and ObjectMeta validation, right before
 * the write — and, on update, the stored one. Throw a StatusError to refuse; return strings to
 * add warnings. Also called on dry runs.
 */
export type ValidateObject = (obj: Obj, old: Obj | undefined) => void | string[] | Promise<void | string[]>;

export interface CreateOptions {
  /** Run every stage but write nothing (`dryRun=All`). */
  dryRun?: boolean;
  fieldManager?: string;
  fieldValidation?: FieldValidation;
  /** Validating admission for the object about to be written. */
  validation?: ValidateObject;
  /**
   * Paths of fields the body repeats: strict decoding errors (`duplicate field "x"`), reported
   * per fieldValidation together with the unknown fields the strategy drops.
   */
  duplicateFields?: string[];
  /** Other strict decoding errors of the body, already worded (a YAML body's duplicate keys), reported with them. */
  strictErrors?: string[];
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
}

export interface Preconditions {
  uid?: string;
  resourceVersion?: string;
}

export interface DeleteOptions {
  /** Validating admission for a delete: called with the stored object before it is marked or removed. */
  validation?: (old: Obj) => void | Promise<void>;
  dryRun?: boolean;
  gracePeriodSeconds?: number;
  preconditions?: Preconditions;
  /** Orphan | Background | Foreground (accepted; garbage collection is not modelled). */
  propagationPolicy?: string;
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
  delete(ns: string | undefined, name: string, opts: DeleteOptions): Promise<DeleteResult>;
  /** Delete every object matching the list options; returns the list of deleted (or finalizing) objects. */
  deleteCollection(ns: string | undefined, listOpts: ListOptions, opts: DeleteOptions): Promise<ObjList>;
}
