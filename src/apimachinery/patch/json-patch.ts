/**
 * JSON Patch (RFC 6902) as Kubernetes applies it: with gopkg.in/evanphx/json-patch.v4 (v4.13),
 * including that library's departures from the RFC (negative array indices count from the end,
 * `replace` of a missing object key adds it, `add` without a value adds null, a path need not
 * start with '/', `test` with a null value passes on a missing key) and its error texts.
 *
 * The input document and patch are never mutated; the result shares no structure with them.
 * Work is bounded: each operation walks one path and copies at most one array level; `copy`
 * is limited by the accumulated size of copied values (kube-apiserver's JSONPatchMaxCopyBytes).
 *
 * Known difference: numbers are compared by value in `test` (Go compares their JSON text, so
 * `1` does not equal `1.0` there).
 */
import { goJSON, goQuote } from '../field/govalue.ts';
import { deepCopyJSON } from '../json/copy.ts';

/** One decoded operation: the raw members of the JSON object (Operation is map[string]*RawMessage). */
export type JSONPatchOperation = Readonly<Record<string, unknown>>;

/** A failure with the library's message; kube-apiserver hides apply failures behind a generic 422. */
export class JSONPatchError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'JSONPatchError';
  }
}

/** kube-apiserver's default JSONPatchMaxCopyBytes (3 MiB). */
export const DefaultMaxCopyBytes = 3 * 1024 * 1024;
/** kube-apiserver's maxJSONPatchOperations. */
export const MaxJSONPatchOperations = 10000;

function goKind(v: unknown): string {
  if (typeof v === 'string') return 'string';
  if (typeof v === 'number' || typeof v === 'bigint') return 'number';
  if (typeof v === 'boolean') return 'bool';
  if (Array.isArray(v)) return 'array';
  return 'object';
}

/**
 * jsonpatch.DecodePatch of already-parsed JSON: an array of objects (null is an empty patch,
 * null elements are operations with no members). Throws with Go's unmarshal error text.
 */
export function decodeJSONPatch(patch: unknown): JSONPatchOperation[] {
  if (patch === null) return [];
  if (!Array.isArray(patch)) {
    throw new JSONPatchError(`json: cannot unmarshal ${goKind(patch)} into Go value of type jsonpatch.Patch`);
  }
  let firstError: string | undefined;
  const ops: JSONPatchOperation[] = [];
  for (const e of patch) {
    if (e === null) ops.push({});
    else if (typeof e !== 'object' || Array.isArray(e)) {
      firstError ??= `json: cannot unmarshal ${goKind(e)} into Go value of type jsonpatch.Operation`;
      ops.push({});
    } else ops.push(e as JSONPatchOperation);
  }
  if (firstError !== undefined) throw new JSONPatchError(firstError);
  return ops;
}

type Container = Record<string, unknown> | unknown[];

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function clone<T>(v: T): T {
  return deepCopyJSON(v);
}

/** Sets an own property even for keys such as `__proto__`. */
function setOwn(o: Record<string, unknown>, k: string, v: unknown): void {
  Object.defineProperty(o, k, { value: v, writable: true, enumerable: true, configurable: true });
}

/** strconv.Atoi with its error texts. */
function atoi(s: string): number | Error {
  if (!/^[+-]?\d+$/.test(s)) return new Error(`strconv.Atoi: parsing ${goQuote(s)}: invalid syntax`);
  const n = BigInt(s);
  if (n < -(2n ** 63n) || n >= 2n ** 63n) return new Error(`strconv.Atoi: parsing ${goQuote(s)}: value out of range`);
  return Number(n);
}

function invalidIndex(idx: number): Error {
  return new Error(`Unable to access invalid index: ${idx}: invalid index referenced`);
}

function decodePatchKey(k: string): string {
  return k.replace(/~[01]/g, (m) => (m === '~1' ? '/' : '~'));
}

/** container.get: undefined for a missing object key; errors for bad array indices. */
function get(c: Container, key: string): unknown {
  if (!Array.isArray(c)) return Object.prototype.hasOwnProperty.call(c, key) ? c[key] : undefined;
  let idx = atoi(key);
  if (idx instanceof Error) throw idx;
  if (idx < 0) {
    if (idx < -c.length) throw invalidIndex(idx);
    idx += c.length;
  }
  if (idx >= c.length) throw invalidIndex(idx);
  return c[idx];
}

function set(c: Container, key: string, val: unknown): void {
  if (!Array.isArray(c)) {
    setOwn(c, key, val);
    return;
  }
  let idx = atoi(key);
  if (idx instanceof Error) throw idx;
  if (idx < 0) {
    if (idx < -c.length) throw invalidIndex(idx);
    idx += c.length;
  }
  c[idx] = val;
}

function add(c: Container, key: string, val: unknown): void {
  if (!Array.isArray(c)) {
    setOwn(c, key, val);
    return;
  }
  if (key === '-') {
    c.push(val);
    return;
  }
  let idx = atoi(key);
  if (idx instanceof Error) throw new Error(`value was not a proper array index: '${key}': ${idx.message}`);
  const size = c.length + 1;
  if (idx >= size) throw invalidIndex(idx);
  if (idx < 0) {
    if (idx < -size) throw invalidIndex(idx);
    idx += size;
  }
  c.splice(idx, 0, val);
}

function remove(c: Container, key: string): void {
  if (!Array.isArray(c)) {
    if (!Object.prototype.hasOwnProperty.call(c, key)) {
      throw new Error(`Unable to remove nonexistent key: ${key}: missing value`);
    }
    delete c[key];
    return;
  }
  let idx = atoi(key);
  if (idx instanceof Error) throw idx;
  if (idx >= c.length) throw invalidIndex(idx);
  if (idx < 0) {
    if (idx < -c.length) throw invalidIndex(idx);
    idx += c.length;
  }
  c.splice(idx, 1);
}

/** findObject: the container holding the path's last segment, or undefined. */
function findObject(root: Container, path: string): [Container, string] | undefined {
  const split = path.split('/');
  if (split.length < 2) return undefined;
  let doc: Container = root;
  for (const part of split.slice(1, -1)) {
    let next: unknown;
    try {
      next = get(doc, decodePatchKey(part));
    } catch {
      return undefined;
    }
    if (next === undefined || next === null) return undefined;
    if (Array.isArray(next) || isObject(next)) doc = next;
    else return undefined;
  }
  return [doc, decodePatchKey(split[split.length - 1]!)];
}

/** Operation.Path / From: the member as a string, or the library's error. */
function stringMember(op: JSONPatchOperation, name: 'path' | 'from'): string | Error {
  const v = op[name];
  if (v === undefined || v === null) {
    return new Error(name === 'path' ? 'operation missing path field: missing value' : 'operation, missing from field: missing value');
  }
  if (typeof v !== 'string') return new Error(`json: cannot unmarshal ${goKind(v)} into Go value of type string`);
  return v;
}

function kind(op: JSONPatchOperation): string {
  return typeof op.op === 'string' ? op.op : 'unknown';
}

/**
 * lazyNode.equal on parsed JSON (null members are nil nodes: equal only to null). Pairs still to
 * compare are kept on a stack: a `test` value may nest as deep as the decoder allows.
 */
function equal(a: unknown, b: unknown): boolean {
  const pending: unknown[] = [a, b];
  while (pending.length > 0) {
    const y = pending.pop();
    const x = pending.pop();
    if (x === null || y === null) {
      if (x !== y) return false;
    } else if (Array.isArray(x)) {
      if (!Array.isArray(y) || x.length !== y.length) return false;
      for (let i = 0; i < x.length; i++) pending.push(x[i], y[i]);
    } else if (isObject(x)) {
      if (!isObject(y)) return false;
      const kx = Object.keys(x);
      if (kx.length !== Object.keys(y).length) return false;
      for (const k of kx) {
        if (!Object.prototype.hasOwnProperty.call(y, k)) return false;
        pending.push(x[k], y[k]);
      }
    } else if (Array.isArray(y) || isObject(y) || goJSON(x) !== goJSON(y)) return false;
  }
  return true;
}

export interface ApplyJSONPatchOptions {
  /** AccumulatedCopySizeLimit in bytes; 0 disables. Default: DefaultMaxCopyBytes. */
  maxCopyBytes?: number;
}

/**
 * Patch.Apply: applies the operations in order to a copy of doc and returns it. Throws
 * JSONPatchError with the library's message at the first failing operation.
 */
export function applyJSONPatch(doc: unknown, ops: readonly JSONPatchOperation[], opts: ApplyJSONPatchOptions = {}): unknown {
  const limit = opts.maxCopyBytes ?? DefaultMaxCopyBytes;
  // Go unmarshals the document into a map unless it starts with '['; null gives an empty map.
  if (doc !== null && !Array.isArray(doc) && !isObject(doc)) {
    throw new JSONPatchError(`json: cannot unmarshal ${goKind(doc)} into Go value of type jsonpatch.partialDoc`);
  }
  let root: Container = Array.isArray(doc) || isObject(doc) ? clone(doc) : {};
  let copied = 0;
  for (const op of ops) {
    const hasValue = Object.prototype.hasOwnProperty.call(op, 'value');
    const value = (): unknown => (hasValue ? clone(op.value ?? null) : null);
    try {
      switch (kind(op)) {
        case 'add': {
          const path = stringMember(op, 'path');
          if (path instanceof Error) throw new Error('add operation failed to decode path: missing value');
          const found = findObject(root, path);
          if (!found) throw new Error(`add operation does not apply: doc is missing path: "${path}": missing value`);
          try {
            add(found[0], found[1], value());
          } catch (e) {
            throw new Error(`error in add for path: '${path}': ${(e as Error).message}`);
          }
          break;
        }
        case 'remove': {
          const path = stringMember(op, 'path');
          if (path instanceof Error) throw new Error('remove operation failed to decode path: missing value');
          const found = findObject(root, path);
          if (!found) throw new Error(`remove operation does not apply: doc is missing path: "${path}": missing value`);
          try {
            remove(found[0], found[1]);
          } catch (e) {
            throw new Error(`error in remove for path: '${path}': ${(e as Error).message}`);
          }
          break;
        }
        case 'replace': {
          const path = stringMember(op, 'path');
          if (path instanceof Error) throw new Error(`replace operation failed to decode path: ${path.message}`);
          if (path === '') {
            if (!hasValue) throw new Error('replace operation value must be object or array: %!w(<nil>)');
            const v = value();
            // A nil error wrapped with %w prints as %!w(<nil>).
            if (!Array.isArray(v) && !isObject(v)) throw new Error('replace operation value must be object or array: %!w(<nil>)');
            root = v;
            break;
          }
          const found = findObject(root, path);
          if (!found) throw new Error(`replace operation does not apply: doc is missing path: ${path}: missing value`);
          try {
            get(found[0], found[1]);
          } catch {
            throw new Error(`replace operation does not apply: doc is missing key: ${path}: missing value`);
          }
          try {
            set(found[0], found[1], value());
          } catch (e) {
            throw new Error(`error in remove for path: '${path}': ${(e as Error).message}`);
          }
          break;
        }
        case 'move': {
          const from = stringMember(op, 'from');
          if (from instanceof Error) throw new Error(`move operation failed to decode from: ${from.message}`);
          const src = findObject(root, from);
          if (!src) throw new Error(`move operation does not apply: doc is missing from path: ${from}: missing value`);
          let val: unknown;
          try {
            val = get(src[0], src[1]);
            remove(src[0], src[1]);
          } catch (e) {
            throw new Error(`error in move for path: '${src[1]}': ${(e as Error).message}`);
          }
          const path = stringMember(op, 'path');
          if (path instanceof Error) throw new Error(`move operation failed to decode path: ${path.message}`);
          const dst = findObject(root, path);
          if (!dst) throw new Error(`move operation does not apply: doc is missing destination path: ${path}: missing value`);
          try {
            add(dst[0], dst[1], val ?? null);
          } catch (e) {
            throw new Error(`error in move for path: '${path}': ${(e as Error).message}`);
          }
          break;
        }
        case 'test': {
          const path = stringMember(op, 'path');
          if (path instanceof Error) throw new Error(`test operation failed to decode path: ${path.message}`);
          const want = hasValue ? (op.value ?? null) : undefined;
          if (path === '') {
            if (want !== undefined && equal(root, want)) break;
            throw new Error(`testing value ${path} failed: test failed`);
          }
          const found = findObject(root, path);
          if (!found) throw new Error(`test operation does not apply: is missing path: ${path}: missing value`);
          let val: unknown;
          try {
            val = get(found[0], found[1]);
          } catch (e) {
            throw new Error(`error in test for path: '${path}': ${(e as Error).message}`);
          }
          if (val === undefined || val === null) {
            if (want === undefined || want === null) break;
            throw new Error(`testing value ${path} failed: test failed`);
          }
          if (want === undefined || !equal(val, want)) throw new Error(`testing value ${path} failed: test failed`);
          break;
        }
        case 'copy': {
          const from = stringMember(op, 'from');
          if (from instanceof Error) throw new Error(`copy operation failed to decode from: ${from.message}`);
          const src = findObject(root, from);
          if (!src) throw new Error(`copy operation does not apply: doc is missing from path: ${from}: missing value`);
          let val: unknown;
          try {
            val = get(src[0], src[1]);
          } catch (e) {
            throw new Error(`error in copy for from: '${from}': ${(e as Error).message}`);
          }
          const path = stringMember(op, 'path');
          if (path instanceof Error) throw new Error('copy operation failed to decode path: missing value');
          const dst = findObject(root, path);
          if (!dst) throw new Error(`copy operation does not apply: doc is missing destination path: ${path}: missing value`);
          let copy: unknown = null;
          if (val !== undefined && val !== null) {
            const text = goJSON(val);
            copied += Buffer.byteLength(text, 'utf8');
            copy = clone(val);
          }
          if (limit > 0 && copied > limit) {
            throw new Error(
              `Unable to complete the copy, the accumulated size increase of copy is ${copied}, exceeding the limit ${limit}`,
            );
          }
          try {
            add(dst[0], dst[1], copy);
          } catch (e) {
            throw new Error(`error while adding value during copy: ${(e as Error).message}`);
          }
          break;
        }
        default:
          throw new Error(`Unexpected kind: ${kind(op)}`);
      }
    } catch (e) {
      if (e instanceof JSONPatchError) throw e;
      throw new JSONPatchError((e as Error).message);
    }
  }
  return root;
}
