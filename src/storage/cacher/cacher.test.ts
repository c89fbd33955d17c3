/**
 * The watch cache over a real SQLite store: the Store contract suite with every prefix cached
 * (each `/registry/<segment>/` as one resource), then what the cache adds: catch-up from the
 * store's watch, consistent reads after a write, ranges at older revisions rebuilt from the window,
 * the window's expiry as CompactedError (the registry's 410), and watchers that fall behind closed.
 */
import { describe, test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runStoreContract } from '../contract.ts';
import { openSqliteStore } from '../sqlite/index.ts';
import { CompactedError, type Store, type WatchEvent } from '../store.ts';
import { openCacher, type Cacher, type CacherOptions } from './cacher.ts';
import { WatcherEvictedError } from './cache-watcher.ts';

const dir = mkdtempSync(join(tmpdir(), 'crd-apiserver-cacher-'));
after(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;

/** Every `/registry/<segment>/` prefix is a cached resource. */
function firstSegment(prefix: string): string | undefined {
  const m = /^\/registry\/[^/]+\//.exec(prefix);
  return m ? m[0] : undefined;
}

async function open(opts: CacherOptions = {}): Promise<{ raw: Store; cacher: Cacher }> {
  const raw = await openSqliteStore({ path: join(dir, `c-${++n}.db`), compactIntervalMs: 0 });
  const cacher = await openCacher(raw, { resourceOf: firstSegment, progress: () => raw.currentRevision(), ...opts });
  return { raw, cacher };
}

runStoreContract('watch cache over sqlite', async () => {
  const { cacher } = await open();
  return { store: cacher, cleanup: () => cacher.close() };
});
