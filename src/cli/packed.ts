/**
 * Runs one of the bin's packed scripts (scripts/build-bin.ts writes them to dist/bin/: the
 * command, `crd-apiserver.cjs`, and the validate worker, `validate-worker.cjs`) with V8's code
 * cache of it when the build left one. Compiling the command's code was a large part of a short
 * run's time (`validate` on one document); a cache lets V8 take the compiled functions as they
 * were at the end of the build's warm-up run instead of parsing and compiling them again.
 *
 * A script's first line names its build (`// build <sha256 of the rest>`) and its cache is
 * `<name>.<build>.cache`, so a cache only meets the script it was made from: V8 checks its own
 * version and flags (and rejects a cache made by another node, which then only costs the
 * compilation) but of the source only its length. With CRD_APISERVER_WRITE_CODE_CACHE set (the
 * build's warm-up run), the cache is written when the process exits, or when the script calls
 * writeCodeCache(): a validate worker does after its first file, as the pool ends its threads
 * without an exit of their own.
 *
 * Imports only Node's built-ins: it is copied beside the packed scripts.
 */
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire, Module } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Script } from 'node:vm';
import { threadId } from 'node:worker_threads';

/** Where the running script finds the cache writer (the script and this module are packed apart). */
const writeHook = Symbol.for('crd-apiserver.writeCodeCache');

/** In the build's warm-up run, writes the running script's code cache now; elsewhere nothing. */
export function writeCodeCache(): void {
  (globalThis as Record<symbol, (() => void) | undefined>)[writeHook]?.();
}

export function runPacked(here: string, name: string): void {
  const dir = dirname(fileURLToPath(here));
  const file = join(dir, `${name}.cjs`);
  let source = readFileSync(file, 'utf8');
  const build = /^\/\/ build ([0-9a-f]{64})\n/.exec(source)?.[1];
  const cacheFile = build === undefined ? undefined : join(dir, `${name}.${build}.cache`);
  let cachedData: Buffer | undefined;
  try {
    if (cacheFile !== undefined && process.env.CRD_APISERVER_WRITE_CODE_CACHE === undefined) cachedData = readFileSync(cacheFile);
  } catch {
    // No cache: the script is compiled as any other.
  }
  source = (Module as unknown as { wrap(s: string): string }).wrap(source);
  const script = new Script(source, { filename: file, cachedData });
  const fn = script.runInThisContext() as (exports: object, require: NodeRequire, module: object, filename: string, dirname: string) => void;
  if (cacheFile !== undefined && process.env.CRD_APISERVER_WRITE_CODE_CACHE !== undefined) {
    let written = false;
    const write = (): void => {
      if (written) return;
      written = true;
      // Each thread writes its own file first: the pool's threads make the same cache at once.
      const tmp = `${cacheFile}.${process.pid}.${threadId}.tmp`;
      writeFileSync(tmp, script.createCachedData());
      renameSync(tmp, cacheFile);
    };
    (globalThis as Record<symbol, unknown>)[writeHook] = write;
    process.once('exit', write);
  }
  const module = { exports: {} };
  fn.call(module.exports, module.exports, createRequire(file), module, file, dir);
}
