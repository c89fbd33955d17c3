/**
 * The real command line for tests: `node --import tsx src/cli/main.ts <args>` run from the
 * repository's root, as a user runs `crd-apiserver`, waiting for it to exit.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

const root = new URL('../..', import.meta.url).pathname;

export interface CLIResult {
  /** The exit code (null when a signal ended it). */
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the CLI with `args` (the command first: `validate`, `cel`, ...). */
export function runCLI(...args: string[]): CLIResult {
  const r = spawnSync(process.execPath, ['--import', 'tsx', join(root, 'src/cli/main.ts'), ...args], { cwd: root, encoding: 'utf8' });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}
