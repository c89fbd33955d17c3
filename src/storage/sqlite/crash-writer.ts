/**
 * The child process of crash.test.ts: opens the SQLite store at argv[2]
 * (keys named after the run in argv[3]) and creates objects from
 * 32 concurrent writers until it is killed, printing "<key> <revision>" on stdout for each create
 * once its promise has resolved (that is, once the store acknowledged it as durable). Writes to a
 * pipe are synchronous on Linux, so every printed line left the process before the next write.
 */

import { openSqliteStore } from './store.ts';

const [path, run = '0'] = process.argv.slice(2);
if (!path) throw new Error('usage: crash-writer.ts <database file> [run name]');
const store = await openSqliteStore({ path, compactIntervalMs: 0 });
let next = 0;

async function writer(): Promise<never> {
  for (;;) {
    const key = `/registry/crash.test/objects/default/run${run}-obj-${next++}`;
    const kv = await store.create(key, JSON.stringify({ metadata: { name: key }, spec: { n: next } }));
    process.stdout.write(`${kv.key} ${kv.modRevision}\n`);
  }
}

process.stdout.write('ready\n');
await Promise.all(Array.from({ length: 32 }, () => writer()));
