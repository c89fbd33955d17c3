/**
 * The layer map of DESIGN.md, enforced: a module under src/<layer>/ imports only its own layer
 * and the layers below it, and another layer only through that layer's public face, its
 * `index.ts` (tests may also use a layer's `testing.ts` fixtures).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const src = resolve(import.meta.dirname, '../src');

/** Bottom first: each layer may import the ones before it. */
const layers = ['cel', 'apimachinery', 'schema', 'storage', 'registry', 'auth', 'admission', 'console', 'server', 'cli'];

function files(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) files(p, out);
    else if (name.endsWith('.ts')) out.push(p);
  }
  return out;
}

/** Every module specifier a file imports or re-exports (static and dynamic). */
function specifiers(text: string): string[] {
  const out: string[] = [];
  const re = /(?:^|[\s;])(?:import|export)\s[^'"`;]*?from\s*'([^']+)'|import\(\s*'([^']+)'\s*\)|^import\s+'([^']+)'/gm;
  for (let m = re.exec(text); m; m = re.exec(text)) out.push((m[1] ?? m[2] ?? m[3])!);
  return out;
}

function layerOf(file: string): string | undefined {
  const rel = relative(src, file);
  if (rel.startsWith('..')) return undefined;
  return rel.split('/')[0];
}

/** The import violations of the tree: upward imports, and imports of another layer's internals. */
export function violations(): string[] {
  const out: string[] = [];
  for (const file of files(src)) {
    const from = layerOf(file)!;
    const isTest = file.endsWith('.test.ts');
    for (const spec of specifiers(readFileSync(file, 'utf8'))) {
      if (!spec.startsWith('.')) continue;
      const target = resolve(dirname(file), spec);
      const to = layerOf(target);
      if (to === undefined || to === from) continue;
      const where = `${relative(src, file)} imports ${relative(src, target)}`;
      if (!layers.includes(from) || !layers.includes(to)) {
        out.push(`${where}: ${layers.includes(from) ? to : from} is not a layer of the map`);
        continue;
      }
      if (layers.indexOf(to) > layers.indexOf(from)) out.push(`${where}: ${to} is above ${from}`);
      const inner = relative(join(src, to), target);
      const fixture = isTest && (inner === 'testing.ts' || inner.startsWith('testing/'));
      if (inner !== 'index.ts' && !fixture) out.push(`${where}: not ${to}'s public face (index.ts)`);
    }
  }
  return out;
}

test('every import runs down the layer map, through each layer\'s index.ts', () => {
  assert.deepEqual(violations(), []);
});

test('the check sees an upward import and an import of internals', () => {
  // Read the check on a line it must refuse: the guard itself must be able to fail.
  assert.deepEqual(specifiers("import { x } from '../registry/rest.ts';\nexport { y } from './z.ts';\nconst m = await import('../cli/main.ts');"), [
    '../registry/rest.ts',
    './z.ts',
    '../cli/main.ts',
  ]);
});
