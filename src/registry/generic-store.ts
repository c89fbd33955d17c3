/**
 * The one RESTStore implementation: Kubernetes object semantics over the MVCC Store contract,
 * parameterised by a per-kind Strategy — what k8s.io/apiserver's
 * `pkg/registry/generic/registry/store.go` does over `pkg/storage/etcd3` and the watch cache.
 *
 * Objects are stored as canonical JSON (keys sorted, as Go encodes unstructured maps) without
 * metadata.resourceVersion; on the way out the resourceVersion is the key's modRevision.
 * Writes carry the revision they were computed from, so a lost race is a storage conflict and the
 * update is recomputed from the fresh object (GuaranteedUpdate).
 */
import { randomUUID } from 'node:crypto';
import { invalid, type FieldError } from '../apimachinery/index.ts';
import {
  failureStatus,
  isAlreadyExists,
  newAlreadyExists,
  newBadRequest,
  newConflict,
  newGenerateNameConflict,
  newInvalid,
  newNotFound,
  StatusError,
  successStatus,
  type GroupKind,
  type GroupResource,
} from '../apimachinery/index.ts';
import { formatRFC3339 } from '../apimachinery/index.ts';
import { ConflictError, type KeyValue, type Store } from '../storage/index.ts';
import { KeyLayout } from './keys.ts';
import {
  canonicalJSON,
  deepCopy,
  getFinalizers,
  getGeneration,
  getName,
  getNamespace,
  getResourceVersion,
  getUID,
  hasDeletionTimestamp,
  metaOf,
  setResourceVersion,
} from './meta.ts';
import { generateName, maxNameGenerationCreateAttempts } from './names.ts';
import { validateObjectMetaForCreate, validateObjectMetaForUpdate } from './objectmeta-checks.ts';
import { Lister } from './list.ts';
import { startWatch } from './watch.ts';
import { parseGoUint } from '../apimachinery/index.ts';
import { newInvalidOptions, validateDeleteOptions } from '../apimachinery/index.ts';
import {
  adminUser,
  type Admission,
  type AdmissionAttributes,
  type CreateOptions,
  type CreateResult,
  type DeleteOptions,
  type DeleteResult,
  type ListOptions,
  type Obj,
  type ObjList,
  type ResourceInfo,
  type RESTStore,
  type Subresource,
  type TryUpdate,
  type UpdateOptions,
  type UpdateResult,
  type Watcher,
  type WatchEvent,
  type WatchOptions,
} from './rest.ts';
import type { RequestContext, Strategy } from './strategy.ts';
import { patchedObjectJSON, reportDecoding, type Codec } from './codec.ts';
import { checkManagedFieldsAfterAdmission, ignoreManagedFieldsTimestamps, type ManagedFieldsEntry } from '../apimachinery/index.ts';
import { applyWith, type FieldManagers } from './field-managers.ts';
import { deletionFinalizers } from './deletion/propagation.ts';
import type { AdmissionConvertor, AdmissionView, ApplyRequest } from './rest.ts';

/** OptimisticLockErrorMsg */
export const optimisticLockErrorMsg = 'the object has been modified; please apply your changes to the latest version and try again';

/** What a write's begin hook hands back: called once the write is stored (true) or has failed (false). */
export type FinishWrite = (success: boolean) => Promise<void>;

/**
 * A kind's work around its writes (genericregistry.Store's BeginCreate, BeginUpdate and
 * AfterDelete; the Service REST allocates IPs and ports there). The begin hooks run before the
 * strategy's PrepareForCreate/PrepareForUpdate and may change the object.
 */
export interface WriteHooks {
  beginCreate?(ctx: RequestContext, obj: Obj): Promise<FinishWrite>;
  beginUpdate?(ctx: RequestContext, obj: Obj, old: Obj): Promise<FinishWrite>;
  /**
   * An update through the status strategy. Upstream's status stores are copies of the main store
   * made before its BeginUpdate is set (a Service's status write allocates nothing), so the main
   * hook does not run there; a kind whose status strategy needs a read of its own (a
   * ResourceClaim's admin-access check) says so here.
   */
  beginStatusUpdate?(ctx: RequestContext, obj: Obj, old: Obj): Promise<FinishWrite>;
  /** After an object is removed from storage (not on dry runs). */
  afterDelete?(obj: Obj): Promise<void>;
}

export interface GenericStoreConfig {
  store: Store;
  /** The kind's work around writes (default: none). */
  hooks?: WriteHooks;
  info: ResourceInfo;
  strategy: Strategy;
  /** How long a read or watch asking for a resourceVersion newer than the store waits (the watch cache's 3s). */
  freshnessTimeoutMs?: number;
  /** Interval of periodic BOOKMARK events for watches that allow them (upstream: about a minute). */
  bookmarkIntervalMs?: number;
  /** The clock for creationTimestamp and deletionTimestamp. */
  now?: () => Date;
  /**
   * Objects expire this many seconds after their last write (upstream stores Events with a TTL of
   * an hour, `--event-ttl`); backends without leases ignore it.
   */
  ttlSeconds?: number;
  /** The kind's decoding of request and stored objects (default: none, objects are taken as they are). */
  codec?: Codec;
  /** The admission chain writes pass through (default: none). */
  admission?: Admission;
  /** The generateName name generator (default: upstream's five random characters). */
  generateName?: (base: string) => string;
  /**
   * The version objects are stored in (a CRD's storage version; default: the served one). With
   * conversion strategy None, converting is setting apiVersion: objects are written with the
   * storage apiVersion and read back with the served one.
   */
  storageVersion?: string;
  /** The kind's field managers: writes are recorded in metadata.managedFields and apply is served (default: neither). */
  fieldManagers?: FieldManagers;
  /**
   * A dry run's round trip through the storage's conversion (DryRunnableStorage.copyInto: the
   * stored form in, the form a read returns out); without one a dry run answers with the object
   * itself, which is what conversion by apiVersion gives.
   */
  dryRunCopy?: (stored: string) => Promise<string>;
  /** Carried in the admission attributes of this store's writes (AdmissionAttributes.convertor). */
  admissionConvertor?: AdmissionConvertor;
  /**
   * The objects are unstructured (custom resources): kube-apiserver writes them as Go writes
   * map[string]interface{}, keys sorted at every level, so the JSON text a list keeps of an
   * object is its sorted form (default: false, the members' own order).
   */
  unstructured?: boolean;
  /**
   * Loads what the kind's strategy and codec need before the store's first operation (a built-in
   * kind's folder, imported on first use); each operation waits for it until it returns undefined
   * (loaded). Default: nothing to load.
   */
  ready?: () => Promise<void> | undefined;
}

/**
 * A Strategy whose `validate` runs ValidateObjectMeta over the whole metadata with a name rule at
 * least as strict as path-segment names (DNS subdomains, say), returning every error it finds: the
 * store's own create check (path-segment names) can then add nothing and is not run again.
 */
export interface ObjectMetaValidatingStrategy {
  readonly validatesObjectMeta?: boolean;
}

/** An object's managedFields as JSON text ('null' when absent): a snapshot to compare and restore after admission. */
function managedFieldsText(obj: Obj): string {
  const mf = (obj.metadata as Record<string, unknown> | undefined)?.managedFields;
  return JSON.stringify(mf ?? null);
}

/** An update computed inside GuaranteedUpdate: the object to write, or an instruction. */
interface WriteOutcome {
  object: Obj;
  created: boolean;
}

export class GenericStore implements RESTStore {
  readonly info: ResourceInfo;
  readonly strategy: Strategy;
  readonly keys: KeyLayout;
  readonly store: Store;
  /** The qualified resource in messages (`widgets.example.com`). */
  readonly gr: GroupResource;
  /** The qualified kind in Invalid messages (`Widget.example.com`). */
  readonly gk: GroupKind;
  readonly apiVersion: string;
  /** The apiVersion objects are stored with. */
  readonly storageApiVersion: string;
  readonly freshnessTimeoutMs: number;
  readonly bookmarkIntervalMs: number;
  /** GenericStoreConfig.unstructured. */
  readonly sortsKeys: boolean;
  private readonly now: () => Date;
  /** The request-version views of the attributes this store built (see AdmissionView). */
  private readonly views = new WeakMap<AdmissionAttributes, AdmissionView>();
  private readonly lister: Lister;
  readonly codec: Codec | undefined;
  private readonly writeOptions: { ttlSeconds?: number } | undefined;
  private readonly admission: Admission | undefined;
  private readonly nameGenerator: (base: string) => string;
  readonly fieldManagers: FieldManagers | undefined;
  private readonly hooks: WriteHooks | undefined;
  private readonly dryRunCopy: GenericStoreConfig['dryRunCopy'];
  private readonly admissionConvertor: AdmissionConvertor | undefined;
  readonly ready: (() => Promise<void> | undefined) | undefined;
  /** `ready` has nothing more to load: operations add no wait. */
  private loaded: boolean;

  constructor(cfg: GenericStoreConfig) {
    this.ready = cfg.ready;
    this.loaded = cfg.ready === undefined;
    this.hooks = cfg.hooks;
    this.dryRunCopy = cfg.dryRunCopy;
    this.admissionConvertor = cfg.admissionConvertor;
    this.info = cfg.info;
    this.strategy = cfg.strategy;
    this.store = cfg.store;
    this.keys = new KeyLayout(cfg.info.group, cfg.info.resource, cfg.strategy.namespaced);
    this.gr = { group: cfg.info.group, resource: cfg.info.resource };
    this.gk = { group: cfg.info.group, kind: cfg.info.kind };
    this.apiVersion = cfg.info.group === '' ? cfg.info.version : `${cfg.info.group}/${cfg.info.version}`;
    const sv = cfg.storageVersion ?? cfg.info.version;
    this.storageApiVersion = cfg.info.group === '' ? sv : `${cfg.info.group}/${sv}`;
    this.freshnessTimeoutMs = cfg.freshnessTimeoutMs ?? 3000;
    this.bookmarkIntervalMs = cfg.bookmarkIntervalMs ?? 60_000;
    this.sortsKeys = cfg.unstructured === true;
    this.now = cfg.now ?? (() => new Date());
    this.lister = new Lister(this);
    this.codec = cfg.codec;
    this.writeOptions = cfg.ttlSeconds === undefined ? undefined : { ttlSeconds: cfg.ttlSeconds };
    this.admission = cfg.admission;
    this.nameGenerator = cfg.generateName ?? generateName;
    this.fieldManagers = cfg.fieldManagers;
    if (!this.fieldManagers) this.apply = undefined;
  }

  // ---- reading ----

  /** The object stored in `kv`, with its resourceVersion, as clients see it. */
  decode(kv: KeyValue): Obj {
    const obj = JSON.parse(kv.value) as Obj;
    // Conversion None: an object stored by any version reads as the served one.
    if (obj.apiVersion !== this.apiVersion) obj.apiVersion = this.apiVersion;
    setResourceVersion(obj, String(kv.modRevision));
    this.decorate(obj);
    return obj;
  }

  /** What every object read or written goes through on its way out: the codec's read decoding, the strategy's decoration. */
  private decorate(obj: Obj): void {
    this.codec?.decodeStored(obj);
    this.strategy.decorate?.(obj);
  }

  /** The stored form: canonical JSON without resourceVersion (PrepareObjectForStorage), in the storage version. */
  encode(obj: Obj): string {
    const m = obj.metadata as Record<string, unknown> | undefined;
    const apiVersion = this.storageApiVersion;
    if (m && typeof m === 'object' && 'resourceVersion' in m) {
      const { resourceVersion: _rv, ...rest } = m;
      return canonicalJSON({ ...obj, apiVersion, metadata: rest });
    }
    return canonicalJSON(obj.apiVersion === apiVersion ? obj : { ...obj, apiVersion });
  }

  /** What the store's first operations wait for (GenericStoreConfig.ready); undefined once loaded. */
  private whenReady(): Promise<void> | undefined {
    if (this.loaded) return undefined;
    const p = this.ready!();
    if (p === undefined) this.loaded = true;
    return p;
  }

  async get(ns: string | undefined, name: string, opts?: { resourceVersion?: string }): Promise<Obj> {
    const loading = this.whenReady();
    if (loading) await loading;
    const key = this.keys.key(ns, name);
    const rv = opts?.resourceVersion ?? '';
    const minRV = this.lister.parseRV(rv);
    if (minRV > 0) await this.lister.waitFresh(minRV);
    const kv = await this.store.get(key);
    if (!kv) throw newNotFound(this.gr, name);
    return this.decode(kv);
  }

  list(ns: string | undefined, opts: ListOptions): Promise<ObjList> {
    const loading = this.whenReady();
    return loading ? loading.then(() => this.lister.list(ns, opts)) : this.lister.list(ns, opts);
  }

  watch(
    ns: string | undefined,
    opts: WatchOptions,
    onEvent: (ev: WatchEvent) => void,
    onEnd?: (err?: Error) => void,
  ): Promise<Watcher> {
    const loading = this.whenReady();
    return loading ? loading.then(() => startWatch(this, this.lister, ns, opts, onEvent, onEnd)) : startWatch(this, this.lister, ns, opts, onEvent, onEnd);
  }

  // ---- create ----

  async create(ns: string | undefined, input: Obj, opts: CreateOptions): Promise<CreateResult> {
    const loading = this.whenReady();
    if (loading) await loading;
    const ctx = this.context(opts);
    let obj = opts.inputOwned ? input : deepCopy(input);
    this.decodeRequest(ctx, obj, opts);
    obj = this.fieldManagers?.converts ? await this.fieldManagers.converting(() => this.recordUpdate(undefined, obj, opts)) : this.recordUpdate(undefined, obj, opts);
    // Mutating admission runs once, before the store's attempts (as the create handler runs it).
    const attrs = this.attributes('CREATE', opts, ctx, ns, obj, undefined);
    const admitted = await this.admit(attrs, ctx, obj, opts);
    const decodeWarnings = ctx.warnings.length;
    const m = (admitted.metadata ?? {}) as Record<string, unknown>;
    const generating = typeof m.generateName === 'string' && m.generateName !== '' && !m.name;
    // RetryGenerateName: a generated name that collides is replaced and the create tried again.
    const attempts = generating ? maxNameGenerationCreateAttempts : 1;
    let last: unknown;
    for (let i = 0; i < attempts; i++) {
      ctx.warnings.length = decodeWarnings;
      try {
        // Each attempt but the last works on its own copy (a failed one may have changed it).
        const object = await this.createOnce(ns, i === attempts - 1 ? admitted : deepCopy(admitted), ctx, this.strategy, opts);
        return { object, warnings: ctx.warnings };
      } catch (e) {
        last = e;
        if (!generating || !isAlreadyExists(e)) throw e;
      }
    }
    throw last;
  }

  /**
   * FieldManager.UpdateNoErrors of the create, update and patch handlers: `obj` with the write
   * recorded in its managedFields as an Update by the request's manager (`live` undefined for a
   * create). Writes without a manager, and apply results, pass unchanged.
   */
  private recordUpdate(live: Obj | undefined, obj: Obj, opts: UpdateOptions): Obj {
    if (!this.fieldManagers || opts.manager === undefined || opts.applied) return obj;
    return this.fieldManagers.get(opts.subresource ?? '').updateNoErrors(live ?? this.fieldManagers.emptyObject(), obj, opts.manager);
  }

  /**
   * Mutating admission, then the managed-fields check that follows it upstream
   * (NewManagedFieldsValidatingAdmissionController): managedFields a plugin left undecodable are
   * put back, with a warning.
   */
  private async admit(attrs: AdmissionAttributes, ctx: RequestContext, obj: Obj, opts: UpdateOptions): Promise<Obj> {
    if (!this.admission) return obj;
    if (this.admission.mayMutate?.(attrs) === false) {
      // Nothing configured can change the object: the plugins only get to refuse it.
      await this.admission.admit(attrs);
      return obj;
    }
    const view = opts.admissionView;
    const viewed = view && attrs.object ? JSON.stringify(attrs.object) : undefined;
    const before = this.fieldManagers && attrs.object ? managedFieldsText(attrs.object) : undefined;
    await this.admission.admit(attrs);
    // Unchanged text needs no second decode: it is what the field manager just wrote.
    if (before !== undefined && attrs.object && managedFieldsText(attrs.object) !== before) {
      const w = checkManagedFieldsAfterAdmission(attrs.object, JSON.parse(before) as ManagedFieldsEntry[] | null);
      if (w !== undefined) ctx.warnings.push(w);
    }
    if (attrs.object === undefined) return obj;
    if (!view) return attrs.object;
    // An object no plugin changed stays the store's own (no round trip through the conversions).
    return JSON.stringify(attrs.object) === viewed ? obj : view.fromView(attrs.object);
  }


  /** Server-side apply through this kind's field manager (see RESTStore.apply). */
  apply?(current: Obj | undefined, patch: Obj, req: ApplyRequest): Obj {
    return applyWith(this.fieldManagers!, current, patch, req);
  }

  private context(opts: CreateOptions & { subresource?: Subresource }): RequestContext {
    return {
      warnings: opts.warnings ?? [],
      fieldValidation: opts.fieldValidation ?? 'Warn',
      dryRun: opts.dryRun === true,
      subresource: opts.subresource,
      requestGroup: opts.requestGroup,
    };
  }

  /**
   * The codec stage: decodes a request object (MUTATES it) and reports what decoding found per
   * fieldValidation, as the handler that decoded it would (a body's or a patch result's).
   */
  private decodeRequest(ctx: RequestContext, obj: Obj, opts: UpdateOptions, patched?: Obj): void {
    if (!this.codec) {
      if (opts.decodeErrors && opts.decodeErrors.length > 0) this.report(ctx, opts, { strictErrors: [] }, patched);
      return;
    }
    const d = this.codec.decode(obj, ctx.fieldValidation !== 'Ignore');
    this.report(ctx, opts, d, patched);
  }

  /** `patched`: the patch result as it was before decoding (quoted in the patch handler's 422; rendered only then). */
  private report(ctx: RequestContext, opts: UpdateOptions, d: { error?: string; strictErrors: string[] }, patched: Obj | undefined): void {
    const pre = opts.decodeErrors?.length ?? 0;
    const refused = d.error !== undefined || (ctx.fieldValidation === 'Strict' && pre + d.strictErrors.length > 0);
    reportDecoding(
      {
        kind: this.info.kind,
        version: this.info.version,
        fieldValidation: ctx.fieldValidation,
        decodeErrors: opts.decodeErrors,
        patchedJSON: refused && opts.patched && patched !== undefined ? patchedObjectJSON(patched) : undefined,
        warnings: ctx.warnings,
      },
      d,
    );
  }

  /** The admission attributes of a request on this resource. */
  private attributes(
    operation: AdmissionAttributes['operation'],
    opts: UpdateOptions | DeleteOptions,
    ctx: { warnings: string[]; dryRun: boolean },
    ns: string | undefined,
    obj: Obj | undefined,
    old: Obj | undefined,
  ): AdmissionAttributes {
    const named = obj ?? old;
    const options: Obj = { kind: operation === 'CREATE' ? 'CreateOptions' : operation === 'UPDATE' ? 'UpdateOptions' : 'DeleteOptions', apiVersion: 'meta.k8s.io/v1' };
    if (opts.dryRun) options.dryRun = ['All'];
    const fm = (opts as UpdateOptions).fieldManager;
    if (fm) options.fieldManager = fm;
    const pp = (opts as DeleteOptions).propagationPolicy;
    if (pp) options.propagationPolicy = pp;
    const view = this.admission ? opts.admissionView : undefined;
    const a: AdmissionAttributes = {
      operation,
      user: opts.user ?? adminUser,
      resource: view?.resource ?? { group: this.info.group, version: this.info.version, resource: this.info.resource },
      subresource: (opts as UpdateOptions).subresource ?? '',
      kind: view?.kind ?? { group: this.info.group, version: this.info.version, kind: this.info.kind },
      namespace: this.strategy.namespaced ? (ns ?? '') : '',
      name: named ? getName(named) : '',
      object: obj && view ? view.toView(obj) : obj,
      oldObject: old && view ? view.toView(old) : old,
      options,
      dryRun: ctx.dryRun,
      warnings: ctx.warnings,
    };
    if (view) this.views.set(a, view);
    if (this.admissionConvertor) a.convertor = this.admissionConvertor;
    return a;
  }

  /** Validating admission on the object about to be written (and the stored one). */
  private async validateAdmission(attrs: AdmissionAttributes, obj: Obj, old: Obj | undefined): Promise<void> {
    if (!this.admission) return;
    const view = this.views.get(attrs);
    await this.admission.validate({ ...attrs, name: getName(obj), object: view ? view.toView(obj) : obj, oldObject: old && view ? view.toView(old) : old });
  }

  /** One create attempt; `viaUpdate` is create-on-update, where a set resourceVersion is just dropped. */
  private async createOnce(
    ns: string | undefined,
    obj: Obj,
    ctx: RequestContext,
    strategy: Strategy,
    opts: UpdateOptions,
    viaUpdate = false,
  ): Promise<Obj> {
    const m = metaOf(obj);
    // The create handler wipes what only the system sets (WipeObjectMetaSystemFields), then
    // the store fills it (FillObjectMetaSystemFields).
    delete m.deletionTimestamp;
    delete m.deletionGracePeriodSeconds;
    delete m.selfLink;
    this.fillSystemFields(m);
    if (typeof m.generateName === 'string' && m.generateName !== '' && !m.name) m.name = this.nameGenerator(m.generateName);
    const finish = await this.hooks?.beginCreate?.(ctx, obj);
    if (!finish) return this.createChecked(ns, obj, ctx, strategy, opts, viaUpdate);
    let ok = false;
    try {
      const out = await this.createChecked(ns, obj, ctx, strategy, opts, viaUpdate);
      ok = true;
      return out;
    } finally {
      await finish(ok);
    }
  }

  /** createOnce after the kind's begin hook: BeforeCreate, validating admission, the storage create. */
  private async createChecked(ns: string | undefined, obj: Obj, ctx: RequestContext, strategy: Strategy, opts: UpdateOptions, viaUpdate: boolean): Promise<Obj> {
    this.beforeCreate(ctx, strategy, ns, obj);
    if (this.admission) await this.validateAdmission(this.attributes('CREATE', opts, ctx, ns, undefined, undefined), obj, undefined);
    const name = getName(obj);
    const key = this.keys.key(strategy.namespaced ? getNamespace(obj) : undefined, name);
    // etcd3's Create refuses a set resourceVersion (a plain error: 500 with reason Unknown);
    // one that does not parse is ignored there, and dropped on storage.
    const rvText = getResourceVersion(obj);
    if (rvText !== '') {
      const rv = parseGoUint(rvText);
      if (rv.ok && rv.value !== 0n && !ctx.dryRun && !viaUpdate) {
        throw new StatusError(failureStatus(500, '', 'resourceVersion should not be set on objects to be created'));
      }
      setResourceVersion(obj, '');
    }
    if (ctx.dryRun) {
      const existing = await this.store.get(key);
      if (existing) throw this.alreadyExists(obj, existing);
      return this.dryRunCopy ? this.dryRunCopied(obj) : obj;
    }
    try {
      const kv = await this.store.create(key, this.encode(obj), this.writeOptions);
      setResourceVersion(obj, String(kv.modRevision));
      this.decorate(obj);
      return obj;
    } catch (e) {
      if (e instanceof ConflictError && e.reason === 'exists') {
        throw this.alreadyExists(obj, e.current ?? (await this.store.get(key)));
      }
      throw e;
    }
  }

  /** A dry run's object after the round trip through the storage's conversion, with its resourceVersion. */
  private async dryRunCopied(obj: Obj): Promise<Obj> {
    const out = JSON.parse(await this.dryRunCopy!(this.encode(obj))) as Obj;
    setResourceVersion(out, getResourceVersion(obj));
    this.decorate(out);
    return out;
  }

  /** AlreadyExists as the store reports it: the generated-name form, `object is being deleted: ` when it is. */
  private alreadyExists(obj: Obj, existing: KeyValue | undefined): StatusError {
    const m = metaOf(obj);
    const name = getName(obj);
    const err =
      typeof m.generateName === 'string' && m.generateName !== ''
        ? newGenerateNameConflict(this.gr, name, 1)
        : newAlreadyExists(this.gr, name);
    if (existing) {
      let deleting = false;
      try {
        deleting = hasDeletionTimestamp(JSON.parse(existing.value) as Obj);
      } catch {
        // an undecodable stored object changes nothing in the answer
      }
      if (deleting) return new StatusError({ ...err.status, message: `object is being deleted: ${err.status.message}` });
    }
    return err;
  }

  /** The last creationTimestamp formatted, by its second (RFC 3339 here has whole seconds). */
  private lastStamp = { second: NaN, text: '' };

  private fillSystemFields(m: Record<string, unknown>): void {
    const now = this.now();
    const second = Math.floor(now.getTime() / 1000);
    if (second !== this.lastStamp.second) this.lastStamp = { second, text: formatRFC3339(now) };
    m.creationTimestamp = this.lastStamp.text;
    m.uid = randomUUID();
  }

  /** rest.BeforeCreate */
  private beforeCreate(ctx: RequestContext, strategy: Strategy, ns: string | undefined, obj: Obj): void {
    const m = metaOf(obj);
    this.ensureNamespace(m, strategy.namespaced ? (ns ?? '') : '');
    strategy.prepareForCreate(ctx, obj);
    let errs = strategy.validate(ctx, obj);
    if (errs.length > 0) throw newInvalid(this.gk, getName(obj), errs);
    // Skipped where the strategy's validate has just passed the same ObjectMeta checks under a
    // stricter name rule: it could find nothing (the decode of ObjectMeta is the costly part).
    if (!(strategy as ObjectMetaValidatingStrategy).validatesObjectMeta) {
      errs = validateObjectMetaForCreate(obj, strategy.namespaced);
      if (errs.length > 0) throw newInvalid(this.gk, getName(obj), errs);
    }
    ctx.warnings.push(...strategy.warningsOnCreate(ctx, obj));
    strategy.canonicalize(obj);
  }

  /** EnsureObjectNamespaceMatchesRequestNamespace */
  private ensureNamespace(m: Record<string, unknown>, requestNs: string): void {
    const objNs = typeof m.namespace === 'string' ? m.namespace : '';
    if (objNs === requestNs) {
      if (requestNs === '') delete m.namespace;
      return;
    }
    if (objNs === '') {
      m.namespace = requestNs;
      return;
    }
    if (requestNs === '') {
      delete m.namespace;
      return;
    }
    throw newBadRequest('the namespace of the provided object does not match the namespace sent on the request');
  }

  // ---- update ----

  async update(ns: string | undefined, name: string, tryUpdate: TryUpdate, opts: UpdateOptions): Promise<UpdateResult> {
    const loading = this.whenReady();
    if (loading) await loading;
    const key = this.keys.key(ns, name);
    const strategy = (opts.subresource && this.strategy.subresourceStrategy?.(opts.subresource)) || this.strategy;
    const ctx = this.context(opts);
    // GuaranteedUpdate: every stage from the updated object on runs again on a storage conflict.
    for (;;) {
      ctx.warnings.length = 0;
      const kv = await this.store.get(key);
      const existing = kv ? this.decode(kv) : undefined;
      if (!existing && !strategy.allowCreateOnUpdate && !opts.forceAllowCreate) throw newNotFound(this.gr, name);
      if (existing) this.checkStoragePreconditions(existing, name, opts.preconditions);
      // An apply's field manager runs inside tryUpdate: with asynchronous conversions, until they are made.
      const updated = this.fieldManagers?.converts
        ? await this.fieldManagers.converting(() => tryUpdate(existing ? deepCopy(existing) : undefined))
        : await tryUpdate(existing ? deepCopy(existing) : undefined);
      let desired = deepCopy(updated);
      if (desired === null || typeof desired !== 'object' || Array.isArray(desired)) {
        throw newBadRequest('the body of the request must be an object');
      }
      this.checkName(desired, name, ns);
      // `managedFields: []` resets them (Go decodes it as an empty, non-nil slice); the typed
      // decoding here drops empty lists, so the reset is carried past it to the field manager.
      const resetsManagedFields = isEmptyList(metaOf(desired).managedFields);
      if (!opts.decoded) this.decodeRequest(ctx, desired, opts, updated);
      if (resetsManagedFields && metaOf(desired).managedFields === undefined) metaOf(desired).managedFields = [];
      const before = desired;
      desired = this.fieldManagers?.converts ? await this.fieldManagers.converting(() => this.recordUpdate(existing, before, opts)) : this.recordUpdate(existing, desired, opts);
      const attrs = this.attributes(existing ? 'UPDATE' : 'CREATE', opts, ctx, ns, desired, existing);
      let admitted = await this.admit(attrs, ctx, desired, opts);
      // A write that changes nothing but managedFields times keeps the stored times (and so is a no-op).
      if (existing && this.fieldManagers) admitted = ignoreManagedFieldsTimestamps(admitted, existing);
      if (!existing || !kv) {
        try {
          const object = await this.createOnce(ns, admitted, ctx, strategy, opts, true);
          return { object, created: true, warnings: ctx.warnings };
        } catch (e) {
          if (isAlreadyExists(e)) continue; // created meanwhile: update it instead
          throw e;
        }
      }
      const outcome = await this.updateExisting(ctx, strategy, ns, name, key, kv, existing, admitted, attrs);
      if (outcome === 'retry') continue;
      return { object: outcome.object, created: outcome.created, warnings: ctx.warnings };
    }
  }

  /** storage.Preconditions.Check, answered as InterpretUpdateError answers it: 409 Conflict. */
  protected checkStoragePreconditions(obj: Obj, name: string, p: UpdateOptions['preconditions']): void {
    if (!p) return;
    if (p.uid !== undefined && p.uid !== '' && p.uid !== getUID(obj)) {
      throw newConflict(this.gr, name, `Precondition failed: UID in precondition: ${p.uid}, UID in object meta: ${getUID(obj)}`);
    }
    if (p.resourceVersion !== undefined && p.resourceVersion !== '' && p.resourceVersion !== getResourceVersion(obj)) {
      throw newConflict(
        this.gr,
        name,
        `Precondition failed: ResourceVersion in precondition: ${p.resourceVersion}, ResourceVersion in object meta: ${getResourceVersion(obj)}`,
      );
    }
  }

  /** checkName of the update handler: the body names the object the URL names. */
  private checkName(obj: Obj, name: string, ns: string | undefined): void {
    const objName = getName(obj);
    if (objName !== name) {
      throw newBadRequest(`the name of the object (${objName}) does not match the name on the URL (${name})`);
    }
    const objNs = getNamespace(obj);
    if (ns && objNs !== '' && objNs !== ns) {
      throw newBadRequest(`the namespace of the object (${objNs}) does not match the namespace on the URL (${ns})`);
    }
  }

  private async updateExisting(
    ctx: RequestContext,
    strategy: Strategy,
    ns: string | undefined,
    name: string,
    key: string,
    kv: KeyValue,
    existing: Obj,
    obj: Obj,
    attrs: AdmissionAttributes,
  ): Promise<WriteOutcome | 'retry'> {
    const rvText = getResourceVersion(obj);
    let newRV = 0n;
    if (rvText !== '') {
      const parsed = parseGoUint(rvText);
      // Versioner.ObjectResourceVersion's error is a plain error: 500 with its text.
      if (!parsed.ok) throw new StatusError(failureStatus(500, '', parsed.error));
      newRV = parsed.value;
    }
    if (newRV === 0n) {
      if (!strategy.allowUnconditionalUpdate) {
        // Upstream names the resource in the kind's place here (kubernetes#18526).
        const errs: FieldError[] = [invalid('metadata.resourceVersion', 0, 'must be specified for an update')];
        throw newInvalid({ group: this.gr.group, kind: this.gr.resource }, name, errs);
      }
      setResourceVersion(obj, String(kv.modRevision));
    } else if (newRV !== BigInt(kv.modRevision)) {
      throw newConflict(this.gr, name, optimisticLockErrorMsg);
    }
    const finish = strategy === this.strategy ? await this.hooks?.beginUpdate?.(ctx, obj, existing) : await this.hooks?.beginStatusUpdate?.(ctx, obj, existing);
    if (!finish) return this.updateChecked(ctx, strategy, ns, key, kv, existing, obj, attrs);
    let ok = false;
    try {
      const out = await this.updateChecked(ctx, strategy, ns, key, kv, existing, obj, attrs);
      ok = out !== 'retry';
      return out;
    } finally {
      await finish(ok);
    }
  }

  /** updateExisting after the kind's begin hook: BeforeUpdate, validating admission, the storage write. */
  private async updateChecked(
    ctx: RequestContext,
    strategy: Strategy,
    ns: string | undefined,
    key: string,
    kv: KeyValue,
    existing: Obj,
    obj: Obj,
    attrs: AdmissionAttributes,
  ): Promise<WriteOutcome | 'retry'> {
    this.beforeUpdate(ctx, strategy, ns, obj, existing);
    await this.validateAdmission(attrs, obj, existing);
    if (this.shouldDeleteDuringUpdate(strategy, obj, existing)) {
      if (ctx.dryRun) return { object: obj, created: false };
      try {
        await this.store.delete(key, kv.modRevision);
      } catch (e) {
        if (e instanceof ConflictError) return 'retry';
        throw e;
      }
      await this.hooks?.afterDelete?.(obj);
      return { object: obj, created: false };
    }
    const data = this.encode(obj);
    if (data === kv.value) return { object: existing, created: false }; // no-op: no write, same resourceVersion
    if (ctx.dryRun) return { object: this.dryRunCopy ? await this.dryRunCopied(obj) : obj, created: false };
    try {
      const written = await this.store.update(key, data, kv.modRevision, this.writeOptions);
      setResourceVersion(obj, String(written.modRevision));
      this.decorate(obj);
      return { object: obj, created: false };
    } catch (e) {
      if (e instanceof ConflictError) return 'retry';
      throw e;
    }
  }

  /** rest.BeforeUpdate */
  private beforeUpdate(ctx: RequestContext, strategy: Strategy, ns: string | undefined, obj: Obj, old: Obj): void {
    const m = metaOf(obj);
    const om = metaOf(old);
    if (strategy.namespaced) {
      // ValidNamespace: an empty namespace takes the request's.
      if (!m.namespace) m.namespace = ns ?? '';
      if (m.namespace !== (ns ?? '')) {
        throw newBadRequest('the namespace of the provided object does not match the namespace sent on the request');
      }
    } else {
      delete m.namespace;
    }
    // Requests cannot set generation; strategies bump it.
    if (om.generation !== undefined) m.generation = om.generation;
    else delete m.generation;
    strategy.prepareForUpdate(ctx, obj, old);
    const nm = metaOf(obj); // a strategy may have replaced the object's metadata
    if (!nm.uid) nm.uid = om.uid;
    if (om.creationTimestamp) nm.creationTimestamp = om.creationTimestamp;
    // An update can never remove or change a deletion timestamp or grace period.
    if (om.deletionTimestamp) nm.deletionTimestamp = om.deletionTimestamp;
    if (om.deletionGracePeriodSeconds !== undefined && nm.deletionGracePeriodSeconds === undefined) {
      nm.deletionGracePeriodSeconds = om.deletionGracePeriodSeconds;
    }
    const errs = [...validateObjectMetaForUpdate(obj, old, strategy.namespaced), ...strategy.validateUpdate(ctx, obj, old)];
    if (errs.length > 0) throw newInvalid(this.gk, getName(obj), errs);
    ctx.warnings.push(...strategy.warningsOnUpdate(ctx, obj, old));
    strategy.canonicalize(obj);
  }

  /** ShouldDeleteDuringUpdate: a deleting object whose last finalizer is gone is removed. */
  private shouldDeleteDuringUpdate(strategy: Strategy, obj: Obj, old: Obj): boolean {
    if (getFinalizers(obj).length > 0) return false;
    if (!hasDeletionTimestamp(old)) return false;
    if (strategy.hasPendingFinalization?.(obj)) return false;
    const grace = metaOf(old).deletionGracePeriodSeconds;
    return grace === undefined || grace === null || grace === 0;
  }

  // ---- delete ----

  async delete(ns: string | undefined, name: string, opts: DeleteOptions): Promise<DeleteResult> {
    const loading = this.whenReady();
    if (loading) await loading;
    const key = this.keys.key(ns, name);
    checkDeleteOptions(opts);
    const policy = this.strategy.garbageCollectionPolicy ?? 'DeleteDependents';
    const warnings = this.strategy.warningsOnDelete?.(opts) ?? [];
    for (;;) {
      const kv = await this.store.get(key);
      if (!kv) throw newNotFound(this.gr, name);
      const existing = this.decode(kv);
      this.checkPreconditions(existing, opts);
      await this.admitDelete(ns, existing, opts);
      // The propagation policy as finalizers (updateForGracefulDeletionAndFinalizers): an object
      // left with finalizers is marked as deleting and kept; one left without any goes now.
      const finalizers = deletionFinalizers(existing, opts, policy);
      const pending = (finalizers ?? getFinalizers(existing)).length > 0 || this.strategy.hasPendingFinalization?.(existing) === true;
      if (pending) {
        const marked = deepCopy(existing);
        if (finalizers) metaOf(marked).finalizers = finalizers;
        this.markAsDeleting(marked);
        const data = this.encode(marked);
        if (data === kv.value || opts.dryRun) return this.deleteResult(data === kv.value ? existing : marked, false, warnings);
        try {
          const written = await this.store.update(key, data, kv.modRevision, this.writeOptions);
          setResourceVersion(marked, String(written.modRevision));
          this.decorate(marked);
          return this.deleteResult(marked, false, warnings);
        } catch (e) {
          if (e instanceof ConflictError) continue;
          throw e;
        }
      }
      if (opts.dryRun) return this.deleteResult(existing, true, warnings);
      try {
        const deleted = await this.store.delete(key, kv.modRevision);
        const object = this.decode(deleted);
        await this.hooks?.afterDelete?.(object);
        return this.deleteResult(object, true, warnings);
      } catch (e) {
        if (e instanceof ConflictError) {
          if (e.reason === 'not-found') throw newNotFound(this.gr, name);
          continue;
        }
        throw e;
      }
    }
  }

  /** Admission of a delete (AdmissionToValidateObjectDeleteFunc): mutating then validating plugins see the stored object. */
  protected async admitDelete(ns: string | undefined, existing: Obj, opts: DeleteOptions): Promise<void> {
    if (!this.admission) return;
    const attrs = this.attributes('DELETE', opts, { warnings: [], dryRun: opts.dryRun === true }, ns, undefined, deepCopy(existing));
    await this.admission.admit(attrs);
    await this.admission.validate(attrs);
  }

  private deleteResult(object: Obj, deleted: boolean, warnings: string[]): DeleteResult {
    let response: Obj = object;
    if (deleted && !this.strategy.returnDeletedObject) {
      // finalizeDelete: details name the resource in the kind's place, as upstream does.
      response = successStatus({ name: getName(object), group: this.gr.group, kind: this.gr.resource, uid: getUID(object) }) as unknown as Obj;
    }
    return { object, deleted, response, ...(warnings.length > 0 ? { warnings } : {}) };
  }

  /** BeforeDelete's precondition checks; the conflict names the kind as the resource, as upstream. */
  private checkPreconditions(obj: Obj, opts: DeleteOptions): void {
    const p = opts.preconditions;
    if (!p) return;
    const gr = { group: this.gk.group, resource: this.gk.kind };
    if (p.uid !== undefined && p.uid !== getUID(obj)) {
      throw newConflict(
        gr,
        getName(obj),
        `the UID in the precondition (${p.uid}) does not match the UID in record (${getUID(obj)}). The object might have been deleted and then recreated`,
      );
    }
    if (p.resourceVersion !== undefined && p.resourceVersion !== getResourceVersion(obj)) {
      throw newConflict(
        gr,
        getName(obj),
        `the ResourceVersion in the precondition (${p.resourceVersion}) does not match the ResourceVersion in record (${getResourceVersion(obj)}). The object might have been modified`,
      );
    }
  }

  /** markAsDeleting: deletionTimestamp now (never later than a set one), grace period 0, generation bumped once. */
  private markAsDeleting(obj: Obj): void {
    const m = metaOf(obj);
    const now = this.now();
    if (!hasDeletionTimestamp(obj) && getGeneration(obj) > 0) m.generation = getGeneration(obj) + 1;
    const existing = typeof m.deletionTimestamp === 'string' ? Date.parse(m.deletionTimestamp) : NaN;
    if (!hasDeletionTimestamp(obj) || (!Number.isNaN(existing) && existing > now.getTime())) {
      m.deletionTimestamp = formatRFC3339(now);
    }
    m.deletionGracePeriodSeconds = 0;
    this.strategy.onMarkDeleting?.(obj);
  }

  async deleteCollection(ns: string | undefined, listOpts: ListOptions, opts: DeleteOptions): Promise<ObjList> {
    const loading = this.whenReady();
    if (loading) await loading;
    checkDeleteOptions(opts);
    // Job's REST warns on deletecollection as on delete; the items' own deletes do not repeat it.
    opts.warnings?.push(...(this.strategy.warningsOnDelete?.(opts) ?? []));
    const hasLimit = (listOpts.limit ?? 0) > 0;
    const pageOpts: ListOptions = { ...listOpts, limit: hasLimit ? listOpts.limit : 10_000 };
    let result: ObjList | undefined;
    const items: Obj[] = [];
    for (;;) {
      const page = await this.list(ns, pageOpts);
      for (const item of page.items) {
        try {
          await this.delete(this.strategy.namespaced ? getNamespace(item) : undefined, getName(item), opts);
        } catch (e) {
          if (!(e instanceof StatusError && e.reason === 'NotFound')) throw e;
        }
      }
      items.push(...page.items);
      result ??= page;
      if (hasLimit) return page;
      if (!page.metadata.continue) break;
      pageOpts.continue = page.metadata.continue;
      pageOpts.resourceVersion = undefined;
      pageOpts.resourceVersionMatch = undefined;
    }
    return { ...result, metadata: { resourceVersion: result.metadata.resourceVersion }, items };
  }

  /**
   * GuaranteedUpdate for kind-specific REST code (Namespace finalize and delete): applies `fn` to the
   * fresh object until the write lands; `fn` may throw a StatusError. Returns the stored object.
   */
  async guaranteedUpdate(
    ns: string | undefined,
    name: string,
    fn: (current: Obj) => Obj,
    opts: { dryRun?: boolean; preconditions?: DeleteOptions['preconditions'] } = {},
  ): Promise<Obj> {
    const loading = this.whenReady();
    if (loading) await loading;
    const key = this.keys.key(ns, name);
    for (;;) {
      const kv = await this.store.get(key);
      if (!kv) throw newNotFound(this.gr, name);
      const existing = this.decode(kv);
      this.checkPreconditions(existing, { preconditions: opts.preconditions });
      const next = fn(deepCopy(existing));
      const data = this.encode(next);
      if (data === kv.value) return existing;
      if (opts.dryRun) return next;
      try {
        const written = await this.store.update(key, data, kv.modRevision, this.writeOptions);
        setResourceVersion(next, String(written.modRevision));
        this.decorate(next);
        return next;
      } catch (e) {
        if (e instanceof ConflictError) continue;
        throw e;
      }
    }
  }
}

/** The propagation options as apimachinery validates them (422 `DeleteOptions.meta.k8s.io "" is invalid`). */
function checkDeleteOptions(opts: DeleteOptions): void {
  const errs = validateDeleteOptions({
    propagationPolicy: opts.propagationPolicy,
    ...(opts.orphanDependents !== undefined ? { orphanDependents: opts.orphanDependents } : {}),
  });
  if (errs.length > 0) throw newInvalidOptions('DeleteOptions', errs);
}

function isEmptyList(v: unknown): boolean {
  return Array.isArray(v) && v.length === 0;
}
