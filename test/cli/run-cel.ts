/**
 * Runs the `cel` command in this process with its stdout captured: for suites of many cases,
 * where a process per case would cost more than the cases.
 */
import { runCel } from '../../src/cli/cel.ts';

/** `crd-apiserver cel ARGV...`: its exit status and what it printed. */
export async function runCelCaptured(...argv: string[]): Promise<{ code: number; stdout: string }> {
  const chunks: string[] = [];
  const write = process.stdout.write;
  process.stdout.write = ((s: string) => {
    chunks.push(String(s));
    return true;
  }) as typeof process.stdout.write;
  let code: number;
  try {
    code = await runCel(argv);
  } finally {
    process.stdout.write = write;
  }
  return { code, stdout: chunks.join('') };
}
