/**
 * The CEL playground's engine: one expression in one of the environments Kubernetes runs CEL in,
 * with its input documents, compiled, costed and evaluated by the project's own CEL and schema
 * layers (the same code the server runs, bundled for the browser). Nothing here touches the
 * DOM, so it runs under node's test runner as well.
 *
 * - `crd`: a validation rule on a node of a CRD's schema. The schema is copied with the expression
 *   as its only rule, on that node, then judged as a CRD write judges it (compile errors, the
 *   per-expression and per-CRD cost limits, cost times the node's cardinality) and run as a write
 *   runs it (`self` each value at the node, `oldSelf` from the old object for transition rules).
 * - `vap` / `map`: a ValidatingAdmissionPolicy expression / a MutatingAdmissionPolicy mutation:
 *   `object`, `oldObject`, `request`, `params`, `namespaceObject`, `variables`, `authorizer`
 *   (allowing everything: the playground has no cluster to ask).
 * - `dra`: a DRA device selector (`device`).
 * - `plain`: the Kubernetes environment with every extension library; inputs are a map of names.
 */
import { errorString, Path } from '../../../apimachinery/index.ts';
import {
  allExtensionLibraries,
  CelError,
  CelMap,
  DynType,
  Env,
  formatType,
  parseJSONToCel,
  KUBERNETES_PER_CALL_LIMIT,
  kubernetesEnvOptions,
  macrosForLibraries,
  toJSON,
  typeDisplay,
  type CostEstimate,
  type EnvOptions,
  type Program,
  type Type,
  type Val,
} from '../../../cel/index.ts';
import {
  AdmissionActivation,
  AdmissionCompiler,
  compileCELValidator,
  newStructural,
  patchObjectToJSON,
  patchTypeNamesIn,
  RUNTIME_CEL_COST_BUDGET,
  STATIC_ESTIMATED_COST_LIMIT,
  validateRulesAtCRDWrite,
  type AdmissionInput,
  type JSONSchemaProps,
} from '../../../schema/index.ts';
import { deviceProgram, deviceValue, estimateDeviceCost } from './device.ts';
import { readInput, type InputError } from './inputs.ts';
import { issuePosition, type Position } from './position.ts';
import { valuesAt, withOnlyRule } from './schema-nodes.ts';

export type EnvName = 'crd' | 'vap' | 'map' | 'dra' | 'plain';

/** Each environment's input documents, in the order the page shows them. */
export const envInputs: Record<EnvName, readonly string[]> = {
  crd: ['schema', 'object', 'oldObject'],
  vap: ['object', 'oldObject', 'request', 'params', 'namespaceObject', 'variables'],
  map: ['object', 'oldObject', 'request', 'params', 'namespaceObject', 'variables'],
  dra: ['device'],
  plain: ['vars'],
};

export interface PlaygroundInput {
  env: EnvName;
  expression: string;
  /** YAML texts by input name (see envInputs). */
  docs: Partial<Record<string, string>>;
  /** crd: the schema node the rule sits on (`spec.rules[*]`; '' the root). */
  node?: string;
  /** crd: the CRD version whose schema is used (default: the storage version). */
  version?: string;
}

export interface CostReport {
  /** The estimated cost range of one evaluation. */
  min: string;
  max: string;
  /** crd: how many times the rule may run in one request, and the resulting total. */
  cardinality?: string;
  total?: string;
  /** What bounds the estimate, or the limits that would (`would be bounded by maxItems on ...`). */
  boundBy: string[];
}

export interface PlaygroundError {
  stage: 'input' | 'compile' | 'evaluate';
  message: string;
  /** In the expression (compile errors). */
  position?: Position;
  /** In an input document. */
  input?: string;
  line?: number;
}

export interface PlaygroundResult {
  type?: string;
  cost?: CostReport;
  /** The value as JSON (crd: true when every evaluation passed). */
  value?: unknown;
  /** The value's CEL type where the checked type is dyn. */
  valueType?: string;
  error?: PlaygroundError;
  /** crd: each evaluation's outcome, with the field path the server would report. */
  evaluations?: { path: string; passed: boolean; message?: string }[];
  /** Write-time refusals of the rule that are not compile errors (cost limits). */
  warnings?: string[];
  runtimeCost?: number;
}

const big = (n: bigint | number) => String(n);

function inputError(e: InputError): PlaygroundResult {
  return { error: { stage: 'input', message: `${e.input}: ${e.message}`, input: e.input, ...(e.line !== undefined ? { line: e.line } : {}) } };
}

function compileError(message: string): PlaygroundResult {
  const position = issuePosition(message);
  return { error: { stage: 'compile', message, ...(position ? { position } : {}) } };
}

/** Reads every input document of the environment; the first error stops. */
function readDocs(input: PlaygroundInput): { docs: Record<string, unknown> } | { error: InputError } {
  const docs: Record<string, unknown> = {};
  for (const name of envInputs[input.env]) {
    const r = readInput(name, input.docs[name]);
    if ('error' in r) return r;
    docs[name] = r.value;
  }
  return { docs };
}

/** Runs one playground input; never throws. */
export function runPlayground(input: PlaygroundInput): PlaygroundResult {
  try {
    const read = readDocs(input);
    if ('error' in read) return inputError(read.error);
    const d = read.docs;
    switch (input.env) {
      case 'crd':
        return crdRule(input, d);
      case 'vap':
      case 'map':
        return admission(input, d, input.env === 'map');
      case 'dra':
        return device(input, d);
      case 'plain':
        return plain(input, d);
    }
  } catch (e) {
    // A bug here must not take the page down: shown as the evaluation's error.
    return { error: { stage: 'evaluate', message: `internal error: ${e instanceof Error ? e.message : String(e)}` } };
  }
}

// ---- crd ------------------------------------------------------------------------------------------

interface CRDDoc {
  kind?: string;
  spec?: { versions?: { name: string; storage?: boolean; schema?: { openAPIV3Schema?: JSONSchemaProps } }[] };
}

/** The schema an input names: a CRD's (the chosen or storage version's) or a bare schema. */
export function schemaOf(doc: unknown, version?: string): { schema: JSONSchemaProps; resourceRoot: boolean } | string {
  if (doc === undefined || doc === null || typeof doc !== 'object' || Array.isArray(doc)) return 'schema: give a CustomResourceDefinition or an openAPIV3Schema';
  const crd = doc as CRDDoc;
  if (crd.kind === 'CustomResourceDefinition') {
    const versions = crd.spec?.versions ?? [];
    const v = version ? versions.find((x) => x.name === version) : (versions.find((x) => x.storage) ?? versions[0]);
    if (v === undefined) return `schema: the CRD has no version ${JSON.stringify(version ?? '')}`;
    const s = v.schema?.openAPIV3Schema;
    if (s === undefined) return `schema: version ${v.name} has no openAPIV3Schema`;
    return { schema: s, resourceRoot: true };
  }
  const bare = (doc as { openAPIV3Schema?: JSONSchemaProps }).openAPIV3Schema ?? (doc as JSONSchemaProps);
  return { schema: bare, resourceRoot: false };
}

let plainCostEnv: Env | undefined;
/** Kubernetes' environment, for the lower bound of a checked expression's cost. */
const costEnv = () => (plainCostEnv ??= new Env(kubernetesEnvOptions()));

function crdRule(input: PlaygroundInput, docs: Record<string, unknown>): PlaygroundResult {
  const s = schemaOf(docs.schema, input.version);
  if (typeof s === 'string') return { error: { stage: 'input', message: s, input: 'schema' } };
  const node = input.node ?? '';
  const placed = withOnlyRule(s.schema, node, input.expression);
  if (typeof placed === 'string') return { error: { stage: 'input', message: placed, input: 'schema' } };
  const atWrite = validateRulesAtCRDWrite(placed, Path.of('openAPIV3Schema'));
  const cost = atWrite.costs.find((c) => c.path.endsWith('.rule'));
  const compiled = cost?.compiled;
  if (compiled === undefined || compiled.program === undefined) {
    const msg = compiled?.error?.detail ?? atWrite.errors.map(errorString).join('\n') ?? 'the rule did not compile';
    return compileError(msg);
  }
  const program = compiled.program;
  const boundBy: string[] = [];
  if (cost!.cardinality === undefined) for (const a of cost!.unboundedAncestors) boundBy.push(`would be bounded by ${a.keyword} on ${a.path}`);
  for (const u of compiled.unboundedSizes) boundBy.push(`would be bounded by ${u.keyword} on ${u.path}`);
  const min = program.checked ? costEnv().estimateCost(program.checked).min : 0n;
  const result: PlaygroundResult = {
    type: formatType(program.type),
    cost: {
      min: big(min),
      max: big(compiled.maxCost),
      cardinality: String(cost!.cardinality ?? compiled.maxCardinality) + (cost!.cardinality === undefined ? ' (request-size estimate)' : ''),
      total: big(cost!.cost),
      boundBy,
    },
  };
  const refusals = atWrite.errors.map(errorString);
  if (cost!.cost > STATIC_ESTIMATED_COST_LIMIT || refusals.length > 0) result.warnings = refusals;
  if (docs.object === undefined) return result;
  const structural = newStructural(placed);
  const validator = compileCELValidator(structural, s.resourceRoot);
  if (validator === undefined) return result;
  const r = validator.validate(docs.object, docs.oldObject ?? undefined, { ratcheting: false });
  result.runtimeCost = RUNTIME_CEL_COST_BUDGET - r.remainingBudget;
  const selves = valuesAt(docs.object, node);
  if (selves.length === 0) {
    result.error = { stage: 'evaluate', message: `not evaluated: the object has no value at ${node === '' ? 'its root' : node}` };
    return result;
  }
  if (compiled.usesOldSelf && docs.oldObject === undefined) {
    result.error = { stage: 'evaluate', message: 'not evaluated: a transition rule (it uses oldSelf) runs on updates only: give the old object' };
    return result;
  }
  const failures = r.errors.map(errorString);
  result.evaluations = failures.map((m) => ({ path: m.slice(0, m.indexOf(':')), passed: false, message: m }));
  const runtime = r.errors.find((e) => /evaluation error|cost budget|cost limit/i.test(errorString(e)));
  if (runtime !== undefined) result.error = { stage: 'evaluate', message: errorString(runtime) };
  else result.value = failures.length === 0;
  return result;
}

// ---- vap / map ------------------------------------------------------------------------------------

const ALL = { hasParams: true, hasAuthorizer: true };
const allowAll = { authorize: () => ({ decision: 'Allow' as const, reason: '' }) };

function admission(input: PlaygroundInput, docs: Record<string, unknown>, mutation: boolean): PlaygroundResult {
  const compiler = new AdmissionCompiler();
  const variables = docs.variables ?? {};
  if (typeof variables !== 'object' || variables === null || Array.isArray(variables)) return inputError({ input: 'variables', message: 'must be a map of name: expression' });
  for (const [name, expression] of Object.entries(variables)) {
    if (typeof expression !== 'string') return inputError({ input: 'variables', message: `the expression of "${name}" must be a string` });
    compiler.compileVariable(name, expression, ALL);
  }
  const decls = mutation ? { ...ALL, patchTypeNames: patchTypeNamesIn(input.expression) } : ALL;
  const c = compiler.compile(input.expression, 'any', decls);
  if (c.program === undefined) return compileError(c.error ?? 'compilation failed');
  const result: PlaygroundResult = { type: formatType(c.program.type), cost: costReport(costEnv().estimateCost(c.program.checked!), 'the sizes of the inputs it reads (object, params, request: no schema here)') };
  const request = (docs.request ?? {}) as Record<string, unknown>;
  if (typeof request !== 'object' || Array.isArray(request)) return { ...result, ...inputError({ input: 'request', message: 'must be an AdmissionRequest (a map)' }) };
  const userInfo = (request.userInfo ?? {}) as { username?: string; uid?: string; groups?: string[] };
  const resource = (request.resource ?? {}) as { group?: string; resource?: string };
  const act: AdmissionInput = {
    object: (docs.object ?? null) as AdmissionInput['object'],
    oldObject: (docs.oldObject ?? null) as AdmissionInput['oldObject'],
    params: (docs.params ?? null) as AdmissionInput['params'],
    request,
    namespace: (docs.namespaceObject ?? null) as Record<string, unknown> | null,
    authorizer: {
      user: { name: userInfo.username ?? '', uid: userInfo.uid, groups: userInfo.groups },
      authorizer: allowAll,
      resource: {
        group: String(resource.group ?? ''),
        resource: String(resource.resource ?? ''),
        subresource: String(request.subResource ?? ''),
        namespace: String(request.namespace ?? ''),
        name: String(request.name ?? ''),
      },
    },
  };
  const activation = new AdmissionActivation(act, compiler.variables);
  const r = c.program.eval(activation);
  result.runtimeCost = r.cost + activation.variableCost;
  if (result.runtimeCost > KUBERNETES_PER_CALL_LIMIT) return { ...result, error: { stage: 'evaluate', message: 'operation cancelled: actual cost limit exceeded' } };
  if (r.error) return { ...result, error: { stage: 'evaluate', message: r.error.message } };
  if (mutation) {
    const isObjectValue = (x: Val) => x instanceof CelMap && x.typeName !== undefined && (x.typeName === 'Object' || x.typeName.startsWith('Object.'));
    if (isObjectValue(r.value) || (Array.isArray(r.value) && r.value.some(isObjectValue))) {
      const patch = patchObjectToJSON(r.value, null);
      if (patch instanceof CelError) return { ...result, error: { stage: 'evaluate', message: patch.message } };
      return { ...result, value: patch };
    }
  }
  return withValue(result, r.value, c.program.type);
}

// ---- dra and plain --------------------------------------------------------------------------------

function device(input: PlaygroundInput, docs: Record<string, unknown>): PlaygroundResult {
  const p = deviceProgram(input.expression);
  if (typeof p === 'string') return compileError(p);
  const result: PlaygroundResult = { type: formatType(p.type), cost: costReport(estimateDeviceCost(p), 'the ResourceSlice limits (32 attributes and capacities per device, 64-byte values)') };
  const d = deviceValue(docs.device ?? {});
  if (typeof d === 'string') return { ...result, ...inputError({ input: 'device', message: d }) };
  const r = p.eval({ device: d });
  result.runtimeCost = r.cost;
  if (r.error) return { ...result, error: { stage: 'evaluate', message: r.error.message } };
  return withValue(result, r.value, p.type);
}

/** Kubernetes' environment plus every extension library it does not already declare (the `cel` command's). */
function plainOptions(variables: Record<string, Type>): EnvOptions {
  const k8s = kubernetesEnvOptions();
  const have = new Set((k8s.libraries ?? []).flatMap((l) => l.functions.map((f) => f.name)));
  const libraries = [...(k8s.libraries ?? []), ...allExtensionLibraries.filter((l) => l.functions.every((f) => !have.has(f.name)))];
  return { ...k8s, variables, libraries, parse: { ...k8s.parse, macros: macrosForLibraries(libraries.flatMap((l) => l.macros ?? [])) } };
}

function plain(input: PlaygroundInput, docs: Record<string, unknown>): PlaygroundResult {
  const vars = docs.vars ?? {};
  if (typeof vars !== 'object' || vars === null || Array.isArray(vars)) return inputError({ input: 'vars', message: 'must be a map of name: value' });
  const variables: Record<string, Type> = {};
  const values: Record<string, Val> = {};
  for (const [k, v] of Object.entries(vars)) {
    variables[k] = DynType;
    values[k] = parseJSONToCel(JSON.stringify(v));
  }
  const env = new Env(plainOptions(variables));
  const c = env.compile(input.expression);
  if (c.issues !== undefined) return compileError(c.issues);
  const program: Program = c.program;
  const result: PlaygroundResult = { type: formatType(program.type), cost: costReport(env.estimateCost(program.checked!), 'the sizes of the literals it builds') };
  const r = program.eval(values);
  result.runtimeCost = r.cost;
  if (r.error) return { ...result, error: { stage: 'evaluate', message: r.error.message } };
  return withValue(result, r.value, program.type);
}

const MAX_UINT64 = (1n << 64n) - 1n;

/**
 * An estimate and what bounds it. Outside CRD rules the inputs have no schema: an estimate that
 * reached the largest cost says the inputs' sizes are what is unbounded.
 */
function costReport(c: CostEstimate, bounds: string): CostReport {
  return { min: big(c.min), max: big(c.max), boundBy: [c.max >= MAX_UINT64 ? 'nothing: the inputs have no declared sizes (dyn), so lists, maps and strings may be of any size' : bounds] };
}

function withValue(result: PlaygroundResult, v: Val, t: Type): PlaygroundResult {
  try {
    const shown = typeDisplay(v, t);
    return { ...result, value: toJSON(v), ...(shown !== result.type ? { valueType: shown } : {}) };
  } catch (e) {
    return { ...result, error: { stage: 'evaluate', message: e instanceof RangeError ? 'result nested too deeply to show' : `the result cannot be shown as JSON: ${(e as Error).message}` } };
  }
}
