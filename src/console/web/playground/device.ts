/**
 * The DRA device-selector environment (k8s.io/dynamic-resource-allocation/cel) for the
 * playground: `device` with `driver`, `attributes[domain].name` and `capacity[domain].name`
 * (quantities), the Kubernetes base libraries plus cel.bind, a bool result, the selector cost
 * limit, and the ResourceSlice limits bounding the cost estimate. The device is given as a
 * ResourceSlice lists it (`attributes: {model: {string: a100}}`, `capacity: {memory: {value:
 * 40Gi}}`); a name without a domain is in the driver's, and a domain no attribute names reads as
 * an empty map.
 */
import {
  BoolType,
  CelMap,
  DynType,
  Env,
  StringType,
  extensionLibraries,
  formatType,
  kubernetesEnvOptions,
  macrosForLibraries,
  mapOf,
  structType,
  type AstNode,
  type CostEstimate,
  type Program,
  type SizeEstimate,
  type Type,
  type Val,
} from '../../../cel/index.ts';

const DEVICE = 'kubernetes.DRADevice';
/** resourceapi.CELSelectorExpressionMaxCost. */
const SELECTOR_MAX_COST = 1_000_000;
/** The ResourceSlice limits: attributes and capacities per device, value, domain, id and driver lengths. */
const LIMITS = { entries: 32n, value: 64n, domain: 63n, id: 32n, driver: 63n };

const fields = new Map<string, Type>([
  ['driver', StringType],
  ['attributes', mapOf(StringType, mapOf(StringType, DynType))],
  ['capacity', mapOf(StringType, mapOf(StringType, structType('kubernetes.Quantity')))],
]);

let env: Env | undefined;
function deviceEnv(): Env {
  if (env) return env;
  const base = kubernetesEnvOptions({
    costLimit: SELECTOR_MAX_COST,
    provider: {
      findStructType: (n) => (n === DEVICE ? structType(DEVICE) : undefined),
      findFieldType: (s, f) => (s === DEVICE && fields.has(f) ? { type: fields.get(f)! } : undefined),
      fieldNames: (s) => (s === DEVICE ? [...fields.keys()] : undefined),
    },
  });
  const libraries = [...(base.libraries ?? []), extensionLibraries.bindings];
  return (env = new Env({ ...base, libraries, parse: { ...base.parse, macros: macrosForLibraries(libraries.flatMap((l) => l.macros ?? [])) }, variables: { device: structType(DEVICE) } }));
}

/** The compiled selector, or upstream's error. */
export function deviceProgram(expr: string): Program | string {
  const c = deviceEnv().compile(expr);
  if (c.issues !== undefined) return `compilation failed: ${c.issues}`;
  const k = c.program.type.kind;
  if (k !== BoolType.kind && k !== DynType.kind) return `must evaluate to bool or the unknown type, not ${formatType(c.program.type)}`;
  return c.program;
}

/** What a path under `device` can hold at most, by the ResourceSlice limits. */
function size(node: AstNode): SizeEstimate | undefined {
  const p = node.path;
  if (p === undefined || p[0] !== 'device') return undefined;
  const upTo = (n: bigint): SizeEstimate => ({ min: 0n, max: n });
  const [, field, ...rest] = p;
  if (field === 'driver') return rest.length === 0 ? upTo(LIMITS.driver) : undefined;
  if (field !== 'attributes' && field !== 'capacity') return undefined;
  if (rest.length === 0 || (rest.length === 1 && rest[0] !== '@keys')) return upTo(LIMITS.entries);
  if (rest.length === 1) return upTo(LIMITS.domain);
  if (rest.length > 2) return undefined;
  if (rest[1] === '@keys') return upTo(LIMITS.id);
  return field === 'attributes' ? upTo(LIMITS.value) : undefined;
}

export function estimateDeviceCost(p: Program): CostEstimate {
  return deviceEnv().estimateCost(p.checked!, { sizeEstimator: size });
}

/** A value made by the library's own constructor (`quantity(s)`, `semver(s)`), or its error. */
function construct(fn: 'quantity' | 'semver', s: string): Val | string {
  const r = new Env({ ...kubernetesEnvOptions(), variables: { s: StringType } }).compile(`${fn}(s)`);
  const v = r.program!.eval({ s });
  return v.error !== undefined ? v.error.message : v.value;
}

/** Missing domains read as empty maps; `in` still sees only the real ones. */
class Domains extends CelMap {
  override get(k: Val): Val | undefined {
    return super.get(k) ?? new CelMap();
  }
  override has(k: Val): boolean {
    return super.get(k) !== undefined;
  }
}

/** The `device` value from its ResourceSlice form, or what is wrong with it. */
export function deviceValue(d: unknown): Val | string {
  if (typeof d !== 'object' || d === null || Array.isArray(d)) return 'must be a map (driver, attributes, capacity)';
  const o = d as Record<string, unknown>;
  const extra = Object.keys(o).find((k) => !fields.has(k));
  if (extra !== undefined) return `a device has no field "${extra}" (driver, attributes, capacity)`;
  const driver = typeof o.driver === 'string' ? o.driver : '';
  const byDomain = (entries: [string, Val][]) => {
    const m = new Map<string, CelMap>();
    for (const [name, v] of entries) {
      const i = name.indexOf('/');
      const [domain, id] = i < 0 ? [driver, name] : [name.slice(0, i), name.slice(i + 1)];
      if (!m.has(domain)) m.set(domain, new CelMap());
      m.get(domain)!.m.set(id, v);
    }
    return new Domains(m);
  };
  const attrs: [string, Val][] = [];
  for (const [name, a] of Object.entries((o.attributes ?? {}) as Record<string, Record<string, unknown> | null>)) {
    const x = a ?? {};
    let v: Val | string;
    if (typeof x.int === 'number' && Number.isInteger(x.int)) v = BigInt(x.int);
    else if (typeof x.bool === 'boolean') v = x.bool;
    else if (typeof x.string === 'string') v = x.string;
    else if (typeof x.version === 'string') v = construct('semver', x.version);
    else return `attribute ${name}: unsupported attribute value`;
    if (typeof v === 'string' && typeof x.version === 'string') return `attribute ${name}: parse semantic version: ${v}`;
    attrs.push([name, v]);
  }
  const caps: [string, Val][] = [];
  for (const [name, c] of Object.entries((o.capacity ?? {}) as Record<string, { value?: unknown } | null>)) {
    const value = c?.value;
    if (typeof value !== 'string' && typeof value !== 'number') return `capacity ${name}: value must be a quantity`;
    const q = construct('quantity', String(value));
    if (typeof q === 'string') return `capacity ${name}: ${q}`;
    caps.push([name, q]);
  }
  return new CelMap(
    new Map<string, Val>([
      ['driver', driver],
      ['attributes', byDomain(attrs)],
      ['capacity', byDomain(caps)],
    ]),
    DEVICE,
  );
}
