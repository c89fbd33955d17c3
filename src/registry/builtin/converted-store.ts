/**
 * A version of a built-in kind served over the storage of another version of it, as
 * kube-apiserver serves every version of a resource from one storage through conversion
 * (events.k8s.io/v1 Events are core/v1 Events, autoscaling/v1 HorizontalPodAutoscalers are
 * stored as autoscaling/v2): a request object is decoded as its own version (the decoder's type
 * errors, unknown fields per fieldValidation, its schema's errors), converted to the storage
 * version and written through that version's store, whose strategy does the rest; every object
 * read, written or watched is converted back on its way out. Errors keep the storage store's
 * words (its resource, its kind), as upstream's shared REST storage answers them.
 */
import { newInvalid, type FieldError } from '../../apimachinery/index.ts';
import type { CompiledSchema } from '../../schema/index.ts';
import { patchedObjectJSON, reportDecoding, type Codec } from '../codec.ts';
import { deepCopy, getName } from '../meta.ts';
import { applyWith, type FieldManagers } from '../field-managers.ts';
import { nativeRulesOf } from './native-index.ts';
import type {
  AdmissionView,
  ApplyRequest,
  CreateOptions,
  CreateResult,
  DeleteOptions,
  DeleteResult,
  ListOptions,
  Obj,
  ObjList,
  ResourceInfo,
  RESTStore,
  TryUpdate,
  UpdateOptions,
  UpdateResult,
  Watcher,
  WatchEvent,
  WatchOptions,
} from '../rest.ts';

/** The conversion between a served version and the storage version (each MUTATES and returns its argument). */
export interface VersionConversion {
  toStorage(obj: Obj): Obj;
  fromStorage(obj: Obj): Obj;
}

export class ConvertedStore implements RESTStore {
  private readonly apiVersion: string;
  /** Admission sees a write at this version, as the request made it. */
  private readonly view: AdmissionView;

  constructor(
    readonly info: ResourceInfo,
    /** The store of the storage version. */
    private readonly storage: RESTStore,
    private readonly conversion: VersionConversion,
    /** The served version's codec and compiled schema. */
    private readonly codec: Codec,
    private readonly schema: () => CompiledSchema,
    /** This version's field managers: server-side apply through this version's schema. */
    private readonly fieldManagers?: FieldManagers,
    /** Loads what this version's codec and the storage version's rules need (a kind folder), until it returns undefined. */
    private readonly ready?: () => Promise<void> | undefined,
  ) {
    this.apiVersion = info.group === '' ? info.version : `${info.group}/${info.version}`;
    if (!fieldManagers) this.apply = undefined;
    this.view = {
      resource: { group: info.group, version: info.version, resource: info.resource },
      kind: { group: info.group, version: info.version, kind: info.kind },
      toView: (o) => this.out(o),
      fromView: (o) => this.toStorage(o),
    };
  }

  /**
   * Server-side apply in this version (its field manager and merge schema), as kube-apiserver
   * applies through the endpoint's version; the result is then converted like any update. Writes
   * other than applies are recorded by the storage version's field manager.
   */
  apply?(current: Obj | undefined, patch: Obj, req: ApplyRequest): Obj {
    return applyWith(this.fieldManagers!, current, patch, req);
  }

  /** A stored object as this version (a copy). */
  private out(obj: Obj): Obj {
    const o = this.conversion.fromStorage(deepCopy(obj));
    o.apiVersion = this.apiVersion;
    o.kind = this.info.kind;
    return o;
  }

  /** A request object (MUTATED) in the storage version, decoded first unless the caller did. */
  private in(obj: Obj, opts: UpdateOptions, warnings: string[], creating: boolean): Obj {
    if (!opts.decoded) this.decode(obj, opts, warnings, creating);
    return this.toStorage(obj);
  }

  /** An object of this version (MUTATED) as one of the storage version. */
  private toStorage(obj: Obj): Obj {
    const stored = this.conversion.toStorage(obj);
    stored.apiVersion = this.storage.info.group === '' ? this.storage.info.version : `${this.storage.info.group}/${this.storage.info.version}`;
    stored.kind = this.storage.info.kind;
    return stored;
  }

  /**
   * The codec stage for this version, reported as the handler that decoded the body (or the patch
   * result) would; then, on create of a kind without native rules, the version's schema (updates
   * are judged by the storage version's rules). A kind's native rules know the request's group
   * (RequestContext.requestGroup) and say what its version requires, as upstream's do.
   */
  private decode(obj: Obj, opts: UpdateOptions, warnings: string[], creating: boolean): void {
    const fieldValidation = opts.fieldValidation ?? 'Warn';
    const patched = opts.patched ? deepCopy(obj) : undefined;
    const d = this.codec.decode(obj, fieldValidation !== 'Ignore');
    const pre = opts.decodeErrors?.length ?? 0;
    const refused = d.error !== undefined || (fieldValidation === 'Strict' && pre + d.strictErrors.length > 0);
    reportDecoding(
      {
        kind: this.info.kind,
        version: this.info.version,
        fieldValidation,
        decodeErrors: opts.decodeErrors,
        patchedJSON: refused && patched !== undefined ? patchedObjectJSON(patched) : undefined,
        warnings,
      },
      d,
    );
    if (!creating || nativeRulesOf(this.storage.info.group, this.storage.info.resource)?.validate !== undefined) return;
    const p = this.schema().validateParts(obj);
    const errs: FieldError[] = [...p.schema, ...p.structure];
    if (errs.length > 0) throw newInvalid({ group: this.storage.info.group, kind: this.storage.info.kind }, getName(obj), errs);
  }

  private outList(list: ObjList): ObjList {
    return { ...list, apiVersion: this.apiVersion, kind: this.info.listKind, items: list.items.map((i) => this.out(i)) };
  }

  async get(ns: string | undefined, name: string, opts?: { resourceVersion?: string }): Promise<Obj> {
    return this.out(await this.storage.get(ns, name, opts));
  }

  async list(ns: string | undefined, opts: ListOptions): Promise<ObjList> {
    return this.outList(await this.storage.list(ns, opts));
  }

  watch(ns: string | undefined, opts: WatchOptions, onEvent: (ev: WatchEvent) => void, onEnd?: (err?: Error) => void): Promise<Watcher> {
    return this.storage.watch(
      ns,
      opts,
      (ev) => {
        if (ev.type === 'ERROR') onEvent(ev);
        else if (ev.type === 'BOOKMARK') onEvent({ type: ev.type, object: { ...ev.object, apiVersion: this.apiVersion, kind: this.info.kind } });
        else onEvent({ type: ev.type, object: this.out(ev.object) });
      },
      onEnd,
    );
  }

  async create(ns: string | undefined, obj: Obj, opts: CreateOptions): Promise<CreateResult> {
    const loading = this.ready?.();
    if (loading) await loading;
    const warnings: string[] = [];
    const stored = this.in(opts.inputOwned ? obj : deepCopy(obj), opts, warnings, true);
    const r = await this.storage.create(ns, stored, { ...opts, decodeErrors: undefined, admissionView: this.view, requestGroup: this.info.group });
    return { object: this.out(r.object), warnings: [...warnings, ...r.warnings] };
  }

  async update(ns: string | undefined, name: string, tryUpdate: TryUpdate, opts: UpdateOptions): Promise<UpdateResult> {
    const loading = this.ready?.();
    if (loading) await loading;
    const warnings: string[] = [];
    const r = await this.storage.update(
      ns,
      name,
      async (cur) => {
        warnings.length = 0;
        const next = await tryUpdate(cur === undefined ? undefined : this.out(cur));
        return this.in(deepCopy(next), opts, warnings, cur === undefined);
      },
      // Decoded here, as this version; the storage store takes the converted object as it is.
      { ...opts, decodeErrors: undefined, decoded: true, admissionView: this.view, requestGroup: this.info.group },
    );
    return { ...r, object: this.out(r.object), warnings: [...warnings, ...r.warnings] };
  }

  async delete(ns: string | undefined, name: string, opts: DeleteOptions): Promise<DeleteResult> {
    const r = await this.storage.delete(ns, name, { ...opts, admissionView: this.view });
    const isObject = r.response.kind === this.storage.info.kind;
    return { ...r, object: this.out(r.object), response: isObject ? this.out(r.response) : r.response };
  }

  async deleteCollection(ns: string | undefined, listOpts: ListOptions, opts: DeleteOptions): Promise<ObjList> {
    return this.outList(await this.storage.deleteCollection(ns, listOpts, { ...opts, admissionView: this.view }));
  }
}
