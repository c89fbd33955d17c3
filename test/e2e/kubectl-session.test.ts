/**
 * The kubectl session of a person trying Deployments on kind, against a real server process:
 * create, scale, set image, rollout history (and one revision), rollout undo, expose, a CronJob
 * and a Job made from it, and `get -o yaml` of each. kubectl's output is compared with the
 * expected transcript in testdata/kubectl-session/ (what kubectl prints against kube-apiserver
 * 1.35, uids, times, resourceVersions and cluster IPs masked; the pod-template hashes are the
 * ones kube-controller-manager computes for these templates). The
 * revisions and ReplicaSets come from the deployment controller; with no kubelets no pod runs,
 * so the status blocks count none (a cluster's would count the running pods).
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { kubectl, startServer, type ServerProcess } from './harness.ts';

const expectedDir = new URL('../../testdata/kubectl-session/', import.meta.url);

let s: ServerProcess;
before(async () => {
  s = await startServer();
});
after(async () => {
  await s.stop();
});

/** Masks what differs from run to run. */
export function mask(text: string): string {
  return text
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '<uid>')
    .replace(/"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ"/g, '"<time>"')
    .replace(/resourceVersion: "\d+"/g, 'resourceVersion: "<rv>"')
    .replace(/\b10\.(9[6-9]|1[01]\d)\.\d+\.\d+\b/g, '<cluster-ip>');
}

/** Runs kubectl and checks its masked output against the named expected file. */
async function step(file: string, args: string[]): Promise<void> {
  const r = await kubectl(s, args);
  assert.equal(r.code, 0, `kubectl ${args.join(' ')}: ${r.stderr}`);
  const got = mask(r.stdout);
  const path = new URL(file, expectedDir);
  if (process.env.UPDATE_EXPECTED === '1') writeFileSync(path, got);
  assert.equal(got, readFileSync(path, 'utf8'), `kubectl ${args.join(' ')}`);
}

/** Waits until the deployment controller has seen the Deployment's latest generation. */
async function settled(): Promise<void> {
  for (let i = 0; i < 100; i++) {
    const r = await kubectl(s, ['get', 'deployment', 'web', '-o', 'jsonpath={.metadata.generation} {.status.observedGeneration}']);
    const [g, o] = r.stdout.split(' ');
    if (g && g === o) return;
    await new Promise((res) => setTimeout(res, 100));
  }
  assert.fail('the deployment controller did not observe the Deployment');
}

test('a person\'s kubectl session: deployment rollout, undo, expose, cronjob and job', async () => {
  await step('01-create-deployment.txt', ['create', 'deployment', 'web', '--image=nginx:1.25', '--replicas=2']);
  await settled();
  await step('02-scale.txt', ['scale', 'deployment', 'web', '--replicas=3']);
  await settled();
  await step('03-set-image.txt', ['set', 'image', 'deployment/web', 'nginx=nginx:1.26']);
  await settled();
  await step('04-rollout-history.txt', ['rollout', 'history', 'deployment/web']);
  await step('05-rollout-history-revision-2.txt', ['rollout', 'history', 'deployment/web', '--revision=2']);
  await step('06-get-rs.txt', ['get', 'rs', '-o', 'yaml']);
  await step('07-rollout-undo.txt', ['rollout', 'undo', 'deployment/web']);
  await settled();
  await step('08-rollout-history-after-undo.txt', ['rollout', 'history', 'deployment/web']);
  await step('09-get-deployment.txt', ['get', 'deployment', 'web', '-o', 'yaml']);
  await step('10-expose.txt', ['expose', 'deployment', 'web', '--port=80']);
  await step('11-get-service.txt', ['get', 'service', 'web', '-o', 'yaml']);
  await step('12-create-cronjob.txt', ['create', 'cronjob', 'c', '--image=busybox', '--schedule=*/5 * * * *']);
  await step('13-get-cronjob.txt', ['get', 'cronjob', 'c', '-o', 'yaml']);
  await step('14-create-job-from-cronjob.txt', ['create', 'job', 'j', '--from=cronjob/c']);
  await step('15-get-job.txt', ['get', 'job', 'j', '-o', 'yaml']);
});

test('rollout undo to the current revision is skipped, as kubectl reports it', async () => {
  const r = await kubectl(s, ['rollout', 'undo', 'deployment/web', '--to-revision=3']);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout, 'deployment.apps/web skipped rollback (current template already matches revision 3)\n');
  const missing = await kubectl(s, ['rollout', 'undo', 'deployment/web', '--to-revision=9']);
  assert.notEqual(missing.code, 0);
  assert.match(missing.stderr, /unable to find specified revision 9 in history/);
});
