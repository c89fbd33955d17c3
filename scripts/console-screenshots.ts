// Takes the README's screenshots of the console and the CEL playground (docs/console.png,
// docs/playground.png) in headless Chromium against a fresh server holding the Gateway API and
// cert-manager CRDs. Run: `npx tsx scripts/console-screenshots.ts`.
import { join } from 'node:path';
import { stringify } from 'yaml';
import { api, consoleServer, crdDocuments, launch } from '../test/e2e/console-browser.ts';
import { encodeState } from '../src/console/web/playground/url-state.ts';

const docs = join(import.meta.dirname, '..', 'docs');
const s = await consoleServer();
const browser = await launch();
try {
  for (const [name, host] of [
    ['web', 'web.example.com'],
    ['api', 'api.example.com'],
  ]) {
    await api(s, 'POST', '/apis/gateway.networking.k8s.io/v1/namespaces/default/httproutes', {
      apiVersion: 'gateway.networking.k8s.io/v1',
      kind: 'HTTPRoute',
      metadata: { name, namespace: 'default' },
      spec: { hostnames: [host], rules: [{ matches: [{ path: { type: 'PathPrefix', value: `/${name}` } }], backendRefs: [{ name, port: 80 }] }] },
    });
  }
  const page = await browser.newPage({ viewport: { width: 1280, height: 760 } });
  await page.goto(`${s.url}/console/#kind=${encodeURIComponent('gateway.networking.k8s.io/v1/httproutes')}&ns=default&obj=default/web`);
  const editor = page.locator('#object-yaml');
  await editor.waitFor();
  await page.fill('#kind-filter', 'route');
  await editor.click();
  await page.keyboard.press('Control+A');
  // A path type the schema does not allow: the dry run's error is marked at its line.
  const edited = stringify({ apiVersion: 'gateway.networking.k8s.io/v1', kind: 'HTTPRoute', metadata: { name: 'web', namespace: 'default' }, spec: { hostnames: ['web.example.com'], rules: [{ matches: [{ path: { type: 'Sideways', value: '/web' } }], backendRefs: [{ name: 'web', port: 80 }] }] } });
  await page.keyboard.insertText(edited);
  await page.click('#dry-run');
  await page.locator('#apply-errors li').first().waitFor();
  await page.screenshot({ path: join(docs, 'console.png') });

  const crd = crdDocuments().find((d) => (d.metadata as { name: string }).name === 'httproutes.gateway.networking.k8s.io')!;
  const route = { apiVersion: 'gateway.networking.k8s.io/v1', kind: 'HTTPRoute', metadata: { name: 'web' }, spec: { rules: [{ backendRefs: [{ name: 'web', port: 80 }], filters: [{ type: 'RequestRedirect', requestRedirect: { scheme: 'https' } }] }] } };
  const state = encodeState({
    env: 'crd',
    expression: '(has(self.backendRefs) && size(self.backendRefs) > 0) ? (!has(self.filters) || self.filters.all(f, !has(f.requestRedirect))): true',
    node: 'spec.rules[*]',
    docs: { schema: stringify(crd), object: stringify(route) },
  });
  await page.goto(`${s.url}/console/cel${state}`);
  await page.locator('#pg-value', { hasText: 'false' }).waitFor({ timeout: 20_000 });
  await page.screenshot({ path: join(docs, 'playground.png') });
} finally {
  await browser.close();
  await s.stop();
}
