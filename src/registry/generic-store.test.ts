import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { StatusError } from '../apimachinery/index.ts';
import { openTempStore, rejectsStatus, widget, widgetInfo, widgetStore, type TempStore } from './testing.ts';
import type { GenericStore } from './generic-store.ts';
import type { Admission, Obj } from './rest.ts';

function meta(o: Obj): Record<string, any> {
  return o.metadata as Record<string, any>;
}


describe('generic store: create', () => {
  let t: TempStore;
  let s: GenericStore;
  before(async () => {
    t = await openTempStore();
    s = widgetStore(t.store);
  });
  after(() => t.close());

  test('fills uid, creationTimestamp, generation and resourceVersion', async () => {
    const before = await t.store.currentRevision();
    const { object } = await s.create('default', widget('a'), {});
    const m = meta(object);
    assert.match(m.uid, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    assert.match(m.creationTimestamp, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    assert.equal(m.generation, 1);
    assert.equal(m.namespace, 'default');
    assert.equal(m.resourceVersion, String(before + 1));
    const got = await s.get('default', 'a');
    assert.deepEqual(got, object);
  });

  test('client-set system fields are replaced or cleared', async () => {
    const w = widget('sys');
    Object.assign(meta(w), {
      uid: 'client-uid',
      creationTimestamp: '2000-01-01T00:00:00Z',
      deletionTimestamp: '2000-01-01T00:00:00Z',
      deletionGracePeriodSeconds: 30,
      generation: 7,
    });
    const { object } = await s.create('default', w, {});
    const m = meta(object);
    assert.notEqual(m.uid, 'client-uid');
    assert.notEqual(m.creationTimestamp, '2000-01-01T00:00:00Z');
    assert.equal(m.deletionTimestamp, undefined);
    assert.equal(m.deletionGracePeriodSeconds, undefined);
    assert.equal(m.generation, 1);
  });

  test('status is dropped on create when the kind has a status subresource', async () => {
    const { object } = await s.create('default', widget('st', { status: { replicas: 3 } }), {});
    assert.equal(object.status, undefined);
  });

  test('resourceVersion set on create is refused as upstream (500, reason Unknown)', async () => {
    const w = widget('rv');
    meta(w).resourceVersion = '5';
    const err = await rejectsStatus(s.create('default', w, {}), 500, '', 'resourceVersion should not be set on objects to be created');
    assert.equal(err.status.reason, undefined);
    await rejectsStatus(s.get('default', 'rv'), 404, 'NotFound', 'widgets.example.com "rv" not found');
  });

  test('duplicate name is 409 AlreadyExists', async () => {
    await s.create('default', widget('dup'), {});
    await rejectsStatus(s.create('default', widget('dup'), {}), 409, 'AlreadyExists', 'widgets.example.com "dup" already exists');
  });

  test('generateName: prefix plus 5 characters from the upstream alphabet', async () => {
    const w = widget('');
    delete meta(w).name;
    meta(w).generateName = 'gen-';
    const { object } = await s.create('default', w, {});
    assert.match(meta(object).name, /^gen-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
    assert.equal(meta(object).generateName, 'gen-');
  });

  test('namespace: taken from the request, mismatch is 400, missing request namespace is 400', async () => {
    const w = widget('ns1');
    meta(w).namespace = 'other';
    await rejectsStatus(
      s.create('default', w, {}),
      400,
      'BadRequest',
      'the namespace of the provided object does not match the namespace sent on the request',
    );
    await rejectsStatus(s.create(undefined, widget('ns2'), {}), 422, 'Invalid', /metadata.namespace: Required value/);
  });

  test('invalid name is 422 with the DNS subdomain message; nothing is written', async () => {
    const rev = await t.store.currentRevision();
    const err = await rejectsStatus(s.create('default', widget('Bad_Name'), {}), 422, 'Invalid');
    assert.match(err.message, /^Widget\.example\.com "Bad_Name" is invalid: metadata\.name: Invalid value: "Bad_Name": a lowercase RFC 1123 subdomain/);
    assert.equal(await t.store.currentRevision(), rev);
  });

  test('oversized label value is 422', async () => {
    const err = await rejectsStatus(s.create('default', widget('lbl', { labels: { app: 'x'.repeat(64) } }), {}), 422, 'Invalid');
    assert.match(err.message, /metadata\.labels: Invalid value: "x{64}": must be no more than 63 (characters|bytes)/);
  });

  test('wrong kind or apiVersion is 422', async () => {
    const w = widget('k');
    w.kind = 'Gadget';
    w.apiVersion = 'example.com/v2';
    await rejectsStatus(
      s.create('default', w, {}),
      422,
      'Invalid',
      'Widget.example.com "k" is invalid: [kind: Invalid value: "Gadget": must be Widget, apiVersion: Invalid value: "example.com/v2": must be example.com/v1]',
    );
  });

  test('dryRun writes nothing and still reports AlreadyExists', async () => {
    const rev = await t.store.currentRevision();
    const { object } = await s.create('default', widget('dry'), { dryRun: true });
    assert.equal(meta(object).name, 'dry');
    assert.equal(meta(object).resourceVersion, undefined);
    assert.equal(await t.store.currentRevision(), rev);
    await rejectsStatus(s.get('default', 'dry'), 404, 'NotFound');
    await rejectsStatus(s.create('default', widget('dup'), { dryRun: true }), 409, 'AlreadyExists');
  });

  test('invalid path segment names are 400 on get', async () => {
    await rejectsStatus(s.get('default', 'a/b'), 400, 'BadRequest', `Name parameter invalid: "a/b": may not contain '/'`);
    await rejectsStatus(s.get('default', '..'), 400, 'BadRequest', `Name parameter invalid: "..": may not be '..'`);
  });
});

describe('generic store: update', () => {
  let t: TempStore;
  let s: GenericStore;
  before(async () => {
    t = await openTempStore();
    s = widgetStore(t.store);
  });
  after(() => t.close());

  test('spec change bumps generation; metadata-only change does not', async () => {
    const { object: c } = await s.create('default', widget('g'), {});
    const { object: u1 } = await s.update('default', 'g', (cur) => ({ ...cur!, spec: { color: 'red', replicas: 1 } }), {});
    assert.equal(meta(u1).generation, 2);
    assert.ok(Number(meta(u1).resourceVersion) > Number(meta(c).resourceVersion));
    const { object: u2 } = await s.update('default', 'g', (cur) => ({ ...cur!, metadata: { ...meta(cur!), labels: { a: 'b' } } }), {});
    assert.equal(meta(u2).generation, 2);
    assert.deepEqual(meta(u2).labels, { a: 'b' });
  });

  test('stale resourceVersion is 409 Conflict with the exact message', async () => {
    const { object: c } = await s.create('default', widget('c'), {});
    await s.update('default', 'c', (cur) => ({ ...cur!, spec: { color: 'green' } }), {});
    const stale = { ...c, spec: { color: 'red' } };
    await rejectsStatus(
      s.update('default', 'c', () => stale, {}),
      409,
      'Conflict',
      'Operation cannot be fulfilled on widgets.example.com "c": the object has been modified; please apply your changes to the latest version and try again',
    );
  });

  test('missing resourceVersion: custom resources refuse unconditional updates', async () => {
    await s.create('default', widget('u'), {});
    const w = widget('u');
    await rejectsStatus(
      s.update('default', 'u', () => w, {}),
      422,
      'Invalid',
      'widgets.example.com "u" is invalid: metadata.resourceVersion: Invalid value: 0: must be specified for an update',
    );
  });

  test('uid and creationTimestamp: an empty uid is filled, a different one is immutable', async () => {
    const { object: c } = await s.create('default', widget('imm'), {});
    const { object: u } = await s.update('default', 'imm', (cur) => {
      const n = structuredClone(cur!);
      delete meta(n).uid;
      meta(n).creationTimestamp = '1999-01-01T00:00:00Z';
      return n;
    }, {});
    assert.equal(meta(u).uid, meta(c).uid);
    assert.equal(meta(u).creationTimestamp, meta(c).creationTimestamp);
    const err = await rejectsStatus(
      s.update('default', 'imm', (cur) => ({ ...cur!, metadata: { ...meta(cur!), uid: 'other' } }), {}),
      422,
      'Invalid',
    );
    assert.match(err.message, /metadata\.uid: Invalid value: "other": field is immutable/);
  });

  test('the name in the body must match the URL', async () => {
    await s.create('default', widget('nm'), {});
    await rejectsStatus(
      s.update('default', 'nm', (cur) => ({ ...cur!, metadata: { ...meta(cur!), name: 'other' } }), {}),
      400,
      'BadRequest',
      'the name of the object (other) does not match the name on the URL (nm)',
    );
  });

  test('main-resource writes keep the stored status; status writes change only status', async () => {
    await s.create('default', widget('sub'), {});
    const { object: st } = await s.update('default', 'sub', (cur) => ({ ...cur!, status: { replicas: 2 }, spec: { color: 'x', replicas: 9 } }), {
      subresource: 'status',
    });
    assert.deepEqual(st.status, { replicas: 2 });
    assert.deepEqual(st.spec, { color: 'blue', replicas: 1 });
    assert.equal(meta(st).generation, 1);
    const { object: main } = await s.update('default', 'sub', (cur) => ({ ...cur!, status: { replicas: 5 }, spec: { color: 'red', replicas: 1 } }), {});
    assert.deepEqual(main.status, { replicas: 2 });
    assert.deepEqual(main.spec, { color: 'red', replicas: 1 });
    assert.equal(meta(main).generation, 2);
  });

  test('a no-op update keeps the resourceVersion and writes nothing', async () => {
    const { object: c } = await s.create('default', widget('noop'), {});
    const rev = await t.store.currentRevision();
    const { object: u } = await s.update('default', 'noop', (cur) => cur!, {});
    assert.equal(meta(u).resourceVersion, meta(c).resourceVersion);
    assert.equal(await t.store.currentRevision(), rev);
  });

  test('update of a missing object is 404 (no create on update for custom resources)', async () => {
    await rejectsStatus(s.update('default', 'nope', () => widget('nope'), {}), 404, 'NotFound', 'widgets.example.com "nope" not found');
  });

  test('concurrent read-modify-write updates all land (conflicts are retried)', async () => {
    await s.create('default', widget('race', { spec: { n: 0 } }), {});
    await Promise.all(
      Array.from({ length: 10 }, () =>
        s.update('default', 'race', (cur) => ({ ...cur!, spec: { n: ((cur!.spec as { n: number }).n ?? 0) + 1 } }), {}),
      ),
    );
    const got = await s.get('default', 'race');
    assert.deepEqual(got.spec, { n: 10 });
    assert.equal(meta(got).generation, 11);
  });

  test('scale spec validation: negative replicas is 422', async () => {
    await s.create('default', widget('sc'), {});
    await rejectsStatus(
      s.update('default', 'sc', (cur) => ({ ...cur!, spec: { replicas: -1 } }), {}),
      422,
      'Invalid',
      'Widget.example.com "sc" is invalid: .spec.replicas: Invalid value: -1: should be a non-negative integer',
    );
  });

  test('dryRun update writes nothing', async () => {
    await s.create('default', widget('dryu'), {});
    const rev = await t.store.currentRevision();
    const { object } = await s.update('default', 'dryu', (cur) => ({ ...cur!, spec: { color: 'pink' } }), { dryRun: true });
    assert.deepEqual(object.spec, { color: 'pink' });
    assert.equal(await t.store.currentRevision(), rev);
    assert.deepEqual((await s.get('default', 'dryu')).spec, { color: 'blue', replicas: 1 });
  });
});

describe('generic store: delete and finalizers', () => {
  let t: TempStore;
  let s: GenericStore;
  before(async () => {
    t = await openTempStore();
    s = widgetStore(t.store);
  });
  after(() => t.close());

  test('delete without finalizers removes the object and answers with a Success Status', async () => {
    const { object: c } = await s.create('default', widget('d'), {});
    const r = await s.delete('default', 'd', {});
    assert.equal(r.deleted, true);
    assert.equal(meta(r.object).name, 'd');
    assert.deepEqual(r.response, {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Success',
      details: { name: 'd', group: 'example.com', kind: 'widgets', uid: meta(c).uid },
      code: 200,
    });
    await rejectsStatus(s.get('default', 'd'), 404, 'NotFound');
    await rejectsStatus(s.delete('default', 'd', {}), 404, 'NotFound', 'widgets.example.com "d" not found');
  });

  test('finalizers: delete sets deletionTimestamp and grace 0; emptying finalizers removes it', async () => {
    const w = widget('f');
    meta(w).finalizers = ['example.com/block'];
    await s.create('default', w, {});
    const r = await s.delete('default', 'f', {});
    assert.equal(r.deleted, false);
    const m = meta(r.object);
    assert.match(m.deletionTimestamp, /Z$/);
    assert.equal(m.deletionGracePeriodSeconds, 0);
    assert.equal(m.generation, 2);
    assert.equal(r.response, r.object);
    // a second delete changes nothing
    const rev = await t.store.currentRevision();
    const again = await s.delete('default', 'f', {});
    assert.equal(again.deleted, false);
    assert.equal(await t.store.currentRevision(), rev);
    // deletionTimestamp cannot be removed or changed
    const { object: kept } = await s.update('default', 'f', (cur) => {
      const n = structuredClone(cur!);
      delete meta(n).deletionTimestamp;
      meta(n).labels = { x: 'y' };
      return n;
    }, {});
    assert.equal(meta(kept).deletionTimestamp, m.deletionTimestamp);
    // no new finalizers while deleting
    const err = await rejectsStatus(
      s.update('default', 'f', (cur) => ({ ...cur!, metadata: { ...meta(cur!), finalizers: ['example.com/block', 'example.com/new'] } }), {}),
      422,
      'Invalid',
    );
    assert.match(err.message, /metadata\.finalizers: Forbidden: no new finalizers can be added if the object is being deleted/);
    // removing the last finalizer deletes it
    await s.update('default', 'f', (cur) => ({ ...cur!, metadata: { ...meta(cur!), finalizers: [] } }), {});
    await rejectsStatus(s.get('default', 'f'), 404, 'NotFound');
  });

  test('preconditions on uid and resourceVersion', async () => {
    const { object: c } = await s.create('default', widget('p'), {});
    await rejectsStatus(
      s.delete('default', 'p', { preconditions: { uid: 'nope' } }),
      409,
      'Conflict',
      `Operation cannot be fulfilled on Widget.example.com "p": the UID in the precondition (nope) does not match the UID in record (${meta(c).uid}). The object might have been deleted and then recreated`,
    );
    await rejectsStatus(
      s.delete('default', 'p', { preconditions: { resourceVersion: '1' } }),
      409,
      'Conflict',
      `Operation cannot be fulfilled on Widget.example.com "p": the ResourceVersion in the precondition (1) does not match the ResourceVersion in record (${meta(c).resourceVersion}). The object might have been modified`,
    );
    const r = await s.delete('default', 'p', { preconditions: { uid: meta(c).uid, resourceVersion: meta(c).resourceVersion } });
    assert.equal(r.deleted, true);
  });

  test('dryRun delete keeps the object', async () => {
    await s.create('default', widget('dd'), {});
    const r = await s.delete('default', 'dd', { dryRun: true });
    assert.equal(r.deleted, true);
    await s.get('default', 'dd');
  });

  test('invalid propagationPolicy is 422 on DeleteOptions', async () => {
    await s.create('default', widget('pp'), {});
    await rejectsStatus(
      s.delete('default', 'pp', { propagationPolicy: 'Sometimes' }),
      422,
      'Invalid',
      'DeleteOptions.meta.k8s.io "" is invalid: propagationPolicy: Unsupported value: "Sometimes": supported values: "Foreground", "Background", "Orphan", "nil"',
    );
  });

  test('create over a deleting object says so', async () => {
    const w = widget('busy');
    meta(w).finalizers = ['example.com/block'];
    await s.create('default', w, {});
    await s.delete('default', 'busy', {});
    await rejectsStatus(
      s.create('default', widget('busy'), {}),
      409,
      'AlreadyExists',
      'object is being deleted: widgets.example.com "busy" already exists',
    );
  });

  test('deleteCollection with a label selector deletes only the matches', async () => {
    await s.create('ns2', widget('a', { labels: { team: 'x' } }), {});
    await s.create('ns2', widget('b', { labels: { team: 'x' } }), {});
    await s.create('ns2', widget('c', { labels: { team: 'y' } }), {});
    const list = await s.deleteCollection('ns2', { labelSelector: 'team=x' }, {});
    assert.deepEqual(list.items.map((o) => meta(o).name), ['a', 'b']);
    const left = await s.list('ns2', {});
    assert.deepEqual(left.items.map((o) => meta(o).name), ['c']);
  });

  test('deleteCollection: dryRun deletes nothing; a field selector narrows it; finalizers are honoured', async () => {
    await s.create('ns3', widget('a'), {});
    const held = widget('b');
    meta(held).finalizers = ['example.com/hold'];
    await s.create('ns3', held, {});
    await s.create('ns3', widget('c'), {});
    const rev = await t.store.currentRevision();
    const dry = await s.deleteCollection('ns3', {}, { dryRun: true });
    assert.equal(dry.items.length, 3);
    assert.equal(await t.store.currentRevision(), rev);
    const one = await s.deleteCollection('ns3', { fieldSelector: 'metadata.name=a' }, {});
    assert.deepEqual(one.items.map((o) => meta(o).name), ['a']);
    await s.deleteCollection('ns3', {}, {});
    const left = await s.list('ns3', {});
    assert.deepEqual(left.items.map((o) => meta(o).name), ['b']);
    assert.match(meta(left.items[0]!).deletionTimestamp, /Z$/);
  });
});

describe('generic store: generateName collisions and get', () => {
  let t: TempStore;
  before(async () => {
    t = await openTempStore();
  });
  after(() => t.close());

  test('generateName retries with fresh names, then 409 with the generated-name message', async () => {
    const names = ['gen-aaaaa', 'gen-aaaaa', 'gen-bbbbb'];
    let calls = 0;
    const s = widgetStore(t.store, { generateName: (base) => names[Math.min(calls++, names.length - 1)]!.replace('gen-', base) });
    const w = widget('');
    delete meta(w).name;
    meta(w).generateName = 'gen-';
    assert.equal(meta((await s.create('default', w, {})).object).name, 'gen-aaaaa');
    // second create collides once, then gets gen-bbbbb
    assert.equal(meta((await s.create('default', w, {})).object).name, 'gen-bbbbb');
    const before = calls;
    const err = await rejectsStatus(
      s.create('default', w, {}),
      409,
      'AlreadyExists',
      'widgets.example.com "gen-bbbbb" already exists, the server was not able to generate a unique name for the object',
    );
    assert.equal(calls - before, 8);
    assert.equal(err.status.details?.retryAfterSeconds, 1);
  });

  test('get with a resourceVersion: not older than it; a future one is 504, a malformed one 400', async () => {
    const s = widgetStore(t.store);
    const { object } = await s.create('default', widget('g1'), {});
    const rv = meta(object).resourceVersion as string;
    assert.deepEqual(await s.get('default', 'g1', { resourceVersion: rv }), object);
    assert.deepEqual(await s.get('default', 'g1', { resourceVersion: '0' }), object);
    await rejectsStatus(s.get('default', 'g1', { resourceVersion: String(Number(rv) + 50) }), 504, 'Timeout', /^Timeout: Too large resource version: \d+, current: \d+$/);
    await rejectsStatus(
      s.get('default', 'g1', { resourceVersion: '-1' }),
      400,
      'BadRequest',
      'invalid resource version: resourceVersion: Invalid value: "-1": strconv.ParseUint: parsing "-1": invalid syntax',
    );
  });

  test('cluster-scoped keys have no namespace segment; core-group keys no group segment', async () => {
    const { KeyLayout } = await import('./keys.ts');
    assert.equal(new KeyLayout('example.com', 'widgets', true).key('ns', 'x'), '/registry/example.com/widgets/ns/x');
    assert.equal(new KeyLayout('example.com', 'gadgets', false).key(undefined, 'x'), '/registry/example.com/gadgets/x');
    assert.equal(new KeyLayout('', 'namespaces', false).key(undefined, 'x'), '/registry/namespaces/x');
    assert.throws(() => new KeyLayout('example.com', 'widgets', true).key(undefined, 'x'), { message: 'Namespace parameter required.' });
  });
});

describe('generic store: bad input changes nothing', () => {
  let t: TempStore;
  let s: GenericStore;
  before(async () => {
    t = await openTempStore();
    s = widgetStore(t.store);
  });
  after(() => t.close());

  test('an unparsable resourceVersion on update is a 500 with strconv\'s message, as upstream', async () => {
    await s.create('default', widget('rv'), {});
    const rev = await t.store.currentRevision();
    const err = await rejectsStatus(
      s.update('default', 'rv', (cur) => ({ ...cur!, metadata: { ...meta(cur!), resourceVersion: 'abc' }, spec: { color: 'x' } }), {}),
      500,
      '',
      'strconv.ParseUint: parsing "abc": invalid syntax',
    );
    assert.equal(err.status.reason, undefined);
    assert.equal(await t.store.currentRevision(), rev);
  });

  test('labels of the wrong type, oversized annotations and bad finalizers are 422', async () => {
    const rev = await t.store.currentRevision();
    const w1 = widget('l1');
    meta(w1).labels = ['a'];
    await rejectsStatus(s.create('default', w1, {}), 422, 'Invalid', /metadata/);
    const w2 = widget('l2');
    meta(w2).annotations = { big: 'x'.repeat(256 * 1024) };
    await rejectsStatus(s.create('default', w2, {}), 422, 'Invalid', /metadata\.annotations: Too long: may not be (more than|longer than) 262144 bytes/);
    const w3 = widget('l3');
    meta(w3).finalizers = ['bad finalizer!'];
    await rejectsStatus(s.create('default', w3, {}), 422, 'Invalid', /^Widget\.example\.com "l3" is invalid: metadata\.finalizers: Invalid value: "bad finalizer!": name part must consist of/);
    assert.equal(await t.store.currentRevision(), rev);
  });

  test('an update into another namespace is 400; the object is unchanged', async () => {
    const { object } = await s.create('default', widget('mv'), {});
    await rejectsStatus(
      s.update('default', 'mv', (cur) => ({ ...cur!, metadata: { ...meta(cur!), namespace: 'other' } }), {}),
      400,
      'BadRequest',
      'the namespace of the object (other) does not match the namespace on the URL (default)',
    );
    assert.deepEqual(await s.get('default', 'mv'), object);
  });
});

describe('generic store: create on update', () => {
  test('forceAllowCreate (apply) creates a missing object, ignoring a resourceVersion in the body', async () => {
    const t = await openTempStore();
    try {
      const s = widgetStore(t.store);
      const w = widget('applied');
      meta(w).resourceVersion = '12';
      const r = await s.update('default', 'applied', (cur) => {
        assert.equal(cur, undefined);
        return w;
      }, { forceAllowCreate: true });
      assert.equal(r.created, true);
      assert.equal(meta(r.object).generation, 1);
      assert.equal(meta(r.object).resourceVersion, String(await t.store.currentRevision()));
      const again = await s.update('default', 'applied', (cur) => ({ ...cur!, spec: { color: 'red' } }), { forceAllowCreate: true });
      assert.equal(again.created, false);
      assert.equal(meta(again.object).generation, 2);
    } finally {
      await t.close();
    }
  });
});

describe('generic store: update preconditions', () => {
  test('a PUT whose body carries another uid is 409 with the storage precondition message', async () => {
    const t = await openTempStore();
    try {
      const s = widgetStore(t.store);
      const { object } = await s.create('default', widget('u'), {});
      const body = { ...object, metadata: { ...meta(object), uid: 'not-it' } };
      await rejectsStatus(
        s.update('default', 'u', () => body, { preconditions: { uid: 'not-it' } }),
        409,
        'Conflict',
        `Operation cannot be fulfilled on widgets.example.com "u": Precondition failed: UID in precondition: not-it, UID in object meta: ${meta(object).uid}`,
      );
      const ok = await s.update('default', 'u', (cur) => ({ ...cur!, spec: { color: 'y' } }), { preconditions: { uid: meta(object).uid } });
      assert.deepEqual(ok.object.spec, { color: 'y' });
    } finally {
      await t.close();
    }
  });
});

describe('generic store: the admission seam', () => {
  test('sees the final object (and the old one), can refuse without a write, can warn', async () => {
    const t = await openTempStore();
    try {
      const seen: [Obj, Obj | undefined][] = [];
      const ops: string[] = [];
      const admission: Admission = {
        async admit(a) {
          ops.push(`admit ${a.operation}`);
        },
        async validate(a) {
          ops.push(`validate ${a.operation}`);
          if (a.operation === 'DELETE') {
            throw new StatusError({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'no deletes', reason: 'Forbidden', code: 403 });
          }
          seen.push([structuredClone(a.object!), a.oldObject && structuredClone(a.oldObject)]);
          if ((a.object!.spec as { color?: string }).color === 'forbidden') {
            throw new StatusError({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'denied by policy', reason: 'Invalid', code: 422 });
          }
          a.warnings.push('checked by policy');
        },
      };
      const s = widgetStore(t.store, { admission });
      const r = await s.create('default', widget('adm'), {});
      assert.deepEqual(r.warnings, ['checked by policy']);
      assert.equal(meta(seen[0]![0]).generation, 1);
      assert.ok(meta(seen[0]![0]).uid);
      assert.equal(seen[0]![1], undefined);
      const rev = await t.store.currentRevision();
      await rejectsStatus(s.create('default', widget('adm2', { spec: { color: 'forbidden' } }), {}), 422, 'Invalid', 'denied by policy');
      await rejectsStatus(s.update('default', 'adm', (cur) => ({ ...cur!, spec: { color: 'forbidden' } }), {}), 422, 'Invalid', 'denied by policy');
      assert.equal(await t.store.currentRevision(), rev);
      const [obj, old] = seen[seen.length - 1]!;
      assert.equal(meta(obj).generation, 2);
      assert.deepEqual(old!.spec, { color: 'blue', replicas: 1 });
      await rejectsStatus(s.delete('default', 'adm', {}), 403, 'Forbidden', 'no deletes');
      // Mutating plugins run before validating ones, on every operation.
      assert.deepEqual(ops.slice(0, 2), ['admit CREATE', 'validate CREATE']);
      assert.deepEqual(ops.slice(-2), ['admit DELETE', 'validate DELETE']);
      await s.get('default', 'adm');
    } finally {
      await t.close();
    }
  });
});

describe('generic store: versions', () => {
  test('objects are stored in the storage version and read in the served one', async () => {
    const t = await openTempStore();
    try {
      const { CustomResourceStrategy } = await import('./customresource/strategy.ts');
      const { GenericStore } = await import('./generic-store.ts');
      const store = (version: string) =>
        new GenericStore({
          store: t.store,
          info: { ...widgetInfo, version },
          strategy: new CustomResourceStrategy({ group: 'example.com', version, kind: 'Widget', namespaced: true }),
          storageVersion: 'v1',
        });
      const beta = store('v1beta1');
      const v1 = store('v1');
      const w = widget('conv');
      w.apiVersion = 'example.com/v1beta1';
      const { object } = await beta.create('default', w, {});
      assert.equal(object.apiVersion, 'example.com/v1beta1');
      const raw = JSON.parse((await t.store.get('/registry/example.com/widgets/default/conv'))!.value);
      assert.equal(raw.apiVersion, 'example.com/v1');
      assert.equal((await v1.get('default', 'conv')).apiVersion, 'example.com/v1');
      assert.equal((await beta.list('default', {})).items[0]!.apiVersion, 'example.com/v1beta1');
      // A no-op through the other version writes nothing.
      const rev = await t.store.currentRevision();
      await v1.update('default', 'conv', (cur) => cur!, {});
      assert.equal(await t.store.currentRevision(), rev);
    } finally {
      await t.close();
    }
  });
});
