/**
 * The field managers of one kind's endpoints, as kube-apiserver's installer builds one per
 * endpoint (managedfields.NewDefaultFieldManager for built-in kinds, NewDefaultCRDFieldManager for
 * custom resources): the main resource and each subresource get their own, sharing the kind's
 * type converter. The merge schema behind that converter is built when the kind's first object is
 * written, not at startup, and each manager when its endpoint is first written through. Entries
 * of other managers at other versions of the kind are compared at their version: a CRD's
 * converted by its webhook (RequestConversions) or by setting apiVersion, a built-in kind's
 * through the storage it shares with them.
 */
import {
  customResourceResetFields,
  newFieldManager,
  type FieldManager,
  type Filter,
  type RequestConversions,
  type TypeConverter,
} from '../apimachinery/index.ts';
import { failureStatus, StatusError } from '../apimachinery/index.ts';
import type { ApplyRequest, Obj } from './rest.ts';

export type FieldManagerEndpoint = '' | 'status' | 'scale' | 'finalize';

export interface FieldManagersOptions {
  /** The served group/version (`apps/v1`, `v1`, `stable.example.com/v1`) and kind. */
  apiVersion: string;
  kind: string;
  /** The kind's type converter, built on first use. */
  typeConverter: () => TypeConverter;
  /** The kind has a status subresource: its main endpoint resets `status`, the status endpoint `metadata` and `spec`. */
  hasStatus: boolean;
  /**
   * How objects convert to the versions of other managers' entries when that is asynchronous (a
   * CRD's conversion webhook); absent, converting sets apiVersion. Writes then run the field
   * manager through `converting`.
   */
  conversions?: RequestConversions;
  /**
   * The versions of a built-in kind sharing this one's storage (autoscaling/v1 and v2
   * HorizontalPodAutoscalers): managers' entries at any of them are compared there, converted
   * through the storage version, as upstream's version converter converts through the internal
   * version.
   */
  sharedStorage?: SharedStorage;
}

/** One storage for several versions of a kind (the registry's oneStorage entries of it). */
export interface SharedStorage {
  /** The group/version objects are stored at (`autoscaling/v2`, `v1`) and their kind there. */
  storedAPIVersion: string;
  storedKind: string;
  /** The other versions, each with its conversion to and from the stored one (both MUTATE their argument). */
  served: ReadonlyArray<{ apiVersion: string; kind: string; toStorage(obj: Obj): Obj; fromStorage(obj: Obj): Obj }>;
  /** The merge types of a version of the kind. */
  typeConverter(apiVersion: string): TypeConverter;
}

export class FieldManagers {
  private readonly managers = new Map<FieldManagerEndpoint, FieldManager>();
  private converter: TypeConverter | undefined;

  constructor(private readonly opts: FieldManagersOptions) {}

  /** The field manager of the main resource ('') or of a subresource's endpoint. */
  get(endpoint: FieldManagerEndpoint = ''): FieldManager {
    let fm = this.managers.get(endpoint);
    if (!fm) {
      const shared = this.opts.sharedStorage;
      const typeConverter: TypeConverter = {
        objectToTyped: (obj, o) => (shared && obj.apiVersion !== this.opts.apiVersion && isMember(shared, obj.apiVersion) ? shared.typeConverter(String(obj.apiVersion)) : this.typeConverter()).objectToTyped(obj, o),
        typedToObject: (tv) => this.typeConverter().typedToObject(tv),
      };
      const convertToVersion = this.opts.conversions?.convertToVersion ?? (shared ? (obj: Obj, gv: string) => throughStorage(shared, obj, gv) : undefined);
      fm = newFieldManager({
        typeConverter,
        apiVersion: this.opts.apiVersion,
        kind: this.opts.kind,
        subresource: endpoint,
        resetFields: this.resetFields(endpoint),
        ...(convertToVersion ? { convertToVersion } : {}),
      });
      this.managers.set(endpoint, fm);
    }
    return fm;
  }

  /** Whether field manager calls must run through `converting`. */
  get converts(): boolean {
    return this.opts.conversions !== undefined;
  }

  /**
   * `fn`, which calls a field manager synchronously, run again until the conversions it needs are
   * made (RequestConversions.run); `fn` itself when conversion is synchronous.
   */
  converting<T>(fn: () => T | Promise<T>): Promise<T> {
    return this.opts.conversions ? this.opts.conversions.run(fn) : Promise.resolve(fn());
  }

  /** The object a create is recorded against: only apiVersion and kind (scope.Creater.New). */
  emptyObject(): Obj {
    return { apiVersion: this.opts.apiVersion, kind: this.opts.kind };
  }

  private typeConverter(): TypeConverter {
    return (this.converter ??= this.opts.typeConverter());
  }

  private resetFields(endpoint: FieldManagerEndpoint): Map<string, Filter> | undefined {
    if (!this.opts.hasStatus || (endpoint !== '' && endpoint !== 'status')) return undefined;
    return customResourceResetFields([this.opts.apiVersion], endpoint);
  }
}

const isMember = (shared: SharedStorage, apiVersion: unknown): boolean => apiVersion === shared.storedAPIVersion || shared.served.some((v) => v.apiVersion === apiVersion);

/**
 * `obj` at `gv` through the storage version (a copy; `obj` itself when it is there already). A
 * version the storage does not serve is left as it is, whose type the converter then does not
 * know: its managers are dropped, as upstream drops a version no longer registered.
 */
function throughStorage(shared: SharedStorage, obj: Obj, gv: string): Obj {
  if (obj.apiVersion === gv) return obj;
  if (!isMember(shared, gv) || !isMember(shared, obj.apiVersion)) return { ...obj, apiVersion: gv };
  let out = JSON.parse(JSON.stringify(obj)) as Obj;
  const from = shared.served.find((v) => v.apiVersion === obj.apiVersion);
  if (from) out = { ...from.toStorage(out), apiVersion: shared.storedAPIVersion, kind: shared.storedKind };
  const to = shared.served.find((v) => v.apiVersion === gv);
  if (to) out = { ...to.fromStorage(out), apiVersion: to.apiVersion, kind: to.kind };
  return out;
}

/**
 * RESTStore.apply over `fms`: the patch applied to `current` (or to an empty object when there is
 * none). The field manager's plain errors reach the client as kube-apiserver writes a plain
 * error: 500 with its text.
 */
export function applyWith(fms: FieldManagers, current: Obj | undefined, patch: Obj, req: ApplyRequest): Obj {
  try {
    return fms.get(req.subresource ?? '').apply(current ?? fms.emptyObject(), patch, req.manager, req.force);
  } catch (e) {
    if (e instanceof StatusError) throw e;
    throw new StatusError(failureStatus(500, '', e instanceof Error ? e.message : String(e)));
  }
}
