/**
 * Guards the CEL package's public face (index.ts): it lists its names (no `export *`, so nothing
 * internal leaks out by accident), every name it lists is defined, and no module outside src/cel/
 * (src/, bench/, scripts/, test/) imports any other file of the package.
 */
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const celDir = dirname(fileURLToPath(import.meta.url));
const root = resolve(celDir, '..', '..');
const INDEX = join(celDir, 'index.ts');

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    if (name === 'node_modules' || name.startsWith('.')) return [];
    if (statSync(p).isDirectory()) return sources(p);
    return /\.(ts|mts|js|mjs)$/.test(name) ? [p] : [];
  });
}

/** Relative module specifiers of static imports and exports, and of dynamic imports. */
function specifiers(text: string): string[] {
  const out: string[] = [];
  const re = /(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s+)['"]([^'"]+)['"]/gm;
  for (let m = re.exec(text); m; m = re.exec(text)) if (m[1]!.startsWith('.')) out.push(m[1]!);
  return out;
}

test('index.ts lists its exports by name', () => {
  const text = readFileSync(INDEX, 'utf8');
  assert.deepEqual(text.match(/export\s*\*.*$/gm) ?? [], []);
});

test('every name index.ts exports is defined', async () => {
  const face = (await import('./index.ts')) as Record<string, unknown>;
  const undefinedNames = Object.entries(face)
    .filter(([, v]) => v === undefined)
    .map(([k]) => k);
  assert.deepEqual(undefinedNames, []);
  // The centre of the face, and the names other layers are known to use.
  for (const name of ['Env', 'Program', 'kubernetesEnvOptions', 'CelMap', 'CelError', 'compileRegex', 'parseJSONToCel', 'runConformance']) {
    assert.ok(name in face, `index.ts exports ${name}`);
  }
});

test('modules outside src/cel/ import the CEL package only through index.ts', () => {
  const reached: string[] = [];
  const files = ['src', 'bench', 'scripts', 'test'].flatMap((d) => {
    try {
      return sources(join(root, d));
    } catch {
      return [];
    }
  });
  assert.ok(files.length > 50, `found ${files.length} source files under ${root}`);
  for (const file of files) {
    if (file.startsWith(celDir + '/')) continue;
    for (const spec of specifiers(readFileSync(file, 'utf8'))) {
      const target = resolve(dirname(file), spec);
      if (target.startsWith(celDir + '/') && target !== INDEX) reached.push(`${relative(root, file)} imports ${relative(root, target)}`);
    }
  }
  assert.deepEqual(reached, []);
});
