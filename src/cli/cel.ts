/**
 * `crd-apiserver cel`: evaluate or check one CEL expression from the command line.
 *
 *   crd-apiserver cel eval 'EXPR' [--vars JSON] [--cost-limit N]  -> {"type": "<CEL type>", "value": <JSON>}
 *   crd-apiserver cel check 'EXPR' [--decls JSON]                 -> {"type": "<CEL type>", "cost": {"min": N, "max": N}}
 *
 * Every extension library is installed. `--vars` is a JSON object (integral numbers are int,
 * others double); its names are declared as dyn. Evaluation stops at `--cost-limit` (default
 * 1000000, Kubernetes' per-call limit) with `operation cancelled: actual cost limit exceeded`, so
 * hostile expressions (exponential comprehensions, doubling bindings) end in an error instead of
 * running away. `--decls` maps names to type names
 * (`{"self": "map(string, int)"}`). Exit status: 0 success, 1 evaluation error, 2 usage, parse
 * or check error; errors print `{"error": "..."}`.
 *
 * `--env` picks the environment: `crd` (the default, above), `vap` or `map` (cel-admission-env.ts:
 * ValidatingAdmissionPolicy's, or MutatingAdmissionPolicy's with the mutation types) or `dra`
 * (cel-dra-env.ts); each reads its own inputs.
 */
import { fail, printCheck, printValue } from './cel-output.ts';
import { admissionEnvironment, mutationEnvironment } from './cel-admission-env.ts';
import { deviceEnvironment } from './cel-dra-env.ts';
import {
  BoolType,
  BytesType,
  CelMap,
  DoubleType,
  DurationType,
  DynType,
  Env,
  IntType,
  JSONSyntaxError,
  KUBERNETES_PER_CALL_LIMIT,
  NullType,
  StringType,
  TimestampType,
  UintType,
  allExtensionLibraries,
  kubernetesEnvOptions,
  listOf,
  macrosForLibraries,
  mapOf,
  opaque,
  parseJSONToCel,
  structType,
  typeOf,
  type EnvOptions,
  type Type,
  type Val,
} from '../cel/index.ts';

const usage = `usage: crd-apiserver cel eval 'EXPR' [--env crd|vap|map|dra] [--vars JSON] [--variables JSON] [--cost-limit N]
       crd-apiserver cel check 'EXPR' [--env crd|vap|map|dra] [--decls JSON] [--variables JSON]

--env selects the environment: crd (default: CRD validation rules, every extension library),
vap (ValidatingAdmissionPolicy: object, oldObject, request, params, namespaceObject, variables,
authorizer), map (MutatingAdmissionPolicy: vap's, plus Object{...} and JSONPatch), dra (DRA device selectors: device).
`;

/** Parses `--flag VALUE` / `--flag=VALUE` options and positional arguments. */
function parseArgs(argv: string[]): { positional: string[]; flags: Map<string, string> } {
  const positional: string[] = [];
  const flags = new Map<string, string>();
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a.startsWith('--')) {
      const eq = a.indexOf('=');
      if (eq > 0) flags.set(a.slice(2, eq), a.slice(eq + 1));
      else flags.set(a.slice(2), argv[++i] ?? '');
    } else positional.push(a);
  }
  return { positional, flags };
}

const NAMED: Record<string, Type> = {
  bool: BoolType,
  int: IntType,
  uint: UintType,
  double: DoubleType,
  string: StringType,
  bytes: BytesType,
  null_type: NullType,
  dyn: DynType,
  timestamp: TimestampType,
  'google.protobuf.Timestamp': TimestampType,
  duration: DurationType,
  'google.protobuf.Duration': DurationType,
  list: listOf(DynType),
  map: mapOf(DynType, DynType),
};

/** Parses a type name as cel-go prints types: `int`, `list(int)`, `map(string, dyn)`, `optional_type(int)`. */
export function parseTypeName(s: string): Type {
  let i = 0;
  const ws = () => {
    while (s[i] === ' ') i++;
  };
  const one = (): Type => {
    ws();
    const m = /[A-Za-z_][A-Za-z0-9_.]*/y;
    m.lastIndex = i;
    const r = m.exec(s);
    if (!r) throw new Error(`invalid type "${s}"`);
    i = m.lastIndex;
    const name = r[0];
    ws();
    const params: Type[] = [];
    if (s[i] === '(') {
      i++;
      for (;;) {
        params.push(one());
        ws();
        if (s[i] === ',') {
          i++;
          continue;
        }
        if (s[i++] !== ')') throw new Error(`invalid type "${s}"`);
        break;
      }
    }
    if (name === 'list' && params.length === 1) return listOf(params[0]!);
    if (name === 'map' && params.length === 2) return mapOf(params[0]!, params[1]!);
    if (name === 'type' && params.length === 1) return typeOf(params[0]!);
    if (params.length) return opaque(name, ...params);
    return NAMED[name] ?? structType(name);
  };
  const t = one();
  ws();
  if (i !== s.length) throw new Error(`invalid type "${s}"`);
  return t;
}

function evalCommand(expr: string, flags: Map<string, string>): number {
  let vars: Record<string, Val> = {};
  const varsText = flags.get('vars');
  if (varsText !== undefined) {
    let parsed: Val;
    try {
      parsed = parseJSONToCel(varsText);
    } catch (e) {
      if (e instanceof JSONSyntaxError) return fail(2, `--vars: ${e.message}`);
      throw e;
    }
    if (!(parsed instanceof CelMap)) return fail(2, '--vars must be a JSON object');
    vars = Object.fromEntries(parsed.m) as Record<string, Val>;
  }
  let costLimit = KUBERNETES_PER_CALL_LIMIT;
  const limitText = flags.get('cost-limit');
  if (limitText !== undefined) {
    if (!/^\d+$/.test(limitText)) return fail(2, `--cost-limit must be a non-negative integer, got "${limitText}"`);
    costLimit = Number(limitText);
  }
  const variables: Record<string, Type> = {};
  for (const k of Object.keys(vars)) variables[k] = DynType;
  const env = new Env(cliEnvOptions(variables, costLimit));
  const c = env.compile(expr);
  if (!c.program) return fail(2, c.issues);
  const r = c.program.eval(vars);
  if (r.error) return fail(1, r.error.message);
  return printValue(r.value, c.program.type);
}

/**
 * The environment expressions are tried in: Kubernetes' (its libraries, validators and cost
 * model, as CRD rules see them), plus every other extension library the engine has that the
 * Kubernetes environment does not install.
 */
function cliEnvOptions(variables: Record<string, Type>, costLimit?: number): EnvOptions {
  const k8s = kubernetesEnvOptions(costLimit !== undefined ? { costLimit } : {});
  const have = new Set<string>();
  for (const l of k8s.libraries ?? []) for (const f of l.functions) have.add(f.name);
  // Add only extension libraries none of whose functions Kubernetes already declares (strings v2 stays).
  const extra = allExtensionLibraries.filter((l) => l.functions.every((f) => !have.has(f.name)));
  const libraries = [...(k8s.libraries ?? []), ...extra];
  // Macros of every installed library (cel.bind, math.greatest, ...), not only Kubernetes' own.
  const macros = macrosForLibraries(libraries.flatMap((l) => l.macros ?? []));
  return { ...k8s, variables, libraries, parse: { ...k8s.parse, macros } };
}

function checkCommand(expr: string, flags: Map<string, string>): number {
  const variables: Record<string, Type> = {};
  const declsText = flags.get('decls');
  if (declsText !== undefined) {
    let decls: unknown;
    try {
      decls = JSON.parse(declsText);
    } catch (e) {
      return fail(2, `--decls: invalid JSON: ${(e as Error).message}`);
    }
    if (typeof decls !== 'object' || decls === null || Array.isArray(decls)) return fail(2, '--decls must be a JSON object of name -> type');
    for (const [k, v] of Object.entries(decls)) {
      try {
        variables[k] = parseTypeName(String(v));
      } catch (e) {
        return fail(2, `--decls: ${(e as Error).message}`);
      }
    }
  }
  const env = new Env(cliEnvOptions(variables));
  const c = env.check(expr);
  if (!c.checked) return fail(2, c.issues!);
  const cost = env.estimateCost(c.checked);
  return printCheck(c.checked.typeMap.get(c.checked.expr.id) ?? DynType, cost);
}

/** An environment other than the CRD rules' one: its own inputs (flags) and checks. */
export interface CliEnvironment {
  eval(expr: string, flags: Map<string, string>): number;
  check(expr: string, flags: Map<string, string>): number;
}

const environments: Record<string, () => CliEnvironment> = {
  crd: () => ({ eval: evalCommand, check: checkCommand }),
  vap: () => admissionEnvironment,
  map: () => mutationEnvironment,
  dra: () => deviceEnvironment,
};

/** Runs `crd-apiserver cel ARGS...`; returns the exit status. */
export async function runCel(argv: string[]): Promise<number> {
  const [sub, ...rest] = argv;
  const { positional, flags } = parseArgs(rest);
  if ((sub !== 'eval' && sub !== 'check') || positional.length !== 1) {
    process.stderr.write(usage);
    return 2;
  }
  const name = flags.get('env') ?? 'crd';
  const make = Object.hasOwn(environments, name) ? environments[name] : undefined;
  if (make === undefined) return fail(2, `--env must be one of crd, vap, map, dra, not "${name}"`);
  const env = make();
  return sub === 'eval' ? env.eval(positional[0]!, flags) : env.check(positional[0]!, flags);
}
