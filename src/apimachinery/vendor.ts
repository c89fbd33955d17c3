/**
 * Where the package's data files are: `vendor/` beside `package.json`, found by walking up from
 * this module. A fixed relative path (`../../../vendor`) holds only for one layout; the same code
 * runs from `src/` through tsx, from tsc's `dist/`, and from the bin's packed script in
 * `dist/bin/`, each at another depth, and from `node_modules/crd-apiserver/` once installed.
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

let root: string | undefined;

/** The package's root directory: the nearest directory above this module holding both `package.json` and `vendor/`. */
export function packageRoot(): string {
  if (root !== undefined) return root;
  for (let dir = dirname(fileURLToPath(import.meta.url)); ; ) {
    if (existsSync(join(dir, 'package.json')) && existsSync(join(dir, 'vendor'))) return (root = dir);
    const up = dirname(dir);
    if (up === dir) throw new Error(`no package root (package.json beside vendor/) above ${fileURLToPath(import.meta.url)}`);
    dir = up;
  }
}

/**
 * A file under the package's `vendor/` (`k8s-rbac/bootstrap-policy.json`), as a file URL. Asked
 * for when the file is read, not as a module loads: the console's browser bundle loads some of
 * the modules that read vendor/ files, and has no package root to look for.
 */
export function vendorURL(path: string): URL {
  return pathToFileURL(join(packageRoot(), 'vendor', path));
}
