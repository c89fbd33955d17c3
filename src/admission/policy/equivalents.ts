/**
 * Equivalent resources of built-in kinds (kube-apiserver's EquivalentResourceMapper, which groups
 * resources by the storage they share): autoscaling/v1 and autoscaling/v2 horizontalpodautoscalers,
 * core v1 and events.k8s.io/v1 events — so that matchPolicy Equivalent matches a rule written for
 * one of them on a request to another — and an object converted to the version it matched as,
 * through the storage version, the way the registry converts it (a custom resource whose CRD
 * converts with strategy None just changes apiVersion; one converted by webhook is converted by
 * the request's convertor, see versioned.ts).
 */
import { builtinResources, builtinSharedStorage, type Obj } from '../../registry/index.ts';
import type { GVK, GVR } from './matching.ts';

const key = (r: GVR): string => `${r.group}/${r.version}/${r.resource}`;
const gvrOf = (k: string): GVR => {
  const [group, version, resource] = k.split('/') as [string, string, string];
  return { group, version, resource };
};

/**
 * The built-in resources sharing `r`'s storage (`r` included) with their kinds, storage version
 * first; none when it shares its storage with no other.
 */
export function builtinEquivalents(r: GVR, subresource: string): { resource: GVR; kind: GVK }[] {
  const own = key(r);
  const stored = builtinSharedStorage.find((o) => o.served === own)?.stored ?? own;
  const members = [stored, ...builtinSharedStorage.filter((o) => o.stored === stored).map((o) => o.served)];
  if (members.length === 1) return [];
  return members.flatMap((k) => {
    const resource = gvrOf(k);
    const b = builtinResources().find((x) => x.group === resource.group && x.version === resource.version && x.resource === resource.resource);
    if (b === undefined) return [];
    const kind = subresource === 'scale' ? { group: 'autoscaling', version: 'v1', kind: 'Scale' } : { group: b.group, version: b.version, kind: b.kind };
    return [{ resource, kind }];
  });
}

/**
 * `o`, an object of `from`, as an object of `to` (a copy when converted; `o` itself when the
 * versions are the same). Built-in kinds sharing a storage convert through the storage version;
 * other kinds change apiVersion.
 */
export function objectAtVersion(o: Obj | undefined, from: { resource: GVR; kind: GVK }, to: { resource: GVR; kind: GVK }): Obj | undefined {
  if (o === undefined || o === null) return o;
  if (key(from.resource) === key(to.resource) && from.kind.version === to.kind.version && from.kind.group === to.kind.group) return o;
  const apiVersion = to.kind.group === '' ? to.kind.version : `${to.kind.group}/${to.kind.version}`;
  const fromConversion = builtinSharedStorage.find((x) => x.served === key(from.resource));
  const toConversion = builtinSharedStorage.find((x) => x.served === key(to.resource));
  const stored = fromConversion?.stored ?? key(from.resource);
  if ((toConversion?.stored ?? key(to.resource)) !== stored || (fromConversion === undefined && toConversion === undefined)) {
    return o.apiVersion === undefined ? o : { ...o, apiVersion };
  }
  // The conversions mutate their argument.
  let out = JSON.parse(JSON.stringify(o)) as Obj;
  if (fromConversion !== undefined) out = fromConversion.conversion.toStorage(out);
  if (toConversion !== undefined) out = toConversion.conversion.fromStorage(out);
  out.apiVersion = apiVersion;
  out.kind = to.kind.kind;
  return out;
}
