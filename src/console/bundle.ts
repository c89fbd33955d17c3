/**
 * The console's browser bundle: where it lives and how it is built. `npm run build` builds it
 * into dist/console/web-dist (beside the compiled server, for the published bin); a server run from
 * sources builds it on first use into src/console/web-dist (ignored by git), again whenever a
 * source under src/ is newer than the bundle. The build is esbuild's (a development dependency):
 * every entry an IIFE script (so the playground also runs from a file:// URL, where module
 * scripts are refused), asset names carrying their content hash, the HTML pages written with
 * those names. The Node built-ins that the shared layers name (node:crypto's createHash for
 * cache keys, the Buffer global) are replaced by browser shims (web/shims/).
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative } from 'node:path';
import { packageRoot } from '../apimachinery/index.ts';

/**
 * This module's folder: src/console/ from sources, dist/console/ in tsc's output. In the bin it
 * is part of the packed script dist/bin/crd-apiserver.cjs, and the bundle it serves is still the
 * one `npm run build` wrote to dist/console/.
 */
const here = /^bundle\.[jt]s$/.test(basename(import.meta.filename)) ? import.meta.dirname : join(packageRoot(), 'dist', 'console');

/** The browser sources (present in a checkout, absent from the published package). */
export const webSources = join(here, 'web');

/** Where the built bundle is served from: beside this module. */
export const bundleDir = join(here, 'web-dist');

/** Where a page's per-response CSP nonce goes; the server replaces it (a page opened from disk keeps it, harmlessly). */
export const NONCE_PLACEHOLDER = '__CSP_NONCE__';

/** The pages the bundle holds, each an HTML file naming its script and style sheet. */
const pages = [
  { html: 'index.html', entry: 'console', title: 'crd-apiserver console' },
  { html: 'cel.html', entry: 'playground', title: 'CEL playground' },
] as const;

/** The newest modification time under dir (the sources a bundle depends on). */
function newest(dir: string): number {
  let t = 0;
  for (const name of readdirSync(dir)) {
    if (name.startsWith('web-dist') || name === 'node_modules') continue;
    const p = join(dir, name);
    const s = statSync(p);
    t = Math.max(t, s.isDirectory() ? newest(p) : s.mtimeMs);
  }
  return t;
}

/** The page's HTML: its script and style sheet by their hashed names, nothing inline (the CSP allows none). */
function pageHTML(title: string, script: string, style: string | undefined): string {
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    // The server puts each response's style nonce here (the editor's style sheets need one).
    `<meta name="csp-nonce" content="${NONCE_PLACEHOLDER}">`,
    '<link rel="icon" href="data:,">',
    `<title>${title}</title>`,
    style ? `<link rel="stylesheet" href="${style}">` : '',
    `<script defer src="${script}"></script>`,
    '</head>',
    '<body>',
    '<noscript>This page needs JavaScript.</noscript>',
    '<div id="app"></div>',
    '</body>',
    '</html>',
    '',
  ]
    .filter((l) => l !== '')
    .join('\n');
}

/**
 * Builds the bundle into `out` (written beside it, then renamed into place, so that a concurrent
 * reader never sees half a bundle). Throws when esbuild is not installed.
 */
export async function buildBundle(out: string = bundleDir, opts: { minify?: boolean } = {}): Promise<void> {
  const esbuild = await import('esbuild');
  const src = webSources;
  const tmp = `${out}.tmp-${process.pid}-${Date.now()}`;
  const result = await esbuild.build({
    entryPoints: pages.map((p) => ({ in: join(src, 'ui', `${p.entry}.ts`), out: p.entry })),
    bundle: true,
    format: 'iife',
    platform: 'browser',
    target: ['chrome110', 'firefox110', 'safari16'],
    outdir: join(tmp, 'assets'),
    entryNames: '[name]-[hash]',
    assetNames: '[name]-[hash]',
    minify: opts.minify ?? true,
    sourcemap: false,
    metafile: true,
    legalComments: 'eof',
    logLevel: 'silent',
    inject: [join(src, 'shims', 'buffer.ts')],
    define: { 'process.env.NODE_ENV': '"production"', 'import.meta.url': '"file:///console/bundle.js"' },
    plugins: [
      {
        name: 'node-shims',
        setup(b) {
          b.onResolve({ filter: /^node:(crypto|fs|path|url)$/ }, () => ({ path: join(src, 'shims', 'node.ts') }));
          b.onResolve({ filter: /^node:/ }, (a) => ({ errors: [{ text: `${a.path} cannot run in a browser (imported by ${a.importer})` }] }));
        },
      },
    ],
  });
  const outputs = Object.entries(result.metafile.outputs);
  for (const p of pages) {
    const js = outputs.find(([, o]) => o.entryPoint !== undefined && basename(o.entryPoint) === `${p.entry}.ts`)?.[0];
    if (js === undefined) throw new Error(`console bundle: no output for ${p.entry}`);
    const css = outputs.find(([, o]) => o.entryPoint !== undefined && basename(o.entryPoint) === `${p.entry}.ts`)?.[1].cssBundle;
    const rel = (f: string) => relative(tmp, join(process.cwd(), f)).split('\\').join('/');
    writeFileSync(join(tmp, p.html), pageHTML(p.title, rel(js), css ? rel(css) : undefined));
  }
  mkdirSync(dirname(out), { recursive: true });
  const old = `${out}.old-${process.pid}-${Date.now()}`;
  try {
    if (existsSync(out)) renameSync(out, old);
    renameSync(tmp, out);
  } catch (e) {
    // Another process put its build in place between the two renames: the same sources, so use it.
    if (!existsSync(join(out, 'index.html'))) throw e;
    rmSync(tmp, { recursive: true, force: true });
  }
  rmSync(old, { recursive: true, force: true });
}

let pending: Promise<string> | undefined;
/** When the sources were last found no newer than the bundle (checked at most once a second). */
let freshAt = 0;

/**
 * The directory to serve the bundle from, built first when this is a checkout whose bundle is
 * missing or older than the sources; rejects with a message saying what to do when it cannot be
 * had (no bundle and no esbuild).
 */
export function ensureBundle(): Promise<string> {
  if (pending) return pending;
  const built = existsSync(join(bundleDir, 'index.html'));
  const fromSources = existsSync(join(webSources, 'ui', 'console.ts'));
  if (built && (!fromSources || Date.now() - freshAt < 1000)) return Promise.resolve(bundleDir);
  if (built && statSync(join(bundleDir, 'index.html')).mtimeMs >= newest(join(here, '..'))) {
    freshAt = Date.now();
    return Promise.resolve(bundleDir);
  }
  if (!fromSources) return Promise.reject(new Error(`the console's bundle is missing from ${bundleDir}: build it with "npm run build"`));
  pending = buildBundle().then(
    () => bundleDir,
    (e: unknown) => {
      const why = e instanceof Error ? e.message : String(e);
      throw new Error(`the console's bundle could not be built (${why.split('\n')[0]}): run "npm install" and "npm run build"`);
    },
  );
  // A later request checks the sources' times again (an edited source is rebuilt).
  void pending.then(
    () => (pending = undefined),
    () => (pending = undefined),
  );
  return pending;
}

/** The bundle's file for a request path under /console/ (`undefined` when there is none). */
export function bundleFile(dir: string, rel: string): { path: string; body: Buffer } | undefined {
  const path = join(dir, rel);
  if (relative(dir, path).startsWith('..')) return undefined;
  try {
    if (!statSync(path).isFile()) return undefined;
    return { path, body: readFileSync(path) };
  } catch {
    return undefined;
  }
}
