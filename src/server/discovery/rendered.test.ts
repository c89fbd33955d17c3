// Discovery's rendered documents are served as long as the served table is unchanged, and are
// rendered again (new body, new ETag) when a CRD's resources come, change or go.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { crdTableConvertor, type RESTStore } from '../../registry/index.ts';
import { ServedTable, type ServedResource } from '../served.ts';
import { serveDiscovery } from './handler.ts';
import { renderedDiscovery } from './rendered.ts';

function widgets(group: string, shortNames: string[]): ServedResource {
  return {
    group, version: 'v1', resource: 'widgets', kind: 'Widget', listKind: 'WidgetList', singular: 'widget', namespaced: true,
    verbs: ['get', 'list'], shortNames, categories: [], subresources: [], storageVersion: 'v1', store: {} as RESTStore,
    table: crdTableConvertor([]), strategicMerge: false, protobuf: false, custom: true, schema: { type: 'object' },
  };
}

const aggregated = 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList';

async function withServer(table: ServedTable, f: (get: (path: string, headers?: Record<string, string>) => Promise<Response>) => Promise<void>): Promise<void> {
  const server: Server = createServer((req, res) => {
    const segs = req.url!.split('?')[0]!.split('/').filter((s) => s !== '');
    if (!serveDiscovery(req, res, segs, true, table, '127.0.0.1:0')) res.writeHead(404).end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  try {
    await f((path, headers = {}) => fetch(base + path, { headers }));
  } finally {
    server.close();
  }
}

test('aggregated and per-group-version discovery follow every change of the served table', async () => {
  const table = new ServedTable();
  table.setCustom('a.example.com', 'widgets', [widgets('a.example.com', ['w'])]);
  await withServer(table, async (get) => {
    const r1 = await get('/apis', { accept: aggregated });
    const etag1 = r1.headers.get('etag')!;
    const doc1 = (await r1.json()) as any;
    assert.deepEqual(doc1.items.map((g: any) => g.metadata.name), ['a.example.com']);
    assert.equal((await get('/apis', { accept: aggregated, 'if-none-match': etag1 })).status, 304);

    // A CRD changes (its short names): a new document and ETag; the old ETag no longer matches.
    table.setCustom('a.example.com', 'widgets', [widgets('a.example.com', ['wd'])]);
    assert.equal((await get('/apis', { accept: aggregated, 'if-none-match': etag1 })).status, 200);
    const r2 = await get('/apis', { accept: aggregated });
    assert.notEqual(r2.headers.get('etag'), etag1);
    assert.deepEqual(((await r2.json()) as any).items[0].versions[0].resources[0].shortNames, ['wd']);
    assert.deepEqual(((await (await get('/apis/a.example.com/v1')).json()) as any).resources[0].shortNames, ['wd']);

    // Another CRD comes, then the first goes: every document follows.
    table.setCustom('b.example.com', 'widgets', [widgets('b.example.com', [])]);
    assert.deepEqual(((await (await get('/apis')).json()) as any).groups.map((g: any) => g.name), ['a.example.com', 'b.example.com']);
    table.setCustom('a.example.com', 'widgets', []);
    assert.deepEqual(((await (await get('/apis', { accept: aggregated })).json()) as any).items.map((g: any) => g.metadata.name), ['b.example.com']);
    assert.equal((await get('/apis/a.example.com/v1')).status, 404);
    assert.deepEqual(((await (await get('/apis')).json()) as any).groups.map((g: any) => g.name), ['b.example.com']);
  });
});

test('an unchanged table is not rendered again', () => {
  const table = new ServedTable();
  table.setCustom('a.example.com', 'widgets', [widgets('a.example.com', [])]);
  const rendered = renderedDiscovery(table);
  let renders = 0;
  const render = () => String(++renders);
  assert.equal(rendered.get('k', render).body, '1');
  assert.equal(rendered.get('k', render).body, '1');
  assert.equal(rendered.groups(), rendered.groups());
  const groups = rendered.groups();
  table.setCustom('b.example.com', 'widgets', [widgets('b.example.com', [])]);
  assert.equal(rendered.get('k', render).body, '2');
  assert.notEqual(rendered.groups(), groups);
  assert.equal(rendered.groups().length, 2);
});
