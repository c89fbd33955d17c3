/**
 * `validate --output json --show-defaulted`: the object printed for each valid document is the one
 * a real server stores for it. A Deployment, a Pod, a Service, a Job and a CronJob are validated
 * offline (the real CLI process) and created with kubectl on a real `serve` process; what kubectl
 * reads back must equal the offline object, but for what only a live server gives: uids (and the
 * Job's labels and selector made from its uid), timestamps, resourceVersions, managedFields, the
 * Service's allocated cluster IPs, and what controllers write afterwards (the Deployment's
 * revision annotation and status).
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { kubectl, startServer, type ServerProcess } from '../../test/e2e/harness.ts';
import { runCLI } from '../../test/lib/cli.ts';

const manifests = `apiVersion: apps/v1
kind: Deployment
metadata: {name: web, labels: {app: web}}
spec:
  replicas: 2
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers:
      - name: web
        image: nginx:1.27
        ports: [{containerPort: 80}]
        resources: {limits: {cpu: 0.5, memory: 128Mi}}
        readinessProbe: {httpGet: {port: 80}}
---
apiVersion: v1
kind: Pod
metadata: {name: tool}
spec:
  containers:
  - name: sh
    image: busybox
    command: [sleep, "3600"]
    resources: {requests: {memory: 0.5Gi}}
---
apiVersion: v1
kind: Service
metadata: {name: web}
spec:
  selector: {app: web}
  ports: [{port: 80, targetPort: 8080}]
---
apiVersion: batch/v1
kind: Job
metadata: {name: once}
spec:
  template:
    spec:
      restartPolicy: Never
      containers: [{name: c, image: busybox:1.36, command: [date]}]
---
apiVersion: batch/v1
kind: CronJob
metadata: {name: tick}
spec:
  schedule: "*/5 * * * *"
  jobTemplate:
    spec:
      template:
        spec:
          restartPolicy: OnFailure
          containers: [{name: c, image: busybox, command: [date]}]
`;

let s: ServerProcess;
before(async () => {
  s = await startServer();
});
after(async () => {
  await s.stop();
});

type Obj = Record<string, any>;

/** What differs between a dry run and a stored object, by nature rather than by mistake. */
function comparable(o: Obj): Obj {
  const c = JSON.parse(JSON.stringify(o)) as Obj;
  const uid = c.metadata?.uid as string | undefined;
  for (const k of ['uid', 'creationTimestamp', 'resourceVersion', 'managedFields']) delete c.metadata[k];
  if (c.kind === 'Deployment') {
    delete c.status;
    delete c.metadata.annotations?.['deployment.kubernetes.io/revision'];
    if (c.metadata.annotations && Object.keys(c.metadata.annotations).length === 0) delete c.metadata.annotations;
  }
  if (c.kind === 'Service') {
    c.spec.clusterIP = '<allocated>';
    c.spec.clusterIPs = ['<allocated>'];
  }
  const text = JSON.stringify(c);
  return JSON.parse(uid ? text.split(uid).join('<uid>') : text) as Obj;
}

/**
 * A stored Pod without what the ServiceAccount admission plugin added (its ServiceAccount and the
 * kube-api-access token volume): offline validation runs the codec and the strategy, not the
 * server's admission plugins, as kubectl-validate does.
 */
function withoutServiceAccountAdmission(o: Obj): Obj {
  if (o.kind !== 'Pod') return o;
  const spec = o.spec as Obj;
  delete spec.serviceAccount;
  delete spec.serviceAccountName;
  const isToken = (n: unknown) => typeof n === 'string' && n.startsWith('kube-api-access-');
  spec.volumes = (spec.volumes as Obj[] | undefined)?.filter((v) => !isToken(v.name));
  if ((spec.volumes as Obj[] | undefined)?.length === 0) delete spec.volumes;
  for (const c of [...((spec.containers as Obj[]) ?? []), ...((spec.initContainers as Obj[]) ?? [])]) {
    c.volumeMounts = (c.volumeMounts as Obj[] | undefined)?.filter((m) => !isToken(m.name));
    if ((c.volumeMounts as Obj[] | undefined)?.length === 0 || c.volumeMounts === undefined) delete c.volumeMounts;
  }
  return o;
}

test('validate --show-defaulted prints the object the server stores', async () => {
  const file = join(s.dir, 'app.yaml');
  writeFileSync(file, manifests);
  const r = runCLI('validate', '-o', 'json', '--show-defaulted', file);
  assert.equal(r.code, 0, r.stdout + r.stderr);
  const offline = r.stdout.trim().split('\n').map((l) => JSON.parse(l) as { status: { status: string }; object?: Obj });
  assert.equal(offline.length, 5);
  const created = await kubectl(s, ['create', '-f', file]);
  assert.equal(created.code, 0, created.stderr);
  const refs = ['deployment/web', 'pod/tool', 'service/web', 'job/once', 'cronjob/tick'];
  for (const [i, ref] of refs.entries()) {
    const got = await kubectl(s, ['get', ref, '-o', 'json']);
    assert.equal(got.code, 0, got.stderr);
    const stored = withoutServiceAccountAdmission(JSON.parse(got.stdout) as Obj);
    const o = offline[i]!;
    assert.equal(o.status.status, 'Success', ref);
    assert.ok(o.object, `${ref}: no object printed`);
    assert.deepEqual(comparable(o.object), comparable(stored), ref);
  }
  // The defaults really are there (not the input echoed back).
  assert.equal(offline[0]!.object!.spec.strategy.rollingUpdate.maxSurge, '25%');
  assert.equal(offline[1]!.object!.spec.containers[0].resources.requests.memory, '512Mi');
  assert.equal(offline[1]!.object!.status.qosClass, 'Burstable');
  assert.equal(offline[2]!.object!.spec.type, 'ClusterIP');
  assert.equal(offline[3]!.object!.spec.backoffLimit, 6);
  assert.equal(offline[4]!.object!.spec.concurrencyPolicy, 'Allow');
});

test('--show-defaulted needs JSON output', () => {
  const r = runCLI('validate', '--show-defaulted', 'x.yaml');
  assert.equal(r.code, 2);
  assert.match(r.stderr, /--show-defaulted needs --output json/);
});
