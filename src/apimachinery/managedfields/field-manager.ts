/**
 * FieldManager (managedfields/internal `fieldmanager.go`): what the write path calls. Update
 * records a create, update or non-apply patch in metadata.managedFields; Apply performs a
 * server-side apply. Both decode the managedFields (an update may send new ones, or `[]` to reset
 * them; a subresource keeps the live object's), run the layers, and encode the result.
 * newFieldManager stacks the layers as kube-apiserver's default field manager does.
 */
import { ConflictsError } from '../smd/merge/conflict.ts';
import { CreateMemo } from './create-memo.ts';
import { withValidationMemo } from '../smd/typed/typed.ts';
import type { Filter } from '../smd/fieldpath/set.ts';
import { formatRFC3339 } from '../time.ts';
import { BuildManagerInfoManager } from './manager-info.ts';
import { CapManagersManager, defaultMaxUpdateManagers } from './cap-managers.ts';
import { newConflictError } from './conflict.ts';
import { decodeManagedFields, emptyManaged, encodeManagedFields, isResetManagedFields, type Managed } from './entries.ts';
import { LastAppliedManager, LastAppliedUpdater } from './last-applied.ts';
import { deepCopy, getManagedFields, metadataOf, setManagedFields, type Manager, type Obj, type TypeConverter } from './manager.ts';
import { SkipNonAppliedManager } from './before-first-apply.ts';
import { StripMetaManager } from './strip-meta.ts';
import { rewriteAPIVersion, StructuredMergeManager } from './structured-merge.ts';
import { ManagedFieldsUpdater } from './times.ts';
import { VersionCheckManager } from './version-check.ts';

export interface FieldManagerOptions {
  typeConverter: TypeConverter;
  /** The endpoint's group/version (`stable.example.com/v1`, `v1`) and kind. */
  apiVersion: string;
  kind: string;
  /** '' for the main resource, else `status` or `scale`. */
  subresource?: string;
  /** Per version, fields this endpoint resets (and so no manager here owns). */
  resetFields?: Map<string, Filter>;
  convertToVersion?: (obj: Obj, groupVersion: string) => Obj;
  /** Defaults an applied object (the kind's schema defaults); mutates it. */
  defaulter?: (obj: Obj) => void;
  maxUpdateManagers?: number;
  /** The time managers are stamped with (RFC 3339, whole seconds). */
  now?: () => string;
}

export class FieldManager {
  constructor(
    readonly manager: Manager,
    readonly subresource = '',
    /** Creates' results by shape, with the clock they are stamped by (the default layers only). */
    private readonly creates?: { memo: CreateMemo; now: () => string },
  ) {}

  /**
   * Update: newObj (a create's, update's or patch's result) with metadata.managedFields recording
   * that `manager` made it from liveObj (for a create, an object with only apiVersion and kind).
   * Returns a new object (sharing all but its metadata with newObj, which is not changed); throws
   * Error only on internal failures (see updateNoErrors).
   */
  update(liveObj: Obj, newObj: Obj, manager: string): Obj {
    const key = this.createKey(liveObj, newObj, manager);
    if (key !== undefined) {
      const known = this.creates!.memo.entries(newObj, key, this.creates!.now);
      if (known !== undefined) {
        const object = withoutManagedFields(newObj);
        setManagedFields(object, known.entries);
        return object;
      }
    }
    const managed = decodeLiveOrNew(liveObj, newObj, this.subresource !== '');
    newObj = withoutManagedFields(newObj);
    const r = withValidationMemo(() => this.manager.update(liveObj, newObj, managed, manager));
    const object = r.object;
    setManagedFields(object, encodeManagedFields(r.managed));
    if (key !== undefined) this.creates!.memo.record(newObj, key, object);
    return object;
  }

  /**
   * For a create on the main resource from an object without managedFields (recorded against an
   * object of only apiVersion and kind), the manager and kinds its shape is remembered under.
   */
  private createKey(liveObj: Obj, newObj: Obj, manager: string): string | undefined {
    if (this.creates === undefined || this.subresource !== '' || liveObj.metadata !== undefined) return undefined;
    if (Object.keys(liveObj).length > 2) return undefined;
    if (newObj.metadata !== undefined && metadataOf(newObj)?.managedFields !== undefined) return undefined;
    if (newObj.metadata !== undefined && metadataOf(newObj) === undefined) return undefined;
    return JSON.stringify([manager, liveObj.apiVersion, liveObj.kind, newObj.apiVersion, newObj.kind]);
  }

  /** UpdateNoErrors: on failure the live object's managedFields are kept, as kube-apiserver does. */
  updateNoErrors(liveObj: Obj, newObj: Obj, manager: string): Obj {
    try {
      return this.update(liveObj, newObj, manager);
    } catch {
      const out = deepCopy(newObj);
      setManagedFields(out, getManagedFields(liveObj) ?? undefined);
      return out;
    }
  }

  /**
   * Apply: the live object (for a create, one with only apiVersion and kind) with appliedObj
   * applied by `manager`. Throws a 409 StatusError on conflicts, a 400 StatusError for a patch of
   * the wrong version or kind or one carrying managedFields, and Error otherwise (kube-apiserver
   * answers those with 500, their text as the message).
   */
  apply(liveObj: Obj, appliedObj: Obj, manager: string, force: boolean): Obj {
    let managed: Managed;
    try {
      managed = decodeManagedFields(getManagedFields(liveObj));
    } catch (e) {
      throw new Error(`failed to decode managed fields: ${(e as Error).message}`);
    }
    let r;
    try {
      r = this.manager.apply(liveObj, appliedObj, managed, manager, force);
    } catch (e) {
      if (e instanceof ConflictsError) throw newConflictError(e.conflicts);
      throw e;
    }
    const object = r.object!;
    setManagedFields(object, encodeManagedFields(r.managed));
    return object;
  }
}

/**
 * obj without metadata.managedFields, as a new object whose metadata is a copy and whose other
 * members are obj's (obj is not changed): the layers below read the object and return it, so a
 * copy of the whole of it on every write would buy nothing.
 */
function withoutManagedFields(obj: Obj): Obj {
  const out: Obj = { ...obj };
  const m = metadataOf(obj);
  if (m !== undefined) {
    const copy: Obj = { ...m };
    delete copy.managedFields;
    out.metadata = copy;
  }
  return out;
}

function decodeOrEmpty(entries: ReturnType<typeof getManagedFields>): Managed {
  try {
    return decodeManagedFields(entries);
  } catch {
    return emptyManaged();
  }
}

/** decodeLiveOrNew: the request's managedFields when valid and non-empty, else the live object's. */
function decodeLiveOrNew(liveObj: Obj, newObj: Obj, ignoreRequest: boolean): Managed {
  if (ignoreRequest) return decodeOrEmpty(getManagedFields(liveObj));
  const requested = getManagedFields(newObj);
  if (isResetManagedFields(requested)) return emptyManaged();
  try {
    const m = decodeManagedFields(requested);
    if (m.fields.size > 0) return m;
  } catch {
    // fall through to the live object's
  }
  return decodeOrEmpty(getManagedFields(liveObj));
}

/** NewDefaultFieldManager / NewDefaultCRDFieldManager: the layers in kube-apiserver's order. */
export function newFieldManager(opts: FieldManagerOptions): FieldManager {
  const subresource = opts.subresource ?? '';
  const convertToVersion = opts.convertToVersion ?? rewriteAPIVersion;
  const now = opts.now ?? (() => formatRFC3339(Date.now()));
  const structured = new StructuredMergeManager({
    typeConverter: opts.typeConverter,
    groupVersion: opts.apiVersion,
    convertToVersion,
    defaulter: opts.defaulter,
    resetFields: opts.resetFields,
  });
  const chain = new VersionCheckManager(
    new LastAppliedUpdater(
      new LastAppliedManager(
        new SkipNonAppliedManager(
          new CapManagersManager(
            new BuildManagerInfoManager(new ManagedFieldsUpdater(new StripMetaManager(structured), now), opts.apiVersion, subresource),
            opts.maxUpdateManagers ?? defaultMaxUpdateManagers,
          ),
        ),
        opts.typeConverter,
        opts.apiVersion,
        convertToVersion,
      ),
    ),
    opts.apiVersion,
    opts.kind,
  );
  return new FieldManager(chain, subresource, { memo: new CreateMemo(), now });
}
