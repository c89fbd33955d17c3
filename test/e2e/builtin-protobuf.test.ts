/**
 * kubectl's typed clients send built-in kinds as protobuf: every `kubectl create <generator>`,
 * `kubectl run` and `kubectl expose` against a real server process, then `kubectl get -o json`
 * compared field by field with the object the generator builds (written out from kubectl's
 * generators, as a cluster stores it before its own defaults: 1.35 drops the zero
 * `creationTimestamp` of templates); kubectl create decodes the protobuf the server answers.
 * Malformed protobuf answers kube-apiserver's 400, custom resources refuse protobuf with 415 and
 * answer JSON to a client preferring protobuf, as upstream.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { get } from 'node:https';
import { crontabCRDYAML, kubectl, manifest, startServer, type ServerProcess } from './harness.ts';
import { decodeEnvelope, decodeProtobufMessage, protobufKindMessage } from '../../src/apimachinery/index.ts';

let s: ServerProcess;
before(async () => {
  s = await startServer();
});
after(async () => {
  await s.stop();
});

const k = async (...args: string[]) => {
  const r = await kubectl(s, args);
  assert.equal(r.code, 0, `kubectl ${args.join(' ')}: ${r.stderr}`);
  return r.stdout;
};

type Obj = Record<string, unknown>;

/** Every field of `want` is in `got` with the same value (objects recursively, arrays exactly). */
function assertFields(got: unknown, want: unknown, path: string): void {
  if (want !== null && typeof want === 'object' && !Array.isArray(want)) {
    assert.ok(got !== null && typeof got === 'object' && !Array.isArray(got), `${path}: ${JSON.stringify(got)} is not an object`);
    for (const [key, v] of Object.entries(want)) {
      assert.ok(key in (got as Obj), `${path}.${key} is missing from ${JSON.stringify(got)}`);
      assertFields((got as Obj)[key], v, `${path}.${key}`);
    }
    return;
  }
  if (Array.isArray(want)) {
    assert.ok(Array.isArray(got) && got.length === want.length, `${path}: ${JSON.stringify(got)} is not ${JSON.stringify(want)}`);
    want.forEach((w, i) => assertFields(got[i], w, `${path}[${i}]`));
    return;
  }
  assert.deepEqual(got, want, path);
}

/** The paths of nested `metadata` objects that carry a key (templates must not carry creationTimestamp). */
function keyPaths(v: unknown, key: string, path = ''): string[] {
  if (v === null || typeof v !== 'object') return [];
  const out: string[] = [];
  for (const [k2, x] of Object.entries(v)) {
    if (k2 === key && path !== '.metadata') out.push(`${path}.${k2}`);
    out.push(...keyPaths(x, key, `${path}.${k2}`));
  }
  return out;
}

const rbac = 'rbac.authorization.k8s.io';

/** Each command, the object to read back, and the fields kubectl's generator set. */
const cases: { args: string[]; get: string[]; want: Obj }[] = [
  {
    args: ['create', 'deployment', 'web', '--image=nginx:1.25', '--replicas=2', '--port=80'],
    get: ['deployment', 'web'],
    want: {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web', namespace: 'default', labels: { app: 'web' } },
      spec: {
        replicas: 2,
        selector: { matchLabels: { app: 'web' } },
        template: {
          metadata: { labels: { app: 'web' } },
          spec: { containers: [{ name: 'nginx', image: 'nginx:1.25', ports: [{ containerPort: 80 }], resources: {} }] },
        },
        strategy: {},
      },
    },
  },
  {
    args: ['create', 'configmap', 'cfg', '--from-literal=mode=production', '--from-literal=replicas=3'],
    get: ['configmap', 'cfg'],
    want: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cfg' }, data: { mode: 'production', replicas: '3' } },
  },
  {
    // Secret data are `bytes` on the wire, base64 in JSON.
    args: ['create', 'secret', 'generic', 'creds', '--from-literal=user=admin', '--from-literal=pass=s3cr3t!'],
    get: ['secret', 'creds'],
    want: { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'creds' }, data: { user: 'YWRtaW4=', pass: 'czNjcjN0IQ==' } },
  },
  {
    args: ['create', 'serviceaccount', 'robot'],
    get: ['serviceaccount', 'robot'],
    want: { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'robot', namespace: 'default' } },
  },
  {
    args: ['create', 'role', 'reader', '--verb=get,list', '--resource=pods,deployments.apps'],
    get: ['role', 'reader'],
    want: {
      apiVersion: `${rbac}/v1`,
      kind: 'Role',
      metadata: { name: 'reader' },
      rules: [
        { verbs: ['get', 'list'], apiGroups: [''], resources: ['pods'] },
        { verbs: ['get', 'list'], apiGroups: ['apps'], resources: ['deployments'] },
      ],
    },
  },
  {
    args: ['create', 'rolebinding', 'reader-binding', '--role=reader', '--user=alice', '--serviceaccount=default:robot'],
    get: ['rolebinding', 'reader-binding'],
    want: {
      kind: 'RoleBinding',
      roleRef: { apiGroup: rbac, kind: 'Role', name: 'reader' },
      subjects: [
        { kind: 'User', apiGroup: rbac, name: 'alice' },
        { kind: 'ServiceAccount', name: 'robot', namespace: 'default' },
      ],
    },
  },
  {
    args: ['create', 'clusterrole', 'node-reader', '--verb=get', '--resource=nodes', '--non-resource-url=/healthz'],
    get: ['clusterrole', 'node-reader'],
    want: {
      kind: 'ClusterRole',
      metadata: { name: 'node-reader' },
      rules: [
        { verbs: ['get'], apiGroups: [''], resources: ['nodes'] },
        { verbs: ['get'], nonResourceURLs: ['/healthz'] },
      ],
    },
  },
  {
    args: ['create', 'clusterrolebinding', 'node-readers', '--clusterrole=node-reader', '--group=admins'],
    get: ['clusterrolebinding', 'node-readers'],
    want: {
      kind: 'ClusterRoleBinding',
      roleRef: { apiGroup: rbac, kind: 'ClusterRole', name: 'node-reader' },
      subjects: [{ kind: 'Group', apiGroup: rbac, name: 'admins' }],
    },
  },
  {
    args: ['create', 'job', 'once', '--image=busybox', '--', 'echo', 'hi'],
    get: ['job', 'once'],
    want: {
      apiVersion: 'batch/v1',
      kind: 'Job',
      metadata: { name: 'once' },
      spec: { template: { metadata: {}, spec: { containers: [{ name: 'once', image: 'busybox', command: ['echo', 'hi'], resources: {} }], restartPolicy: 'Never' } } },
    },
  },
  {
    args: ['create', 'cronjob', 'tick', '--image=busybox', '--schedule=*/5 * * * *', '--', 'date'],
    get: ['cronjob', 'tick'],
    want: {
      kind: 'CronJob',
      spec: {
        schedule: '*/5 * * * *',
        jobTemplate: {
          metadata: { name: 'tick' },
          spec: { template: { metadata: {}, spec: { containers: [{ name: 'tick', image: 'busybox', command: ['date'], resources: {} }], restartPolicy: 'OnFailure' } } },
        },
      },
    },
  },
  {
    // Quantities travel as their string and come back canonical.
    args: ['create', 'quota', 'small', '--hard=cpu=2,memory=1Gi,pods=10'],
    get: ['resourcequota', 'small'],
    want: { kind: 'ResourceQuota', spec: { hard: { cpu: '2', memory: '1Gi', pods: '10' } } },
  },
  {
    args: ['create', 'priorityclass', 'high', '--value=1000', '--description=important', '--preemption-policy=Never'],
    get: ['priorityclass', 'high'],
    want: { apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name: 'high' }, value: 1000, description: 'important', preemptionPolicy: 'Never' },
  },
  {
    // minAvailable is an IntOrString: `1` is an int, `50%` a string.
    args: ['create', 'poddisruptionbudget', 'web-pdb', '--selector=app=web', '--min-available=1'],
    get: ['poddisruptionbudget', 'web-pdb'],
    want: { apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', spec: { minAvailable: 1, selector: { matchLabels: { app: 'web' } } } },
  },
  {
    args: ['create', 'poddisruptionbudget', 'half', '--selector=app=web', '--max-unavailable=50%'],
    get: ['poddisruptionbudget', 'half'],
    want: { kind: 'PodDisruptionBudget', spec: { maxUnavailable: '50%', selector: { matchLabels: { app: 'web' } } } },
  },
  {
    args: ['create', 'ingress', 'ing', '--rule=foo.com/bar=svc1:8080', '--rule=bar.com/*=svc2:http'],
    get: ['ingress', 'ing'],
    want: {
      apiVersion: 'networking.k8s.io/v1',
      kind: 'Ingress',
      spec: {
        rules: [
          { host: 'foo.com', http: { paths: [{ path: '/bar', pathType: 'Exact', backend: { service: { name: 'svc1', port: { number: 8080 } } } }] } },
          { host: 'bar.com', http: { paths: [{ path: '/', pathType: 'Prefix', backend: { service: { name: 'svc2', port: { name: 'http' } } } }] } },
        ],
      },
    },
  },
  {
    args: ['create', 'service', 'clusterip', 'backend', '--tcp=5678:8080'],
    get: ['service', 'backend'],
    want: {
      kind: 'Service',
      metadata: { name: 'backend', labels: { app: 'backend' } },
      spec: { ports: [{ name: '5678-8080', protocol: 'TCP', port: 5678, targetPort: 8080 }], selector: { app: 'backend' }, type: 'ClusterIP' },
    },
  },
  {
    args: ['run', 'pod1', '--image=nginx', '--port=80', '--env=MODE=dev', '--labels=run=pod1,tier=web'],
    get: ['pod', 'pod1'],
    want: {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'pod1', labels: { run: 'pod1', tier: 'web' } },
      spec: {
        containers: [{ name: 'pod1', image: 'nginx', ports: [{ containerPort: 80 }], env: [{ name: 'MODE', value: 'dev' }], resources: {} }],
        dnsPolicy: 'ClusterFirst',
        restartPolicy: 'Always',
      },
    },
  },
];

test('kubectl create, run and expose send protobuf, and what they sent is what is stored', async () => {
  for (const c of cases) {
    await k(...c.args);
    const got = JSON.parse(await k('get', ...c.get, '-o', 'json')) as Obj;
    assertFields(got, c.want, c.get.join('/'));
    // A 1.35 server writes no zero creationTimestamp (omitzero) inside templates.
    assert.deepEqual(keyPaths(got.spec, 'creationTimestamp'), [], `${c.get.join('/')}: ${JSON.stringify(got.spec)}`);
  }
  // expose reads the deployment back (protobuf response or JSON) and posts a Service built from it.
  await k('expose', 'deployment', 'web', '--port=8080', '--target-port=80', '--name=web-svc');
  const svc = JSON.parse(await k('get', 'service', 'web-svc', '-o', 'json')) as Obj;
  assertFields(svc, { kind: 'Service', metadata: { name: 'web-svc', labels: { app: 'web' } }, spec: { ports: [{ port: 8080, protocol: 'TCP', targetPort: 80 }], selector: { app: 'web' } } }, 'service/web-svc');
  const secret = (await k('get', 'secret', 'creds', '-o', 'jsonpath={.data.pass}')).trim();
  assert.equal(Buffer.from(secret, 'base64').toString(), 's3cr3t!');
});

/** POSTs `body` with a content type; the answer's status and parsed body. */
async function post(path: string, body: Uint8Array, contentType: string): Promise<{ status: number; json: Obj }> {
  const r = await s.fetch(s.url + path, { method: 'POST', body, headers: { 'Content-Type': contentType } });
  return { status: r.status, json: (await r.json()) as Obj };
}

const pb = 'application/vnd.kubernetes.protobuf';
const k8s = [0x6b, 0x38, 0x73, 0x00];

test('malformed protobuf answers the decoder\'s 400; custom resources answer 415', async () => {
  const notProto = await post('/apis/apps/v1/namespaces/default/deployments', Buffer.from('{"kind":"Deployment"}'), pb);
  assert.equal(notProto.status, 400);
  assert.equal(
    notProto.json.message,
    'the object provided is unrecognized (must be of type Deployment): provided data does not appear to be a protobuf message, expected prefix [107 56 115 0] ({"kind":"Deployment"})',
  );
  // An envelope naming apps/v1 Deployment whose message has ObjectMeta as a varint.
  const typeMeta = [0x0a, 7, ...Buffer.from('apps/v1'), 0x12, 10, ...Buffer.from('Deployment')];
  const bad = Buffer.from([...k8s, 0x0a, typeMeta.length, ...typeMeta, 0x12, 2, 0x08, 0x01]);
  const r = await post('/apis/apps/v1/namespaces/default/deployments', bad, pb);
  assert.equal(r.status, 400);
  assert.equal(r.json.reason, 'BadRequest');
  assert.equal(r.json.message, 'Deployment in version "v1" cannot be handled as a Deployment: proto: wrong wireType = 0 for field ObjectMeta');
  const empty = Buffer.from([...k8s, 0x0a, typeMeta.length, ...typeMeta, 0x12, 0]);
  const wrongKind = await post('/api/v1/namespaces/default/configmaps', empty, pb);
  assert.equal(wrongKind.json.message, 'Deployment in version "v1" cannot be handled as a ConfigMap: converting (v1.Deployment) to (core.ConfigMap): unknown conversion');

  await k('apply', '-f', manifest(s, 'crd.yaml', crontabCRDYAML));
  await k('wait', '--for=condition=Established', 'crd/crontabs.stable.example.com');
  const cr = await post('/apis/stable.example.com/v1/namespaces/default/crontabs', bad, pb);
  assert.equal(cr.status, 415);
  assert.equal(cr.json.reason, 'UnsupportedMediaType');
  const crList = await s.fetch(s.url + '/apis/stable.example.com/v1/namespaces/default/crontabs', { headers: { Accept: `${pb},application/json` } });
  assert.equal(crList.headers.get('content-type'), 'application/json');
});

test('a client preferring protobuf gets built-in objects and lists as protobuf', async () => {
  const accept = { Accept: `${pb},application/json` };
  for (const path of ['/apis/apps/v1/namespaces/default/deployments/web', '/apis/apps/v1/namespaces/default/deployments', '/api/v1/namespaces/default/configmaps/cfg']) {
    const r = await s.fetch(s.url + path, { headers: accept });
    assert.equal(r.status, 200, path);
    assert.equal(r.headers.get('content-type'), pb, path);
    const body = Buffer.from(await r.arrayBuffer());
    assert.deepEqual([...body.subarray(0, 4)], k8s, path);
    const kind = path.endsWith('deployments') ? 'DeploymentList' : path.includes('configmaps') ? 'ConfigMap' : 'Deployment';
    assert.ok(body.includes(Buffer.from(kind)), `${path}: ${body.toString('hex')}`);
  }
  // A typed client's DeleteOptions (in its own group-version): dryRun=All leaves the object.
  const delTypeMeta = [0x0a, 2, ...Buffer.from('v1'), 0x12, 13, ...Buffer.from('DeleteOptions')];
  const delOpts = [0x2a, 3, ...Buffer.from('All')];
  const del = Buffer.from([...k8s, 0x0a, delTypeMeta.length, ...delTypeMeta, 0x12, delOpts.length, ...delOpts]);
  const dryDelete = await s.fetch(s.url + '/api/v1/namespaces/default/configmaps/cfg', { method: 'DELETE', body: del, headers: { 'Content-Type': pb, Accept: 'application/json' } });
  assert.equal(dryDelete.status, 200, await dryDelete.clone().text());
  assert.equal((await s.fetch(s.url + '/api/v1/namespaces/default/configmaps/cfg')).status, 200);
  // The protobuf a client got back is a body it can send: an update with it keeps the object.
  const got = Buffer.from(await (await s.fetch(s.url + '/api/v1/namespaces/default/configmaps/cfg', { headers: accept })).arrayBuffer());
  const put = await s.fetch(s.url + '/api/v1/namespaces/default/configmaps/cfg', { method: 'PUT', body: got, headers: { 'Content-Type': pb, Accept: 'application/json' } });
  assert.equal(put.status, 200, await put.clone().text());
  assert.deepEqual(((await put.json()) as Obj).data, { mode: 'production', replicas: '3' });
});

/** The length-delimited fields of a message: field number -> bytes (the first of each). */
function lengthDelimited(b: Buffer): Map<number, Buffer> {
  const out = new Map<number, Buffer>();
  for (let i = 0; i < b.length; ) {
    const tag = b[i++]!;
    let len = 0;
    for (let shift = 0; ; shift += 7) {
      const x = b[i++]!;
      len += (x & 0x7f) * 2 ** shift;
      if (x < 0x80) break;
    }
    if (!out.has(tag >> 3)) out.set(tag >> 3, b.subarray(i, i + len));
    i += len;
  }
  return out;
}

test('a protobuf watch is framed as upstream frames it: length, WatchEvent, enveloped object', async () => {
  const frames: Buffer[] = [];
  let contentType = '';
  const done = new Promise<void>((resolve, reject) => {
    const req = get(`${s.url}/api/v1/namespaces/default/configmaps?watch=true&timeoutSeconds=5&fieldSelector=metadata.name%3Dwatched`, { headers: { Accept: `${pb},application/json` }, agent: s.agent }, (res) => {
      contentType = String(res.headers['content-type']);
      let buf = Buffer.alloc(0);
      res.on('data', (c: Buffer) => {
        buf = Buffer.concat([buf, c]);
        while (buf.length >= 4 && buf.length >= 4 + buf.readUInt32BE(0)) {
          frames.push(buf.subarray(4, 4 + buf.readUInt32BE(0)));
          buf = buf.subarray(4 + buf.readUInt32BE(0));
        }
        if (frames.length > 0) {
          req.destroy();
          resolve();
        }
      });
      res.on('end', () => resolve());
    });
    req.on('error', (e) => (frames.length > 0 ? resolve() : reject(e)));
  });
  await new Promise((r) => setTimeout(r, 300));
  await k('create', 'configmap', 'watched', '--from-literal=a=b');
  await done;
  assert.equal(contentType, 'application/vnd.kubernetes.protobuf;stream=watch');
  assert.ok(frames.length >= 1);
  const event = lengthDelimited(frames[0]!);
  assert.equal(event.get(1)!.toString(), 'ADDED');
  const env = decodeEnvelope(lengthDelimited(event.get(2)!).get(1)!);
  assert.equal(`${env.apiVersion}/${env.kind}`, 'v1/ConfigMap');
  const cm = decodeProtobufMessage(protobufKindMessage('v1', 'ConfigMap')!, env.raw, env);
  assert.deepEqual(cm.data, { a: 'b' });
});
