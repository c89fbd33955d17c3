/**
 * The CEL type checker, a port of cel-go's `checker/checker.go` with the unification of
 * `checker/types.go`: it infers a type for every node, resolves identifiers and functions against
 * a CheckEnv (qualified names, containers, comprehension scopes), picks overloads (type parameters,
 * dyn), and reports problems with cel-go's exact wording.
 *
 * Like cel-go it rewrites the (copied) tree while checking: a select chain that names a qualified
 * variable becomes one identifier, a namespaced call `a.b.f(x)` becomes a global call `a.b.f`, and
 * identifiers take their fully qualified names.
 */
import { cloneExpr, type Constant, type Expr, type ParsedExpr, type SourceInfo } from '../syntax/ast.ts';
import { CelSource, Issues } from '../common/issues.ts';
import type { FunctionDecl, OverloadDecl, VariableDecl } from '../lib/decls.ts';
import type { CheckEnv } from './env.ts';
import { validateChecked } from './validators.ts';
import {
  BoolType,
  BytesType,
  DoubleType,
  DynType,
  ErrorType,
  IntType,
  NullType,
  StringType,
  UintType,
  formatType,
  isAssignableType,
  isExactType,
  kindOf,
  listOf,
  mapOf,
  optionalOf,
  typeName,
  typeOf,
  typeParam,
  typeParams,
  type Type,
} from './types.ts';

/** What a checked identifier, call or struct refers to (cel-go's ast.ReferenceInfo). */
export interface Reference {
  /** The fully qualified name of a variable or type (absent for function references). */
  name?: string;
  /** The overloads a call may dispatch to; empty for identifiers. */
  overloadIds: string[];
  /** The value of a constant identifier (a protobuf enum value), as cel-go records it. */
  value?: bigint;
}

/** A checked expression: the rewritten tree, its source info, and a type and reference per node. */
export interface CheckedExpr {
  expr: Expr;
  sourceInfo: SourceInfo;
  typeMap: Map<number, Type>;
  referenceMap: Map<number, Reference>;
}

/**
 * Type-checks a parsed expression, then runs the environment's validators. Never throws for bad
 * input: problems are returned as issues (rendered with `issues.toString()` exactly as cel-go's
 * ToDisplayString); `checked` is present only when there are none. The input is not modified,
 * unless `owned` says the caller hands it over (Env.compile, which parsed it for this check only):
 * the checked expression then reuses its nodes instead of a copy.
 */
export function check(parsed: ParsedExpr, env: CheckEnv, owned = false): { checked?: CheckedExpr; issues: Issues } {
  const expr = owned ? parsed.expr : cloneExpr(parsed.expr);
  const info = parsed.sourceInfo;
  const issues = new Issues(new CelSource(info.source, info.description));
  const c = new Checker(env, info, issues);
  c.check(expr);
  if (c.mappings.size) {
    for (const [id, t] of c.typeMap) {
      const s = substitute(c.mappings, t, true);
      if (s !== t) c.typeMap.set(id, s);
    }
  } else for (const [id, t] of c.typeMap) if (hasTypeParam(t)) c.typeMap.set(id, substitute(c.mappings, t, true));
  if (issues.hasErrors()) return { issues };
  let positions = info.positions;
  let macroCalls = info.macroCalls;
  if (c.rewritten) {
    // Drop positions of nodes the rewrite removed (cel-go's ClearUnusedIDs).
    const ids = new Set<number>();
    collectIds(expr, ids);
    positions = new Map<number, number>();
    for (const [id, off] of info.positions) if (ids.has(id)) positions.set(id, off);
    macroCalls = new Map<number, Expr>();
    for (const [id, call] of info.macroCalls) if (ids.has(id)) macroCalls.set(id, call);
  } else if (!owned) {
    positions = new Map(positions);
    macroCalls = new Map(macroCalls);
  }
  const checked: CheckedExpr = {
    expr,
    sourceInfo: { ...info, positions, macroCalls },
    typeMap: c.typeMap,
    referenceMap: c.referenceMap,
  };
  if (env.validators) {
    validateChecked(checked, issues, env.validators);
    if (issues.hasErrors()) return { issues };
  }
  return { checked, issues };
}

/**
 * A memoized overload resolution. Its `ids` array is frozen and shared by the references of every
 * call resolved from it (the planner keys its candidate overloads by such an array).
 */
interface MemoizedResolution {
  type: Type;
  ids: string[];
}
const GENERIC_DECL: MemoizedResolution = { type: { kind: 'dyn' }, ids: [] };
/** Per function declaration (a declaration changed by addFunction is a new object): argument kinds -> resolution. */
const resolutionMemo = new WeakMap<FunctionDecl, Map<string, MemoizedResolution>>();
/** Argument types whose kind says all there is to them (no parameters, nothing to bind). */
const MEMO_KINDS: ReadonlySet<string> = new Set([
  'bool', 'int', 'uint', 'double', 'string', 'bytes', 'null_type', 'timestamp', 'duration', 'dyn', 'any',
]);

/** Type-parameter bindings, keyed by parameter name (cel-go's mapping). */
type Mapping = Map<string, Type>;

interface Resolution {
  decl: VariableDecl;
  requiresDisambiguation: boolean;
}

/** A comprehension scope: the variables it introduces, inside its parent scopes. */
interface Scope {
  parent?: Scope;
  vars: Map<string, Type>;
}

class Checker {
  readonly typeMap = new Map<number, Type>();
  readonly referenceMap = new Map<number, Reference>();
  mappings: Mapping = new Map();
  /** Whether a qualified name was rewritten into one node (its inner nodes are gone). */
  rewritten = false;
  private freeTypeVarCounter = 0;
  private scope: Scope | undefined;
  /**
   * cel-go's Env loses its overload filter and its JSON-field-name setting when it enters (and
   * leaves) a comprehension scope, so from the first comprehension onwards cross-type numeric
   * comparisons and protobuf field names are accepted. Kept for identical results; it matters
   * only when crossTypeNumericComparisons is off or jsonFieldNames is on.
   */
  private rootEnvOptions = true;

  constructor(
    private readonly env: CheckEnv,
    private readonly info: SourceInfo,
    private readonly issues: Issues,
  ) {}

  check(e: Expr): void {
    switch (e.kind) {
      case 'const':
        this.setType(e, constType(e.value));
        return;
      case 'ident':
        return this.checkIdent(e);
      case 'select':
        return this.checkSelect(e);
      case 'call':
        return this.checkCall(e);
      case 'list':
        return this.checkCreateList(e);
      case 'map':
        return this.checkCreateMap(e);
      case 'struct':
        return this.checkCreateStruct(e);
      case 'comprehension':
        return this.checkComprehension(e);
    }
  }

  // ---- identifiers and selection ----

  private checkIdent(e: Extract<Expr, { kind: 'ident' }>): void {
    const ident = this.resolveSimpleIdent(e.name);
    if (ident) {
      let name = ident.decl.name.startsWith('.') ? ident.decl.name.slice(1) : ident.decl.name;
      if (ident.requiresDisambiguation) name = '.' + name;
      this.setType(e, ident.decl.type);
      this.setReference(e, this.identReference(name));
      e.name = name;
      return;
    }
    this.setType(e, ErrorType);
    this.errorAt(e.id, `undeclared reference to '${e.name}' (in container '${this.env.container}')`);
  }

  private checkSelect(e: Extract<Expr, { kind: 'select' }>): void {
    const qualifiers = computeQualifiers(e);
    if (qualifiers) {
      const ident = this.resolveQualifiedIdent(qualifiers);
      if (ident) {
        let name = ident.decl.name;
        if (ident.requiresDisambiguation) name = '.' + name;
        this.setType(e, ident.decl.type);
        this.setReference(e, this.identReference(name));
        rewrite(e, { id: e.id, kind: 'ident', name });
        this.rewritten = true;
        return;
      }
    }
    let resultType = this.checkSelectField(e, e.operand, e.field, false);
    if (e.testOnly) resultType = BoolType;
    this.setType(e, substitute(this.mappings, resultType, false));
  }

  private checkOptSelect(e: Extract<Expr, { kind: 'call' }>): void {
    if (e.args.length !== 2 || e.target) {
      const t = e.target ? ' member call with' : '';
      this.errorAt(
        e.id,
        `unsupported optional field selection: incorrect signature.${t} argument count: ${e.args.length}`,
      );
      return;
    }
    const [operand, field] = e.args as [Expr, Expr];
    if (field.kind !== 'const' || field.value.kind !== 'string') {
      this.errorAt(field.id, `unsupported optional field selection: ${describeExpr(field)}`);
      return;
    }
    const resultType = this.checkSelectField(e, operand, field.value.value, true);
    this.setType(e, substitute(this.mappings, resultType, false));
    this.setReference(e, { overloadIds: ['select_optional_field'] });
  }

  private checkSelectField(e: Expr, operand: Expr, field: string, optional: boolean): Type {
    this.check(operand);
    const operandType = substitute(this.mappings, this.getType(operand), false);
    const [targetType, isOpt] = maybeUnwrapOptional(operandType);
    let resultType: Type = ErrorType;
    switch (kindOf(targetType)) {
      case 'map':
        resultType = (targetType as Extract<Type, { kind: 'map' }>).value;
        break;
      case 'struct': {
        const ft = this.lookupFieldType(e.id, typeName(targetType), field);
        if (ft) resultType = ft;
        break;
      }
      case 'typeParam':
        // Bind the parameter to dyn so that it is not later inferred as something narrower.
        this.isAssignable(DynType, targetType);
        resultType = DynType;
        break;
      default:
        if (!isDynOrError(targetType)) {
          this.errorAt(e.id, `type '${formatType(targetType)}' does not support field selection`);
        }
        resultType = DynType;
    }
    return isOpt || optional ? optionalOf(resultType) : resultType;
  }

  // ---- calls ----

  private checkCall(e: Extract<Expr, { kind: 'call' }>): void {
    if (e.fn === '_?._') return this.checkOptSelect(e);
    const args = e.args;
    for (const arg of args) this.check(arg);

    if (!e.target) {
      const fn = this.env.lookupFunction(e.fn);
      if (!fn) {
        this.errorAt(e.id, `undeclared reference to '${e.fn}' (in container '${this.env.container}')`);
        this.setType(e, ErrorType);
        return;
      }
      e.fn = fn.name;
      this.resolveOverloadOrError(e, fn, undefined, args);
      return;
    }

    // `a.b.f(x)` is either the namespaced function `a.b.f` or `f` called on `a.b`.
    const prefix = toQualifiedName(e.target);
    if (prefix !== undefined) {
      const fn = this.env.lookupFunction(`${prefix}.${e.fn}`);
      if (fn) {
        rewrite(e, { id: e.id, kind: 'call', fn: fn.name, args });
        this.rewritten = true;
        this.resolveOverloadOrError(e, fn, undefined, args);
        return;
      }
    }
    this.check(e.target);
    const fn = this.env.lookupFunction(e.fn);
    if (fn) {
      this.resolveOverloadOrError(e, fn, e.target, args);
      return;
    }
    this.setType(e, ErrorType);
    this.errorAt(e.id, `undeclared reference to '${e.fn}' (in container '${this.env.container}')`);
  }

  private resolveOverloadOrError(e: Expr, fn: FunctionDecl, target: Expr | undefined, args: Expr[]): void {
    const resolution = this.resolveOverload(e, fn, target, args);
    if (!resolution) {
      this.setType(e, ErrorType);
      return;
    }
    this.setType(e, resolution.type);
    this.setReference(e, resolution.ref);
  }

  private resolveOverload(
    call: Expr,
    fn: FunctionDecl,
    target: Expr | undefined,
    args: Expr[],
  ): { type: Type; ref: Reference } | undefined {
    const argTypes: Type[] = [];
    if (target) argTypes.push(this.getType(target));
    for (const arg of args) argTypes.push(this.getType(arg));

    // A call on primitive types to a function without type parameters resolves the same way every
    // time (nothing can bind): the outcome is kept per declaration and argument kinds.
    let memo: Map<string, MemoizedResolution> | undefined;
    let memoKey = '';
    if (fn.name !== '_&&_' && fn.name !== '_||_') {
      memo = resolutionMemo.get(fn);
      if (memo === undefined) resolutionMemo.set(fn, (memo = new Map()));
      if (!memo.has('')) {
        memoKey = this.rootEnvOptions ? (target ? 'r.' : 'r') : target ? 'c.' : 'c';
        for (const t of argTypes) {
          if (!MEMO_KINDS.has(t.kind)) {
            memoKey = '';
            break;
          }
          memoKey += ' ' + t.kind;
        }
        if (memoKey !== '') {
          const known = memo.get(memoKey);
          if (known !== undefined) return { type: known.type, ref: { overloadIds: known.ids } };
        }
      }
    }

    let resultType: Type | undefined;
    let ref: Reference | undefined;
    let generic = false;
    for (const overload of fn.overloads) {
      if (this.rootEnvOptions && this.env.isOverloadDisabled(overload.id)) continue;
      if (!!target !== !!overload.receiver) continue;

      // Logical operators accept any number of bool arguments (variadic ASTs).
      if (fn.name === '_&&_' || fn.name === '_||_') {
        let failed = false;
        argTypes.forEach((argType, i) => {
          if (!this.isAssignable(argType, BoolType)) {
            this.errorAt(
              args[i]!.id,
              `expected type '${formatType(BoolType)}' but found '${formatType(argType)}'`,
            );
            failed = true;
          }
        });
        if (failed) return undefined;
        return { type: BoolType, ref: { overloadIds: [overload.id] } };
      }

      let params = overload.params;
      let result = overload.result;
      const names = overloadTypeParams(overload);
      if (names.length) {
        generic = true;
        const fresh: Mapping = new Map();
        for (const n of names) fresh.set(n, this.newTypeVar());
        params = params.map((p) => substitute(fresh, p, false));
        result = substitute(fresh, result, false);
      }
      if (this.isAssignableList(argTypes, params)) {
        if (!ref) ref = { overloadIds: [overload.id] };
        else ref.overloadIds.push(overload.id);
        const fnResultType = substitute(this.mappings, result, false);
        if (resultType === undefined) resultType = fnResultType;
        else if (!isDyn(resultType) && !isExactType(fnResultType, resultType)) resultType = DynType;
      }
    }

    if (resultType === undefined || !ref) {
      const shown = argTypes.map((t) => formatType(substitute(this.mappings, t, true)));
      const signature = target ? `${shown[0]}.(${shown.slice(1).join(', ')})` : `(${shown.join(', ')})`;
      this.errorAt(call.id, `found no matching overload for '${fn.name}' applied to '${signature}'`);
      return undefined;
    }
    if (memo !== undefined && memoKey !== '') {
      // The empty key marks a declaration with type parameters: never memoized.
      if (generic) memo.set('', GENERIC_DECL);
      else memo.set(memoKey, { type: resultType, ids: Object.freeze(ref.overloadIds) as string[] });
    }
    return { type: resultType, ref };
  }

  // ---- literals ----

  private checkCreateList(e: Extract<Expr, { kind: 'list' }>): void {
    const optionals = new Set(e.optionalIndices);
    let elemsType: Type | undefined;
    e.elements.forEach((elem, i) => {
      this.check(elem);
      let elemType = this.getType(elem);
      if (optionals.has(i)) {
        const [inner, isOpt] = maybeUnwrapOptional(elemType);
        elemType = inner;
        if (!isOpt && !isDyn(elemType)) this.typeMismatch(elem.id, optionalOf(elemType), elemType);
      }
      elemsType = this.joinTypes(elem, elemsType, elemType);
    });
    this.setType(e, listOf(elemsType ?? this.newTypeVar()));
  }

  private checkCreateMap(e: Extract<Expr, { kind: 'map' }>): void {
    let keyType: Type | undefined;
    let valueType: Type | undefined;
    for (const entry of e.entries) {
      this.check(entry.key);
      keyType = this.joinTypes(entry.key, keyType, this.getType(entry.key));
      this.check(entry.value);
      let valType = this.getType(entry.value);
      if (entry.optional) {
        const [inner, isOpt] = maybeUnwrapOptional(valType);
        valType = inner;
        if (!isOpt && !isDyn(valType)) this.typeMismatch(entry.value.id, optionalOf(valType), valType);
      }
      valueType = this.joinTypes(entry.value, valueType, valType);
    }
    if (keyType === undefined) {
      keyType = this.newTypeVar();
      valueType = this.newTypeVar();
    }
    this.setType(e, mapOf(keyType, valueType!));
  }

  private checkCreateStruct(e: Extract<Expr, { kind: 'struct' }>): void {
    let resultType: Type = ErrorType;
    const ident = this.env.resolveTypeIdent(e.typeName);
    if (!ident) {
      this.errorAt(e.id, `undeclared reference to '${e.typeName}' (in container '${this.env.container}')`);
      this.setType(e, ErrorType);
      return;
    }
    let name = ident.name;
    e.typeName = name;
    this.setReference(e, { name, overloadIds: [] });
    const identKind = kindOf(ident.type);
    if (identKind !== 'error') {
      if (identKind !== 'type') {
        this.errorAt(e.id, `'${declaredTypeName(ident.type)}' is not a type`);
      } else {
        resultType = (ident.type as Extract<Type, { kind: 'type' }>).param ?? DynType;
        const wkt = wellKnownTypeName(resultType);
        if (wkt !== undefined) {
          name = wkt;
        } else if (resultType.kind === 'struct') {
          name = resultType.name;
        } else {
          this.errorAt(e.id, `'${declaredTypeName(resultType)}' is not a message type`);
          resultType = ErrorType;
        }
      }
    }
    this.setType(e, resultType);

    for (const field of e.fields) {
      this.check(field.value);
      const fieldType = this.lookupFieldType(field.id, name, field.name) ?? ErrorType;
      let valType = this.getType(field.value);
      if (field.optional) {
        const [inner, isOpt] = maybeUnwrapOptional(valType);
        valType = inner;
        if (!isOpt && !isDyn(valType)) this.typeMismatch(field.value.id, optionalOf(valType), valType);
      }
      if (!this.isAssignable(fieldType, valType)) {
        this.errorAt(
          field.id,
          `expected type of field '${field.name}' is '${formatType(fieldType)}' but provided type is '${formatType(valType)}'`,
        );
      }
    }
  }

  // ---- comprehensions ----

  private checkComprehension(e: Extract<Expr, { kind: 'comprehension' }>): void {
    this.check(e.iterRange);
    this.check(e.accuInit);
    const rangeType = substitute(this.mappings, this.getType(e.iterRange), false);
    const accuType = this.getType(e.accuInit);
    this.rootEnvOptions = false;
    this.scope = { parent: this.scope, vars: new Map([[e.accuVar, accuType]]) };

    const two = e.iterVar2 !== '';
    let varType: Type;
    let var2Type: Type | undefined;
    switch (kindOf(rangeType)) {
      case 'list': {
        const elem = (rangeType as Extract<Type, { kind: 'list' }>).elem;
        varType = elem;
        if (two) {
          var2Type = elem;
          varType = IntType;
        }
        break;
      }
      case 'map': {
        const m = rangeType as Extract<Type, { kind: 'map' }>;
        varType = m.key;
        if (two) var2Type = m.value;
        break;
      }
      case 'dyn':
      case 'error':
      case 'typeParam':
        this.isAssignable(DynType, rangeType);
        varType = DynType;
        if (two) var2Type = DynType;
        break;
      default:
        this.errorAt(
          e.iterRange.id,
          `expression of type '${formatType(rangeType)}' cannot be range of a comprehension (must be list, map, or dynamic)`,
        );
        varType = ErrorType;
        if (two) var2Type = ErrorType;
    }

    const loopVars = new Map([[e.iterVar, varType]]);
    if (two) loopVars.set(e.iterVar2, var2Type!);
    this.scope = { parent: this.scope, vars: loopVars };
    this.check(e.loopCondition);
    this.assertType(e.loopCondition, BoolType);
    this.check(e.loopStep);
    this.assertType(e.loopStep, accuType);
    this.scope = this.scope.parent;
    this.check(e.result);
    this.scope = this.scope!.parent;
    this.setType(e, substitute(this.mappings, this.getType(e.result), false));
  }

  // ---- resolution helpers ----

  /** The reference of a resolved identifier, with the value of an enum constant. */
  private identReference(name: string): Reference {
    const n = name.startsWith('.') ? name.slice(1) : name;
    const value = this.lookupLocal(n) ? undefined : this.env.findEnumValue(n);
    return value === undefined ? { name, overloadIds: [] } : { name, overloadIds: [], value };
  }

  private lookupLocal(name: string): Type | undefined {
    const n = name.startsWith('.') ? name.slice(1) : name;
    for (let s = this.scope; s; s = s.parent) {
      const t = s.vars.get(n);
      if (t) return t;
    }
    return undefined;
  }

  private resolveSimpleIdent(name: string): Resolution | undefined {
    const local = this.lookupLocal(name);
    if (local && !name.startsWith('.')) {
      return { decl: { name, type: local }, requiresDisambiguation: false };
    }
    for (const candidate of this.env.resolveCandidateNames(name)) {
      const decl = this.env.lookupGlobalIdent(candidate);
      if (decl) return { decl: { name: candidate, type: decl.type }, requiresDisambiguation: !!local };
    }
    return undefined;
  }

  private resolveQualifiedIdent(qualifiers: string[]): Resolution | undefined {
    if (qualifiers.length === 1) return this.resolveSimpleIdent(qualifiers[0]!);
    const local = this.lookupLocal(qualifiers[0]!);
    // A local variable is selected from, not part of a qualified name.
    if (local && !qualifiers[0]!.startsWith('.')) return undefined;
    const varName = qualifiers.join('.');
    for (const candidate of this.env.resolveCandidateNames(varName)) {
      const decl = this.env.lookupGlobalIdent(candidate);
      if (decl) return { decl: { name: candidate, type: decl.type }, requiresDisambiguation: !!local };
    }
    return undefined;
  }

  private lookupFieldType(exprId: number, structName: string, field: string): Type | undefined {
    if (!this.env.findStructType(structName)) {
      this.errorAt(exprId, `unexpected failed resolution of '${structName}'`);
      return undefined;
    }
    const ft = this.env.findFieldType(structName, field);
    if (ft) {
      if (this.rootEnvOptions && this.env.jsonFieldNames && !ft.isJsonField) {
        this.errorAt(exprId, `undefined field '${field}'`);
      }
      return ft.type;
    }
    this.errorAt(exprId, `undefined field '${field}'`);
    return undefined;
  }

  // ---- type bookkeeping ----

  private joinTypes(e: Expr, previous: Type | undefined, current: Type): Type {
    if (previous === undefined) return current;
    if (this.isAssignable(previous, current)) return mostGeneral(previous, current);
    if (!this.env.homogeneousAggregateLiterals) return DynType;
    this.typeMismatch(e.id, previous, current);
    return ErrorType;
  }

  private newTypeVar(): Type {
    return typeParam(`_var${this.freeTypeVarCounter++}`);
  }

  private isAssignable(t1: Type, t2: Type): boolean {
    // Only type parameters bind: without any, the mappings cannot change and need no copy.
    if (!hasTypeParam(t1) && !hasTypeParam(t2)) return internalIsAssignable(this.mappings, t1, t2);
    const m = new Map(this.mappings);
    if (internalIsAssignable(m, t1, t2)) {
      this.mappings = m;
      return true;
    }
    return false;
  }

  private isAssignableList(l1: Type[], l2: Type[]): boolean {
    if (!l1.some(hasTypeParam) && !l2.some(hasTypeParam)) return internalIsAssignableList(this.mappings, l1, l2);
    const m = new Map(this.mappings);
    if (internalIsAssignableList(m, l1, l2)) {
      this.mappings = m;
      return true;
    }
    return false;
  }

  private setType(e: Expr, t: Type): void {
    const old = this.typeMap.get(e.id);
    if (old && !isExactType(old, t)) {
      this.errorAt(
        e.id,
        `incompatible type already exists for expression: ${describeExpr(e)}(${e.id}) old:${formatType(old)}, new:${formatType(t)}`,
      );
      return;
    }
    this.typeMap.set(e.id, t);
  }

  private getType(e: Expr): Type {
    return this.typeMap.get(e.id) ?? ErrorType;
  }

  private setReference(e: Expr, r: Reference): void {
    this.referenceMap.set(e.id, r);
  }

  private assertType(e: Expr, t: Type): void {
    if (!this.isAssignable(t, this.getType(e))) this.typeMismatch(e.id, t, this.getType(e));
  }

  private typeMismatch(id: number, expected: Type, actual: Type): void {
    this.errorAt(id, `expected type '${formatType(expected)}' but found '${formatType(actual)}'`);
  }

  private errorAt(id: number, message: string): void {
    this.issues.report(this.info.positions.get(id) ?? -1, message, id);
  }
}

// ---- cel-go checker/types.go ----

function isDyn(t: Type): boolean {
  return t.kind === 'dyn' || t.kind === 'any';
}

function isDynOrError(t: Type): boolean {
  return isDyn(t) || t.kind === 'error';
}

function maybeUnwrapOptional(t: Type): [Type, boolean] {
  if (t.kind === 'opaque' && t.name === 'optional_type' && t.params.length === 1) return [t.params[0]!, true];
  return [t, false];
}

/** Whether t1 is equal to or less specific (closer to dyn) than t2. */
function isEqualOrLessSpecific(t1: Type, t2: Type): boolean {
  const k1 = kindOf(t1);
  const k2 = kindOf(t2);
  if (isDyn(t1) || k1 === 'typeParam') return true;
  if (isDyn(t2) || k2 === 'typeParam') return false;
  if (k1 !== k2) return false;
  switch (k1) {
    case 'opaque': {
      const a = t1 as Extract<Type, { kind: 'opaque' }>;
      const b = t2 as Extract<Type, { kind: 'opaque' }>;
      if (a.name !== b.name || a.params.length !== b.params.length) return false;
      return a.params.every((p, i) => isEqualOrLessSpecific(p, b.params[i]!));
    }
    case 'list':
      return isEqualOrLessSpecific(
        (t1 as Extract<Type, { kind: 'list' }>).elem,
        (t2 as Extract<Type, { kind: 'list' }>).elem,
      );
    case 'map': {
      const a = t1 as Extract<Type, { kind: 'map' }>;
      const b = t2 as Extract<Type, { kind: 'map' }>;
      return isEqualOrLessSpecific(a.key, b.key) && isEqualOrLessSpecific(a.value, b.value);
    }
    case 'type':
      return true;
    default:
      return isExactType(t1, t2);
  }
}

function mostGeneral(t1: Type, t2: Type): Type {
  return isEqualOrLessSpecific(t1, t2) ? t1 : t2;
}

/** Whether t1 is assignable to t2, binding type parameters in m (which it mutates). */
function internalIsAssignable(m: Mapping, t1: Type, t2: Type): boolean {
  const k1 = kindOf(t1);
  const k2 = kindOf(t2);
  if (k2 === 'typeParam') {
    const [valid, t2HasSub] = isValidTypeSubstitution(m, t1, t2);
    if (valid) return true;
    if (t2HasSub) return false;
  }
  if (k1 === 'typeParam') {
    return isValidTypeSubstitution(m, t2, t1)[0];
  }
  if (isDynOrError(t1) || isDynOrError(t2)) return true;
  if (k1 === 'null_type') return isAssignableNull(t2);
  if (k2 === 'null_type') return isAssignableNull(t1);
  switch (k1) {
    case 'bool':
    case 'bytes':
    case 'double':
    case 'int':
    case 'string':
    case 'uint':
    case 'any':
    case 'duration':
    case 'timestamp':
    case 'struct':
      return isAssignableType(t2, t1);
    case 'type':
      return k2 === 'type';
    case 'opaque':
    case 'list':
    case 'map':
      return (
        k1 === k2 &&
        typeName(t1) === typeName(t2) &&
        internalIsAssignableList(m, typeParams(t1), typeParams(t2))
      );
    default:
      return false;
  }
}

/**
 * Whether t2 (or what it is bound to) is a valid substitution for t1, and whether t2 was already
 * bound. Binds t2 when it is free and does not occur in t1.
 */
function isValidTypeSubstitution(m: Mapping, t1: Type, t2: Type): [boolean, boolean] {
  if (kindOf(t1) === kindOf(t2) && isExactType(t1, t2)) return [true, true];
  const t2Sub = findSub(m, t2);
  if (t2Sub) {
    if (kindOf(t1) === kindOf(t2Sub) && isExactType(t1, t2Sub)) return [true, true];
    if (internalIsAssignable(m, t1, t2Sub)) {
      const t2New = mostGeneral(t1, t2Sub);
      if (notReferencedIn(m, t2, t2New)) m.set(subKey(t2), t2New);
      return [true, true];
    }
    return [false, true];
  }
  if (notReferencedIn(m, t2, t1)) {
    m.set(subKey(t2), t1);
    return [true, false];
  }
  return [false, false];
}

/** Whether a type parameter occurs anywhere in t (only then can assignability bind one). */
function hasTypeParam(t: Type): boolean {
  switch (t.kind) {
    case 'typeParam':
      return true;
    case 'list':
      return hasTypeParam(t.elem);
    case 'map':
      return hasTypeParam(t.key) || hasTypeParam(t.value);
    case 'type':
      return t.param !== undefined && hasTypeParam(t.param);
    case 'opaque':
      return t.params.some(hasTypeParam);
    default:
      return false;
  }
}

function internalIsAssignableList(m: Mapping, l1: Type[], l2: Type[]): boolean {
  if (l1.length !== l2.length) return false;
  for (let i = 0; i < l1.length; i++) if (!internalIsAssignable(m, l1[i]!, l2[i]!)) return false;
  return true;
}

function isAssignableNull(t: Type): boolean {
  switch (kindOf(t)) {
    case 'opaque':
    case 'struct':
    case 'any':
    case 'duration':
    case 'timestamp':
      return true;
  }
  return isAssignableType(t, NullType);
}

/** The occurs check: t does not appear in withinType, directly or through bindings. */
function notReferencedIn(m: Mapping, t: Type, withinType: Type): boolean {
  if (isExactType(t, withinType)) return false;
  switch (kindOf(withinType)) {
    case 'typeParam': {
      const sub = findSub(m, withinType);
      return sub ? notReferencedIn(m, t, sub) : true;
    }
    case 'opaque':
    case 'list':
    case 'map':
    case 'type':
      return typeParams(withinType).every((p) => notReferencedIn(m, t, p));
    default:
      return true;
  }
}

/** Replaces bound type parameters by their bindings; unbound ones by dyn when typeParamToDyn. */
export function substitute(m: Mapping, t: Type, typeParamToDyn: boolean): Type {
  const sub = findSub(m, t);
  if (sub) return substitute(m, sub, typeParamToDyn);
  if (typeParamToDyn && t.kind === 'typeParam') return DynType;
  switch (t.kind) {
    case 'opaque':
      return { kind: 'opaque', name: t.name, params: t.params.map((p) => substitute(m, p, typeParamToDyn)) };
    case 'list':
      return listOf(substitute(m, t.elem, typeParamToDyn));
    case 'map':
      return mapOf(substitute(m, t.key, typeParamToDyn), substitute(m, t.value, typeParamToDyn));
    case 'type':
      return t.param ? typeOf(substitute(m, t.param, typeParamToDyn)) : t;
    default:
      return t;
  }
}

/** Bindings are keyed by the printed type, as cel-go's mapping; only type parameters are bound. */
function subKey(t: Type): string {
  return formatType(t);
}

function findSub(m: Mapping, t: Type): Type | undefined {
  if (m.size === 0 || t.kind !== 'typeParam') return undefined;
  return m.get(subKey(t));
}

/** The type parameter names an overload uses (cel-go collects them from its signature); cached. */
const overloadParamNames = new WeakMap<OverloadDecl, string[]>();
function overloadTypeParams(o: OverloadDecl): string[] {
  const known = overloadParamNames.get(o);
  if (known) return known;
  const names = new Set<string>(o.typeParams ?? []);
  const walk = (t: Type): void => {
    if (t.kind === 'typeParam') names.add(t.name);
    else typeParams(t).forEach(walk);
  };
  o.params.forEach(walk);
  walk(o.result);
  const list = [...names];
  overloadParamNames.set(o, list);
  return list;
}

/** cel-go's DeclaredTypeName: the type name, or `wrapper(T)` for a wrapper. */
function declaredTypeName(t: Type): string {
  return t.kind === 'wrapper' ? `wrapper(${t.prim})` : typeName(t);
}

/** The protobuf name of a type constructed by its well-known name (`google.protobuf.Value{}`). */
function wellKnownTypeName(t: Type): string | undefined {
  switch (t.kind) {
    case 'any':
      return 'google.protobuf.Any';
    case 'timestamp':
      return 'google.protobuf.Timestamp';
    case 'duration':
      return 'google.protobuf.Duration';
    case 'dyn':
      return 'google.protobuf.Value';
    case 'null_type':
      return 'google.protobuf.NullValue';
    case 'wrapper':
      return {
        bool: 'google.protobuf.BoolValue',
        bytes: 'google.protobuf.BytesValue',
        double: 'google.protobuf.DoubleValue',
        int: 'google.protobuf.Int64Value',
        string: 'google.protobuf.StringValue',
        uint: 'google.protobuf.UInt64Value',
      }[t.prim];
    case 'list':
      return t.elem.kind === 'dyn' ? 'google.protobuf.ListValue' : undefined;
    case 'map':
      return t.key.kind === 'string' && t.value.kind === 'dyn' ? 'google.protobuf.Struct' : undefined;
    default:
      return undefined;
  }
}

function constType(c: Constant): Type {
  switch (c.kind) {
    case 'null':
      return NullType;
    case 'bool':
      return BoolType;
    case 'int':
      return IntType;
    case 'uint':
      return UintType;
    case 'double':
      return DoubleType;
    case 'string':
      return StringType;
    case 'bytes':
      return BytesType;
  }
}

/** The dotted name a select chain `a.b.c` spells, outermost last; undefined if it is not one. */
function computeQualifiers(e: Expr): string[] | undefined {
  const qualifiers: string[] = [];
  let cur: Expr = e;
  while (cur.kind === 'select') {
    if (cur.testOnly) return undefined;
    qualifiers.push(cur.field);
    cur = cur.operand;
    if (cur.kind === 'ident') {
      qualifiers.push(cur.name);
      return qualifiers.reverse();
    }
  }
  return undefined;
}

/** cel-go's containers.ToQualifiedName: `a.b.c` for an ident/select chain. */
function toQualifiedName(e: Expr): string | undefined {
  if (e.kind === 'ident') return e.name;
  if (e.kind === 'select' && !e.testOnly) {
    const prefix = toQualifiedName(e.operand);
    return prefix === undefined ? undefined : `${prefix}.${e.field}`;
  }
  return undefined;
}

/** Replaces a node in place, keeping its identity (parents hold references to it). */
function rewrite(e: Expr, next: Expr): void {
  const obj = e as unknown as Record<string, unknown>;
  for (const k of Object.keys(obj)) delete obj[k];
  Object.assign(obj, next);
}

function collectIds(e: Expr, ids: Set<number>): void {
  ids.add(e.id);
  switch (e.kind) {
    case 'select':
      collectIds(e.operand, ids);
      break;
    case 'call':
      if (e.target) collectIds(e.target, ids);
      e.args.forEach((a) => collectIds(a, ids));
      break;
    case 'list':
      e.elements.forEach((a) => collectIds(a, ids));
      break;
    case 'map':
      for (const en of e.entries) {
        ids.add(en.id);
        collectIds(en.key, ids);
        collectIds(en.value, ids);
      }
      break;
    case 'struct':
      for (const f of e.fields) {
        ids.add(f.id);
        collectIds(f.value, ids);
      }
      break;
    case 'comprehension':
      for (const x of [e.iterRange, e.accuInit, e.loopCondition, e.loopStep, e.result]) collectIds(x, ids);
      break;
  }
}

/** A short rendering of a node for the rare internal-consistency messages. */
function describeExpr(e: Expr): string {
  switch (e.kind) {
    case 'const':
      return e.value.kind === 'null' ? 'null' : String((e.value as { value: unknown }).value);
    case 'ident':
      return e.name;
    case 'select':
      return `${describeExpr(e.operand)}.${e.field}`;
    case 'call':
      return `${e.target ? describeExpr(e.target) + '.' : ''}${e.fn}(...)`;
    default:
      return e.kind;
  }
}
