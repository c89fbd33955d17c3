/**
 * Key ranges for prefix queries, shared by every backend: a prefix names the half-open range
 * [prefix, prefixEnd(prefix)), as etcd's clientv3.GetPrefixRangeEnd computes it.
 */

/**
 * The smallest key greater than every key that starts with `prefix`: the prefix with its last
 * code unit incremented, dropping trailing U+FFFF units first. Undefined when no such key exists
 * (the empty prefix, or one made only of U+FFFF): the range is then unbounded above.
 *
 * Keys are compared as strings of code units; for the ASCII keys Kubernetes uses this is also the
 * byte order SQLite and etcd compare in.
 */
export function prefixEnd(prefix: string): string | undefined {
  let end = prefix;
  while (end.length > 0) {
    const last = end.charCodeAt(end.length - 1);
    if (last < 0xffff) return end.slice(0, -1) + String.fromCharCode(last + 1);
    end = end.slice(0, -1);
  }
  return undefined;
}

/** Whether `key` lies under `prefix` (the same test the range queries make). */
export function hasPrefix(key: string, prefix: string): boolean {
  return key.startsWith(prefix);
}
