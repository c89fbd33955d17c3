/**
 * Applying a strategic merge patch to an object as kube-apiserver does
 * (strategicpatch.StrategicMergeMapPatchUsingLookupPatchMeta: the server's options, parallel
 * lists merged and unmatched nulls ignored). Follows upstream's algorithm step by step, including
 * the order in which it checks things, so that the same input yields the same result or the same
 * error: `$patch` (replace, delete, merge), `$retainKeys`, `$setElementOrder/<list>`,
 * `$deleteFromPrimitiveList/<list>`, lists merged by merge key or as sets of primitives, nulls
 * deleting fields.
 *
 * Like upstream this mutates the maps and lists it is given; the public entry point hands it
 * copies (index.ts).
 */
import {
  errBadArgType,
  errBadPatchFormatForPrimitiveList,
  errBadPatchFormatForRetainKeys,
  errBadPatchFormatForSetElementOrderList,
  errBadPatchType,
  errNoListOfLists,
  errNoMergeKey,
  unclassified,
} from './errors.ts';
import { goEqual, goHashKey, goKind, goSprint, GoPanic, hasOwn, isMap, setOwn, type GoKind, type JSONMap } from './go-value.ts';
import {
  deleteDirective,
  deleteFromPrimitiveListDirectivePrefix,
  directiveMarker,
  mergeDirective,
  replaceDirective,
  retainKeysDirective,
  retainKeysStrategy,
  setElementOrderDirectivePrefix,
} from './directives.ts';
import type { PatchMetaLookup } from './meta.ts';
import {
  findMapInSliceBasedOnKeyValue,
  normalizeElementOrder,
  partitionMapsByPresentInList,
  partitionPrimitivesByPresentInList,
  validatePatchWithSetOrderList,
} from './order.ts';


type Slice = unknown[];

/** mergeMap: merge `patch` into `original` (both mutated); the result may be either of them. */
export function mergeMap(original: JSONMap | null, patch: JSONMap, schema: PatchMetaLookup): JSONMap {
  if (hasOwn(patch, directiveMarker)) return handleDirectiveInMergeMap(patch[directiveMarker], patch);
  const orig: JSONMap = original ?? {};

  applyRetainKeysDirective(orig, patch);
  mergePatchIntoOriginal(orig, patch, schema);

  for (const pk of Object.keys(patch)) {
    if (!hasOwn(patch, pk)) continue;
    const patchV = patch[pk];
    let k = pk;
    let isDeleteList = false;
    if (pk.startsWith(deleteFromPrimitiveListDirectivePrefix)) {
      const listKey = extractKey(pk, deleteFromPrimitiveListDirectivePrefix);
      // Upstream keeps the directive's own key when nothing follows the slash.
      if (listKey !== '') k = listKey;
      isDeleteList = true;
    }

    if (patchV === null) {
      delete orig[k];
      continue;
    }

    if (!hasOwn(orig, k) || goKind(orig[k]) !== goKind(patchV)) {
      if (!isDeleteList) takePatchValue(orig, k, patchV);
      continue;
    }

    switch (goKind(orig[k])) {
      case 'map': {
        const { schema: sub, meta } = schema.lookupPatchMetadataForStruct(k);
        const strategy = extractRetainKeysPatchStrategy(meta.strategies);
        setOwn(orig, k, mergeMapHandler(orig[k], patchV, sub, strategy));
        break;
      }
      case 'slice': {
        const { schema: sub, meta } = schema.lookupPatchMetadataForSlice(k);
        const strategy = extractRetainKeysPatchStrategy(meta.strategies);
        setOwn(orig, k, mergeSliceHandler(orig[k], patchV, sub, strategy, meta.mergeKey, isDeleteList));
        break;
      }
      default: {
        const [v, keep] = removeDirectives(patchV);
        if (keep) setOwn(orig, k, v);
        else delete orig[k];
      }
    }
  }
  return orig;
}

/** A field absent from the original (or of another type) takes the patch's value, cleaned. */
function takePatchValue(orig: JSONMap, k: string, patchV: unknown): void {
  discardNullValuesFromPatch(patchV);
  const [v, keep] = removeDirectives(patchV);
  if (keep) setOwn(orig, k, v);
  else delete orig[k];
}

function handleDirectiveInMergeMap(directive: unknown, patch: JSONMap): JSONMap {
  if (directive === replaceDirective) {
    delete patch[directiveMarker];
    return patch;
  }
  if (directive === deleteDirective) return {};
  throw errBadPatchType(directive, patch);
}

/** extractKey: the list's own key after `<prefix>/`. */
function extractKey(s: string, prefix: string): string {
  const slash = s.indexOf('/');
  if (slash < 0 || s.slice(0, slash) !== prefix) {
    if (prefix === deleteFromPrimitiveListDirectivePrefix) throw errBadPatchFormatForPrimitiveList();
    throw errBadPatchFormatForSetElementOrderList();
  }
  return s.slice(slash + 1);
}

/**
 * applyRetainKeysDirective: with `$retainKeys` in the patch, drop the original's keys it does not
 * list, after checking that every non-null patch field is listed.
 */
function applyRetainKeysDirective(original: JSONMap, patch: JSONMap): void {
  if (!hasOwn(patch, retainKeysDirective)) return;
  const retainKeys = patch[retainKeysDirective];
  delete patch[retainKeysDirective];
  if (!Array.isArray(retainKeys)) throw errBadPatchFormatForRetainKeys();
  const keep = new Set(retainKeys.map(goHashKey));
  for (const [k, v] of Object.entries(patch)) {
    if (v === null || k.startsWith(deleteFromPrimitiveListDirectivePrefix) || k.startsWith(setElementOrderDirectivePrefix)) {
      continue;
    }
    if (!keep.has(goHashKey(k))) throw errBadPatchFormatForRetainKeys();
  }
  for (const k of Object.keys(original)) if (!keep.has(goHashKey(k))) delete original[k];
}

/**
 * mergePatchIntoOriginal: each `$setElementOrder/<list>` with its patch list: merge them, then order
 * the result by the directive, the patch list and the live list, in that precedence.
 */
function mergePatchIntoOriginal(original: JSONMap, patch: JSONMap, schema: PatchMetaLookup): void {
  for (const key of Object.keys(patch)) {
    if (!key.startsWith(setElementOrderDirectivePrefix) || !hasOwn(patch, key)) continue;
    const setElementOrder = patch[key];
    delete patch[key];
    if (!Array.isArray(setElementOrder)) throw errBadArgType('slice', setElementOrder);
    const originalKey = extractKey(key, setElementOrderDirectivePrefix);

    const foundOriginal = hasOwn(original, originalKey);
    const foundPatch = hasOwn(patch, originalKey);
    const originalList = original[originalKey];
    const patchList = patch[originalKey];
    let originalFieldValue: Slice = [];
    let patchFieldValue: Slice = [];
    if (foundOriginal) {
      if (!Array.isArray(originalList)) throw errBadArgType('slice', originalList);
      originalFieldValue = originalList;
    }
    if (foundPatch) {
      if (!Array.isArray(patchList)) throw errBadArgType('slice', patchList);
      patchFieldValue = patchList;
    }
    const { schema: sub, meta } = schema.lookupPatchMetadataForSlice(originalKey);
    const strategy = extractRetainKeysPatchStrategy(meta.strategies);
    validatePatchWithSetOrderList(patchFieldValue, setElementOrder, meta.mergeKey);

    let merged: Slice;
    if (foundOriginal && !foundPatch) merged = originalFieldValue;
    else if (!foundOriginal && foundPatch) merged = removeDirectives(patchFieldValue)[0] as Slice;
    else if (foundOriginal && foundPatch) {
      merged = mergeSliceHandler(originalList, patchList, sub, strategy, meta.mergeKey, false);
    } else continue;

    const [patchItems, serverOnlyItems] =
      meta.mergeKey === ''
        ? partitionPrimitivesByPresentInList(merged, setElementOrder)
        : partitionMapsByPresentInList(merged, setElementOrder, meta.mergeKey);
    const kind = sliceElementType(originalFieldValue, patchFieldValue);
    setOwn(
      original,
      originalKey,
      normalizeElementOrder(patchItems, serverOnlyItems, setElementOrder, originalFieldValue, meta.mergeKey, kind),
    );
    delete patch[originalKey];
  }
}

/**
 * removeDirectives: the value without `$patch`-marked maps; false when the value itself is one.
 * Maps are cleaned in place, lists copied. Iterative, since patch values may nest 10000 deep.
 */
function removeDirectives(obj: unknown): [unknown, boolean] {
  if (isMap(obj) && hasOwn(obj, directiveMarker)) return [null, false];
  const marked = (v: unknown) => isMap(v) && hasOwn(v, directiveMarker);
  const root = Array.isArray(obj) ? obj.filter((e) => !marked(e)) : obj;
  const todo: unknown[] = [root];
  while (todo.length > 0) {
    const v = todo.pop();
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) {
        const e = v[i];
        if (Array.isArray(e)) v[i] = e.filter((x) => !marked(x));
        todo.push(v[i]);
      }
    } else if (isMap(v)) {
      for (const k of Object.keys(v)) {
        const e = v[k];
        if (marked(e)) delete v[k];
        else {
          if (Array.isArray(e)) setOwn(v, k, e.filter((x) => !marked(x)));
          todo.push(v[k]);
        }
      }
    }
  }
  return [root, true];
}

/** discardNullValuesFromPatch: drop null members of maps, at any depth (list items stay). */
function discardNullValuesFromPatch(patchV: unknown): void {
  const todo: unknown[] = [patchV];
  while (todo.length > 0) {
    const v = todo.pop();
    if (isMap(v)) {
      for (const k of Object.keys(v)) {
        if (v[k] === null) delete v[k];
        else todo.push(v[k]);
      }
    } else if (Array.isArray(v)) {
      for (const e of v) todo.push(e);
    }
  }
}

function mergeMapHandler(original: unknown, patch: unknown, schema: PatchMetaLookup, strategy: string): JSONMap {
  if (!isMap(original)) throw errBadArgType('map', original);
  if (!isMap(patch)) throw errBadArgType('map', patch);
  return strategy !== replaceDirective ? mergeMap(original, patch, schema) : patch;
}

function mergeSliceHandler(
  original: unknown,
  patch: unknown,
  schema: PatchMetaLookup,
  strategy: string,
  mergeKey: string,
  isDeleteList: boolean,
): Slice {
  if (!Array.isArray(original)) throw errBadArgType('slice', original);
  if (!Array.isArray(patch)) throw errBadArgType('slice', patch);
  // Deletion lists are applied whatever the field's strategy is.
  if (strategy === mergeDirective || isDeleteList) return mergeSlice(original, patch, schema, mergeKey, isDeleteList);
  return patch;
}

function mergeSlice(original: Slice, patch: Slice, schema: PatchMetaLookup, mergeKey: string, isDeleteList: boolean): Slice {
  if (original.length === 0 && patch.length === 0) return original;
  const kind = sliceElementType(original, patch);
  let merged: Slice;
  if (kind !== 'map') {
    if (isDeleteList) return deleteFromSlice(original, patch);
    merged = deduplicateScalars([...original, ...patch]);
  } else {
    if (mergeKey === '') throw unclassified(`cannot merge lists without merge key for ${schema.name()}`);
    const live = mergeSliceWithSpecialElements(original, patch, mergeKey);
    patch = live.patch;
    merged = mergeSliceWithoutSpecialElements(live, patch, mergeKey, schema);
    original = live.backing.slice(0, live.len);
  }
  const [patchItems, serverOnlyItems] =
    mergeKey === ''
      ? partitionPrimitivesByPresentInList(merged, patch)
      : partitionMapsByPresentInList(merged, patch, mergeKey);
  return normalizeElementOrder(patchItems, serverOnlyItems, patch, original, mergeKey, kind);
}

/**
 * The live list while a patch list is merged into it, as the Go slice upstream works on: the
 * first `len` items of `backing`, which is the array the caller still holds. Upstream deletes
 * items by shifting the rest left within that array and appends new items into the slots this
 * frees, so the caller's view of the list changes; $setElementOrder orders its result by that
 * view, and reproducing upstream's order needs the same writes. (kube-apiserver's live lists have
 * no spare capacity beyond their length, so further appends go to a new array.)
 */
interface LiveList {
  backing: Slice;
  len: number;
  patch: Slice;
}

/** Applies the list items carrying `$patch` (delete by merge key, replace the list, merge: refused). */
function mergeSliceWithSpecialElements(original: Slice, patch: Slice, mergeKey: string): LiveList {
  const plain: Slice = [];
  const live: LiveList = { backing: original, len: original.length, patch: plain };
  let replace = false;
  for (const v of patch) {
    const m = v as JSONMap;
    if (!hasOwn(m, directiveMarker)) {
      plain.push(v);
      continue;
    }
    const patchType = m[directiveMarker];
    if (patchType === deleteDirective) {
      if (!hasOwn(m, mergeKey)) throw errNoMergeKey(m, mergeKey);
      deleteMatchingEntries(live, mergeKey, m[mergeKey]);
    } else if (patchType === replaceDirective) {
      replace = true;
    } else if (patchType === mergeDirective) {
      throw unclassified('merging lists cannot yet be specified in the patch');
    } else {
      throw errBadPatchType(patchType, m);
    }
  }
  return replace ? { backing: plain, len: plain.length, patch: [] } : live;
}

function deleteMatchingEntries(live: LiveList, mergeKey: string, mergeValue: unknown): void {
  for (;;) {
    const [, i, found] = findMapInSliceBasedOnKeyValue(live.backing.slice(0, live.len), mergeKey, mergeValue);
    if (!found) return;
    for (let j = i; j < live.len - 1; j++) live.backing[j] = live.backing[j + 1];
    live.len--;
  }
}

function mergeSliceWithoutSpecialElements(live: LiveList, patch: Slice, mergeKey: string, schema: PatchMetaLookup): Slice {
  let arr = live.backing;
  let n = live.len;
  let shared = true;
  for (const v of patch) {
    const m = v as JSONMap;
    if (!hasOwn(m, mergeKey)) throw errNoMergeKey(m, mergeKey);
    const [found, i, ok] = findMapInSliceBasedOnKeyValue(arr.slice(0, n), mergeKey, m[mergeKey]);
    if (ok) arr[i] = mergeMap(found!, m, schema);
    else if (shared && n < arr.length) arr[n++] = v;
    else {
      if (shared) {
        arr = arr.slice(0, n);
        shared = false;
      }
      arr.push(v);
      n++;
    }
  }
  return shared ? arr.slice(0, n) : arr;
}

function deleteFromSlice(current: Slice, toDelete: Slice): Slice {
  const del = new Set(toDelete.map(goHashKey));
  return current.filter((v) => !del.has(goHashKey(v)));
}

/** deduplicateScalars: upstream's in-place deduplication, which moves the last item into each hole. */
export function deduplicateScalars(s: Slice): Slice {
  let length = s.length - 1;
  for (let i = 0; i < length; i++) {
    for (let j = i + 1; j <= length; j++) {
      if (goEqual(s[i], s[j])) {
        s[j] = s[length];
        s.length = length;
        length--;
        j--;
      }
    }
  }
  return s;
}

/** sliceElementType: the one element type of all the lists (never a list). */
function sliceElementType(...slices: Slice[]): GoKind {
  let prev: GoKind | undefined;
  for (const s of slices) {
    for (const v of s) {
      const cur = goKind(v);
      if (prev === undefined) {
        // reflect.TypeOf(nil) is a nil Type, whose Kind() upstream then calls.
        if (cur === 'nil') throw new GoPanic('invalid memory address or nil pointer dereference');
        prev = cur;
        if (prev === 'slice') throw errNoListOfLists();
      } else if (prev !== cur) {
        throw unclassified(`list element types are not identical: ${goSprint(slices)}`);
      }
    }
  }
  if (prev === undefined) throw unclassified('no elements in any of the given slices');
  return prev;
}

/** extractRetainKeysPatchStrategy: the strategy other than retainKeys ("" for none). */
function extractRetainKeysPatchStrategy(strategies: readonly string[]): string {
  switch (strategies.length) {
    case 0:
      return '';
    case 1:
      return strategies[0] === retainKeysStrategy ? '' : strategies[0]!;
    case 2:
      if (strategies[0] === retainKeysStrategy) return strategies[1]!;
      if (strategies[1] === retainKeysStrategy) return strategies[0]!;
  }
  throw unclassified(`unexpected patch strategy: [${strategies.join(' ')}]`);
}
