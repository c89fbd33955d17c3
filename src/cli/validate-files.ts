/**
 * What the offline commands read before anything is judged: the manifest files under the paths
 * given (directories recursively: .yaml, .yml, .json; a file named explicitly whatever its name),
 * and the errors for input that cannot be used. Kept apart from the readers and the stores so
 * that a command's first steps (and the coordinator of parallel validation) load nothing else.
 */
import { readdirSync, statSync } from 'node:fs';
import { extname, join } from 'node:path';

/** Input that cannot be read: a file (`index` undefined) or one document of it, and where. */
export interface InputProblem {
  file: string;
  index?: number;
  line: number;
  column: number;
  message: string;
}

/** A problem that makes input unusable (unreadable file, malformed YAML). */
export class InputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InputError';
  }
}

const manifestExtensions = new Set(['.yaml', '.yml', '.json']);

/** Every manifest file under the given paths, in a stable order. */
export function collectFiles(paths: string[]): string[] {
  const out: string[] = [];
  const walk = (p: string, explicit: boolean) => {
    let st;
    try {
      st = statSync(p);
    } catch (e) {
      throw new InputError(`cannot read ${p}: ${(e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file or directory' : (e as Error).message}`);
    }
    if (st.isDirectory()) {
      for (const name of readdirSync(p).sort()) {
        if (name.startsWith('.')) continue;
        walk(join(p, name), false);
      }
    } else if (explicit || manifestExtensions.has(extname(p).toLowerCase())) {
      out.push(p);
    }
  };
  for (const p of paths) walk(p, true);
  return out;
}
