/**
 * kubectl against the native validation of pods and workloads on a real server process: a
 * Deployment whose selector misses its template, a Pod without an image, a Pod created Pending
 * with its QoS class, `kubectl set image` allowed where another spec change is refused with the
 * cluster's message, a Deployment's immutable selector, a Job's generated selector and immutable
 * template, StatefulSet updates outside the mutable fields, CronJob schedules and time zones, and
 * a warning for a deprecated node label.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { kubectl, manifest, startServer, type ServerProcess } from './harness.ts';

let s: ServerProcess;
before(async () => {
  s = await startServer();
});
after(async () => {
  await s.stop();
});

const updatable =
  '`spec.containers[*].image`,`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to existing tolerations),`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)';

async function apply(name: string, yaml: string) {
  return kubectl(s, ['apply', '-f', manifest(s, name, yaml)]);
}

test('a Deployment whose selector does not match its template is refused', async () => {
  const r = await apply(
    'bad-deploy.yaml',
    `apiVersion: apps/v1
kind: Deployment
metadata: {name: mismatch}
spec:
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: api}}
    spec:
      containers: [{name: web, image: nginx}]
`,
  );
  assert.equal(r.code, 1);
  assert.equal(
    r.stderr.trim(),
    'The Deployment "mismatch" is invalid: spec.template.metadata.labels: Invalid value: {"app":"api"}: `selector` does not match template `labels`',
  );
});

test('a Deployment without a selector gets both of upstream errors', async () => {
  const r = await apply(
    'noselector.yaml',
    `apiVersion: apps/v1
kind: Deployment
metadata: {name: noselector}
spec:
  template:
    metadata: {labels: {app: web}}
    spec:
      containers: [{name: web, image: nginx, ports: [{containerPort: 70000}]}]
`,
  );
  assert.equal(r.code, 1);
  assert.equal(
    r.stderr.trim(),
    'The Deployment "noselector" is invalid: \n* spec.selector: Required value\n* spec.template.metadata.labels: Invalid value: {"app":"web"}: `selector` does not match template `labels`\n* spec.template.spec.containers[0].ports[0].containerPort: Invalid value: 70000: must be between 1 and 65535, inclusive',
  );
});

test('a Pod without an image is refused; a valid one starts Pending with its QoS class', async () => {
  const bad = await apply('noimage.yaml', 'apiVersion: v1\nkind: Pod\nmetadata: {name: noimage}\nspec:\n  containers: [{name: c}]\n');
  assert.equal(bad.code, 1);
  assert.equal(bad.stderr.trim(), 'The Pod "noimage" is invalid: spec.containers[0].image: Required value');

  const ok = await apply(
    'web-pod.yaml',
    `apiVersion: v1
kind: Pod
metadata: {name: web}
spec:
  containers:
  - name: web
    image: nginx:1.25
    resources: {limits: {cpu: 500m, memory: 128Mi}}
`,
  );
  assert.equal(ok.code, 0, ok.stderr);
  const got = await kubectl(s, ['get', 'pod', 'web', '-o', 'jsonpath={.status.phase} {.status.qosClass} {.metadata.generation}']);
  assert.equal(got.stdout, 'Pending Guaranteed 1');
  const table = await kubectl(s, ['get', 'pod', 'web', '--no-headers']);
  assert.match(table.stdout, /^web\s+0\/1\s+Pending\s+0\s+/);
});

test('kubectl set image changes a Pod; another spec change is refused with the cluster message', async () => {
  const set = await kubectl(s, ['set', 'image', 'pod/web', 'web=nginx:1.26']);
  assert.equal(set.code, 0, set.stderr);
  assert.equal(set.stdout.trim(), 'pod/web image updated');
  const got = await kubectl(s, ['get', 'pod', 'web', '-o', 'jsonpath={.spec.containers[0].image} {.metadata.generation}']);
  assert.equal(got.stdout, 'nginx:1.26 2');

  const r = await kubectl(s, ['patch', 'pod', 'web', '-p', '{"spec":{"containers":[{"name":"web","ports":[{"containerPort":8080}]}]}}']);
  assert.equal(r.code, 1);
  assert.ok(
    r.stderr.startsWith(`The Pod "web" is invalid: spec: Forbidden: pod updates may not change fields other than ${updatable}\n  core.PodSpec{\n`),
    r.stderr,
  );
  assert.match(r.stderr, /\+ \tContainers: \[\{.*"containerPort":8080/);

  const removed = await kubectl(s, ['patch', 'pod', 'web', '--type=json', '-p', '[{"op":"add","path":"/spec/containers/-","value":{"name":"b","image":"busybox"}}]']);
  assert.equal(removed.code, 1);
  assert.equal(removed.stderr.trim(), 'The Pod "web" is invalid: spec.containers: Forbidden: pod updates may not add or remove containers');
});

test("a Deployment's selector is immutable; its template may change", async () => {
  const yaml = (labels: string, image: string) => `apiVersion: apps/v1
kind: Deployment
metadata: {name: shop}
spec:
  selector: {matchLabels: {${labels}}}
  template:
    metadata: {labels: {${labels}}}
    spec:
      containers: [{name: web, image: ${image}}]
`;
  assert.equal((await apply('shop.yaml', yaml('app: shop', 'nginx'))).code, 0);
  const changed = await apply('shop.yaml', yaml('app: shop', 'nginx:2'));
  assert.equal(changed.code, 0, changed.stderr);
  const r = await apply('shop.yaml', yaml('app: shop, tier: web', 'nginx:2'));
  assert.equal(r.code, 1);
  assert.match(r.stderr, /The Deployment "shop" is invalid: spec\.selector: Invalid value: \{"matchLabels":\{"app":"shop","tier":"web"\}\}: field is immutable/);
});

test("a Job gets its generated selector and labels; its template is immutable", async () => {
  const created = await kubectl(s, ['create', 'job', 'pi', '--image=perl']);
  assert.equal(created.code, 0, created.stderr);
  const got = await kubectl(s, ['get', 'job', 'pi', '-o', 'jsonpath={.metadata.uid} {.spec.selector.matchLabels} {.spec.template.metadata.labels.job-name}']);
  const [uid, selector, jobName] = got.stdout.split(' ');
  assert.deepEqual(JSON.parse(selector!), { 'batch.kubernetes.io/controller-uid': uid });
  assert.equal(jobName, 'pi');
  const r = await kubectl(s, ['set', 'image', 'job/pi', 'pi=perl:2']);
  assert.equal(r.code, 1);
  assert.match(r.stderr, /^error: failed to patch image update to pod template: Job\.batch "pi" is invalid: spec\.template: Invalid value: \{"metadata":.*"image":"perl:2".*\}: field is immutable$/m);

  const always = await apply(
    'always-job.yaml',
    'apiVersion: batch/v1\nkind: Job\nmetadata: {name: always}\nspec:\n  template:\n    spec:\n      restartPolicy: Always\n      containers: [{name: c, image: busybox}]\n',
  );
  assert.equal(always.code, 1);
  assert.equal(always.stderr.trim(), 'The Job "always" is invalid: spec.template.spec.restartPolicy: Required value: valid values: "OnFailure", "Never"');
});

test('a StatefulSet may change its replicas and template, not its serviceName', async () => {
  const yaml = (service: string, replicas: number) => `apiVersion: apps/v1
kind: StatefulSet
metadata: {name: db}
spec:
  serviceName: ${service}
  replicas: ${replicas}
  selector: {matchLabels: {app: db}}
  template:
    metadata: {labels: {app: db}}
    spec:
      containers: [{name: db, image: postgres, volumeMounts: [{name: data, mountPath: /var/lib/postgresql}]}]
  volumeClaimTemplates:
  - metadata: {name: data}
    spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}
`;
  assert.equal((await apply('db.yaml', yaml('db', 1))).code, 0);
  assert.equal((await apply('db.yaml', yaml('db', 3))).code, 0);
  const r = await apply('db.yaml', yaml('db2', 3));
  assert.equal(r.code, 1);
  assert.equal(
    r.stderr.trim(),
    "The StatefulSet \"db\" is invalid: spec: Forbidden: updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'revisionHistoryLimit', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden",
  );
});

test('CronJob schedules are parsed as robfig/cron parses them; time zones must exist', async () => {
  const bad = await kubectl(s, ['create', 'cronjob', 'bad', '--image=busybox', '--schedule=*/5 * * *']);
  assert.equal(bad.code, 1);
  assert.equal(bad.stderr.trim(), 'error: failed to create cronjob: CronJob.batch "bad" is invalid: spec.schedule: Invalid value: "*/5 * * *": expected exactly 5 fields, found 4: [*/5 * * *]');

  const cron = (schedule: string, tz?: string) => `apiVersion: batch/v1
kind: CronJob
metadata: {name: nightly}
spec:
  schedule: "${schedule}"
${tz ? `  timeZone: ${tz}\n` : ''}  jobTemplate:
    spec:
      template:
        spec:
          restartPolicy: OnFailure
          containers: [{name: c, image: busybox}]
`;
  const range = await apply('cron.yaml', cron('0 25 * * *'));
  assert.equal(range.stderr.trim(), 'The CronJob "nightly" is invalid: spec.schedule: Invalid value: "0 25 * * *": end of range (25) above maximum (23): 25');
  const tz = await apply('cron.yaml', cron('TZ=UTC 0 2 * * *'));
  assert.equal(tz.stderr.trim(), 'The CronJob "nightly" is invalid: spec.schedule: Invalid value: "TZ=UTC 0 2 * * *": cannot use TZ or CRON_TZ in schedule, use timeZone field instead');
  const zone = await apply('cron.yaml', cron('0 2 * * *', 'Mars/Olympus'));
  assert.equal(zone.stderr.trim(), 'The CronJob "nightly" is invalid: spec.timeZone: Invalid value: "Mars/Olympus": unknown time zone Mars/Olympus');
  const ok = await apply('cron.yaml', cron('0 2 * * mon-fri', 'Europe/Paris'));
  assert.equal(ok.code, 0, ok.stderr);
});

test('a deprecated node label in a template is warned about', async () => {
  const r = await apply(
    'ds.yaml',
    `apiVersion: apps/v1
kind: DaemonSet
metadata: {name: agent}
spec:
  selector: {matchLabels: {app: agent}}
  template:
    metadata: {labels: {app: agent}}
    spec:
      nodeSelector: {beta.kubernetes.io/os: linux}
      containers: [{name: agent, image: busybox}]
`,
  );
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stderr, /Warning: spec\.template\.spec\.nodeSelector\[beta\.kubernetes\.io\/os\]: deprecated since v1\.14; use "kubernetes\.io\/os" instead/);
});
