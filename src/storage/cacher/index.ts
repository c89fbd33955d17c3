/**
 * The watch cache's public face: a Store in front of a Store that serves ranges and watches of
 * the resources it caches from memory (kube-apiserver's cacher, `--watch-cache`).
 */
export { Cacher, openCacher, type CacherOptions } from './cacher.ts';
export { WatcherEvictedError } from './cache-watcher.ts';
export { defaultRingSizing, type RingSizing } from './event-ring.ts';
