/**
 * The runtime shape of the Kubernetes library types (kubernetes.Quantity, kubernetes.URL,
 * kubernetes.Semver, kubernetes.NamedFormat, net.IP, net.CIDR, the authorizer types).
 *
 * The runtime (eval/values.ts) knows no library types, and the checker declares most of these as
 * object types, whose runtime kind is the map kind. So each library value is a `CelMap` subclass
 * typed with its CEL type name: `type(x)` then reports `kubernetes.Quantity`, dispatch matches the
 * declared object parameters, and CEL equality (typed maps compare type name and entries) compares
 * the one entry each value carries: its equality key, chosen so that keys are equal exactly when
 * upstream's `Equal` says the values are (`quantity('1k') == quantity('1000')`).
 */
import { CelMap, type Val } from '../../eval/values.ts';

/** The map key under which a library value keeps its equality key. */
const KEY = '@value';

/** A value of a Kubernetes library type. */
export abstract class LibraryValue extends CelMap {
  constructor(typeName: string, equalityKey: string) {
    super(new Map([[KEY, equalityKey]]), typeName);
  }
}

/** Narrows a runtime value to a library value class, for implementations that take `dyn` arguments. */
export function asLibraryValue<T extends LibraryValue>(v: Val, cls: abstract new (...a: any[]) => T): T | undefined {
  return v instanceof cls ? v : undefined;
}
