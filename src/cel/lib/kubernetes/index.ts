/**
 * The Kubernetes CEL libraries (k8s.io/apiserver/pkg/cel/library), installable into an Env:
 * quantity, url, ip, cidr, semver, format, lists, authz (and its selectors), jsonpatch, plus the type names
 * and a TypeProvider so that checked expressions can name the library types
 * (`type(ip('1.2.3.4')) == net.IP`).
 */
import type { Type, TypeProvider } from '../../check/types.ts';
import type { Library } from '../decls.ts';
import { AuthorizerType, DecisionType, GroupCheckType, PathCheckType, ResourceCheckType, authzLibrary, authzSelectorsLibrary } from './authz.ts';
import { CIDRType, cidrLibrary } from './cidr.ts';
import { FormatType, formatLibrary } from './format.ts';
import { IPType, ipLibrary } from './ip.ts';
import { jsonPatchLibrary } from './jsonpatch.ts';
import { kubernetesListsLibrary } from './lists.ts';
import { QuantityType, quantityLibrary } from './quantity.ts';
import { SemverType, semverLibrary } from './semver.ts';
import { URLType, urlLibrary } from './url.ts';

export * from './authz.ts';
export { CIDRType, CIDRValue, cidrLibrary, parseCIDR } from './cidr.ts';
export { FormatType, FormatValue, CONSTANT_FORMATS, formatLibrary, type NamedFormat } from './format.ts';
export { IPType, IPValue, ipLibrary, parseIPAddr } from './ip.ts';
export { escapeJSONPointerKey, jsonPatchLibrary } from './jsonpatch.ts';
export { kubernetesListsLibrary, traversalCost } from './lists.ts';
export { LibraryValue, OpaqueLibraryValue } from './object.ts';
export { QuantityType, QuantityValue, quantityLibrary } from './quantity.ts';
export { Quantity, QuantityError, parseQuantity, type QuantityFormat } from './resource-quantity.ts';
export { SemverType, SemverValue, compareSemver, normalizeAndParse, parseSemver, semverLibrary } from './semver.ts';
export { URLType, URLValue, urlLibrary } from './url.ts';

/** Every Kubernetes library, in the order Kubernetes installs them. */
export const kubernetesLibraries: Library[] = [
  urlLibrary,
  kubernetesListsLibrary,
  authzLibrary,
  authzSelectorsLibrary,
  quantityLibrary,
  ipLibrary,
  cidrLibrary,
  formatLibrary,
  semverLibrary,
  jsonPatchLibrary,
];

/** The library types by name. */
export const kubernetesTypes: ReadonlyMap<string, Type> = new Map(
  [QuantityType, URLType, SemverType, FormatType, IPType, CIDRType, AuthorizerType, PathCheckType, GroupCheckType, ResourceCheckType, DecisionType].map(
    (t) => [(t as { name: string }).name, t],
  ),
);

/** Type names to pass as EnvOptions.typeNames so `net.IP` etc. evaluate to type values. */
export const kubernetesTypeNames: string[] = [...kubernetesTypes.keys()];

/**
 * A TypeProvider that knows the library types (none has fields), falling back to `base` for
 * everything else. Pass it as EnvOptions.provider.
 */
export function withKubernetesTypes(base?: TypeProvider): TypeProvider {
  return {
    findStructType: (name) => kubernetesTypes.get(name) ?? base?.findStructType(name),
    findFieldType: (structName, field) => (kubernetesTypes.has(structName) ? undefined : base?.findFieldType(structName, field)),
    fieldNames: (structName) => (kubernetesTypes.has(structName) ? [] : base?.fieldNames?.(structName)),
    findEnumValue: base?.findEnumValue ? (name) => base.findEnumValue!(name) : undefined,
  };
}
