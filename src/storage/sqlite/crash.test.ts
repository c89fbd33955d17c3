/**
 * Crash safety of the SQLite store: a child process creates objects under load and prints each
 * acknowledged one; the test SIGKILLs it mid-run, reopens the file, and checks that every
 * acknowledged write survived with the revision it was acknowledged at, and that acknowledged
 * revisions strictly increase.
 */

import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openSqliteStore } from './store.ts';

const dir = mkdtempSync(join(tmpdir(), 'crd-apiserver-crash-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const writerScript = fileURLToPath(new URL('./crash-writer.ts', import.meta.url));
const projectRoot = fileURLToPath(new URL('../../../', import.meta.url));

/** Run the writer until `minAcks` writes were acknowledged (and then a little longer), then SIGKILL it. */
async function runAndKill(path: string, run: number, minAcks: number): Promise<{ key: string; rev: number }[]> {
  const child = spawn(process.execPath, ['--import', 'tsx', writerScript, path, String(run)], {
    cwd: projectRoot,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const acks: { key: string; rev: number }[] = [];
  let buffered = '';
  const exited = new Promise<NodeJS.Signals | null>((resolve) => child.on('exit', (_code, signal) => resolve(signal)));
  await new Promise<void>((resolve, reject) => {
    const deadline = setTimeout(() => reject(new Error(`only ${acks.length} writes acknowledged in time`)), 20_000);
    let killTimer: NodeJS.Timeout | undefined;
    child.stdout!.setEncoding('utf8');
    child.stdout!.on('data', (chunk: string) => {
      buffered += chunk;
      const lines = buffered.split('\n');
      buffered = lines.pop()!; // a line cut by the kill was never complete: not an acknowledgement
      for (const line of lines) {
        if (line === 'ready') continue;
        const [key, rev] = line.split(' ');
        acks.push({ key: key!, rev: Number(rev) });
      }
      if (acks.length >= minAcks && !killTimer) {
        // Kill at an arbitrary point while writes are in flight.
        killTimer = setTimeout(() => {
          child.kill('SIGKILL');
          clearTimeout(deadline);
          resolve();
        }, 50 + Math.floor(Math.random() * 100));
      }
    });
    child.on('exit', () => {
      if (!killTimer) {
        clearTimeout(deadline);
        reject(new Error('writer exited before it was killed'));
      }
    });
  });
  assert.equal(await exited, 'SIGKILL');
  return acks;
}

test('every acknowledged create survives SIGKILL, with strictly increasing revisions', { timeout: 60_000 }, async (t) => {
  const path = join(dir, 'crash.db');
  let total = 0;
  // Two rounds: the second reopens a file recovered from the first crash and keeps writing.
  for (let round = 0; round < 2; round++) {
    const acks = await runAndKill(path, round, 3000);
    total += acks.length;
    t.diagnostic(`round ${round}: ${acks.length} writes acknowledged before SIGKILL`);
    for (let i = 1; i < acks.length; i++) {
      assert.ok(acks[i]!.rev > acks[i - 1]!.rev, `revision ${acks[i]!.rev} after ${acks[i - 1]!.rev}`);
    }
    const store = await openSqliteStore({ path, compactIntervalMs: 0 });
    try {
      const current = await store.currentRevision();
      assert.ok(current >= acks[acks.length - 1]!.rev);
      const listed = await store.range('/registry/crash.test/');
      const byKey = new Map(listed.items.map((kv) => [kv.key, kv.modRevision]));
      const lost = acks.filter((a) => byKey.get(a.key) !== a.rev).length;
      assert.equal(lost, 0, `${lost} of ${acks.length} acknowledged writes lost or changed`);
      for (const a of acks) assert.equal(byKey.get(a.key), a.rev, `${a.key} at ${a.rev}`);
      assert.ok(listed.count >= total, `${listed.count} stored, ${total} acknowledged over all rounds`);
      const revs = listed.items.map((kv) => kv.modRevision).sort((x, y) => x - y);
      assert.equal(new Set(revs).size, revs.length, 'no revision is shared by two keys');
      const after = await store.create('/registry/crash.test/after', '{}');
      assert.equal(after.modRevision, current + 1, 'the revision sequence continues after recovery');
      await store.delete(after.key, after.modRevision);
    } finally {
      await store.close();
    }
  }
});
