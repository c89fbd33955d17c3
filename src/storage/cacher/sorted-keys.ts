/**
 * The watch cache's ordered index of one resource's live keys (the role upstream's store_btree.go
 * plays): a sorted array of keys beside a Map from key to its current KeyValue, so that a range
 * from a start key is a binary search and a slice, and a point lookup a Map hit. Inserting or
 * removing a key shifts the array (a memmove), which stays cheap at the sizes one resource holds.
 */
import type { KeyValue } from '../store.ts';

export class SortedKeys {
  private readonly keys: string[] = [];
  private readonly values = new Map<string, KeyValue>();

  get size(): number {
    return this.keys.length;
  }

  get(key: string): KeyValue | undefined {
    return this.values.get(key);
  }

  /** Sets a key's current value (inserting the key in order when it is new). */
  set(kv: KeyValue): void {
    if (!this.values.has(kv.key)) this.keys.splice(this.lowerBound(kv.key), 0, kv.key);
    this.values.set(kv.key, kv);
  }

  delete(key: string): void {
    if (!this.values.delete(key)) return;
    this.keys.splice(this.lowerBound(key), 1);
  }

  /** The index of the first key >= `key`. */
  lowerBound(key: string): number {
    let lo = 0;
    let hi = this.keys.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.keys[mid]! < key) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** The index of the first key >= `end` (the array's length for an unbounded range). */
  endIndex(end: string | undefined): number {
    return end === undefined ? this.keys.length : this.lowerBound(end);
  }

  keyAt(i: number): string {
    return this.keys[i]!;
  }

  valueAt(i: number): KeyValue {
    return this.values.get(this.keys[i]!)!;
  }
}
