/**
 * Compiling admission expressions (k8s.io/apiserver pkg/admission/plugin/cel compile.go and
 * composition.go): the Kubernetes base environment with `object`, `oldObject`, `request`,
 * `namespaceObject`, `variables`, and — as the expression's kind allows — `params`, `authorizer`
 * and `authorizer.requestResource`; the result type checked against what the expression must
 * return, with upstream's messages (`compilation failed: ERROR: ...`, `must evaluate to bool but
 * got int`). One compiler per policy: its variables compile in order, each adding its output type
 * to `variables` for the expressions after it. A type-checking compiler (the policy status
 * controller's) declares `object`, `oldObject` and `params` with the declared types of a matched
 * kind's schema instead of dyn, and only checks: no program is planned.
 */
import {
  AuthorizerType,
  DynType,
  Env,
  ResourceCheckType,
  formatType,
  kubernetesEnvOptions,
  type Program,
  type Type,
} from '../../cel/index.ts';
import { declTypeProvider, type DeclType } from '../cel/types.ts';
import { jsonPatchLibrary, withPatchTypes } from './patch-types.ts';
import { NAMESPACE_TYPE, REQUEST_TYPE, VARIABLES_TYPE, admissionTypeProvider } from './types.ts';

/** Which optional variables an expression may use (OptionalVariableDeclarations). */
export interface OptionalDeclarations {
  /** `params` (the policy has a paramKind). */
  hasParams: boolean;
  /** `authorizer` and `authorizer.requestResource` (not in messageExpression and audit annotations). */
  hasAuthorizer: boolean;
  /**
   * HasPatchTypes: `Object`, `Object.<field path>` and `JSONPatch` may be constructed (mutation
   * expressions). The names the expression constructs, found when it compiles.
   */
  patchTypeNames?: readonly string[];
}

/** What an expression must evaluate to: one of these types, or anything. */
export type ReturnTypes = readonly Type[] | 'any';

/** A compiled expression, or the error compiling it gave (CompilationResult). */
export interface CompiledExpression {
  readonly expression: string;
  readonly program?: Program;
  /** Upstream's detail: `compilation failed: ...`, `must evaluate to ...`. */
  readonly error?: string;
  /** The checked output type (undefined when compilation failed). */
  readonly outputType?: Type;
}

/** A compiled variable: its name and expression. */
export interface CompiledVariable extends CompiledExpression {
  readonly name: string;
}

/** cel-go's Type.String() as fmt prints it, for the result-type messages (null is `null_type` there). */
const typeString = (t: Type): string => ((t.kind as string) === 'null_type' ? 'null_type' : formatType(t));

/** Declared types for a type-checking compiler (typechecking.go's typeOverwrite), already named. */
export interface TypeOverwrite {
  /** The matched kind's type, for `object` and `oldObject` (dyn when absent). */
  object?: DeclType;
  /** The paramKind's type, for `params` (dyn when absent). */
  params?: DeclType;
}

/** The compiler of one policy's expressions. */
export class AdmissionCompiler {
  /** The policy's variables as compiled so far, in order. */
  readonly variables: CompiledVariable[] = [];
  private readonly variableTypes = new Map<string, Type>();
  private readonly envs = new Map<string, Env>();

  /** With `typeCheck`, expressions are only type-checked against those types (no programs). */
  constructor(private readonly typeCheck?: TypeOverwrite) {}

  /** The environment for one set of optional declarations (built on first use). */
  private env(decls: OptionalDeclarations): Env {
    const key = `${decls.hasParams}/${decls.hasAuthorizer}/${(decls.patchTypeNames ?? []).join(',')}`;
    let env = this.envs.get(key);
    if (env === undefined) {
      const objectType = this.typeCheck?.object?.celType ?? DynType;
      const variables: Record<string, Type> = {
        object: objectType,
        oldObject: objectType,
        namespaceObject: NAMESPACE_TYPE,
        request: REQUEST_TYPE,
        variables: VARIABLES_TYPE,
      };
      if (decls.hasParams) variables.params = this.typeCheck?.params?.celType ?? DynType;
      if (decls.hasAuthorizer) {
        variables.authorizer = AuthorizerType;
        variables['authorizer.requestResource'] = ResourceCheckType;
      }
      let provider = admissionTypeProvider(this.variableTypes);
      if (this.typeCheck?.params !== undefined) provider = declTypeProvider(this.typeCheck.params, provider);
      if (this.typeCheck?.object !== undefined) provider = declTypeProvider(this.typeCheck.object, provider);
      const base = kubernetesEnvOptions({ provider });
      env =
        decls.patchTypeNames === undefined
          ? new Env({ ...base, variables })
          : new Env({ ...base, libraries: [...(base.libraries ?? []), jsonPatchLibrary], variables, provider: withPatchTypes(base.provider!), typeNames: [...(base.typeNames ?? []), ...decls.patchTypeNames] });
      this.envs.set(key, env);
    }
    return env;
  }

  /** CompileCELExpression: compiles `expression`, checking its result type. */
  compile(expression: string, returnTypes: ReturnTypes, decls: OptionalDeclarations): CompiledExpression {
    if (this.typeCheck !== undefined) return this.check(expression, decls);
    const r = this.env(decls).compile(expression);
    if (r.issues !== undefined) return { expression, error: `compilation failed: ${r.issues}` };
    const out = r.program.type;
    if (returnTypes !== 'any' && !returnTypes.some((t) => typeString(t) === typeString(out))) {
      const reason =
        returnTypes.length === 1
          ? `must evaluate to ${typeString(returnTypes[0]!)} but got ${typeString(out)}`
          : `must evaluate to one of [${returnTypes.map(typeString).join(' ')}] but got ${typeString(out)}`;
      return { expression, error: reason };
    }
    return { expression, program: r.program, outputType: out };
  }

  /**
   * typeCheckingCompiler.CompileCELExpression: the checker's issues as they are (no `compilation
   * failed: ` prefix), the result type not enforced.
   */
  private check(expression: string, decls: OptionalDeclarations): CompiledExpression {
    const r = this.env(decls).check(expression);
    if (r.checked === undefined) return { expression, error: r.issues! };
    return { expression, outputType: r.checked.typeMap.get(r.checked.expr.id) ?? DynType };
  }

  /**
   * CompileAndStoreVariable: compiles a variable and declares it in `variables` with its output
   * type (dyn when it failed to compile), for the expressions compiled after it.
   */
  compileVariable(name: string, expression: string, decls: OptionalDeclarations): CompiledVariable {
    const c = this.compile(expression, 'any', decls);
    this.variableTypes.set(name, c.outputType ?? DynType);
    const v: CompiledVariable = { ...c, name };
    const i = this.variables.findIndex((x) => x.name === name);
    if (i >= 0) this.variables[i] = v;
    else this.variables.push(v);
    return v;
  }
}
