/**
 * The web console in headless Chromium against a real server holding the Gateway API and
 * cert-manager CRDs: the kinds list (built-in and custom, scope, counts), a kind's objects with
 * its printer columns, a change made through the API appearing by watch, an object's YAML, a
 * dry run refused with its error marked at the line of the field, an apply, the schema tree,
 * the CRD's rules with their costs, events and managedFields; the files' caching headers and
 * content security policy, and Status errors for what the console does not serve.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { api, newPage, skipReason, startSuite, withScreenshot } from './console-browser.ts';
import type { ServerProcess } from './harness.ts';

const route = (name: string, hostname: string) => ({
  apiVersion: 'gateway.networking.k8s.io/v1',
  kind: 'HTTPRoute',
  metadata: { name, namespace: 'default' },
  spec: { hostnames: [hostname], rules: [{ matches: [{ path: { type: 'PathPrefix', value: '/' } }], backendRefs: [{ name: 'web', port: 80 }] }] },
});

const routesKey = encodeURIComponent('gateway.networking.k8s.io/v1/httproutes');

describe('web console', { skip: skipReason }, () => {
  let s: ServerProcess;
  let browser: Browser;
  let page: Page;
  let logs: string[];

  before(async () => {
    ({ s, browser } = await startSuite());
    ({ page, logs } = await newPage(browser));
    const r = await api(s, 'POST', '/apis/gateway.networking.k8s.io/v1/namespaces/default/httproutes', route('web', 'web.example.com'));
    assert.equal(r.status, 201, JSON.stringify(r.body));
  });

  after(async () => {
    await browser?.close();
    const code = await s?.stop();
    assert.equal(code, 0, s?.output());
  });

  test('the console is served with a content security policy; pages are not cached, hashed assets are', async () => {
    const page1 = await fetch(`${s.url}/console/`);
    assert.equal(page1.status, 200);
    assert.equal(page1.headers.get('cache-control'), 'no-store');
    const csp = page1.headers.get('content-security-policy') ?? '';
    assert.match(csp, /default-src 'none'/);
    assert.match(csp, /script-src 'self'(;|$)/);
    const html = await page1.text();
    const nonce = /name="csp-nonce" content="([^"]+)"/.exec(html)?.[1];
    assert.ok(nonce && csp.includes(`'nonce-${nonce}'`), 'the page carries the nonce its policy names');
    const script = /src="(assets\/console-[A-Za-z0-9]+\.js)"/.exec(html)?.[1];
    assert.ok(script, html);
    const asset = await fetch(`${s.url}/console/${script}`);
    assert.equal(asset.status, 200);
    assert.equal(asset.headers.get('cache-control'), 'public, max-age=31536000, immutable');
    assert.match(asset.headers.get('content-type') ?? '', /^text\/javascript/);
    const again = await fetch(`${s.url}/console/${script}`, { headers: { 'If-None-Match': asset.headers.get('etag')! } });
    assert.equal(again.status, 304);
    const redirect = await fetch(`${s.url}/console`, { redirect: 'manual' });
    assert.equal(redirect.status, 301);
    assert.equal(redirect.headers.get('location'), '/console/');
  });

  test('what the console does not serve is a Status', async () => {
    const missing = await api(s, 'GET', '/console/assets/nothing.js');
    assert.equal(missing.status, 404);
    assert.equal(missing.body.kind, 'Status');
    const post = await api(s, 'POST', '/console/', {});
    assert.equal(post.status, 405);
    assert.equal(post.body.reason, 'MethodNotAllowed');
    const outside = await api(s, 'GET', '/console/../version');
    assert.equal(outside.status, 200, 'dot segments are resolved before routing (to /version)');
  });

  test('the kinds list shows built-in and custom kinds with group, version, scope and counts', async (t) => {
    await withScreenshot(t, page, async () => {
      await load(page, `${s.url}/console/`);
      const row = (key: string) => page.locator(`#kinds tr[data-kind="${key}"]`);
      await row('gateway.networking.k8s.io/v1/httproutes').waitFor();
      await countOf(page, 'gateway.networking.k8s.io/v1/httproutes', '1');
      assert.deepEqual(await row('gateway.networking.k8s.io/v1/httproutes').locator('td').allInnerTexts(), ['HTTPRoute CRD', 'gateway.networking.k8s.io/v1', 'Namespaced', '1']);
      assert.equal(await row('cert-manager.io/v1/clusterissuers').locator('td').nth(2).innerText(), 'Cluster');
      assert.equal(await row('cert-manager.io/v1/clusterissuers').getAttribute('data-custom'), 'true');
      assert.equal(await row('apps/v1/deployments').getAttribute('data-custom'), 'false');
      assert.equal(await row('/v1/namespaces').locator('td').nth(1).innerText(), 'v1');
      // The four namespaces every server makes.
      await countOf(page, '/v1/namespaces', '4');
      await page.fill('#kind-filter', 'certificate');
      await page.locator('#kinds tbody tr').first().waitFor();
      const kinds = await page.locator('#kinds tbody tr td:first-child a').allInnerTexts();
      assert.deepEqual(kinds.sort(), ['Certificate', 'CertificateRequest', 'CertificateSigningRequest'].sort());
    });
  });

  test('a kind lists its objects with its printer columns, and a change made elsewhere appears by watch', async (t) => {
    await withScreenshot(t, page, async () => {
      await load(page, `${s.url}/console/#kind=${routesKey}&ns=default`);
      await page.locator('#objects tr[data-name="web"]').waitFor();
      assert.deepEqual(await page.locator('#objects thead th').allInnerTexts(), ['NAME', 'HOSTNAMES', 'AGE']);
      assert.match(await page.locator('#objects tr[data-name="web"]').innerText(), /web\s+\["web\.example\.com"\]/);
      await page.locator('.live.on').waitFor();
      const r = await api(s, 'POST', '/apis/gateway.networking.k8s.io/v1/namespaces/default/httproutes', route('api', 'api.example.com'));
      assert.equal(r.status, 201);
      await page.locator('#objects tr[data-name="api"]').waitFor({ timeout: 10_000 });
      assert.match(await page.locator('#objects tr[data-name="api"]').innerText(), /api\.example\.com/);
      const d = await api(s, 'DELETE', '/apis/gateway.networking.k8s.io/v1/namespaces/default/httproutes/api');
      assert.equal(d.status, 200);
      await page.locator('#objects tr[data-name="api"]').waitFor({ state: 'detached', timeout: 10_000 });
    });
  });

  test('an object opens as YAML; a refused dry run marks the error at the field\'s line', async (t) => {
    await withScreenshot(t, page, async () => {
      await load(page, `${s.url}/console/#kind=${routesKey}&ns=default`);
      await page.locator('#objects tr[data-name="web"] a').click();
      const editor = page.locator('#object-yaml');
      await editor.waitFor();
      const text = await editor.innerText();
      assert.match(text, /kind: HTTPRoute/);
      assert.doesNotMatch(text, /managedFields/, 'managedFields are not part of what is applied');
      // An invalid path type, on a line of its own.
      const edited = text.replace('type: PathPrefix', 'type: Sideways');
      assert.notEqual(edited, text);
      const line = edited.split('\n').findIndex((l) => l.includes('type: Sideways')) + 1;
      await replaceText(page, editor, edited);
      await page.click('#dry-run');
      const item = page.locator('#apply-errors li').first();
      await item.waitFor();
      assert.equal(await item.getAttribute('data-line'), String(line));
      assert.match(await item.innerText(), /spec\.rules\[0\]\.matches\[0\]\.path\.type: Unsupported value: "Sideways"/);
      assert.match(await page.locator('#apply-result').innerText(), /Dry run refused: HTTPRoute.gateway.networking.k8s.io "web" is invalid/);
      // The editor marks that line.
      const marked = page.locator('.cm-lintRange-error', { hasText: 'Sideways' });
      await marked.waitFor();
      assert.match(await marked.innerText(), /^\s*type: Sideways$/);
      // The dry run changed nothing.
      const stored = await api(s, 'GET', '/apis/gateway.networking.k8s.io/v1/namespaces/default/httproutes/web');
      assert.equal(stored.body.spec.rules[0].matches[0].path.type, 'PathPrefix');
    });
  });

  test('an apply writes the edited object, recorded in managedFields', async (t) => {
    await withScreenshot(t, page, async () => {
      await load(page, `${s.url}/console/#kind=${routesKey}&ns=default&obj=default/web`);
      const editor = page.locator('#object-yaml');
      await editor.waitFor();
      const text = await editor.innerText();
      await replaceText(page, editor, text.replace('web.example.com', 'www.example.com'));
      await page.click('#dry-run');
      await page.locator('#apply-result', { hasText: 'Dry run passed' }).waitFor();
      await page.click('#apply');
      await page.locator('#apply-result', { hasText: 'Applied.' }).waitFor();
      const stored = await api(s, 'GET', '/apis/gateway.networking.k8s.io/v1/namespaces/default/httproutes/web');
      assert.deepEqual(stored.body.spec.hostnames, ['www.example.com']);
      await page.locator('#objects tr[data-name="web"]', { hasText: 'www.example.com' }).waitFor();
      await page.click('#tab-Managed-fields');
      const managers = await page.locator('#managed-fields tbody tr td:first-child').allInnerTexts();
      assert.ok(managers.includes('crd-apiserver-console'), managers.join(','));
    });
  });

  test('the schema tab shows the kind\'s schema as kubectl explain does, opened by keyboard', async (t) => {
    await withScreenshot(t, page, async () => {
      await load(page, `${s.url}/console/#kind=${routesKey}&ns=default&obj=default/web`);
      await page.locator('#tab-YAML').focus();
      await page.keyboard.press('ArrowRight');
      assert.equal(await page.locator('#tab-Schema').getAttribute('aria-selected'), 'true');
      const spec = page.locator('#schema-tree li[data-path="spec"] > details > summary');
      await spec.waitFor();
      assert.match(await spec.innerText(), /^spec <Object> -required-/);
      await spec.click();
      const rules = page.locator('#schema-tree li[data-path="spec.rules"] > details > summary');
      await rules.waitFor();
      assert.match(await rules.innerText(), /^rules <\[\]Object>/);
      await rules.click();
      assert.match(await page.locator('#schema-tree li[data-path="spec.rules.backendRefs"]').innerText(), /backendRefs <\[\]Object>/);
      // Built-in kinds from their OpenAPI, with Go's type names.
      await load(page, `${s.url}/console/#kind=${encodeURIComponent('apps/v1/deployments')}&ns=kube-system`);
      await page.locator('#objects').waitFor();
    });
  });

  test('the rules tab lists the CRD\'s rules with their estimated costs', async (t) => {
    await withScreenshot(t, page, async () => {
      await load(page, `${s.url}/console/#kind=${routesKey}&ns=default&obj=default/web`);
      await page.click('#tab-Rules');
      const summary = page.locator('#rules > p').first();
      await summary.waitFor();
      const m = /(\d+) expressions, estimated total cost (\d+)/.exec(await summary.innerText());
      assert.ok(m, await summary.innerText());
      assert.ok(Number(m[1]) > 10);
      const first = page.locator('#rules tbody tr').first();
      assert.match(await first.innerText(), /x-kubernetes-validations\[\d+\]/);
      const link = await first.locator('a').getAttribute('href');
      assert.match(link ?? '', /^cel#s=/);
    });
  });

  test('the events tab shows the object\'s events', async (t) => {
    await withScreenshot(t, page, async () => {
      const obj = await api(s, 'GET', '/apis/gateway.networking.k8s.io/v1/namespaces/default/httproutes/web');
      const ev = await api(s, 'POST', '/api/v1/namespaces/default/events', {
        apiVersion: 'v1',
        kind: 'Event',
        metadata: { name: 'web.1', namespace: 'default' },
        involvedObject: { apiVersion: 'gateway.networking.k8s.io/v1', kind: 'HTTPRoute', name: 'web', namespace: 'default', uid: obj.body.metadata.uid },
        reason: 'Accepted',
        message: 'route accepted by the test',
        type: 'Normal',
        count: 2,
        source: { component: 'test' },
      });
      assert.equal(ev.status, 201, JSON.stringify(ev.body));
      await load(page, `${s.url}/console/#kind=${routesKey}&ns=default&obj=default/web`);
      await page.click('#tab-Events');
      const row = page.locator('#events tbody tr').first();
      await row.waitFor();
      assert.match(await row.innerText(), /Normal\s+Accepted\s+2\s+.*route accepted by the test/);
    });
  });

  test('nothing on the pages was refused by the content security policy, and no script failed', () => {
    const bad = logs.filter((l) => /Content Security Policy|pageerror|Refused/.test(l));
    assert.deepEqual(bad, []);
  });
});

/** Loads a console URL afresh (a fragment change alone would keep the page's state). */
async function load(page: Page, url: string): Promise<void> {
  await page.goto('about:blank');
  await page.goto(url);
}

/** Waits for a kind's count cell to read `want`. */
async function countOf(page: Page, key: string, want: string): Promise<void> {
  await page.locator(`#kinds tr[data-kind="${key}"] td.num`, { hasText: new RegExp(`^${want}$`) }).waitFor({ timeout: 20_000 });
}

/** Replaces an editor's whole text, as a user selecting all and typing would. */
async function replaceText(page: Page, editor: ReturnType<Page['locator']>, text: string): Promise<void> {
  await editor.click();
  await page.keyboard.press('Control+A');
  await page.keyboard.press('Delete');
  await page.keyboard.insertText(text);
}
