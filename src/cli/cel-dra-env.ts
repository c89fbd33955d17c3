/**
 * `cel eval|check --env dra`: device selectors as k8s.io/dynamic-resource-allocation/cel compiles
 * and runs them. One variable, `device`, a `kubernetes.DRADevice` with `driver` (string),
 * `attributes` (domain -> name -> value: int, bool, string or semver), `capacity` (domain ->
 * name -> quantity) and `allowMultipleAllocations` (bool) — the environment resource.k8s.io
 * validation compiles selectors in (registry/resource/cel/selector.ts); the Kubernetes base environment plus cel.bind; the result must be bool (or
 * dyn); a runtime cost limit of 1000000 (CELSelectorExpressionMaxCost); sizes bounded by the
 * ResourceSlice limits for the cost estimate. `--vars '{"device": D}'` gives the device as a
 * ResourceSlice lists it: `{"driver": "gpu.example.com", "attributes": {"model": {"string": "a100"},
 * "pcie.example.com/gen": {"int": 5}}, "capacity": {"memory": {"value": "40Gi"}}}` — a name
 * without a domain is in the driver's, and a domain no attribute names reads as an empty map, as
 * upstream so that `device.attributes["other.example.com"].x` is a missing key, not a missing map.
 */
import { BoolType, CelMap, DynType, Env, StringType, formatType, kubernetesEnvOptions, parseQuantity, type Program, type Val } from '../cel/index.ts';
import { DEVICE_TYPE, deviceEnv, deviceFields, deviceSize } from '../registry/index.ts';
import { fail, objectFlag, printCheck, printValue } from './cel-output.ts';
import type { CliEnvironment } from './cel.ts';

/** CompileCELExpression: compiled, or upstream's error detail. */
function compile(expr: string): Program | string {
  const c = deviceEnv().compile(expr);
  if (c.issues !== undefined) return `compilation failed: ${c.issues}`;
  const t = c.program.type;
  if (t.kind !== BoolType.kind && t.kind !== DynType.kind) return `must evaluate to bool or the unknown type, not ${formatType(t)}`;
  return c.program;
}

/** Values made by the libraries' own constructors (`quantity()`, `semver()`), with their errors. */
function construct(fn: 'quantity' | 'semver', s: string): Val | string {
  const r = new Env({ ...kubernetesEnvOptions(), variables: { s: StringType } }).compile(`${fn}(s)`);
  const v = r.program!.eval({ s });
  return v.error !== undefined ? v.error.message : v.value;
}

/** parseQualifiedName: `domain/name`, or the driver's domain. */
function qualified(name: string, driver: string): [string, string] {
  const i = name.indexOf('/');
  return i < 0 ? [driver, name] : [name.slice(0, i), name.slice(i + 1)];
}

/** A map whose missing keys read as an empty map (newStringInterfaceMapWithDefault); `in` still sees only real keys. */
class DomainMap extends CelMap {
  override get(k: Val): Val | undefined {
    return super.get(k) ?? new CelMap();
  }
  override has(k: Val): boolean {
    return super.get(k) !== undefined;
  }
}

/** The `device` value from its ResourceSlice form, or the error to print. */
function deviceValue(d: unknown): Val | string {
  if (typeof d !== 'object' || d === null || Array.isArray(d)) return '--vars: device must be a JSON object (driver, attributes, capacity)';
  const o = d as Record<string, unknown>;
  const unknownField = Object.keys(o).find((k) => !deviceFields.has(k));
  if (unknownField !== undefined) return `--vars: device has no field "${unknownField}" (driver, attributes, capacity, allowMultipleAllocations)`;
  const driver = typeof o.driver === 'string' ? o.driver : '';
  const attributes = new Map<string, CelMap>();
  const capacity = new Map<string, CelMap>();
  const put = (into: Map<string, CelMap>, name: string, v: Val) => {
    const [domain, id] = qualified(name, driver);
    let m = into.get(domain);
    if (m === undefined) into.set(domain, (m = new CelMap()));
    m.m.set(id, v);
  };
  for (const [name, a] of Object.entries((o.attributes ?? {}) as Record<string, unknown>)) {
    const attr = (a ?? {}) as Record<string, unknown>;
    let v: Val | string;
    if (typeof attr.int === 'number' && Number.isInteger(attr.int)) v = BigInt(attr.int);
    else if (typeof attr.bool === 'boolean') v = attr.bool;
    else if (typeof attr.string === 'string') v = attr.string;
    else if (typeof attr.version === 'string') {
      v = construct('semver', attr.version);
      if (typeof v === 'string') return `attribute ${name}: parse semantic version: ${v}`;
    } else return `attribute ${name}: unsupported attribute value`;
    put(attributes, name, v);
  }
  for (const [name, c] of Object.entries((o.capacity ?? {}) as Record<string, unknown>)) {
    const value = ((c ?? {}) as { value?: unknown }).value;
    if (typeof value !== 'string' && typeof value !== 'number') return `capacity ${name}: value must be a quantity`;
    try {
      parseQuantity(String(value));
    } catch (e) {
      return `capacity ${name}: ${(e as Error).message}`;
    }
    put(capacity, name, construct('quantity', String(value)));
  }
  return new CelMap(
    new Map<string, Val>([
      ['driver', driver],
      ['attributes', new DomainMap(attributes)],
      ['capacity', new DomainMap(capacity)],
      ['allowMultipleAllocations', o.allowMultipleAllocations === true],
    ]),
    DEVICE_TYPE,
  );
}

export const deviceEnvironment: CliEnvironment = {
  eval(expr, flags) {
    const p = compile(expr);
    if (typeof p === 'string') return fail(2, p);
    const vars = objectFlag(flags, 'vars');
    if (typeof vars === 'string') return fail(2, vars);
    const other = Object.keys(vars).find((k) => k !== 'device');
    if (other !== undefined) return fail(2, `--vars: the dra environment has one input, device, not "${other}"`);
    const device = deviceValue(vars.device ?? {});
    if (typeof device === 'string') return fail(2, device);
    const r = p.eval({ device });
    if (r.error) return fail(1, r.error.message);
    return printValue(r.value, p.type);
  },
  check(expr) {
    const p = compile(expr);
    if (typeof p === 'string') return fail(2, p);
    return printCheck(p.type, deviceEnv().estimateCost(p.checked!, { sizeEstimator: deviceSize }));
  },
};
