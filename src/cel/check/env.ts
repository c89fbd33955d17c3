/**
 * The checker's environment (cel-go's `checker.Env` and `containers.Container`): the container
 * that qualifies names, global variable and function declarations gathered from libraries, the
 * provider of object types, and the checker options cel-go exposes (cross-type numeric
 * comparisons, homogeneous aggregate literals).
 *
 * Built once and reused for every expression; checking never mutates it.
 */
import type { FunctionDecl, Library, OverloadDecl, VariableDecl } from '../lib/decls.ts';
import type { ValidatorOptions } from './validators.ts';
import {
  BoolType,
  BytesType,
  DoubleType,
  DurationType,
  DynType,
  IntType,
  NullType,
  StringType,
  TimestampType,
  TypeType,
  UintType,
  isExactType,
  listOf,
  mapOf,
  typeName,
  typeOf,
  wellKnownType,
  type FieldType,
  type Type,
  type TypeProvider,
} from './types.ts';

/** Options of a CheckEnv. */
export interface CheckEnvOptions {
  /** The container (namespace) names are resolved in, e.g. `google.expr.proto3.test`. */
  container?: string;
  /** Aliases: short name -> fully qualified name (cel-go's containers.Alias). */
  aliases?: Record<string, string>;
  /** Object types; none when absent. */
  provider?: TypeProvider;
  /**
   * Allow `<`, `<=`, `>`, `>=` between int, uint and double (cel-go's CrossTypeNumericComparisons).
   * Off by default, as in cel-go; Kubernetes turns it on.
   */
  crossTypeNumericComparisons?: boolean;
  /**
   * Reject mixed-type list/map literals while checking instead of typing them dyn (cel-go's
   * checker-level option, no longer reachable from cel-go's public API: Kubernetes gets the same
   * rule from the homogeneous-literals validator, see `validators`).
   */
  homogeneousAggregateLiterals?: boolean;
  /** Libraries to install (their functions and variables). */
  libraries?: Library[];
  /** Variables to declare: name -> type. */
  variables?: Record<string, Type>;
  /** Object fields are named by their JSON names (cel-go's JSONFieldNames). */
  jsonFieldNames?: boolean;
  /** Validators run after a successful check (cel-go's ASTValidators; Kubernetes installs four). */
  validators?: ValidatorOptions;
}

/** The overloads cel-go filters unless cross-type numeric comparisons are enabled. */
const CROSS_TYPE_NUMERIC_COMPARISONS = new Set(
  ['less', 'less_equals', 'greater', 'greater_equals'].flatMap((op) => [
    `${op}_double_int64`,
    `${op}_double_uint64`,
    `${op}_int64_double`,
    `${op}_int64_uint64`,
    `${op}_uint64_double`,
    `${op}_uint64_int64`,
  ]),
);

/** The type names cel-go's type registry always knows (`int` -> type(int), ...). */
const REGISTRY_TYPES: Map<string, Type> = new Map(
  [
    BoolType,
    BytesType,
    DoubleType,
    DurationType,
    IntType,
    listOf(DynType),
    mapOf(DynType, DynType),
    NullType,
    StringType,
    TimestampType,
    TypeType,
    UintType,
  ].map((t) => [typeName(t), typeOf(t)]),
);

/** Fields of the well-known protobuf messages, for constructing them by name (`google.protobuf.Int64Value{value: 1}`). */
const WELL_KNOWN_FIELDS: Record<string, Record<string, Type>> = {
  'google.protobuf.Any': { type_url: StringType, value: BytesType },
  'google.protobuf.Duration': { seconds: IntType, nanos: IntType },
  'google.protobuf.Timestamp': { seconds: IntType, nanos: IntType },
  'google.protobuf.Value': {
    // An enum field: cel-go types enum fields int (google.protobuf.NullValue.NULL_VALUE is 0).
    null_value: IntType,
    number_value: DoubleType,
    string_value: StringType,
    bool_value: BoolType,
    struct_value: mapOf(StringType, DynType),
    list_value: listOf(DynType),
  },
  'google.protobuf.Struct': { fields: mapOf(StringType, DynType) },
  'google.protobuf.ListValue': { values: listOf(DynType) },
  'google.protobuf.BoolValue': { value: BoolType },
  'google.protobuf.BytesValue': { value: BytesType },
  'google.protobuf.DoubleValue': { value: DoubleType },
  'google.protobuf.FloatValue': { value: DoubleType },
  'google.protobuf.Int32Value': { value: IntType },
  'google.protobuf.Int64Value': { value: IntType },
  'google.protobuf.StringValue': { value: StringType },
  'google.protobuf.UInt32Value': { value: UintType },
  'google.protobuf.UInt64Value': { value: UintType },
};

const emptyProvider: TypeProvider = {
  findStructType: () => undefined,
  findFieldType: () => undefined,
};

/**
 * A type-checking environment. Declarations are added while building it (the add* methods, which
 * throw on conflicting declarations with cel-go's messages); after that it is only read.
 */
export class CheckEnv {
  readonly container: string;
  readonly aliases: ReadonlyMap<string, string>;
  readonly provider: TypeProvider;
  readonly homogeneousAggregateLiterals: boolean;
  readonly validators: ValidatorOptions | undefined;
  readonly jsonFieldNames: boolean;
  private readonly disabledOverloads: ReadonlySet<string>;
  private readonly variables = new Map<string, VariableDecl>();
  private readonly functions = new Map<string, FunctionDecl>();

  constructor(opts: CheckEnvOptions = {}) {
    this.container = opts.container ?? '';
    this.aliases = new Map(Object.entries(opts.aliases ?? {}));
    this.provider = opts.provider ?? emptyProvider;
    this.homogeneousAggregateLiterals = opts.homogeneousAggregateLiterals ?? false;
    this.validators = opts.validators;
    this.jsonFieldNames = opts.jsonFieldNames ?? false;
    this.disabledOverloads = opts.crossTypeNumericComparisons ? new Set() : CROSS_TYPE_NUMERIC_COMPARISONS;
    for (const lib of opts.libraries ?? []) this.addLibrary(lib);
    for (const [name, type] of Object.entries(opts.variables ?? {})) this.addVariable(name, type);
  }

  /** Installs a library's functions and variables. */
  addLibrary(lib: Library): this {
    for (const fn of lib.functions) this.addFunction(fn);
    for (const v of lib.variables ?? []) this.addVariable(v.name, v.type);
    return this;
  }

  /**
   * Declares a variable. Redeclaring a name with the same type is allowed; with another type it
   * throws `overlapping identifier for name 'x'` (cel-go's wording).
   */
  addVariable(name: string, type: Type): this {
    const current = this.variables.get(name);
    if (current && !isExactType(current.type, type)) {
      throw new Error(`overlapping identifier for name '${name}'`);
    }
    this.variables.set(name, { name, type: sanitize(type) });
    return this;
  }

  /**
   * Declares a function, merging its overloads into an existing declaration of the same name.
   * An overload id declared twice with different signatures throws.
   */
  addFunction(fn: FunctionDecl): this {
    const current = this.functions.get(fn.name);
    if (!current) {
      this.functions.set(fn.name, { ...fn, overloads: [...fn.overloads] });
      return this;
    }
    const merged: OverloadDecl[] = [...current.overloads];
    for (const o of fn.overloads) {
      const same = merged.findIndex((m) => m.id === o.id);
      if (same < 0) {
        merged.push(o);
      } else if (!sameSignature(merged[same]!, o)) {
        throw new Error(
          `overload signature collision in function ${fn.name}: ${o.id} collides with ${merged[same]!.id}`,
        );
      } else if (o.impl && !merged[same]!.impl) {
        merged[same] = o;
      }
    }
    this.functions.set(fn.name, { ...current, overloads: merged });
    return this;
  }

  /** A copy of this environment with more declarations (the original is not changed). */
  extend(opts: { libraries?: Library[]; variables?: Record<string, Type> }): CheckEnv {
    const copy = Object.create(CheckEnv.prototype) as CheckEnv;
    Object.assign(copy, this);
    (copy as unknown as { variables: Map<string, VariableDecl> }).variables = new Map(this.variables);
    (copy as unknown as { functions: Map<string, FunctionDecl> }).functions = new Map(this.functions);
    for (const lib of opts.libraries ?? []) copy.addLibrary(lib);
    for (const [name, type] of Object.entries(opts.variables ?? {})) copy.addVariable(name, type);
    return copy;
  }

  /** Whether an overload is filtered out by the options (cel-go's isOverloadDisabled). */
  isOverloadDisabled(id: string): boolean {
    return this.disabledOverloads.has(id);
  }

  /** All declared functions (for listings and for the planner). */
  allFunctions(): Iterable<FunctionDecl> {
    return this.functions.values();
  }

  /** All declared global variables. */
  allVariables(): Iterable<VariableDecl> {
    return this.variables.values();
  }

  /**
   * The names `name` may refer to from this container, most qualified first (cel-go's
   * Container.ResolveCandidateNames): in container `a.b`, `x` may be `a.b.x`, `a.x` or `x`.
   * A leading dot means the name is already fully qualified.
   */
  resolveCandidateNames(name: string): string[] {
    if (name.startsWith('.')) {
      const qn = name.slice(1);
      return [this.findAlias(qn) ?? qn];
    }
    const alias = this.findAlias(name);
    if (alias !== undefined) return [alias];
    if (this.container === '') return [name];
    let next = this.container;
    const candidates = [`${next}.${name}`];
    for (let i = next.lastIndexOf('.'); i >= 0; i = next.lastIndexOf('.')) {
      next = next.slice(0, i);
      candidates.push(`${next}.${name}`);
    }
    candidates.push(name);
    return candidates;
  }

  private findAlias(name: string): string | undefined {
    if (this.aliases.size === 0) return undefined;
    const dot = name.indexOf('.');
    if (dot < 0) return this.aliases.get(name);
    const head = this.aliases.get(name.slice(0, dot));
    return head === undefined ? undefined : head + name.slice(dot);
  }

  /** A global identifier by fully qualified name: a variable, a type name, or an object type. */
  lookupGlobalIdent(name: string): VariableDecl | undefined {
    const v = this.variables.get(name);
    if (v) return v;
    const builtin = REGISTRY_TYPES.get(name);
    if (builtin) return { name, type: builtin };
    const t = this.findStructType(name);
    if (t) return { name, type: typeOf(t) };
    if (this.findEnumValue(name) !== undefined) return { name, type: IntType };
    return undefined;
  }

  /** The value of a fully qualified enum constant: google.protobuf.NullValue's, then the provider's. */
  findEnumValue(name: string): bigint | undefined {
    if (name === 'google.protobuf.NullValue.NULL_VALUE') return 0n;
    return this.provider.findEnumValue?.(name);
  }

  /** A type named by a message-construction expression (cel-go's resolveTypeIdent). */
  resolveTypeIdent(name: string): VariableDecl | undefined {
    for (const candidate of this.resolveCandidateNames(name)) {
      const builtin = REGISTRY_TYPES.get(candidate);
      if (builtin) return { name: candidate, type: builtin };
      const t = this.findStructType(candidate);
      if (t) return { name: candidate, type: typeOf(t) };
    }
    return undefined;
  }

  /** A function by name, resolved against the container. */
  lookupFunction(name: string): FunctionDecl | undefined {
    for (const candidate of this.resolveCandidateNames(name)) {
      const fn = this.functions.get(candidate.startsWith('.') ? candidate.slice(1) : candidate);
      if (fn) return fn;
    }
    return undefined;
  }

  /** An object type by name: the provider's, or a well-known protobuf type. */
  findStructType(name: string): Type | undefined {
    const t = this.provider.findStructType(name);
    if (t) return sanitize(t);
    return wellKnownType(name);
  }

  /** A field of an object type, or undefined if there is no such field. */
  findFieldType(structName: string, field: string): FieldType | undefined {
    const f = this.provider.findFieldType(structName, field);
    if (f) return { ...f, type: sanitize(f.type) };
    const wkt = WELL_KNOWN_FIELDS[structName]?.[field];
    return wkt ? { type: wkt } : undefined;
  }
}

/** Replaces well-known protobuf object types anywhere inside a type by the CEL types they denote. */
export function sanitize(t: Type): Type {
  switch (t.kind) {
    case 'struct':
      return wellKnownType(t.name) ?? t;
    case 'list':
      return listOf(sanitize(t.elem));
    case 'map':
      return mapOf(sanitize(t.key), sanitize(t.value));
    case 'type':
      return t.param ? typeOf(sanitize(t.param)) : t;
    case 'opaque':
      return t.params.length ? { kind: 'opaque', name: t.name, params: t.params.map(sanitize) } : t;
    default:
      return t;
  }
}

function sameSignature(a: OverloadDecl, b: OverloadDecl): boolean {
  return (
    !!a.receiver === !!b.receiver &&
    a.params.length === b.params.length &&
    a.params.every((p, i) => isExactType(p, b.params[i]!)) &&
    isExactType(a.result, b.result)
  );
}
