/**
 * Field manager micro-benchmark (`npm run bench:managedfields`): the CPU time of one
 * managedFields Update, in process, for the writes `bench:http` makes most — a CronTab create, a
 * Deployment create (the object as the server has defaulted it, its pod template included), the
 * deployment controller's status write on that Deployment, and a spec update by the manager that
 * created it — and of each stage of it (decoding the entries, typed conversion with validation,
 * the comparison, the field set, encoding the entries). The objects come from a real in-process
 * server. Prints `us per call` per case (median of 7 rounds of CPU time, `process.cpuUsage`).
 *
 * `-- --cases crontab-create,deployment-create` picks cases; `-- --ms N` sets a round's length;
 * `-- --no-stages` times the whole calls only (for a `--cpu-prof` of them).
 */
import { parseArgs } from 'node:util';
import { newSchemasTypeConverter, schemaFromStructural, type StructuralNode } from '../src/apimachinery/index.ts';
import { decodeManagedFields, encodeManagedFields } from '../src/apimachinery/managedfields/index.ts';
import { FieldManagers } from '../src/registry/field-managers.ts';
import { builtinFieldManagers } from '../src/registry/builtin/definition.ts';
import { builtinResources } from '../src/registry/builtin/catalog.ts';
import { objectMetaModels } from '../src/registry/builtin/merge-schema.ts';
import { servedVersions } from '../src/registry/crd/serving.ts';
import type { Obj } from '../src/registry/rest.ts';
import { crdManifest } from '../src/server/testing/fixtures.ts';
import { median } from './lib/timing.ts';
import { must, serveInProcess } from './lib/in-process.ts';
import { benchDeployment } from './lib/workloads.ts';

const { values } = parseArgs({ options: { cases: { type: 'string' }, ms: { type: 'string', default: '300' }, 'no-stages': { type: 'boolean', default: false } } });
const ROUND_MS = Number(values.ms);
const ROUNDS = 7;

const crd = crdManifest(
  'stable.example.com',
  { plural: 'crontabs', singular: 'crontab', kind: 'CronTab', listKind: 'CronTabList' },
  { spec: { type: 'object', properties: { cronSpec: { type: 'string' }, image: { type: 'string' }, replicas: { type: 'integer', minimum: 0 } } } },
  { subresources: { status: {} } },
);

const deployment: Obj = { ...benchDeployment('web'), metadata: { name: 'web', namespace: 'default', labels: { app: 'bench' } } };

const crontab: Obj = {
  apiVersion: 'stable.example.com/v1',
  kind: 'CronTab',
  metadata: { name: 'cron', namespace: 'default', labels: { app: 'bench' } },
  spec: { cronSpec: '* * * * */5', image: 'my-awesome-cron-image', replicas: 1 },
};

/** The CronTab's field managers, built as the custom-resource registry builds them. */
function crontabManagers(): FieldManagers {
  const v = servedVersions(crd as unknown as Obj)[0]!;
  const built = schemaFromStructural(v.compiled.structural as StructuralNode | undefined, {
    name: 'com.example.stable.v1.CronTab',
    components: objectMetaModels(),
    preserveUnknownFields: false,
  });
  const tc = newSchemasTypeConverter(new Map([['stable.example.com/v1/CronTab', built]]));
  return new FieldManagers({ apiVersion: 'stable.example.com/v1', kind: 'CronTab', hasStatus: true, typeConverter: () => tc });
}

function deploymentManagers(): FieldManagers {
  const r = builtinResources().find((b) => b.group === 'apps' && b.version === 'v1' && b.kind === 'Deployment')!;
  return builtinFieldManagers(r);
}

const strip = (o: Obj): Obj => {
  const out = JSON.parse(JSON.stringify(o)) as Obj;
  delete (out.metadata as Obj).managedFields;
  return out;
};

interface Case {
  name: string;
  run: () => unknown;
  /** The stages, each alone, for the breakdown. */
  stages: Record<string, () => unknown>;
  /** The object written: its JSON round trip is the floor the call is printed against. */
  obj: Obj;
}

/** CPU microseconds per call of fn: rounds of about ROUND_MS, median. */
function cpuPerCall(fn: () => unknown): number {
  let n = 1;
  for (;;) {
    const t0 = process.cpuUsage();
    for (let i = 0; i < n; i++) fn();
    const d = process.cpuUsage(t0);
    const us = d.user + d.system;
    if (us >= ROUND_MS * 100) {
      n = Math.max(1, Math.ceil((n * ROUND_MS * 1000) / us));
      break;
    }
    n *= 2;
  }
  const samples: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    const t0 = process.cpuUsage();
    for (let i = 0; i < n; i++) fn();
    const d = process.cpuUsage(t0);
    samples.push((d.user + d.system) / n);
  }
  return median(samples);
}

async function main(): Promise<void> {
  const s = await serveInProcess('bench-mf-');
  let cr: Obj;
  let dep: Obj;
  try {
    await must(s, 'POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', crd);
    for (let i = 0; ; i++) {
      const r = await fetch(`${s.base}/apis/stable.example.com/v1/namespaces/default/crontabs`, { method: 'POST', body: JSON.stringify(crontab), headers: { 'content-type': 'application/json' } });
      if (r.status === 201) {
        cr = (await r.json()) as Obj;
        break;
      }
      if (i > 100) throw new Error(`CronTab create: ${r.status} ${await r.text()}`);
      await new Promise((res) => setTimeout(res, 50));
    }
    dep = JSON.parse(await must(s, 'POST', '/apis/apps/v1/namespaces/default/deployments', deployment)) as Obj;
  } finally {
    await s.stop();
  }

  const crFms = crontabManagers();
  const depFms = deploymentManagers();
  const cases: Case[] = [];
  const createCase = (name: string, fms: FieldManagers, created: Obj) => {
    const fm = fms.get('');
    const empty = fms.emptyObject();
    const obj = strip(created);
    const tc = (fm as unknown as { manager: unknown }).manager;
    void tc;
    return { name, fms, fm, empty, obj };
  };
  const crc = createCase('crontab-create', crFms, cr);
  const dc = createCase('deployment-create', depFms, dep);
  for (const c of [crc, dc]) {
    const converter = (c.fms as unknown as { typeConverter(): { objectToTyped(o: Obj, x?: unknown): { toFieldSet(): unknown; compare(o: unknown): unknown } } }).typeConverter();
    const typed = converter.objectToTyped(c.obj, { allowDuplicates: true });
    const emptyTyped = converter.objectToTyped(c.empty, { allowDuplicates: true });
    const result = c.fm.update(c.empty, c.obj, 'bench');
    const entries = (result.metadata as Obj).managedFields as never;
    const managed = decodeManagedFields(entries);
    cases.push({
      name: c.name,
      run: () => c.fm.updateNoErrors(c.empty, c.obj, 'bench'),
      obj: c.obj,
      stages: {
        'typed conversion (validate)': () => converter.objectToTyped(c.obj, { allowDuplicates: true }),
        'compare with the empty object': () => emptyTyped.compare(typed),
        'field set of the object': () => typed.toFieldSet(),
        'encode entries (FieldsV1)': () => encodeManagedFields(managed),
        'decode entries': () => decodeManagedFields(entries),
      },
    });
  }
  // An update of a created object: the controller's status write (status endpoint), and a spec
  // change by the creating manager.
  {
    const fmStatus = depFms.get('status');
    const live = dc.fm.update(dc.empty, dc.obj, 'kubectl-create');
    const withStatus = JSON.parse(JSON.stringify(live)) as Obj;
    withStatus.status = { observedGeneration: 1, replicas: 2, updatedReplicas: 2, unavailableReplicas: 2, conditions: [{ type: 'Available', status: 'False', lastUpdateTime: '2026-01-01T00:00:00Z', lastTransitionTime: '2026-01-01T00:00:00Z', reason: 'MinimumReplicasUnavailable', message: 'Deployment does not have minimum availability.' }] };
    cases.push({ name: 'deployment-status-update', run: () => fmStatus.updateNoErrors(live, withStatus, 'kube-controller-manager'), stages: {}, obj: withStatus });
    const scaled = JSON.parse(JSON.stringify(live)) as Obj;
    (scaled.spec as Obj).replicas = 3;
    cases.push({ name: 'deployment-spec-update', run: () => dc.fm.updateNoErrors(live, scaled, 'kubectl-create'), stages: {}, obj: scaled });
    const crLive = crc.fm.update(crc.empty, crc.obj, 'bench');
    const crScaled = JSON.parse(JSON.stringify(crLive)) as Obj;
    (crScaled.spec as Obj).replicas = 3;
    cases.push({ name: 'crontab-spec-update', run: () => crc.fm.updateNoErrors(crLive, crScaled, 'bench'), stages: {}, obj: crScaled });
  }

  const wanted = values.cases?.split(',');
  let worst = 0;
  for (const c of cases) {
    if (wanted && !wanted.includes(c.name)) continue;
    // The floor, measured beside it: a JSON round trip of the object written (what any write of
    // it costs at least to store and read back).
    const call = cpuPerCall(c.run);
    const floor = cpuPerCall(() => JSON.parse(JSON.stringify(c.obj)));
    worst = Math.max(worst, call / floor);
    console.log(`${c.name}: ${call.toFixed(1)} us per call, ${floor.toFixed(1)} us per JSON round trip of the object (ratio ${(call / floor).toFixed(2)})`);
    if (values['no-stages']) continue;
    for (const [stage, fn] of Object.entries(c.stages)) console.log(`  ${stage}: ${cpuPerCall(fn).toFixed(1)} us`);
  }
  console.log(`max managedFields update ratio to JSON round trip: ${worst.toFixed(2)}`);
}

await main();
