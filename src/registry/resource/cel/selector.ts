/**
 * Device selectors' CEL as resource.k8s.io validation compiles it (k8s.io/dynamic-resource-allocation/cel
 * CompileCELExpression, validateCELExpression): one variable, `device` (a `kubernetes.DRADevice`
 * with `driver`, `attributes`, `capacity`, `allowMultipleAllocations`), the Kubernetes base
 * environment plus cel.bind; the result bool or dyn; an expression longer than
 * CELSelectorExpressionMaxLength is not compiled, one whose estimated cost (sizes bounded by the
 * ResourceSlice limits) exceeds CELSelectorExpressionMaxCost is refused. Compiled once per
 * expression text.
 */
import { invalid, tooLong, type FieldError, type Path } from '../../../apimachinery/index.ts';
import {
  BoolType, DynType, Env, StringType, extensionLibraries, formatType, kubernetesEnvOptions, macrosForLibraries, mapOf, structType,
  type AstNode, type EnvOptions, type SizeEstimate, type Type,
} from '../../../cel/index.ts';

/** The type of the `device` variable. */
export const DEVICE_TYPE = 'kubernetes.DRADevice';
const QuantityType = structType('kubernetes.Quantity');

/** resource.CELSelectorExpressionMaxCost */
export const CELSelectorExpressionMaxCost = 1_000_000n;
/** resource.CELSelectorExpressionMaxLength */
export const CELSelectorExpressionMaxLength = 10 * 1024;

/** The ResourceSlice limits the cost estimate assumes (k8s.io/api/resource). */
const MAX_ATTRIBUTES = 32n; // ResourceSliceMaxAttributesAndCapacitiesPerDevice
const MAX_VALUE_LENGTH = 64n; // DeviceAttributeMaxValueLength
const MAX_DOMAIN_LENGTH = 63n; // DeviceMaxDomainLength
const MAX_ID_LENGTH = 32n; // DeviceMaxIDLength
const MAX_DRIVER_LENGTH = 63n; // DriverNameMaxLength

/** The fields of `device` and their types. */
export const deviceFields = new Map<string, Type>([
  ['driver', StringType],
  ['attributes', mapOf(StringType, mapOf(StringType, DynType))],
  ['capacity', mapOf(StringType, mapOf(StringType, QuantityType))],
  ['allowMultipleAllocations', BoolType],
]);

function envOptions(): EnvOptions {
  const base = kubernetesEnvOptions({
    costLimit: Number(CELSelectorExpressionMaxCost),
    provider: {
      findStructType: (name) => (name === DEVICE_TYPE ? structType(DEVICE_TYPE) : undefined),
      findFieldType: (s, f) => {
        const t = s === DEVICE_TYPE ? deviceFields.get(f) : undefined;
        return t === undefined ? undefined : { type: t };
      },
      fieldNames: (s) => (s === DEVICE_TYPE ? [...deviceFields.keys()] : undefined),
    },
  });
  const libraries = [...(base.libraries ?? []), extensionLibraries.bindings];
  const macros = macrosForLibraries(libraries.flatMap((l) => l.macros ?? []));
  return { ...base, libraries, parse: { ...base.parse, macros }, variables: { device: structType(DEVICE_TYPE) } };
}

let env: Env | undefined;
/** The environment device selectors compile in (made once). */
export const deviceEnv = (): Env => (env ??= new Env(envOptions()));

/** The ResourceSlice bounds of what `node` reaches under `device` (upstream's sizeEstimator). */
export function deviceSize(node: AstNode): SizeEstimate | undefined {
  const path = node.path;
  if (path === undefined || path[0] !== 'device' || path.length < 2) return undefined;
  const max = (n: bigint): SizeEstimate => ({ min: 0n, max: n });
  const [, field, ...rest] = path;
  if (field === 'driver') return rest.length === 0 ? max(MAX_DRIVER_LENGTH) : undefined;
  if (field !== 'attributes' && field !== 'capacity') return undefined;
  if (rest.length === 0) return max(MAX_ATTRIBUTES);
  if (rest[0] === '@keys') return rest.length === 1 ? max(MAX_DOMAIN_LENGTH) : undefined;
  if (rest.length === 1) return max(MAX_ATTRIBUTES);
  if (rest.length > 2) return undefined;
  if (rest[1] === '@keys') return max(MAX_ID_LENGTH);
  return field === 'attributes' ? max(MAX_VALUE_LENGTH) : undefined;
}

/** What compiling an expression says: upstream's error detail, or the estimated maximum cost. */
type Compiled = { detail: string } | { maxCost: bigint };

const compiled = new Map<string, Compiled>();

function compile(expr: string): Compiled {
  let r = compiled.get(expr);
  if (r !== undefined) return r;
  const c = deviceEnv().compile(expr);
  if (c.issues !== undefined) r = { detail: `compilation failed: ${c.issues}` };
  else {
    const t = c.program.type;
    if (t.kind !== BoolType.kind && t.kind !== DynType.kind) r = { detail: `must evaluate to bool or the unknown type, not ${formatType(t)}` };
    else r = { maxCost: deviceEnv().estimateCost(c.program.checked!, { sizeEstimator: deviceSize }).max };
  }
  if (compiled.size > 1000) compiled.clear();
  compiled.set(expr, r);
  return r;
}

/**
 * validateCELExpression of a selector (not a derived attribute): nothing for an expression that
 * was stored before (it was valid then); too long; not compiling; too costly.
 */
export function validateSelectorExpression(expr: string, fldPath: Path, stored: boolean): FieldError[] {
  if (stored) return [];
  if (expr.length > CELSelectorExpressionMaxLength) return [tooLong(fldPath, '', CELSelectorExpressionMaxLength)];
  const r = compile(expr);
  if ('detail' in r) return [invalid(fldPath, expr, r.detail)];
  return r.maxCost > CELSelectorExpressionMaxCost ? [{ type: 'FieldValueForbidden', field: fldPath.toString(), badValue: '', detail: 'too complex, exceeds cost limit' }] : [];
}
