// OpenAPIService renders a group version's document again only when its resources change, and
// what it serves always matches the current served table.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { crdTableConvertor, type RESTStore } from '../../registry/index.ts';
import { ServedTable, type ServedResource } from '../served.ts';
import { OpenAPIService } from './service.ts';

function resource(group: string, version: string, kind: string, maxReplicas: number): ServedResource {
  const plural = `${kind.toLowerCase()}s`;
  return {
    group,
    version,
    resource: plural,
    kind,
    listKind: `${kind}List`,
    singular: kind.toLowerCase(),
    namespaced: true,
    verbs: ['get', 'list'],
    shortNames: [],
    categories: [],
    subresources: [],
    storageVersion: version,
    store: {} as RESTStore,
    table: crdTableConvertor([]),
    strategicMerge: false,
    protobuf: false,
    custom: true,
    schema: { type: 'object', properties: { spec: { type: 'object', properties: { replicas: { type: 'integer', maximum: maxReplicas } } } } },
  };
}

test('a change renders only the group versions it touches', () => {
  const table = new ServedTable();
  const svc = new OpenAPIService(table);
  table.setCustom('a.example.com', 'widgets', [resource('a.example.com', 'v1', 'Widget', 3)]);
  table.setCustom('b.example.com', 'gadgets', [resource('b.example.com', 'v1', 'Gadget', 3)]);
  const first = svc.documents();
  const a1 = first.get('apis/a.example.com/v1')!;
  const b1 = first.get('apis/b.example.com/v1')!;
  assert.ok(a1.body.includes('"maximum":3') && b1.body.includes('com.example.b.v1.Gadget'));

  // Another group comes: a's and b's documents are the ones rendered before.
  table.setCustom('c.example.com', 'doohickeys', [resource('c.example.com', 'v1', 'Doohickey', 3)]);
  const second = svc.documents();
  assert.equal(second.get('apis/a.example.com/v1'), a1);
  assert.equal(second.get('apis/b.example.com/v1'), b1);
  assert.ok(second.has('apis/c.example.com/v1'));

  // b's CRD changes: its document is rendered from the new schema, with a new hash.
  table.setCustom('b.example.com', 'gadgets', [resource('b.example.com', 'v1', 'Gadget', 7)]);
  const third = svc.documents();
  const b2 = third.get('apis/b.example.com/v1')!;
  assert.notEqual(b2, b1);
  assert.notEqual(b2.hash, b1.hash);
  assert.ok(b2.body.includes('"maximum":7'));
  assert.equal(third.get('apis/a.example.com/v1'), a1);

  // A group that goes away leaves no document behind.
  table.setCustom('a.example.com', 'widgets', []);
  assert.equal(svc.documents().has('apis/a.example.com/v1'), false);
});

test('a group version is rendered on its own first request, not with every other one', () => {
  const table = new ServedTable();
  const svc = new OpenAPIService(table);
  let reads = 0;
  const gadget = resource('b.example.com', 'v1', 'Gadget', 3);
  const schema = gadget.schema;
  Object.defineProperty(gadget, 'schema', {
    get: () => {
      reads++;
      return schema;
    },
  });
  table.setCustom('a.example.com', 'widgets', [resource('a.example.com', 'v1', 'Widget', 3)]);
  table.setCustom('b.example.com', 'gadgets', [gadget]);
  const a1 = svc.document('apis/a.example.com/v1')!;
  assert.ok(a1.body.includes('com.example.a.v1.Widget'));
  assert.equal(reads, 0);
  assert.equal(svc.document('apis/none.example.com/v1'), undefined);

  // The index needs every hash: b is rendered then, once.
  const all = svc.documents();
  assert.ok(reads > 0);
  assert.equal(all.get('apis/a.example.com/v1'), a1);
  const after = reads;
  assert.equal(svc.document('apis/b.example.com/v1'), all.get('apis/b.example.com/v1'));
  assert.equal(reads, after);

  // a's CRD changes: only a is rendered again.
  table.setCustom('a.example.com', 'widgets', [resource('a.example.com', 'v1', 'Widget', 5)]);
  const a2 = svc.document('apis/a.example.com/v1')!;
  assert.notEqual(a2.hash, a1.hash);
  assert.ok(a2.body.includes('"maximum":5'));
  assert.equal(svc.document('apis/b.example.com/v1'), all.get('apis/b.example.com/v1'));
  assert.equal(reads, after);
});
