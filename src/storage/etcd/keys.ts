/**
 * Where the contract's keys live in etcd. The registry names every object under `/registry/...`
 * (kube-apiserver's layout); `--etcd-prefix` (default `/registry`, as upstream) replaces that root,
 * so with the default the etcd keys are exactly kube-apiserver's and with another prefix several
 * servers (or test cases) can share one etcd without seeing each other's objects.
 */

/** The root every contract key is written under. */
export const registryRoot = '/registry';

/** Upstream's default `--etcd-prefix`. */
export const defaultEtcdPrefix = '/registry';

/**
 * The key upstream's compactor keeps the last compacted revision in (storage/etcd3/compact.go),
 * outside any prefix: compaction is global to the etcd cluster, so is its record.
 */
export const compactRevKey = 'compact_rev_key';

export class KeyMapper {
  readonly prefix: string;

  /** `prefix` without a trailing slash (`/registry/` and `/registry` name the same root). */
  constructor(prefix: string = defaultEtcdPrefix) {
    let p = prefix.trim();
    if (!p.startsWith('/')) p = `/${p}`;
    while (p.length > 1 && p.endsWith('/')) p = p.slice(0, -1);
    this.prefix = p === '/' ? '' : p;
  }

  /** The etcd key of a contract key. */
  toEtcd(key: string): string {
    const rest = key.startsWith(registryRoot) ? key.slice(registryRoot.length) : key;
    return this.prefix + rest;
  }

  /** The contract key of an etcd key written through toEtcd. */
  fromEtcd(key: string): string {
    return registryRoot + key.slice(this.prefix.length);
  }
}
