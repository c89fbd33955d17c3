/** The audit log's rotation, as lumberjack names, keeps and removes backups. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { backupTimestamp, RotatingFile } from './rotating-file.ts';

const MB = 1024 * 1024;

test('backup names: <name>-<UTC 2006-01-02T15-04-05.000><ext>', () => {
  assert.equal(backupTimestamp(new Date(Date.UTC(2026, 11, 1, 18, 5, 22, 7))), '2026-12-01T18-05-22.007');
});

test('a write past maxSize moves the file to a backup and starts a new one with its mode', () => {
  const dir = mkdtempSync(join(tmpdir(), 'rotate-'));
  try {
    let t = Date.UTC(2026, 0, 2, 3, 4, 5, 0);
    const path = join(dir, 'audit.log');
    writeFileSync(path, '');
    chmodSync(path, 0o640);
    const f = new RotatingFile(path, { maxSize: 1, maxBackups: 2, now: () => new Date((t += 1000)) });
    const line = 'x'.repeat(400 * 1024) + '\n';
    f.write(line);
    f.write(line);
    assert.deepEqual(readdirSync(dir), ['audit.log'], 'two lines fit in 1 MB');
    f.write(line);
    assert.deepEqual(readdirSync(dir).sort(), ['audit-2026-01-02T03-04-06.000.log', 'audit.log']);
    assert.equal(readFileSync(join(dir, 'audit-2026-01-02T03-04-06.000.log'), 'utf8'), line + line);
    assert.equal(readFileSync(path, 'utf8'), line);
    assert.equal(statSync(path).mode & 0o777, 0o640, 'the new file keeps the old mode');
    for (let i = 0; i < 6; i++) f.write(line);
    // Two more rotations and a third: only the two newest backups are kept.
    const backups = readdirSync(dir).filter((n) => n !== 'audit.log').sort();
    assert.deepEqual(backups, ['audit-2026-01-02T03-04-08.000.log', 'audit-2026-01-02T03-04-09.000.log']);
    assert.throws(() => f.write('y'.repeat(MB + 1)), { message: `write length ${MB + 1} exceeds maximum file size ${MB}` });
    f.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('an existing file is appended to, or rotated first when the write would not fit; old backups go by maxAge', () => {
  const dir = mkdtempSync(join(tmpdir(), 'rotate-'));
  try {
    const path = join(dir, 'a.log');
    writeFileSync(path, 'old\n');
    writeFileSync(join(dir, 'a-2020-01-01T00-00-00.000.log'), 'ancient\n');
    writeFileSync(join(dir, 'unrelated.log'), '');
    const now = Date.UTC(2026, 5, 1);
    const f = new RotatingFile(path, { maxSize: 1, maxAge: 30, now: () => new Date(now) });
    f.write('new\n');
    assert.equal(readFileSync(path, 'utf8'), 'old\nnew\n');
    assert.deepEqual(readdirSync(dir).sort(), ['a.log', 'unrelated.log'], 'the backup older than 30 days is removed');
    f.write('z'.repeat(MB - 2));
    assert.deepEqual(readdirSync(dir).sort(), ['a-2026-06-01T00-00-00.000.log', 'a.log', 'unrelated.log']);
    f.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
