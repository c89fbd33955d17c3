/**
 * Function dispatch for the runtime: overloads with runtime signatures (one kind per parameter),
 * grouped by function name, and the guard that picks an overload from the argument values when the
 * checker did not narrow the call to one (cel-go's dynamic dispatch in common/decls). Library
 * declarations (lib/decls.ts) are converted here into runtime overloads.
 */
import type { Type } from '../check/types.ts';
import type { Library } from '../lib/decls.ts';
import {
  CelError,
  CelMap,
  CelType,
  Duration,
  OpaqueValue,
  Optional,
  Timestamp,
  Uint,
  Unknown,
  type Val,
  typeName,
} from './values.ts';

/**
 * Runtime kinds: i int, u uint, d double, s string, b bytes, z bool, n null, l list, m map (or
 * object), t timestamp, D duration, T type, o optional, `@name` an opaque or object type by name
 * (an OpaqueValue of that type, or for object types a map typed with that name), * anything.
 */
export type Kind = 'i' | 'u' | 'd' | 's' | 'b' | 'z' | 'n' | 'l' | 'm' | 't' | 'D' | 'T' | 'o' | '*' | `@${string}`;

/** The kind of a runtime value ('?' for errors and unknowns, which never match). */
export function kindOf(v: Val): Kind | '?' {
  switch (typeof v) {
    case 'bigint':
      return 'i';
    case 'string':
      return 's';
    case 'number':
      return 'd';
    case 'boolean':
      return 'z';
  }
  if (v === null) return 'n';
  if (Array.isArray(v)) return 'l';
  if (v instanceof CelMap) return 'm';
  if (v instanceof Uint) return 'u';
  if (v instanceof Uint8Array) return 'b';
  if (v instanceof Timestamp) return 't';
  if (v instanceof Duration) return 'D';
  if (v instanceof CelType) return 'T';
  if (v instanceof Optional) return 'o';
  if (v instanceof OpaqueValue) return `@${v.celType.name}`;
  return '?';
}

/** Runtime cost of a call beyond the default of 1 (cel-go runtimecost.go), given args and result. */
export type CallCost = (args: Val[], result: Val) => number;

export interface RtOverload {
  id: string;
  /** Function name (`_+_`, `size`, `math.greatest`). */
  name: string;
  receiver: boolean;
  kinds: Kind[];
  /** Variadic overloads take any number of arguments of kinds[0] (after the receiver, if any). */
  variadic?: boolean;
  impl: (...args: Val[]) => Val;
  /** Non-strict overloads receive error and unknown arguments instead of having them propagated. */
  nonStrict?: boolean;
  cost?: CallCost;
}

/** Overloads by function name. */
export type Registry = Map<string, RtOverload[]>;

export function addOverloads(reg: Registry, ovs: Iterable<RtOverload>): void {
  for (const o of ovs) {
    let list = reg.get(o.name);
    if (!list) reg.set(o.name, (list = []));
    const i = list.findIndex((x) => x.id === o.id);
    if (i >= 0) list[i] = o;
    else list.push(o);
  }
}

export function matchesKinds(o: RtOverload, args: Val[]): boolean {
  const ks = o.kinds;
  if (!o.variadic && ks.length !== args.length) return false;
  for (let i = 0; i < args.length; i++) {
    const k = o.variadic ? ks[Math.min(i, ks.length - 1)]! : ks[i]!;
    if (k !== '*' && kindOf(args[i]!) !== k && !isTypedObject(args[i]!, k)) return false;
  }
  return true;
}

/** An object value (a map typed with an object type name) for an object parameter kind `@name`. */
function isTypedObject(v: Val, k: Kind): boolean {
  return k.charCodeAt(0) === 64 /* @ */ && v instanceof CelMap && v.typeName !== undefined && v.typeName === k.slice(1);
}

/** cel-go's MaybeNoSuchOverload: propagate an error/unknown argument, else name the signature. */
export function noSuchOverload(name: string, args: Val[]): Val {
  let unk: Unknown | undefined;
  for (const a of args) {
    if (a instanceof CelError) return a;
    if (a instanceof Unknown) unk = unk ? unk.merge(a) : a;
  }
  if (unk) return unk;
  return new CelError(`no such overload: ${name}(${args.map(typeName).join(', ')})`);
}

/** The runtime kind a declared parameter type admits. */
export function kindOfType(t: Type): Kind {
  switch (t.kind) {
    case 'bool':
      return 'z';
    case 'int':
      return 'i';
    case 'uint':
      return 'u';
    case 'double':
      return 'd';
    case 'string':
      return 's';
    case 'bytes':
      return 'b';
    case 'null_type':
      return 'n';
    case 'timestamp':
      return 't';
    case 'duration':
      return 'D';
    case 'list':
      return 'l';
    case 'map':
      return 'm';
    case 'struct':
      // Object types: library values (OpaqueValue, matched by type name) or typed maps (matchesKinds).
      return `@${t.name}`;
    case 'type':
      return 'T';
    case 'opaque':
      return t.name === 'optional_type' ? 'o' : `@${t.name}`;
    default:
      return '*';
  }
}

/** Runtime overloads of a declared library (overloads without an implementation are skipped). */
export function libraryOverloads(lib: Library): RtOverload[] {
  const out: RtOverload[] = [];
  for (const f of lib.functions) {
    for (const o of f.overloads) {
      if (!o.impl) continue;
      const cost = o.cost;
      out.push({
        id: o.id,
        name: f.name,
        receiver: !!o.receiver,
        kinds: o.params.map(kindOfType),
        impl: o.impl as (...a: Val[]) => Val,
        cost: cost ? (args: Val[], result: Val) => cost(...args, result) : undefined,
      });
    }
  }
  return out;
}
