/**
 * The CEL playground in headless Chromium: the static page opened from disk with no server
 * (a Gateway API rule evaluated against an HTTPRoute, its type, cost range and what bounds it,
 * value and runtime cost read from the page, and no request leaving the page), the state kept in
 * the URL, the page served by a real server taking a CRD's schema from it by name, expressions
 * typed into the editor (a compile error with its position), and the admission environment.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { stringify } from 'yaml';
import { readYAMLDocuments } from '../../src/apimachinery/index.ts';
import { bundleDir } from '../../src/console/index.ts';
import { decodeState, encodeState, type PlaygroundState } from '../../src/console/web/playground/url-state.ts';
import { crdDocuments, newPage, skipReason, startSuite, withScreenshot } from './console-browser.ts';
import type { ServerProcess } from './harness.ts';

const root = new URL('../..', import.meta.url).pathname;
const httpRouteCRD = crdDocuments().find((d) => (d.metadata as { name: string }).name === 'httproutes.gateway.networking.k8s.io')!;
/** The Gateway API rule on each of an HTTPRoute's rules: a RequestRedirect filter excludes backendRefs. */
const redirectRule = '(has(self.backendRefs) && size(self.backendRefs) > 0) ? (!has(self.filters) || self.filters.all(f, !has(f.requestRedirect))): true';
const exampleRoute = (readYAMLDocuments(readFileSync(join(root, 'testdata/crds/gateway-api/valid/httproute.yaml'), 'utf8')) as { kind?: string }[]).find((d) => d?.kind === 'HTTPRoute')!;
const redirecting = {
  ...exampleRoute,
  spec: { rules: [{ backendRefs: [{ name: 'web', port: 80 }], filters: [{ type: 'RequestRedirect', requestRedirect: { scheme: 'https' } }] }] },
};

const read = async (page: Page, id: string) => (await page.locator(`#${id}`).innerText()).trim();

describe('CEL playground', { skip: skipReason }, () => {
  let s: ServerProcess;
  let browser: Browser;
  let page: Page;
  let logs: string[];

  before(async () => {
    ({ s, browser } = await startSuite());
    ({ page, logs } = await newPage(browser));
  });

  after(async () => {
    await browser?.close();
    const code = await s?.stop();
    assert.equal(code, 0, s?.output());
  });

  test('the static page evaluates a Gateway API rule against an HTTPRoute with no server', async (t) => {
    await withScreenshot(t, page, async () => {
      const requests: string[] = [];
      page.on('request', (r) => requests.push(r.url()));
      const state: PlaygroundState = { env: 'crd', expression: redirectRule, node: 'spec.rules[*]', docs: { schema: stringify(httpRouteCRD), object: stringify(exampleRoute) } };
      const url = pathToFileURL(join(bundleDir, 'cel.html')).href + encodeState(state);
      await load(page, url);
      await page.locator('#pg-value', { hasText: 'true' }).waitFor({ timeout: 20_000 });
      assert.equal(await read(page, 'pg-type'), 'bool');
      const cost = /^(\d+) – (\d+) per call; × cardinality (\d+) = (\d+)$/.exec(await read(page, 'pg-cost'));
      assert.ok(cost, await read(page, 'pg-cost'));
      assert.ok(Number(cost[1]) <= Number(cost[2]));
      assert.equal(BigInt(cost[4]!), BigInt(cost[2]!) * BigInt(cost[3]!), 'the total is per call times cardinality');
      // spec.rules and each rule's lists carry maxItems in Gateway API: the estimate is bounded.
      assert.equal(await read(page, 'pg-bound'), 'every size it reads is bounded');
      assert.ok(Number(await read(page, 'pg-runtime-cost')) > 0);
      assert.equal(await page.locator('text=offline: evaluated in this page').count(), 1);
      // The same rule refuses a route that redirects and has backends, with the server's message.
      await load(page, pathToFileURL(join(bundleDir, 'cel.html')).href + encodeState({ ...state, docs: { ...state.docs, object: stringify(redirecting) } }));
      await page.locator('#pg-value', { hasText: 'false' }).waitFor({ timeout: 20_000 });
      assert.match(await read(page, 'pg-evaluations'), /^spec\.rules\[0\]: Invalid value: .*failed rule: \(has\(self\.backendRefs\)/);
      assert.deepEqual(requests.filter((u) => !u.startsWith('file:') && !u.startsWith('data:')), [], 'nothing was fetched from a network');
    });
  });

  test('the state is kept in the URL', async (t) => {
    await withScreenshot(t, page, async () => {
      await load(page, `${s.url}/console/cel`);
      await page.selectOption('#env', 'plain');
      await page.locator('#pg-value', { hasText: '[' }).waitFor();
      const st = decodeState(new URL(page.url()).hash);
      assert.equal(st?.env, 'plain');
      assert.equal(st?.expression, 'items.map(x, x * factor).filter(y, y > 2)');
      // The link reproduces the page.
      const { page: other } = await newPage(browser);
      await load(other, page.url());
      await other.locator('#pg-value', { hasText: '[' }).waitFor();
      assert.equal(await read(other, 'pg-value'), await read(page, 'pg-value'));
      await other.close();
    });
  });

  test('served by the server, the playground takes a CRD\'s schema from it by name', async (t) => {
    await withScreenshot(t, page, async () => {
      const state: PlaygroundState = { env: 'crd', expression: redirectRule, node: 'spec.rules[*]', crd: 'httproutes.gateway.networking.k8s.io', docs: { object: stringify(redirecting) } };
      await load(page, `${s.url}/console/cel${encodeState(state)}`);
      await page.locator('#pg-value', { hasText: 'false' }).waitFor({ timeout: 20_000 });
      assert.equal(await page.locator('#crd').inputValue(), 'httproutes.gateway.networking.k8s.io');
      assert.equal(await read(page, 'pg-type'), 'bool');
      // The rules of the schema can be loaded into the expression.
      assert.ok((await page.locator('#rules option').count()) > 10);
    });
  });

  test('an expression typed into the editor shows its type, cost and value, and a compile error its position', async (t) => {
    await withScreenshot(t, page, async () => {
      await load(page, `${s.url}/console/cel`);
      await page.selectOption('#env', 'plain');
      await page.locator('#pg-value', { hasText: '[' }).waitFor();
      await typeExpression(page, '[1, 2, 3].map(x, x * 2)');
      await page.locator('#pg-value', { hasText: /^\[\s*2,\s*4,\s*6\s*\]$/ }).waitFor();
      assert.equal(await read(page, 'pg-type'), 'list(int)');
      assert.equal((await read(page, 'pg-value')).replace(/\s+/g, ''), '[2,4,6]');
      assert.match(await read(page, 'pg-cost'), /^\d+ – \d+$/);
      assert.equal(await read(page, 'pg-bound'), 'the sizes of the literals it builds');
      assert.ok(Number(await read(page, 'pg-runtime-cost')) > 0);
      await typeExpression(page, 'items.map(x, x + nope)');
      await page.locator('#pg-error').waitFor();
      assert.match(await read(page, 'pg-error'), /^compile error at 1:18:\s+ERROR: <input>:1:18: undeclared reference to 'nope'/);
      assert.equal(await page.locator('.cm-lintRange-error').count(), 1, 'the position is marked in the editor');
      assert.equal(await read(page, 'pg-type'), '—');
    });
  });

  test('a ValidatingAdmissionPolicy expression sees object, params and request', async (t) => {
    await withScreenshot(t, page, async () => {
      await load(page, `${s.url}/console/cel`);
      await page.selectOption('#env', 'vap');
      await page.locator('#pg-value', { hasText: 'true' }).waitFor();
      await typeExpression(page, 'request.userInfo.username + " may scale to " + params.data.maxReplicas');
      await page.locator('#pg-value', { hasText: 'jane may scale to 5' }).waitFor();
      assert.equal(await read(page, 'pg-type'), 'string');
    });
  });

  test('nothing on the pages was refused by the content security policy, and no script failed', () => {
    assert.deepEqual(logs.filter((l) => /Content Security Policy|pageerror|Refused/.test(l)), []);
  });
});

/** Loads a URL afresh (a fragment change alone would keep the page). */
async function load(page: Page, url: string): Promise<void> {
  await page.goto('about:blank');
  await page.goto(url);
}

async function typeExpression(page: Page, text: string): Promise<void> {
  await page.locator('#expression').click();
  await page.keyboard.press('Control+A');
  await page.keyboard.press('Delete');
  await page.keyboard.insertText(text);
}
