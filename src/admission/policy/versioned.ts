/**
 * The request's objects at the version a policy or webhook matched (admission.VersionedAttributes
 * and the dispatchers' versionedAttributeAccessor). Built-in kinds sharing a storage convert
 * through it and custom resources by setting apiVersion (objectAtVersion), unless the request
 * carries its kind's converter (ObjectInterfaces.GetObjectConvertor: a CRD's conversion webhook),
 * which then converts them. Each matched version is converted once per dispatch, the old object
 * before the new as upstream does; a failed conversion rejects with its error, which each
 * dispatcher reports as upstream's does.
 */
import type { AdmissionAttributes, Obj } from '../../registry/index.ts';
import { objectAtVersion } from './equivalents.ts';
import type { GVK, GVR } from './matching.ts';

/** A resource and kind a request is seen as: its own, or the one a rule matched. */
export interface ResourceKind {
  resource: GVR;
  kind: GVK;
}

/** The request's object and old object at one version. */
export interface Versioned {
  object: Obj | undefined;
  oldObject: Obj | undefined;
}

const apiVersionOf = (k: GVK): string => (k.group === '' ? k.version : `${k.group}/${k.version}`);
const sameKind = (x: GVK, y: GVK): boolean => x.group === y.group && x.version === y.version && x.kind === y.kind;

/**
 * `o`, an object of `from`, as an object of `to` (ConvertToGVK): `o` itself when nothing
 * changes, a copy otherwise. Rejects with the convertor's error.
 */
export async function convertToVersion(a: AdmissionAttributes, o: Obj | undefined, from: ResourceKind, to: ResourceKind): Promise<Obj | undefined> {
  if (o === undefined || o === null) return o;
  if (a.convertor === undefined) return objectAtVersion(o, from, to);
  if (sameKind(from.kind, to.kind)) return o;
  return a.convertor.convert(o, apiVersionOf(to.kind));
}

/** The request's objects at the versions the dispatch asks for, each converted once. */
export class VersionedAttributes {
  private readonly byVersion = new Map<string, Promise<Versioned>>();
  /** The object the cached conversions were made of: a mutating plugin that replaced it voids them. */
  private source: Obj | undefined;

  constructor(private readonly a: AdmissionAttributes) {
    this.source = a.object;
  }

  /** The objects as `matched` sees them; rejects with the conversion's error. */
  at(matched: ResourceKind): Promise<Versioned> {
    if (this.a.object !== this.source) {
      this.byVersion.clear();
      this.source = this.a.object;
    }
    const key = `${matched.kind.group}/${matched.kind.version}/${matched.kind.kind}:${matched.resource.group}/${matched.resource.version}/${matched.resource.resource}`;
    let p = this.byVersion.get(key);
    if (p === undefined) {
      const a = this.a;
      p = (async () => {
        const oldObject = await convertToVersion(a, a.oldObject, a, matched);
        return { object: await convertToVersion(a, a.object, a, matched), oldObject };
      })();
      // Rejections are read by every caller of at(); none is left unhandled meanwhile.
      p.catch(() => {});
      this.byVersion.set(key, p);
    }
    return p;
  }

  /** `o`, an object at `matched` (a mutation's result), at the request's version. */
  back(o: Obj, matched: ResourceKind): Promise<Obj> {
    return convertToVersion(this.a, o, matched, this.a) as Promise<Obj>;
  }
}
