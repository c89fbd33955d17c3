/**
 * The order of a merged list, as strategic merge patch sets it: items the patch names come in the
 * patch's order (or `$setElementOrder`'s), items only the live list has keep their live order, and
 * the two are interleaved by the live positions (k8s.io/apimachinery strategicpatch's
 * normalizeElementOrder and its helpers). Also the checks that tie a `$setElementOrder` list to
 * its patch list, and finding list items by merge key.
 */
import { errBadArgType, errNoMergeKey, unclassified } from './errors.ts';
import { goEqual, goHashKey, goSprint, hasOwn, isMap, type GoKind, type JSONMap } from './go-value.ts';
import { sliceStable } from './go-sort.ts';
import { deleteDirective, directiveMarker, setElementOrderDirectivePrefix } from './directives.ts';

type Slice = unknown[];


function containsDirectiveMarker(item: unknown): boolean {
  return isMap(item) && hasOwn(item, directiveMarker);
}

function mergeKeyValueEqual(left: unknown, right: unknown, mergeKey: string): boolean {
  if (mergeKey === '') return goEqual(left, right);
  if (!isMap(left)) throw errBadArgType('map', left);
  if (!isMap(right)) throw errBadArgType('map', right);
  if (!hasOwn(left, mergeKey)) throw errNoMergeKey(left, mergeKey);
  if (!hasOwn(right, mergeKey)) throw errNoMergeKey(right, mergeKey);
  return goEqual(left[mergeKey], right[mergeKey]);
}

/**
 * validatePatchWithSetOrderList: the patch list's items (deletions aside) appear in the
 * $setElementOrder list, in the same relative order.
 */
export function validatePatchWithSetOrderList(patchList: Slice, setOrderList: Slice, mergeKey: string): void {
  if (setOrderList.length === 0 || patchList.length === 0) return;
  const nonDeleteList = mergeKey !== '' ? extractToDeleteItems(patchList)[0] : patchList;
  let patchIndex = 0;
  let setOrderIndex = 0;
  while (patchIndex < nonDeleteList.length && setOrderIndex < setOrderList.length) {
    if (containsDirectiveMarker(nonDeleteList[patchIndex])) {
      patchIndex++;
      continue;
    }
    if (mergeKeyValueEqual(nonDeleteList[patchIndex], setOrderList[setOrderIndex], mergeKey)) patchIndex++;
    setOrderIndex++;
  }
  if (patchIndex < nonDeleteList.length && setOrderIndex >= setOrderList.length) {
    throw unclassified(
      `The order in patch list:\n${goSprint(patchList)}\n doesn't match ${setElementOrderDirectivePrefix} list:\n${goSprint(setOrderList)}\n`,
    );
  }
}

export function partitionPrimitivesByPresentInList(original: Slice, partitionBy: Slice): [Slice, Slice] {
  const inPatch = new Set(partitionBy.map(goHashKey));
  const patch: Slice = [];
  const serverOnly: Slice = [];
  for (const v of original) (inPatch.has(goHashKey(v)) ? patch : serverOnly).push(v);
  return [patch, serverOnly];
}

export function partitionMapsByPresentInList(original: Slice, partitionBy: Slice, mergeKey: string): [Slice, Slice] {
  const patch: Slice = [];
  const serverOnly: Slice = [];
  for (const v of original) {
    if (!isMap(v)) throw errBadArgType('map', v);
    if (!hasOwn(v, mergeKey)) throw errNoMergeKey(v, mergeKey);
    const [, , found] = findMapInSliceBasedOnKeyValue(partitionBy, mergeKey, v[mergeKey]);
    (found ? patch : serverOnly).push(v);
  }
  return [patch, serverOnly];
}

export function findMapInSliceBasedOnKeyValue(m: Slice, key: string, value: unknown): [JSONMap | undefined, number, boolean] {
  for (let i = 0; i < m.length; i++) {
    const v = m[i];
    if (!isMap(v)) throw unclassified(`value for key ${i} is not a map`);
    if (hasOwn(v, key) && goEqual(v[key], value)) return [v, i, true];
  }
  return [undefined, 0, false];
}

/** normalizeElementOrder: sort each part by its order list, then interleave them. */
export function normalizeElementOrder(
  patch: Slice,
  serverOnly: Slice,
  patchOrder: Slice,
  serverOrder: Slice,
  mergeKey: string,
  kind: GoKind,
): Slice {
  const p = normalizeSliceOrder(patch, patchOrder, mergeKey, kind);
  const s = normalizeSliceOrder(serverOnly, serverOrder, mergeKey, kind);
  return mergeSortedSlice(s, p, serverOrder, mergeKey, kind);
}

/** mergeSortedSlice: insert each of `left` into `right` before the first item it precedes in serverOrder. */
function mergeSortedSlice(left: Slice, right: Slice, serverOrder: Slice, mergeKey: string, kind: GoKind): Slice {
  const out: Slice = [];
  let i = 0;
  let j = 0;
  const size = left.length + right.length;
  for (let k = 0; k < size; k++) {
    if (i >= left.length && j < right.length) out.push(right[j++]);
    else if (j >= right.length && i < left.length) out.push(left[i++]);
    else {
      const li = index(serverOrder, left[i], mergeKey, kind);
      const ri = index(serverOrder, right[j], mergeKey, kind);
      if (li >= 0 && ri >= 0 && li < ri) out.push(left[i++]);
      else out.push(right[j++]);
    }
  }
  return out;
}

/** index: the position of the item (by merge key for maps) in `l`, or -1. */
function index(l: Slice, val: unknown, mergeKey: string, kind: GoKind): number {
  const get = kind === 'map' ? (item: unknown) => (isMap(item) && hasOwn(item, mergeKey) ? item[mergeKey] : null) : (item: unknown) => item;
  const want = get(val);
  for (let i = 0; i < l.length; i++) if (goEqual(want, get(l[i]))) return i;
  return -1;
}

function extractToDeleteItems(l: Slice): [Slice, Slice] {
  const nonDelete: Slice = [];
  const toDelete: Slice = [];
  for (const v of l) {
    if (!isMap(v)) throw errBadArgType('map', v);
    (hasOwn(v, directiveMarker) && v[directiveMarker] === deleteDirective ? toDelete : nonDelete).push(v);
  }
  return [nonDelete, toDelete];
}

function validateMergeKeyInLists(mergeKey: string, ...lists: Slice[]): void {
  for (const list of lists) {
    for (const item of list) {
      if (!isMap(item)) throw errBadArgType('map', item);
      if (!hasOwn(item, mergeKey)) throw errNoMergeKey(item, mergeKey);
    }
  }
}

/** normalizeSliceOrder: `toSort` ordered by `order`, deletions last. */
function normalizeSliceOrder(toSort: Slice, order: Slice, mergeKey: string, kind: GoKind): Slice {
  let items = toSort;
  let toDelete: Slice = [];
  if (kind === 'map') {
    validateMergeKeyInLists(mergeKey, items, order);
    [items, toDelete] = extractToDeleteItems(items);
  } else {
    items = [...items];
  }
  sliceStable(items, (a, b) => {
    const ia = index(order, a, mergeKey, kind);
    if (ia >= 0) {
      const ib = index(order, b, mergeKey, kind);
      if (ib >= 0) return ia < ib;
    }
    return true;
  });
  return [...items, ...toDelete];
}
