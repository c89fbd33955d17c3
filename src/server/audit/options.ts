/**
 * The audit flags of `serve` (k8s.io/apiserver `pkg/server/options/audit.go`): `--audit-policy-file`,
 * `--audit-log-path` (`-` for standard output), `--audit-log-maxsize`, `--audit-log-maxbackup`,
 * `--audit-log-maxage` and `--audit-log-format`, validated with upstream's messages, and the filter
 * they make: the policy loaded at start (a bad one refuses to start), the log file created 0600 in
 * a 0700 directory, rotated as lumberjack rotates it.
 */
import { closeSync, mkdirSync, openSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { audited, logBackend, logFormats, type LogFormat } from './audit-log.ts';
import { loadPolicyFile } from './policy.ts';
import { RotatingFile } from './rotating-file.ts';

export interface AuditOptions {
  policyFile?: string;
  path?: string;
  maxAge: number;
  maxBackups: number;
  maxSize: number;
  format: string;
}

export const defaultAuditOptions = (): AuditOptions => ({ maxAge: 0, maxBackups: 0, maxSize: 0, format: 'json' });

/** pflag's IntVar, for the decimal integers these flags take. */
export function parseIntFlag(flag: string, value: string): number {
  if (!/^[+-]?\d+$/.test(value)) throw new Error(`invalid argument ${JSON.stringify(value)} for "${flag}" flag: strconv.ParseInt: parsing ${JSON.stringify(value)}: invalid syntax`);
  return Number(value);
}

/** Sets one audit flag; false when `flag` is not one. */
export function setAuditFlag(o: AuditOptions, flag: string, value: () => string): boolean {
  switch (flag) {
    case '--audit-policy-file':
      o.policyFile = value();
      return true;
    case '--audit-log-path':
      o.path = value();
      return true;
    case '--audit-log-maxage':
      o.maxAge = parseIntFlag(flag, value());
      return true;
    case '--audit-log-maxbackup':
      o.maxBackups = parseIntFlag(flag, value());
      return true;
    case '--audit-log-maxsize':
      o.maxSize = parseIntFlag(flag, value());
      return true;
    case '--audit-log-format':
      o.format = value();
      return true;
  }
  return false;
}

/** AuditLogOptions.Validate (only when the log backend is enabled, as upstream). */
export function validateAuditOptions(o: AuditOptions): string[] {
  if (o.path === undefined || o.path === '') return [];
  const errs: string[] = [];
  if (!(logFormats as readonly string[]).includes(o.format)) errs.push(`invalid audit log format ${o.format}, allowed formats are ${JSON.stringify(logFormats.join(','))}`);
  if (o.maxAge < 0) errs.push(`--audit-log-maxage ${o.maxAge} can't be a negative number`);
  if (o.maxBackups < 0) errs.push(`--audit-log-maxbackup ${o.maxBackups} can't be a negative number`);
  if (o.maxSize < 0) errs.push(`--audit-log-maxsize ${o.maxSize} can't be a negative number`);
  return errs;
}

type Handler = (req: IncomingMessage, res: ServerResponse) => Promise<void>;

/**
 * The audit filter the options make, or undefined when they make none (no log path, or no
 * policy: upstream records no events without a policy). Throws with upstream's message when the
 * policy cannot be loaded or the log cannot be created; `note` hears what is worth saying.
 */
export function auditFilter(o: AuditOptions, note: (msg: string) => void): ((h: Handler) => Handler) | undefined {
  const policy = o.policyFile !== undefined && o.policyFile !== '' ? loadPolicyFile(o.policyFile, note) : undefined;
  if (o.path === undefined || o.path === '') {
    if (policy) note('an audit policy without --audit-log-path: no events are recorded');
    return undefined;
  }
  if (!policy) {
    note('No audit policy file provided, no events will be recorded for log backend');
    return undefined;
  }
  let out: { write(line: string): void };
  if (o.path === '-') {
    out = { write: (line) => void process.stdout.write(line) };
  } else {
    const path = resolve(o.path);
    try {
      mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
      closeSync(openSync(path, 'a', 0o600));
    } catch (e) {
      throw new Error(`ensureLogFile: ${e instanceof Error ? e.message : String(e)}`);
    }
    out = new RotatingFile(path, { maxSize: o.maxSize, maxBackups: o.maxBackups, maxAge: o.maxAge });
  }
  const sink = logBackend(out, o.format as LogFormat, (e) => note(`audit log: ${e instanceof Error ? e.message : String(e)}`));
  return (h) => audited(h, policy, sink);
}
