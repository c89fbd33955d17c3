/**
 * What the console's browser suites share: headless Chromium (Debian's `chromium` package, driven
 * by playwright-core; no browser download), one real `serve` process per suite (HTTPS, as `serve`
 * runs by default) with the Gateway API and cert-manager CRDs loaded, reached as a user reaches it
 * from a browser, through `kubectl proxy` with the kubeconfig's admin credentials; the console
 * bundle built once before the pages load, and a
 * screenshot of the page for every failing test, kept under test/e2e/.console-artifacts/ (ignored
 * by git). A page also records what the browser logged, so a suite can assert that nothing was
 * refused by the content security policy.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TestContext } from 'node:test';
import { chromium, type Browser, type Page } from 'playwright-core';
import { readYAMLDocuments } from '../../src/apimachinery/index.ts';
import { ensureBundle } from '../../src/console/index.ts';
import { startServer, type ServerProcess } from './harness.ts';

const root = new URL('../..', import.meta.url).pathname;
export const chromiumPath = '/usr/bin/chromium';
export const artifacts = join(root, 'test/e2e/.console-artifacts');

/** Why the browser suites skip, or undefined when Chromium is there. */
export const skipReason = existsSync(chromiumPath) ? undefined : `${chromiumPath} is missing: install it with "apt-get install chromium" (.ci/run does)`;

export async function launch(): Promise<Browser> {
  return chromium.launch({ executablePath: chromiumPath, headless: true, args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'] });
}

/** A page that remembers the browser's console messages and page errors. */
export async function newPage(browser: Browser): Promise<{ page: Page; logs: string[] }> {
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  const logs: string[] = [];
  page.on('console', (m) => logs.push(`${m.type()}: ${m.text()}`));
  page.on('pageerror', (e) => logs.push(`pageerror: ${e.message}`));
  return { page, logs };
}

/** Runs a test body; on failure, screenshots the page as <artifacts>/<test name>.png first. */
export async function withScreenshot(t: TestContext, page: Page, fn: () => Promise<void>): Promise<void> {
  try {
    await fn();
  } catch (e) {
    mkdirSync(artifacts, { recursive: true });
    const file = join(artifacts, `${t.name.replace(/[^A-Za-z0-9._-]+/g, '_')}.png`);
    await page.screenshot({ path: file, fullPage: true }).catch(() => undefined);
    throw Object.assign(e as Error, { message: `${(e as Error).message}\n(screenshot: ${file})` });
  }
}

/** The real CRD bundles the console is shown with. */
export const crdFiles = [join(root, 'testdata/crds/gateway-api/crds/standard-install.yaml'), join(root, 'testdata/crds/cert-manager/cert-manager.crds.yaml')];

export function crdDocuments(): Record<string, unknown>[] {
  return crdFiles.flatMap((f) => readYAMLDocuments(readFileSync(f, 'utf8')) as Record<string, unknown>[]).filter((d) => d?.kind === 'CustomResourceDefinition');
}

/** JSON request to the server; returns the status and the parsed body. */
export async function api(s: ServerProcess, method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
  // Straight to the server (over TLS as the kubeconfig's admin), not through the browser's proxy.
  const d = (s as ServerProcess & { direct?: ServerProcess }).direct ?? s;
  const res = await d.fetch(d.url + path, { method, headers: { 'Content-Type': 'application/json', Accept: 'application/json' }, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // not JSON
  }
  return { status: res.status, body: parsed };
}

/**
 * `kubectl proxy` on a free loopback port in front of `s`: the server as `url` over plain HTTP,
 * each request carrying the kubeconfig's credentials. Stopping it stops the proxy, then `s`.
 */
async function proxied(s: ServerProcess): Promise<ServerProcess & { direct: ServerProcess }> {
  const proc = spawn('/usr/bin/kubectl', ['--kubeconfig', s.kubeconfig, 'proxy', '--port=0', '--address=127.0.0.1'], { env: { ...process.env, HOME: s.dir }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`kubectl proxy did not start:\n${out}`)), 20000);
    const onData = (c: Buffer) => {
      out += c.toString();
      const m = /Starting to serve on (\S+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(`http://${m[1]}`);
      }
    };
    proc.stdout!.on('data', onData);
    proc.stderr!.on('data', onData);
    proc.on('exit', (code) => reject(new Error(`kubectl proxy exited with ${code}:\n${out}`)));
  });
  return {
    ...s,
    direct: s,
    url,
    fetch,
    tls: undefined,
    agent: undefined,
    async stop(o) {
      if (proc.exitCode === null) {
        const exited = new Promise((r) => proc.once('exit', r));
        proc.kill('SIGTERM');
        await exited;
      }
      return s.stop(o);
    },
  };
}

/** A server with the Gateway API and cert-manager CRDs created and Established, and the bundle built. */
export async function consoleServer(): Promise<ServerProcess> {
  const [started, bundled] = await Promise.allSettled([startServer(), ensureBundle()]);
  if (started.status === 'rejected') throw started.reason;
  if (bundled.status === 'rejected') {
    await started.value.stop().catch(() => undefined);
    throw bundled.reason;
  }
  const server = started.value;
  let s: ServerProcess & { direct: ServerProcess };
  try {
    s = await proxied(server);
  } catch (e) {
    await server.stop().catch(() => undefined);
    throw e;
  }
  try {
    await loadCRDs(s);
  } catch (e) {
    // A failed setup must not leave the server (and the proxy) running: the test file's process
    // would never exit, and the whole run would hang there.
    await s.stop().catch(() => undefined);
    throw e;
  }
  return s;
}

/** Creates the Gateway API and cert-manager CRDs and waits until each is Established. */
async function loadCRDs(s: ServerProcess): Promise<void> {
  const names: string[] = [];
  for (const crd of crdDocuments()) {
    const r = await api(s, 'POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', crd);
    if (r.status !== 201) throw new Error(`creating ${(crd.metadata as { name: string }).name}: ${r.status} ${JSON.stringify(r.body).slice(0, 300)}`);
    names.push((crd.metadata as { name: string }).name);
  }
  const deadline = Date.now() + 30_000;
  for (const n of names) {
    for (;;) {
      const r = await api(s, 'GET', `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${n}`);
      if ((r.body?.status?.conditions ?? []).some((c: { type: string; status: string }) => c.type === 'Established' && c.status === 'True')) break;
      if (Date.now() > deadline) throw new Error(`${n} not Established`);
      await new Promise((res) => setTimeout(res, 100));
    }
  }
}

/**
 * Starts a suite's server and browser together. When either fails, what did start is stopped
 * before the error is thrown, so that a failed `before` leaves no process behind.
 */
export async function startSuite(): Promise<{ s: ServerProcess; browser: Browser }> {
  const [server, browser] = await Promise.allSettled([consoleServer(), launch()]);
  if (server.status === 'fulfilled' && browser.status === 'fulfilled') return { s: server.value, browser: browser.value };
  if (browser.status === 'fulfilled') await browser.value.close().catch(() => undefined);
  if (server.status === 'fulfilled') await server.value.stop().catch(() => undefined);
  throw server.status === 'rejected' ? server.reason : (browser as PromiseRejectedResult).reason;
}
