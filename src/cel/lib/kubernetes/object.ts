/**
 * The runtime shape of the Kubernetes library types.
 *
 * Upstream declares net.IP and net.CIDR as opaque types and the others (kubernetes.Quantity,
 * kubernetes.URL, kubernetes.Semver, kubernetes.NamedFormat, the authorizer types) as object
 * types; the checker and the cost estimator depend on that difference, so the declarations keep
 * it. At run time an opaque parameter matches `OpaqueValue`s by type name, and an object parameter
 * matches the map kind. So IP and CIDR values are `OpaqueLibraryValue`s, and the object-typed
 * values are `LibraryValue`s: `CelMap` subclasses typed with their CEL type name, so `type(x)`
 * reports `kubernetes.Quantity` and CEL equality (typed maps compare type name and entries)
 * compares the one entry each value carries.
 *
 * Either way a value carries an equality key, chosen so that keys are equal exactly when
 * upstream's `Equal` says the values are (`quantity('1k') == quantity('1000')`).
 */
import { CelMap, CelType, OpaqueValue, type Val } from '../../eval/values.ts';

/** The map key under which a library value keeps its equality key. */
const KEY = '@value';

/** A value of a Kubernetes library object type. */
export abstract class LibraryValue extends CelMap {
  constructor(typeName: string, equalityKey: string) {
    super(new Map([[KEY, equalityKey]]), typeName);
  }
}

/** A value of a Kubernetes library opaque type (net.IP, net.CIDR). */
export abstract class OpaqueLibraryValue extends OpaqueValue {
  readonly celType: CelType;
  constructor(
    typeName: string,
    /** Equal keys exactly when upstream's Equal holds. */
    readonly equalityKey: string,
  ) {
    super();
    this.celType = new CelType(typeName);
  }
  override equal(other: Val): boolean {
    return other instanceof OpaqueLibraryValue && other.celType.name === this.celType.name && other.equalityKey === this.equalityKey;
  }
  toString(): string {
    return this.equalityKey;
  }
}
