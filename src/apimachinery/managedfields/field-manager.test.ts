/**
 * The field manager end to end on apps/v1 Deployments (kube-apiserver's own OpenAPI models): the
 * managedFields a create and an update record, apply conflicts and their 409 text, force, the
 * upgrade paths from client-side apply (`before-first-apply`, kubectl's last-applied
 * annotation), subresource managers, the cap on update managers, and bad input.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { StatusError } from '../status.ts';
import { schemaFromOpenAPI, type OpenAPISchema } from '../smd/schema/from-openapi.ts';
import { newFieldManager, type FieldManagerOptions } from './field-manager.ts';
import { lastAppliedConfigAnnotation } from './last-applied.ts';
import type { Obj } from './manager.ts';
import { newTypeConverter } from './type-converter.ts';

const models = (JSON.parse(readFileSync(new URL('../../../testdata/smd/openapi/apps-v1-deployment.json', import.meta.url), 'utf8')) as { schemas: Record<string, OpenAPISchema> }).schemas;
const schema = schemaFromOpenAPI(models);
const typeConverter = newTypeConverter(schema, new Map([['apps/v1/Deployment', { namedType: 'io.k8s.api.apps.v1.Deployment' }]]));

let clock = '2026-01-01T00:00:00Z';
const manager = (o: Partial<FieldManagerOptions> = {}) => newFieldManager({ typeConverter, apiVersion: 'apps/v1', kind: 'Deployment', now: () => clock, ...o });
const empty = (): Obj => ({ apiVersion: 'apps/v1', kind: 'Deployment' });

function deployment(replicas: number, image = 'nginx', extra: Obj = {}): Obj {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web', namespace: 'default', labels: { app: 'web' } },
    spec: {
      replicas,
      selector: { matchLabels: { app: 'web' } },
      template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image, ...extra }] } },
    },
  };
}

const entries = (o: Obj) => (o.metadata as { managedFields?: Record<string, unknown>[] }).managedFields ?? [];
const fieldsOf = (o: Obj, mgr: string) => JSON.stringify(entries(o).find((e) => e.manager === mgr)?.fieldsV1);
const replicas = (o: Obj) => (o.spec as { replicas: number }).replicas;

function conflict(fn: () => unknown): StatusError {
  try {
    fn();
  } catch (e) {
    if (e instanceof StatusError) return e;
    throw e;
  }
  assert.fail('expected a conflict');
}

test('a create records an Update entry with time and FieldsV1 in upstream key order', () => {
  const created = manager().update(empty(), deployment(1), 'kubectl-create');
  const [e] = entries(created);
  assert.deepEqual(Object.keys(e!), ['manager', 'operation', 'apiVersion', 'time', 'fieldsType', 'fieldsV1']);
  assert.equal(e!.manager, 'kubectl-create');
  assert.equal(e!.operation, 'Update');
  assert.equal(e!.time, clock);
  assert.equal(
    JSON.stringify(e!.fieldsV1),
    '{"f:metadata":{"f:labels":{".":{},"f:app":{}}},"f:spec":{".":{},"f:replicas":{},"f:selector":{},"f:template":{".":{},"f:metadata":{".":{},"f:labels":{".":{},"f:app":{}}},"f:spec":{".":{},"f:containers":{".":{},"k:{\\"name\\":\\"c\\"}":{".":{},"f:image":{},"f:name":{}}}}}}}',
  );
});

test('an apply that changes a field another manager set conflicts with a 409 naming it', () => {
  const fm = manager();
  const created = fm.update(empty(), deployment(1), 'kubectl-client-side-apply');
  const err = conflict(() => fm.apply(created, deployment(3), 'deployer', false));
  assert.equal(err.status.code, 409);
  assert.equal(err.status.reason, 'Conflict');
  assert.equal(err.message, 'Apply failed with 1 conflict: conflict with "kubectl-client-side-apply" using apps/v1: .spec.replicas');
  assert.deepEqual(err.status.details?.causes, [{ reason: 'FieldManagerConflict', message: 'conflict with "kubectl-client-side-apply" using apps/v1', field: '.spec.replicas' }]);

  // Applying the same values is no conflict: both managers share the fields.
  const shared = fm.apply(created, deployment(1), 'deployer', false);
  assert.ok(fieldsOf(shared, 'deployer').includes('"f:replicas"'));
  assert.ok(fieldsOf(shared, 'kubectl-client-side-apply').includes('"f:replicas"'));

  // Forced, the field changes hands.
  const forced = fm.apply(created, deployment(3), 'deployer', true);
  assert.equal(replicas(forced), 3);
  assert.ok(fieldsOf(forced, 'deployer').includes('"f:replicas"'));
  assert.ok(!fieldsOf(forced, 'kubectl-client-side-apply').includes('"f:replicas"'));
  const applyEntry = entries(forced).find((e) => e.manager === 'deployer')!;
  assert.equal(applyEntry.operation, 'Apply');
  assert.equal(entries(forced)[0], applyEntry, 'Apply entries sort first');
});

test('conflicts with several fields and managers are grouped by manager', () => {
  const fm = manager();
  let live = fm.apply(empty(), deployment(1), 'a', false);
  live = fm.apply(live, { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', annotations: { x: '1' } } }, 'b', false);
  const err = conflict(() =>
    fm.apply(live, { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', annotations: { x: '2' } }, spec: { replicas: 5 } }, 'c', false),
  );
  assert.equal(err.message, 'Apply failed with 2 conflicts: conflicts with "a":\n- .spec.replicas\nconflicts with "b":\n- .metadata.annotations.x');
});

test('an apply that drops a field it applied before removes it, unless another manager owns it', () => {
  const fm = manager();
  let live = fm.apply(empty(), deployment(1, 'nginx', { workingDir: '/w' }), 'a', false);
  live = fm.apply(live, deployment(1), 'a', false);
  const c = (live.spec as { template: { spec: { containers: Obj[] } } }).template.spec.containers[0]!;
  assert.equal(c.workingDir, undefined);

  live = fm.apply(live, deployment(1, 'nginx', { workingDir: '/w' }), 'a', false);
  // An update takes the fields it changes (and only those) from their owners.
  live = fm.update(live, deployment(1, 'nginx', { workingDir: '/e' }), 'editor');
  assert.equal(fieldsOf(live, 'editor'), '{"f:spec":{"f:template":{"f:spec":{"f:containers":{"k:{\\"name\\":\\"c\\"}":{"f:workingDir":{}}}}}}}');
  live = fm.apply(live, deployment(1), 'a', false);
  const c2 = (live.spec as { template: { spec: { containers: Obj[] } } }).template.spec.containers[0]!;
  assert.equal(c2.workingDir, '/e', 'owned by editor now');
});

test('a no-op apply leaves the object and the managers\' times alone', () => {
  const fm = manager();
  const live = fm.apply(empty(), deployment(1), 'a', false);
  clock = '2026-01-02T00:00:00Z';
  const again = fm.apply(live, deployment(1), 'a', false);
  assert.deepEqual(again, live);
  clock = '2026-01-01T00:00:00Z';
});

test('list-map items merge by key; a missing key takes its schema default (protocol TCP)', () => {
  const fm = manager();
  let live = fm.apply(empty(), deployment(1, 'nginx', { ports: [{ containerPort: 80 }] }), 'a', false);
  live = fm.apply(live, deployment(1, 'nginx', { ports: [{ containerPort: 80, protocol: 'TCP', name: 'http' }] }), 'b', true);
  const c = (live.spec as { template: { spec: { containers: Obj[] } } }).template.spec.containers[0]!;
  assert.deepEqual(c.ports, [{ containerPort: 80, protocol: 'TCP', name: 'http' }]);
  assert.ok(fieldsOf(live, 'b').includes('k:{\\"containerPort\\":80,\\"protocol\\":\\"TCP\\"}'));
  assert.ok(fieldsOf(live, 'a').includes('k:{\\"containerPort\\":80,\\"protocol\\":\\"TCP\\"}'));
});

test('before-first-apply: an object that predates managed fields is owned by it before the first apply', () => {
  const fm = manager();
  const live = deployment(2);
  (live.metadata as Obj).uid = 'u-1';
  // An update of such an object records nothing.
  const updated = fm.update(live, deployment(2), 'ctl');
  assert.deepEqual(entries(updated), []);
  const err = conflict(() => fm.apply(live, deployment(3), 'deployer', false));
  assert.equal(err.message, 'Apply failed with 1 conflict: conflict with "before-first-apply" using apps/v1: .spec.replicas');
  const forced = fm.apply(live, deployment(3), 'deployer', true);
  assert.deepEqual(entries(forced).map((e) => [e.manager, e.operation]), [
    ['deployer', 'Apply'],
    ['before-first-apply', 'Update'],
  ]);
});

test('kubectl moving from client-side apply: conflicts with its own last-applied fields are forced, and the annotation follows', () => {
  const fm = manager();
  const withAnnotation = (o: Obj, value: Obj) => {
    (o.metadata as Obj).annotations = { [lastAppliedConfigAnnotation]: JSON.stringify(value) };
    return o;
  };
  const csa = withAnnotation(deployment(1), deployment(1));
  const live = fm.update(empty(), csa, 'kubectl-client-side-apply');
  const applied = fm.apply(live, deployment(2), 'kubectl', false);
  assert.equal(replicas(applied), 2);
  const annotation = ((applied.metadata as Obj).annotations as Record<string, string>)[lastAppliedConfigAnnotation]!;
  assert.equal(JSON.parse(annotation).spec.replicas, 2);
  assert.ok(annotation.endsWith('\n'));

  // Another manager gets no such pass, and neither does kubectl for a field the annotation does not hold.
  assert.equal(conflict(() => fm.apply(live, deployment(2), 'helm', false)).status.code, 409);
  const other = fm.update(live, { ...structuredClone(live), spec: { ...(live.spec as Obj), paused: true } }, 'ops');
  const err = conflict(() => fm.apply(other, { ...deployment(2), spec: { ...(deployment(2).spec as Obj), paused: false } }, 'kubectl', false));
  assert.equal(err.message, 'Apply failed with 1 conflict: conflict with "ops" using apps/v1: .spec.paused');
});

test('subresource managers are keyed apart and printed with their subresource', () => {
  const main = manager();
  const status = manager({ subresource: 'status' });
  const live = main.apply(empty(), deployment(1), 'a', false);
  const withStatus = status.update(live, { ...structuredClone(live), status: { replicas: 1 } }, 'a');
  assert.deepEqual(entries(withStatus).map((e) => [e.manager, e.operation, e.subresource]), [
    ['a', 'Apply', undefined],
    ['a', 'Update', 'status'],
  ]);
  const err = conflict(() => main.apply(withStatus, { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web' }, status: { replicas: 2 } }, 'b', false));
  assert.equal(err.message, 'Apply failed with 1 conflict: conflict with "a" with subresource "status" using apps/v1: .status.replicas');
});

test('update managers beyond ten are folded into ancient-changes', () => {
  const fm = manager();
  let live = fm.update(empty(), deployment(1), 'creator');
  for (let i = 0; i < 11; i++) {
    clock = `2026-01-01T00:00:${String(10 + i)}Z`;
    const meta = live.metadata as Obj;
    live = fm.update(live, { ...structuredClone(live), metadata: { ...meta, annotations: { ...(meta.annotations as Obj), [`a${i}`]: 'x' } } }, `m${i}`);
  }
  clock = '2026-01-01T00:00:00Z';
  const names = entries(live).map((e) => e.manager);
  assert.ok(names.includes('ancient-changes'), names.join(','));
  assert.equal(names.length, 10);
});

test('an update may reset managedFields with an empty list, and keeps the live ones when given invalid ones', () => {
  const fm = manager();
  const live = fm.update(empty(), deployment(1), 'creator');
  const reset = fm.update(live, { ...deployment(1), metadata: { ...(deployment(1).metadata as Obj), managedFields: [] } }, 'x');
  assert.deepEqual(entries(reset), []);
  const invalid = fm.update(live, { ...deployment(2), metadata: { ...(deployment(2).metadata as Obj), managedFields: [{ manager: 'bad' }] } }, 'x');
  assert.deepEqual(entries(invalid).map((e) => e.manager), ['creator', 'x']);
});

test('bad applies: wrong version or kind, managedFields in the patch, values of the wrong type', () => {
  const fm = manager();
  const live = fm.apply(empty(), deployment(1), 'a', false);
  assert.throws(() => fm.apply(live, { ...deployment(1), apiVersion: 'apps/v1beta1' }, 'a', false), (e: unknown) => e instanceof StatusError && e.status.code === 400 && e.message === 'invalid object type: apps/v1beta1, Kind=Deployment');
  const withMF = deployment(1);
  (withMF.metadata as Obj).managedFields = [];
  assert.throws(() => fm.apply(live, withMF, 'a', false), (e: unknown) => e instanceof StatusError && e.status.code === 400 && e.message === 'metadata.managedFields must be nil');
  const bad = deployment(1);
  (bad.spec as Obj).replicas = 'three';
  assert.throws(() => fm.apply(live, bad, 'a', false), {
    message: 'failed to create typed patch object (default/web; apps/v1, Kind=Deployment): .spec.replicas: expected numeric (int or float), got string',
  });
  const dup = deployment(1);
  ((dup.spec as { template: { spec: { containers: Obj[] } } }).template.spec.containers).push({ name: 'c', image: 'x' });
  assert.throws(() => fm.apply(live, dup, 'a', false), {
    message: 'failed to create typed patch object (default/web; apps/v1, Kind=Deployment): .spec.template.spec.containers: duplicate entries for key [name="c"]',
  });
});

test('an update leaves its input alone, and the same write twice records the same bytes (decoded sets are shared, never changed)', () => {
  const fm = manager();
  const created = fm.update(empty(), deployment(1), 'creator');
  const next = deployment(2);
  next.metadata = { ...(next.metadata as Obj), managedFields: entries(created) };
  const input = JSON.stringify(next);
  const a = fm.update(created, next, 'scaler');
  assert.equal(JSON.stringify(next), input);
  assert.notEqual(a.metadata, next.metadata);
  const b = fm.update(created, next, 'scaler');
  assert.equal(JSON.stringify(entries(b)), JSON.stringify(entries(a)));
  // The creator keeps the spec it made but no longer the replicas the scaler changed.
  assert.equal(fieldsOf(a, 'creator')?.includes('"f:replicas"'), false);
  assert.equal(fieldsOf(a, 'scaler'), '{"f:spec":{"f:replicas":{}}}');
  // A third write from the stored entries sees the sets of the second unchanged.
  const c = fm.update(a, { ...deployment(2, 'nginx:2'), metadata: { ...(a.metadata as Obj) } }, 'imager');
  assert.equal(fieldsOf(c, 'scaler'), '{"f:spec":{"f:replicas":{}}}');
  assert.equal(fieldsOf(c, 'imager'), '{"f:spec":{"f:template":{"f:spec":{"f:containers":{"k:{\\"name\\":\\"c\\"}":{"f:image":{}}}}}}}');
});
