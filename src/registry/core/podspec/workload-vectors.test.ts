/**
 * Kubernetes' validation and strategy tables for pods, pod templates and workloads, as data
 * (testdata/k8s-native/validation-workloads/): each case starts from a named valid object, sets
 * the fields the upstream case changes, and expects upstream's errors as kubectl prints them
 * (a leading `~` compares a prefix, for messages that print a whole template). The vectors run
 * with the defaults applied, as upstream's functions see objects.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { errorString, type FieldError } from '../../../apimachinery/index.ts';
import { Path } from '../../../apimachinery/index.ts';
import { daemonSetRules, validateDaemonSetSpec } from '../../apps/daemonset/rules.ts';
import { deploymentRules, validateDeploymentSpec } from '../../apps/deployment/rules.ts';
import { replicaSetRules, validateReplicaSetSpec } from '../../apps/replicaset/rules.ts';
import { statefulSetRules, validateStatefulSetSpec, validateStatefulSetSpecUpdate } from '../../apps/statefulset/rules.ts';
import { cronJobRules, validateCronJobSpec } from '../../batch/cronjob/rules.ts';
import { parseStandardSchedule } from '../../batch/cronjob/schedule.ts';
import { generateSelector, validateJob } from '../../batch/job/rules.ts';
import { jobRules } from '../../batch/job/rules.ts';
import type { RequestContext } from '../../strategy.ts';
import type { Obj } from '../../rest.ts';
import { computePodQOS } from '../pod/qos.ts';
import { initialPodStatus, validatePodCreate, validatePodUpdate } from '../pod/rules.ts';
import { validatePodStatusRules } from '../pod/status.ts';
import { validateRCSpec } from '../replicationcontroller/rules.ts';
import { validatePodSpec, validatePodTemplateSpec } from './validation.ts';
import { rec, type PodValidationOptions } from './values.ts';

const dir = new URL('../../../../testdata/k8s-native/validation-workloads/', import.meta.url);
const bases = JSON.parse(readFileSync(new URL('bases.json', dir), 'utf8')) as Record<string, Obj>;
const strict: PodValidationOptions = { defaultsApplied: true };
const ctx = { warnings: [], fieldValidation: 'Strict', dryRun: false } as unknown as RequestContext;

interface Case {
  name: string;
  check: string;
  base?: string;
  set?: Record<string, unknown>;
  old?: { base: string; set?: Record<string, unknown> };
  errors?: string[];
  skip?: string;
  [k: string]: unknown;
}

/** Splits `a.b[0].c\.d` into keys and indexes. */
function pathParts(p: string): (string | number)[] {
  const out: (string | number)[] = [];
  let cur = '';
  for (let i = 0; i < p.length; i++) {
    const ch = p[i]!;
    if (ch === '\\' && p[i + 1] === '.') {
      cur += '.';
      i++;
    } else if (ch === '.') {
      if (cur !== '') out.push(cur);
      cur = '';
    } else if (ch === '[') {
      if (cur !== '') out.push(cur);
      cur = '';
      const end = p.indexOf(']', i);
      out.push(Number(p.slice(i + 1, end)));
      i = end;
    } else cur += ch;
  }
  if (cur !== '') out.push(cur);
  return out;
}

function setPath(obj: Record<string, unknown>, path: string, value: unknown): void {
  const parts = pathParts(path);
  let node: Record<string | number, unknown> = obj;
  for (let i = 0; i < parts.length - 1; i++) {
    const k = parts[i]!;
    if (node[k] === undefined || node[k] === null) node[k] = typeof parts[i + 1] === 'number' ? [] : {};
    node = node[k] as Record<string | number, unknown>;
  }
  const last = parts[parts.length - 1]!;
  if (value !== null && typeof value === 'object' && (value as Record<string, unknown>).$delete === true) delete node[last];
  else node[last] = structuredClone(value);
}

function build(base: string, set: Record<string, unknown> = {}): Obj {
  const b = bases[base];
  assert.ok(b, `no base ${base}`);
  const obj = structuredClone(b);
  for (const [p, v] of Object.entries(set)) setPath(obj, p, v);
  return obj;
}

const spec = (o: Obj) => rec(o.spec) ?? {};

/** The errors of each validating check. */
const checks: Record<string, (obj: Obj, old: Obj | undefined) => FieldError[]> = {
  podSpec: (o) => validatePodSpec(o, Path.of('spec'), strict),
  podCreate: (o) => validatePodCreate(o, strict),
  podUpdate: (o, old) => validatePodUpdate(o, old!, strict),
  podStatusUpdate: (o, old) => validatePodStatusRules(o, old!),
  podTemplate: (o) => validatePodTemplateSpec(o, Path.of('template'), strict),
  deployment: (o) => validateDeploymentSpec(o, strict),
  deploymentUpdate: (o, old) => [...validateDeploymentSpec(o, strict), ...deploymentRules.validateUpdate!(ctx, o, old!).filter((e) => e.field === 'spec.selector')],
  deploymentStatus: (o, old) => deploymentRules.status!.validateUpdate!(ctx, o, old!),
  replicaSet: (o) => validateReplicaSetSpec(o, strict),
  replicaSetUpdate: (o, old) => [...validateReplicaSetSpec(o, strict), ...replicaSetRules.validateUpdate!(ctx, o, old!).filter((e) => e.field === 'spec.selector' && e.detail === 'field is immutable')],
  replicaSetStatus: (o, old) => replicaSetRules.status!.validateUpdate!(ctx, o, old!),
  statefulSet: (o) => validateStatefulSetSpec(o, strict),
  statefulSetUpdate: (o, old) => [
    ...validateStatefulSetSpec(o, strict),
    ...validateStatefulSetSpecUpdate(o, old!),
    ...statefulSetRules.validateUpdate!(ctx, o, old!).filter((e) => e.field === 'spec.selector' && e.detail === 'field is immutable'),
  ],
  statefulSetStatus: (o, old) => statefulSetRules.status!.validateUpdate!(ctx, o, old!),
  daemonSet: (o) => validateDaemonSetSpec(o, strict),
  daemonSetUpdate: (o, old) => [
    ...validateDaemonSetSpec(o, strict),
    ...daemonSetRules.validateUpdate!(ctx, o, old!).filter((e) => e.field === 'spec.selector' && e.detail === 'field is immutable'),
  ],
  rc: (o) => validateRCSpec(o, strict),
  job: (o) => validateJob(o, strict),
  jobUpdate: (o, old) => jobRules.validateUpdate!(ctx, o, old!),
  cronJob: (o) => [...validateCronJobSpec(o.spec, undefined, strict), ...cronJobRules.validate!(ctx, o).filter((e) => e.field === 'metadata.name')],
  cronJobUpdate: (o, old) => validateCronJobSpec(o.spec, old!.spec, strict),
};

function expectErrors(got: FieldError[], want: string[], name: string): void {
  const strings = got.map(errorString);
  assert.equal(strings.length, want.length, `${name}: got\n${strings.join('\n')}`);
  want.forEach((w, i) => {
    if (w.startsWith('~')) assert.ok(strings[i]!.startsWith(w.slice(1)), `${name}: error ${i}\n  got:  ${strings[i]}\n  want: ${w.slice(1)}...`);
    else assert.equal(strings[i], w, `${name}: error ${i}`);
  });
}

function run(c: Case): void {
  switch (c.check) {
    case 'schedule':
      assert.equal(parseStandardSchedule(c.schedule as string) ?? null, c.error);
      return;
    case 'qos':
      assert.equal(computePodQOS(build(c.base!, c.set)), c.qos);
      return;
    case 'prepareForCreate':
      assert.deepEqual(initialPodStatus(build(c.base!, c.set)), c.status);
      return;
    case 'jobPrepare': {
      const job = build(c.base!, c.set);
      generateSelector(job);
      assert.deepEqual(spec(job).selector, c.selector);
      assert.deepEqual(rec(rec(spec(job).template)?.metadata)?.labels, c.labels);
      // A generated selector validates; a template label the user set otherwise is kept, and refused.
      expectErrors(validateJob(job, strict), c.errors ?? [], c.name);
      return;
    }
  }
  const check = checks[c.check];
  assert.ok(check, `unknown check ${c.check}`);
  const old = c.old ? build(c.old.base, c.old.set) : undefined;
  expectErrors(check(build(c.base!, c.set), old), c.errors ?? [], c.name);
}

const files = ['pod-spec.json', 'pod.json', 'apps.json', 'batch.json'];
let ran = 0;
let skipped = 0;
for (const f of files) {
  const { cases } = JSON.parse(readFileSync(new URL(f, dir), 'utf8')) as { cases: Case[] };
  for (const c of cases) {
    if (c.skip) {
      skipped++;
      test(`${f}: ${c.name}`, { skip: c.skip }, () => {});
      continue;
    }
    ran++;
    test(`${f}: ${c.name}`, () => run(c));
  }
}

test('the workload vectors are all there', () => {
  assert.ok(ran >= 350, `only ${ran} cases ran`);
  console.log(`workload vectors: ${ran} run, ${skipped} skipped`);
});
