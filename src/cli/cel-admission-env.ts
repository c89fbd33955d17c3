/**
 * `cel eval|check --env vap`: expressions as a ValidatingAdmissionPolicy compiles and runs them —
 * the admission environment (schema/admission-cel) with `object`, `oldObject`, `request` (a typed
 * `kubernetes.AdmissionRequest`), `params`, `namespaceObject` (a typed `kubernetes.Namespace`),
 * `variables` (from `--variables`, a JSON object of name -> expression, compiled in order, each
 * seeing those before it) and `authorizer` / `authorizer.requestResource` (answering as the server
 * does until RBAC is served: every check allowed). `--vars` gives the inputs as JSON:
 * `{"object": {...}, "oldObject": null, "request": {...}, "params": {...}, "namespaceObject": {...}}`.
 * `--env map` is a MutatingAdmissionPolicy's mutation: the same, plus the mutation types —
 * `Object{...}` apply configurations typed by field path (`Object.spec{replicas: 3}`), `JSONPatch`
 * and `jsonpatch.escapeKey` — declared for the expression (its variables compile without them, as
 * upstream's); an `Object` value prints as the JSON it would merge (its type names checked against
 * their field paths, with upstream's `type mismatch` error otherwise).
 */
import { allowAllAuthorizer } from '../admission/index.ts';
import { Env, kubernetesEnvOptions, KUBERNETES_PER_CALL_LIMIT, type Program } from '../cel/index.ts';
import { CelError, CelMap, formatType, type Val } from '../cel/index.ts';
import { AdmissionActivation, AdmissionCompiler, patchObjectToJSON, patchTypeNamesIn, type AdmissionInput, type OptionalDeclarations } from '../schema/index.ts';
import { fail, objectFlag, out, printCheck, printValue } from './cel-output.ts';
import type { CliEnvironment } from './cel.ts';

const INPUTS = ['object', 'oldObject', 'request', 'params', 'namespaceObject'] as const;
const ALL = { hasParams: true, hasAuthorizer: true };

/** The compiler with `--variables` compiled into it, or the error to print. */
function compilerWith(flags: Map<string, string>): AdmissionCompiler | string {
  const compiler = new AdmissionCompiler();
  const vars = objectFlag(flags, 'variables', 'a JSON object of name -> expression');
  if (typeof vars === 'string') return vars;
  for (const [name, expression] of Object.entries(vars)) {
    if (typeof expression !== 'string') return `--variables: the expression of "${name}" must be a string`;
    // A variable that fails to compile is an error only where it is used, as in a policy.
    compiler.compileVariable(name, expression, ALL);
  }
  return compiler;
}

/** The compiled expression, or the error to print (as a policy's write-time check words it). */
function compile(expr: string, flags: Map<string, string>, mutation: boolean): { program: Program; compiler: AdmissionCompiler } | string {
  const compiler = compilerWith(flags);
  if (typeof compiler === 'string') return compiler;
  const decls: OptionalDeclarations = mutation ? { ...ALL, patchTypeNames: patchTypeNamesIn(expr) } : ALL;
  const c = compiler.compile(expr, 'any', decls);
  if (c.program === undefined) return c.error!;
  return { program: c.program, compiler };
}

function inputs(flags: Map<string, string>): AdmissionInput | string {
  const vars = objectFlag(flags, 'vars');
  if (typeof vars === 'string') return vars;
  const unknown = Object.keys(vars).filter((k) => !(INPUTS as readonly string[]).includes(k));
  if (unknown.length > 0) return `--vars: the admission environment has no input "${unknown[0]}" (inputs: ${INPUTS.join(', ')})`;
  const request = (vars.request ?? {}) as Record<string, unknown>;
  if (typeof request !== 'object' || request === null || Array.isArray(request)) return '--vars: request must be a JSON object (an AdmissionRequest)';
  const ns = vars.namespaceObject;
  if (ns !== undefined && ns !== null && (typeof ns !== 'object' || Array.isArray(ns))) return '--vars: namespaceObject must be a JSON object (a Namespace)';
  const userInfo = (request.userInfo ?? {}) as { username?: string; uid?: string; groups?: string[] };
  const resource = (request.resource ?? {}) as { group?: string; resource?: string };
  return {
    object: vars.object ?? null,
    oldObject: vars.oldObject ?? null,
    params: vars.params ?? null,
    request,
    namespace: (ns ?? null) as Record<string, unknown> | null,
    authorizer: {
      user: { name: userInfo.username ?? '', uid: userInfo.uid, groups: userInfo.groups },
      authorizer: allowAllAuthorizer,
      resource: {
        group: String(resource.group ?? ''),
        resource: String(resource.resource ?? ''),
        subresource: String(request.subResource ?? ''),
        namespace: String(request.namespace ?? ''),
        name: String(request.name ?? ''),
      },
    },
  };
}

/** A mutation's value as JSON: `Object{...}` values (also inside lists) as the patch they stand for. */
function mutationJSON(v: Val): { value: unknown } | { error: string } {
  const isObjectValue = (x: Val) => x instanceof CelMap && x.typeName !== undefined && (x.typeName === 'Object' || x.typeName.startsWith('Object.'));
  if (!isObjectValue(v) && !(Array.isArray(v) && v.some(isObjectValue))) return { value: undefined };
  const r = patchObjectToJSON(v, null);
  return r instanceof CelError ? { error: r.message } : { value: r };
}

/** The admission environment; `mutation`: a MutatingAdmissionPolicy mutation's (the mutation types declared). */
function environment(mutation: boolean): CliEnvironment {
  return {
    eval(expr, flags) {
      const c = compile(expr, flags, mutation);
      if (typeof c === 'string') return fail(2, c);
      const input = inputs(flags);
      if (typeof input === 'string') return fail(2, input);
      const limitText = flags.get('cost-limit');
      if (limitText !== undefined && !/^\d+$/.test(limitText)) return fail(2, `--cost-limit must be a non-negative integer, got "${limitText}"`);
      const limit = limitText === undefined ? KUBERNETES_PER_CALL_LIMIT : Number(limitText);
      const act = new AdmissionActivation(input, c.compiler.variables);
      const r = c.program.eval(act);
      // Variables are charged to the expression that needed them, as in a policy's evaluation.
      if (r.cost + act.variableCost > limit) return fail(1, 'operation cancelled: actual cost limit exceeded');
      if (r.error) return fail(1, r.error.message);
      if (mutation) {
        const m = mutationJSON(r.value);
        if ('error' in m) return fail(1, m.error);
        if (m.value !== undefined) {
          out({ type: formatType(c.program.type), value: m.value });
          return 0;
        }
      }
      return printValue(r.value, c.program.type);
    },
    check(expr, flags) {
      const c = compile(expr, flags, mutation);
      if (typeof c === 'string') return fail(2, c);
      // Policies' expressions are costed with the Kubernetes libraries' estimators, inputs unbounded.
      return printCheck(c.program.type, new Env(kubernetesEnvOptions()).estimateCost(c.program.checked!));
    },
  };
}

export const admissionEnvironment: CliEnvironment = environment(false);

/** `--env map`: a MutatingAdmissionPolicy mutation's environment. */
export const mutationEnvironment: CliEnvironment = environment(true);
