/**
 * Registry benchmark (`npm run bench:store`): what the generic store costs on top of durable
 * storage, measured against a floor in the same run.
 *
 * 1. creates/s through the registry (custom-resource strategy, 64 concurrent creators, SQLite
 *    store) against raw better-sqlite3 durable single-row inserts with the same pragmas (WAL,
 *    synchronous=FULL, one INSERT per transaction);
 * 2. listing 10,000 objects in pages of 500 (limit/continue);
 * 3. one write delivered to 100 watchers (latency until the last one has it).
 *
 * Each is run several times; medians are printed, then the line
 * `creates/s ratio to raw SQLite inserts: X`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { configureConnection, openSqliteStore } from '../src/storage/sqlite/index.ts';
import { CustomResourceStrategy } from '../src/registry/customresource/strategy.ts';
import { GenericStore } from '../src/registry/generic-store.ts';
import type { Obj, WatchEvent } from '../src/registry/rest.ts';
import type { Store } from '../src/storage/store.ts';

const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const CREATES = Number(process.env.BENCH_CREATES ?? 3000);
const CONCURRENCY = 64;
const LIST_OBJECTS = 10_000;
const PAGE = 500;
const WATCHERS = 100;

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

function tempDir(): string {
  return mkdtempSync(join(tmpdir(), 'bench-store-'));
}

function sampleObject(i: number): Obj {
  return {
    apiVersion: 'bench.example.com/v1',
    kind: 'Widget',
    metadata: { name: `w-${i}`, labels: { app: 'bench', shard: String(i % 16) }, annotations: { note: 'x'.repeat(64) } },
    spec: { replicas: i % 5, color: i % 2 ? 'red' : 'blue', tags: ['a', 'b', 'c'], nested: { depth: { value: i } } },
  };
}

function registryFor(store: Store): GenericStore {
  const strategy = new CustomResourceStrategy({
    group: 'bench.example.com',
    version: 'v1',
    kind: 'Widget',
    namespaced: true,
    subresources: { status: {} },
  });
  return new GenericStore({
    store,
    strategy,
    info: { group: 'bench.example.com', version: 'v1', resource: 'widgets', kind: 'Widget', listKind: 'WidgetList', namespaced: true },
  });
}

/** Raw floor: one durable INSERT per transaction, same pragmas as the store. */
function rawInsertsPerSecond(n: number): number {
  const dir = tempDir();
  const db = new Database(join(dir, 'raw.sqlite'));
  try {
    configureConnection(db);
    db.exec('CREATE TABLE kv (key TEXT PRIMARY KEY, value TEXT NOT NULL)');
    const insert = db.prepare('INSERT INTO kv (key, value) VALUES (?, ?)');
    const value = JSON.stringify(sampleObject(0));
    const start = performance.now();
    for (let i = 0; i < n; i++) insert.run(`/registry/bench/${i}`, value);
    return n / ((performance.now() - start) / 1000);
  } finally {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function registryCreatesPerSecond(n: number): Promise<number> {
  const dir = tempDir();
  const store = await openSqliteStore({ path: join(dir, 'db.sqlite'), compactIntervalMs: 0 });
  try {
    const reg = registryFor(store);
    let next = 0;
    const start = performance.now();
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        for (let i = next++; i < n; i = next++) await reg.create('bench', sampleObject(i), {});
      }),
    );
    return n / ((performance.now() - start) / 1000);
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function listMs(reg: GenericStore): Promise<number> {
  const start = performance.now();
  let cont: string | undefined;
  let total = 0;
  do {
    const page = await reg.list('bench', { limit: PAGE, continue: cont });
    total += page.items.length;
    cont = page.metadata.continue;
  } while (cont);
  if (total !== LIST_OBJECTS) throw new Error(`listed ${total}, expected ${LIST_OBJECTS}`);
  return performance.now() - start;
}

async function fanOutMs(reg: GenericStore, store: Store, round: number): Promise<number> {
  const rv = String(await store.currentRevision());
  let remaining = WATCHERS;
  let done!: () => void;
  const all = new Promise<void>((r) => (done = r));
  const watchers = await Promise.all(
    Array.from({ length: WATCHERS }, () =>
      reg.watch('fan', { resourceVersion: rv }, (ev: WatchEvent) => {
        if (ev.type === 'ADDED' && --remaining === 0) done();
      }),
    ),
  );
  const start = performance.now();
  await reg.create('fan', sampleObject(1_000_000 + round), {});
  await all;
  const ms = performance.now() - start;
  for (const w of watchers) w.stop();
  return ms;
}

async function main(): Promise<void> {
  console.log(`registry bench: ${RUNS} runs, ${CREATES} creates, ${CONCURRENCY} concurrent creators`);
  const raw: number[] = [];
  const reg: number[] = [];
  for (let r = 0; r < RUNS; r++) {
    raw.push(rawInsertsPerSecond(CREATES));
    reg.push(await registryCreatesPerSecond(CREATES));
    console.log(`  run ${r + 1}: raw ${raw[r]!.toFixed(0)} inserts/s, registry ${reg[r]!.toFixed(0)} creates/s`);
  }

  const dir = tempDir();
  const store = await openSqliteStore({ path: join(dir, 'db.sqlite'), compactIntervalMs: 0 });
  const lists: number[] = [];
  const fans: number[] = [];
  try {
    const r = registryFor(store);
    let next = 0;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        for (let i = next++; i < LIST_OBJECTS; i = next++) await r.create('bench', sampleObject(i), {});
      }),
    );
    for (let i = 0; i < RUNS; i++) lists.push(await listMs(r));
    for (let i = 0; i < RUNS; i++) fans.push(await fanOutMs(r, store, i));
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }

  const rawMed = median(raw);
  const regMed = median(reg);
  console.log(`raw SQLite durable inserts/s (median): ${rawMed.toFixed(0)}`);
  console.log(`registry creates/s (median): ${regMed.toFixed(0)}`);
  console.log(`list ${LIST_OBJECTS} objects in pages of ${PAGE} (median): ${median(lists).toFixed(1)} ms`);
  console.log(`one write to ${WATCHERS} watchers (median): ${median(fans).toFixed(2)} ms`);
  console.log(`creates/s ratio to raw SQLite inserts: ${(regMed / rawMed).toFixed(2)}`);
}

await main();
