/**
 * The audit log file with size-based rotation, as gopkg.in/natefinch/lumberjack.v2 (which
 * kube-apiserver's `--audit-log-maxsize`, `--audit-log-maxbackup` and `--audit-log-maxage` set)
 * keeps it: a write that would take the file past maxSize megabytes (100 when 0) first renames it to
 * `<name>-<UTC 2006-01-02T15-04-05.000><ext>` and starts a new one with the old one's mode; then
 * backups beyond maxBackups (0: all kept) and older than maxAge days (0: no limit) are removed.
 * Writes are synchronous, so a line is in the file before the response it describes is sent.
 */
import { closeSync, mkdirSync, openSync, readdirSync, renameSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { basename, dirname, extname, join } from 'node:path';

const megabyte = 1024 * 1024;
const defaultMaxSizeMB = 100;

export interface RotationOptions {
  /** Megabytes before rotation (0: lumberjack's 100). */
  maxSize?: number;
  /** Backups kept (0: all). */
  maxBackups?: number;
  /** Days a backup is kept (0: no limit). */
  maxAge?: number;
  /** The clock (tests). */
  now?: () => Date;
}

/** lumberjack's backup time format, `2006-01-02T15-04-05.000`, in UTC. */
export function backupTimestamp(t: Date): string {
  return t.toISOString().slice(0, 23).replace(/:/g, '-');
}

function parseBackupTimestamp(s: string): number | undefined {
  const m = /^(\d{4}-\d{2}-\d{2})T(\d{2})-(\d{2})-(\d{2})\.(\d{3})$/.exec(s);
  if (!m) return undefined;
  const t = Date.parse(`${m[1]}T${m[2]}:${m[3]}:${m[4]}.${m[5]}Z`);
  return Number.isNaN(t) ? undefined : t;
}

export class RotatingFile {
  private fd: number | undefined;
  private size = 0;
  private readonly max: number;
  private readonly now: () => Date;

  constructor(
    readonly path: string,
    private readonly opts: RotationOptions = {},
  ) {
    this.max = (opts.maxSize && opts.maxSize > 0 ? opts.maxSize : defaultMaxSizeMB) * megabyte;
    this.now = opts.now ?? (() => new Date());
  }

  /** Appends `data`; throws (and writes nothing) when it alone is larger than the maximum size. */
  write(data: string | Buffer): void {
    const buf = typeof data === 'string' ? Buffer.from(data) : data;
    if (buf.length > this.max) throw new Error(`write length ${buf.length} exceeds maximum file size ${this.max}`);
    if (this.fd === undefined) this.openExistingOrNew(buf.length);
    else if (this.size + buf.length > this.max) this.rotate();
    writeSync(this.fd!, buf);
    this.size += buf.length;
  }

  close(): void {
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
  }

  private openExistingOrNew(writeLen: number): void {
    this.mill();
    let size: number;
    try {
      size = statSync(this.path).size;
    } catch {
      this.openNew();
      return;
    }
    if (size + writeLen >= this.max) {
      this.rotate();
      return;
    }
    this.fd = openSync(this.path, 'a', 0o600);
    this.size = size;
  }

  private rotate(): void {
    this.close();
    this.openNew();
    this.mill();
  }

  /** Moves the current file to its backup name (keeping its mode) and opens an empty one. */
  private openNew(): void {
    mkdirSync(dirname(this.path), { recursive: true, mode: 0o755 });
    let mode = 0o600;
    try {
      mode = statSync(this.path).mode & 0o777;
      renameSync(this.path, this.backupName());
    } catch (e) {
      if ((e as { code?: string }).code !== 'ENOENT') throw e;
    }
    this.fd = openSync(this.path, 'w', mode);
    this.size = 0;
  }

  private backupName(): string {
    const ext = extname(this.path);
    const prefix = basename(this.path, ext);
    return join(dirname(this.path), `${prefix}-${backupTimestamp(this.now())}${ext}`);
  }

  /** The backups, newest first. */
  backups(): Array<{ name: string; time: number }> {
    const ext = extname(this.path);
    const prefix = `${basename(this.path, ext)}-`;
    let names: string[];
    try {
      names = readdirSync(dirname(this.path));
    } catch {
      return [];
    }
    const out: Array<{ name: string; time: number }> = [];
    for (const n of names) {
      for (const suffix of [ext, `${ext}.gz`]) {
        if (!n.startsWith(prefix) || !n.endsWith(suffix) || n.length <= prefix.length + suffix.length) continue;
        const time = parseBackupTimestamp(n.slice(prefix.length, n.length - suffix.length));
        if (time !== undefined) out.push({ name: n, time });
        break;
      }
    }
    return out.sort((a, b) => b.time - a.time);
  }

  /** millRunOnce: removes the backups past maxBackups and those older than maxAge days. */
  private mill(): void {
    const { maxBackups = 0, maxAge = 0 } = this.opts;
    if (maxBackups === 0 && maxAge === 0) return;
    let files = this.backups();
    const remove: string[] = [];
    if (maxBackups > 0 && maxBackups < files.length) {
      const kept = new Set<string>();
      const keep: typeof files = [];
      for (const f of files) {
        const key = f.name.replace(/\.gz$/, '');
        if (!kept.has(key)) kept.add(key);
        if (kept.size > maxBackups) remove.push(f.name);
        else keep.push(f);
      }
      files = keep;
    }
    if (maxAge > 0) {
      const cutoff = this.now().getTime() - maxAge * 24 * 3600 * 1000;
      for (const f of files) if (f.time < cutoff) remove.push(f.name);
    }
    for (const n of remove) {
      try {
        unlinkSync(join(dirname(this.path), n));
      } catch {
        // Already gone.
      }
    }
  }
}
