/**
 * The innermost layer (managedfields/internal `structuredmerge.go`): objects in, typed values to
 * the Updater, objects out. Apply checks the patch is at the manager's version and carries no
 * managedFields, merges, then defaults the result as a create would.
 */
import { newBadRequest } from '../status.ts';
import type { Filter } from '../smd/fieldpath/set.ts';
import { Updater, type Converter } from '../smd/merge/update.ts';
import type { TypedValue } from '../smd/typed/typed.ts';
import type { Managed } from './entries.ts';
import { apiVersionOf, metadataOf, NoCorrespondingTypeError, objectGVKNN, type Manager, type Obj, type TypeConverter } from './manager.ts';

export interface StructuredMergeOptions {
  typeConverter: TypeConverter;
  /** The request's group/version (`stable.example.com/v1`): managers record it. */
  groupVersion: string;
  /** Converts an object to another version of its kind (custom resources: rewrites apiVersion). */
  convertToVersion?: (obj: Obj, groupVersion: string) => Obj;
  /** Applies the kind's defaults to an applied object; mutates it. */
  defaulter?: (obj: Obj) => void;
  /** Per version, fields no manager may own at this endpoint (the strategy's reset fields). */
  resetFields?: Map<string, Filter>;
}

/** Sets apiVersion: how a custom resource converts between versions with strategy None. */
export function rewriteAPIVersion(obj: Obj, groupVersion: string): Obj {
  return apiVersionOf(obj) === groupVersion ? obj : { ...obj, apiVersion: groupVersion };
}

/** newCRDVersionConverter: typed values converted between versions through their objects. */
export function versionConverter(tc: TypeConverter, convertToVersion: (obj: Obj, gv: string) => Obj): Converter {
  // An update converts the live object once per manager, most often to the version it is at;
  // conversions are pure, so a value's conversion to a version is made once (failures are not
  // kept: a pending webhook conversion fails first and succeeds when the call is run again).
  const converted = new WeakMap<TypedValue, Map<string, TypedValue>>();
  return {
    convert: (tv: TypedValue, version: string) => {
      let byVersion = converted.get(tv);
      const hit = byVersion?.get(version);
      if (hit !== undefined) return hit;
      const out = tc.objectToTyped(convertToVersion(tc.typedToObject(tv), version));
      if (byVersion === undefined) converted.set(tv, (byVersion = new Map()));
      byVersion.set(version, out);
      return out;
    },
    isMissingVersionError: (e) => e instanceof NoCorrespondingTypeError,
  };
}

function wrap(prefix: string, e: unknown): Error {
  return new Error(`${prefix}: ${(e as Error).message}`);
}

export class StructuredMergeManager implements Manager {
  private readonly updater: Updater;
  private readonly toVersion: (obj: Obj, gv: string) => Obj;

  constructor(readonly opts: StructuredMergeOptions) {
    this.toVersion = opts.convertToVersion ?? rewriteAPIVersion;
    this.updater = new Updater({ converter: versionConverter(opts.typeConverter, this.toVersion), ignoreFilter: opts.resetFields });
  }

  private typed(obj: Obj, what: string, allowDuplicates: boolean): TypedValue {
    try {
      return this.opts.typeConverter.objectToTyped(obj, { allowDuplicates });
    } catch (e) {
      throw wrap(`${what} (${objectGVKNN(obj)})`, e);
    }
  }

  update(liveObj: Obj, newObj: Obj, managed: Managed, manager: string): { object: Obj; managed: Managed } {
    const gv = this.opts.groupVersion;
    const newV = this.toVersion(newObj, gv);
    const liveV = this.toVersion(liveObj, gv);
    const newTyped = this.typed(newV, 'failed to convert new object', true);
    const liveTyped = this.typed(liveV, 'failed to convert live object', true);
    let fields;
    try {
      fields = this.updater.updateObject(liveTyped, newTyped, gv, managed.fields, manager).managers;
    } catch (e) {
      throw wrap(`failed to update ManagedFields (${objectGVKNN(newV)})`, e);
    }
    return { object: newObj, managed: { fields, times: managed.times } };
  }

  apply(liveObj: Obj, patchObj: Obj, managed: Managed, manager: string, force: boolean): { object: Obj | undefined; managed: Managed } {
    const gv = this.opts.groupVersion;
    const patchVersion = apiVersionOf(patchObj);
    if (patchVersion !== gv) {
      throw newBadRequest(`Incorrect version specified in apply patch. Specified patch version: ${patchVersion}, expected: ${gv}`);
    }
    const mf = metadataOf(patchObj)?.managedFields;
    if (mf !== undefined && mf !== null) throw newBadRequest('metadata.managedFields must be nil');
    const liveV = this.toVersion(liveObj, gv);
    const patchTyped = this.typed(patchObj, 'failed to create typed patch object', false);
    const liveTyped = this.typed(liveV, 'failed to create typed live object', true);
    const r = this.updater.apply(liveTyped, patchTyped, gv, managed.fields, manager, force);
    const next: Managed = { fields: r.managers, times: managed.times };
    if (r.object === undefined) return { object: undefined, managed: next };
    const obj = this.toVersion(this.opts.typeConverter.typedToObject(r.object), gv);
    this.opts.defaulter?.(obj);
    return { object: obj, managed: next };
  }
}
