/**
 * Equality of custom-resource data as Kubernetes' CEL values define it
 * (k8s.io/apiserver pkg/cel/common/valuesunstructured.go): lists with x-kubernetes-list-type=set
 * compare as sets (order ignored, scalar elements only), list-type=map lists compare by their map
 * keys, objects also compare the fields rules cannot see (preserved unknown fields), and each value
 * compares with its own (left operand's) semantics, recursively.
 *
 * WORKAROUND (engine limitation): the CEL runtime compiles `==` inline with CEL's plain equality,
 * with no hook for data-defined equality. Rule programs are therefore planned from a copy of the
 * checked expression in which `==` / `!=` between non-scalar operands call `@k8s.equals` /
 * `@k8s.not_equals`, runtime functions defined here with the same cost as cel-go's equality.
 * Cost estimation uses the unmodified expression.
 */
import type { CheckedExpr } from '../../cel/check/checker.ts';
import type { RtOverload } from '../../cel/eval/dispatch.ts';
import { actualSize } from '../../cel/eval/planner.ts';
import { CelError, CelMap, Duration, Optional, Timestamp, Uint, type Val, equals, formatValue } from '../../cel/eval/values.ts';
import type { Expr } from '../../cel/syntax/ast.ts';
import { escape } from './escaping.ts';
import { listTypeOf, rawObjectOf } from './values.ts';
import { GoFloat } from '../../apimachinery/field/govalue.ts';

/** A scalar's identity for set membership (Go's raw value as a map key: type and value). */
function setElementKey(v: Val): string | CelError {
  if (Array.isArray(v) || v instanceof CelMap) return new CelError('listSet operations are only supported on lists of scalar values');
  switch (typeof v) {
    case 'string':
      return `s:${v}`;
    case 'bigint':
      return `i:${v}`;
    case 'number':
      return `d:${v}`;
    case 'boolean':
      return `b:${v}`;
  }
  if (v === null) return 'null';
  if (v instanceof Uint) return `u:${v.v}`;
  if (v instanceof Timestamp) return `t:${v.ns}`;
  if (v instanceof Duration) return `D:${v.ns}`;
  if (v instanceof Uint8Array) return `B:${Buffer.from(v).toString('hex')}`;
  return `o:${formatValue(v)}`;
}

/** The set-key of each element of a list, or the first error. */
export function setKeys(l: readonly Val[]): Set<string> | CelError {
  const s = new Set<string>();
  for (const e of l) {
    const k = setElementKey(e);
    if (k instanceof CelError) return k;
    s.add(k);
  }
  return s;
}

/**
 * unstructuredMapList.toMapKey: the key of a list element, read from the raw object under the
 * escaped key names (so a key property whose name needs escaping reads as absent, as upstream).
 * Elements that are not custom-resource objects (map literals) have no key.
 */
function mapListKey(e: Val, keys: readonly string[]): string | undefined {
  const raw = e instanceof CelMap ? rawObjectOf(e) : undefined;
  if (raw === undefined) return undefined;
  const parts: string[] = [];
  for (const k of keys) parts.push(rawKey(raw[escape(k) ?? k]));
  return parts.join('\x00');
}

/** A raw JSON scalar as a Go map key: its Go type and value. */
function rawKey(v: unknown): string {
  switch (typeof v) {
    case 'undefined':
      return 'nil';
    case 'string':
      return `s:${v}`;
    case 'bigint':
      return `i:${v}`;
    case 'number':
      return Number.isInteger(v) ? `i:${v}` : `d:${v}`;
    case 'boolean':
      return `b:${v}`;
  }
  if (v === null) return 'nil';
  if (v instanceof GoFloat) return `d:${v.value}`;
  return `x:${JSON.stringify(v)}`;
}

/** Equality with the left operand's semantics: true, false, or an error value. */
export function k8sEquals(a: Val, b: Val): boolean | CelError {
  if (Array.isArray(a)) {
    if (!Array.isArray(b)) return false;
    const sem = listTypeOf(a);
    if (sem?.kind === 'set') {
      if (a.length !== b.length) return false;
      const ta = setKeys(a);
      if (ta instanceof CelError) return ta;
      const seen = new Set<string>();
      for (const v of b) {
        const k = setElementKey(v);
        if (k instanceof CelError) return k;
        if (!ta.has(k)) return false;
        seen.add(k);
      }
      return seen.size === ta.size;
    }
    if (sem?.kind === 'map') {
      if (a.length !== b.length) return false;
      const byKey = new Map<string, Val>();
      for (const e of a) {
        const k = mapListKey(e, sem.keys);
        if (k !== undefined) byKey.set(k, e);
      }
      const seen = new Set<string>();
      for (const v of b) {
        const k = mapListKey(v, sem.keys);
        if (k === undefined) return false;
        const e = byKey.get(k);
        if (e === undefined) return false;
        const eq = k8sEquals(e, v);
        if (eq !== true) return eq;
        seen.add(k);
      }
      return seen.size === byKey.size;
    }
    if (a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) {
      const eq = k8sEquals(a[i]!, b[i]!);
      if (eq !== true) return eq;
    }
    return true;
  }
  if (a instanceof CelMap) {
    if (!(b instanceof CelMap) || a.size !== b.size) return false;
    for (const [k, v] of a.entries()) {
      const w = b.get(k);
      if (w === undefined) return false;
      const eq = k8sEquals(v, w);
      if (eq !== true) return eq;
    }
    return true;
  }
  if (a instanceof Optional && b instanceof Optional && a.value !== undefined && b.value !== undefined) return k8sEquals(a.value, b.value);
  if (a instanceof CelError) return a;
  if (b instanceof CelError) return b;
  return equals(a, b);
}

/** cel-go's runtime cost of `==` (as the planner charges it inline). */
function equalsCost(a: Val, b: Val): number {
  if (typeof a === 'string' && typeof b === 'string') {
    const m = Math.min(a.length, b.length);
    if (m <= 10) return m === 0 ? 0 : 1;
  } else if (typeof a !== 'string' && typeof a !== 'object') return 1;
  return Math.ceil(Math.min(actualSize(a), actualSize(b)) * 0.1);
}

export const EQUALS_FN = '@k8s.equals';
export const NOT_EQUALS_FN = '@k8s.not_equals';

/** The runtime functions the rewritten expressions call. */
export const equalityOverloads: RtOverload[] = [
  { id: 'k8s_equals', name: EQUALS_FN, receiver: false, kinds: ['*', '*'], impl: (a, b) => k8sEquals(a!, b!), cost: (v) => equalsCost(v[0]!, v[1]!) },
  {
    id: 'k8s_not_equals',
    name: NOT_EQUALS_FN,
    receiver: false,
    kinds: ['*', '*'],
    impl: (a, b) => {
      const r = k8sEquals(a!, b!);
      return typeof r === 'boolean' ? !r : r;
    },
    cost: (v) => equalsCost(v[0]!, v[1]!),
  },
];

/** Operand types whose values may hold set or map lists or objects. */
const DATA_KINDS = new Set(['list', 'map', 'struct', 'dyn']);

/**
 * A copy of checked in which `==` / `!=` with a list, map, object or dyn operand call
 * the data-aware equality; checked itself when there is no such comparison.
 */
export function withDataEquality(checked: CheckedExpr): CheckedExpr {
  let changed = false;
  const nonScalar = (e: Expr) => DATA_KINDS.has(checked.typeMap.get(e.id)?.kind ?? 'dyn');
  const rw = (e: Expr): Expr => {
    switch (e.kind) {
      case 'call': {
        const args = e.args.map(rw);
        const target = e.target ? rw(e.target) : undefined;
        if ((e.fn === '_==_' || e.fn === '_!=_') && !target && args.length === 2 && (nonScalar(e.args[0]!) || nonScalar(e.args[1]!))) {
          changed = true;
          return { ...e, fn: e.fn === '_==_' ? EQUALS_FN : NOT_EQUALS_FN, args };
        }
        return { ...e, args, target };
      }
      case 'select':
        return { ...e, operand: rw(e.operand) };
      case 'list':
        return { ...e, elements: e.elements.map(rw) };
      case 'map':
        return { ...e, entries: e.entries.map((x) => ({ ...x, key: rw(x.key), value: rw(x.value) })) };
      case 'struct':
        return { ...e, fields: e.fields.map((x) => ({ ...x, value: rw(x.value) })) };
      case 'comprehension':
        return {
          ...e,
          iterRange: rw(e.iterRange),
          accuInit: rw(e.accuInit),
          loopCondition: rw(e.loopCondition),
          loopStep: rw(e.loopStep),
          result: rw(e.result),
        };
    }
    return e;
  };
  const expr = rw(checked.expr);
  if (!changed) return checked;
  const referenceMap = new Map(checked.referenceMap);
  return { ...checked, expr, referenceMap };
}
