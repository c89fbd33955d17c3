/**
 * The watch cache's ordered index of one resource's live keys (the role upstream's store_btree.go
 * plays): the keys in order, in chunks of at most CHUNK_MAX, beside a Map from key to its current
 * KeyValue, so that a range from a start key is two binary searches and a walk, and a point lookup
 * a Map hit.
 *
 * Chunks, because one flat sorted array shifts every later key on each insert: at 60,000 keys with
 * random names (generateName) that was 7-48 us per new key, and even appending cost 1.5 us as the
 * array regrew; a chunk shifts at most CHUNK_MAX keys. Positions stay global indices (the range
 * code counts with them): each chunk's first index is kept in `starts`, recomputed from the first
 * chunk a change touched when a position is next asked for.
 */
import type { KeyValue } from '../store.ts';

/** A chunk is split in two when it grows past this many keys. */
const CHUNK_MAX = 1024;

export class SortedKeys {
  private readonly chunks: string[][] = [];
  /** starts[c] is the global index of chunks[c][0], valid for c < `valid`. */
  private readonly starts: number[] = [];
  private valid = 0;
  private count = 0;
  private readonly values = new Map<string, KeyValue>();
  // The chunk keyAt/valueAt found last: sequential reads stay within it.
  private lastChunk = -1;

  get size(): number {
    return this.count;
  }

  get(key: string): KeyValue | undefined {
    return this.values.get(key);
  }

  /** Sets a key's current value (inserting the key in order when it is new). */
  set(kv: KeyValue): void {
    const key = kv.key;
    if (!this.values.has(key)) this.insert(key);
    this.values.set(key, kv);
  }

  delete(key: string): void {
    if (!this.values.delete(key)) return;
    const c = this.chunkFor(key);
    const chunk = this.chunks[c]!;
    chunk.splice(lowerBound(chunk, key), 1);
    this.count--;
    if (chunk.length > 0) return this.touched(c);
    this.chunks.splice(c, 1);
    this.starts.splice(c, 1);
    // The chunk that takes its place starts where it started, which is not yet in `starts`.
    this.touched(c - 1);
  }

  /** The index of the first key >= `key`. */
  lowerBound(key: string): number {
    if (this.count === 0) return 0;
    const c = this.chunkFor(key);
    const chunk = this.chunks[c]!;
    const j = lowerBound(chunk, key);
    return this.start(c) + j;
  }

  /** The index of the first key >= `end` (the number of keys for an unbounded range). */
  endIndex(end: string | undefined): number {
    return end === undefined ? this.count : this.lowerBound(end);
  }

  keyAt(i: number): string {
    const c = this.locate(i);
    return this.chunks[c]![i - this.starts[c]!]!;
  }

  valueAt(i: number): KeyValue {
    return this.values.get(this.keyAt(i))!;
  }

  private insert(key: string): void {
    this.count++;
    if (this.chunks.length === 0) {
      this.chunks.push([key]);
      this.starts.push(0);
      this.touched(0);
      return;
    }
    const c = this.chunkFor(key);
    const chunk = this.chunks[c]!;
    // Appending past the last key is the common case (ordered names): no search, no shift.
    if (key > chunk[chunk.length - 1]!) chunk.push(key);
    else chunk.splice(lowerBound(chunk, key), 0, key);
    if (chunk.length > CHUNK_MAX) {
      const half = chunk.length >>> 1;
      this.chunks.splice(c + 1, 0, chunk.splice(half));
      this.starts.splice(c + 1, 0, 0);
    }
    this.touched(c);
  }

  /** The chunk a key belongs in: the last one whose first key is <= key (the first chunk for smaller keys). */
  private chunkFor(key: string): number {
    let lo = 0;
    let hi = this.chunks.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1;
      if (this.chunks[mid]![0]! <= key) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  /** Chunk c changed size (c = -1: the first chunk changed place): the starts after c are stale. */
  private touched(c: number): void {
    this.valid = Math.min(this.valid, c + 1, this.chunks.length);
    this.lastChunk = -1;
  }

  private start(c: number): number {
    if (c >= this.valid) {
      let i = this.valid;
      let at = i === 0 ? 0 : this.starts[i - 1]! + this.chunks[i - 1]!.length;
      for (; i < this.chunks.length; i++) {
        this.starts[i] = at;
        at += this.chunks[i]!.length;
      }
      this.valid = this.chunks.length;
    }
    return this.starts[c]!;
  }

  /** The chunk holding global index i (0 <= i < size). */
  private locate(i: number): number {
    const last = this.lastChunk;
    if (last >= 0) {
      const s = this.starts[last]!;
      if (i >= s && i < s + this.chunks[last]!.length) return last;
      const next = last + 1;
      if (next < this.chunks.length && i >= s + this.chunks[last]!.length && i < s + this.chunks[last]!.length + this.chunks[next]!.length) {
        return (this.lastChunk = next);
      }
    }
    this.start(this.chunks.length - 1);
    let lo = 0;
    let hi = this.chunks.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1;
      if (this.starts[mid]! <= i) lo = mid;
      else hi = mid - 1;
    }
    return (this.lastChunk = lo);
  }
}

/** The index of the first element of a sorted array >= key. */
function lowerBound(keys: string[], key: string): number {
  let lo = 0;
  let hi = keys.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (keys[mid]! < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
