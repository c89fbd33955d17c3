/**
 * The runtime shape of the Kubernetes library types.
 *
 * Upstream declares net.IP and net.CIDR as opaque types and the others (kubernetes.Quantity,
 * kubernetes.URL, kubernetes.Semver, kubernetes.NamedFormat, the authorizer types) as object
 * types; the checker and the cost estimator depend on that difference, so the declarations keep
 * it. At run time all are `OpaqueValue`s: dispatch matches an opaque or object parameter type
 * against an `OpaqueValue` of that type name (eval/dispatch.ts), `type(x)` reports the type name,
 * and they are neither maps nor lists (`size(dyn(quantity('1')))` has no overload).
 *
 * A value carries an equality key, chosen so that keys are equal exactly when upstream's `Equal`
 * says the values are (`quantity('1k') == quantity('1000')`). Upstream's `Equal` of every library
 * type answers `no such overload` for an operand of another type (`ip('::1') == dyn('::1')`).
 */
import { CelError, CelType, OpaqueValue, type Val, errNoOverload } from '../../eval/values.ts';

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
  override equal(other: Val): boolean | CelError {
    if (!(other instanceof OpaqueLibraryValue) || other.celType.name !== this.celType.name) return errNoOverload();
    return other.equalityKey === this.equalityKey;
  }
  toString(): string {
    return this.equalityKey;
  }
}

/** A value of a Kubernetes library object type (kubernetes.Quantity, kubernetes.URL, ...). */
export abstract class LibraryValue extends OpaqueLibraryValue {}
