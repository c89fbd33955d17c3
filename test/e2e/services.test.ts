/**
 * Services with kubectl against a real server process: the `kubernetes` Service and its
 * Endpoints, `kubectl create service` and `kubectl expose` read back with their defaults and
 * allocated clusterIPs and nodePorts, `kubectl get svc` columns, refusals (a taken clusterIP or
 * nodePort, one out of range, unnamed ports, a changed clusterIP) with the cluster's messages, and
 * addresses and ports given back on delete and on a type change.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { kubectl, startServer, type ServerProcess } from './harness.ts';

let s: ServerProcess;
before(async () => {
  s = await startServer();
});
after(async () => {
  await s.stop();
});

async function ok(args: string[], stdin?: string): Promise<string> {
  const r = await kubectl(s, args, stdin);
  assert.equal(r.code, 0, `kubectl ${args.join(' ')}: ${r.stderr}`);
  return r.stdout;
}

async function refused(args: string[], stdin?: string): Promise<string> {
  const r = await kubectl(s, args, stdin);
  assert.notEqual(r.code, 0, `kubectl ${args.join(' ')} should fail`);
  return r.stderr.trim();
}

const svc = async (name: string) => JSON.parse(await ok(['get', 'svc', name, '-o', 'json'])) as { spec: Record<string, unknown>; status: unknown };

function inServiceCIDR(ip: string): boolean {
  const [a, b] = ip.split('.').map(Number);
  return a === 10 && b! >= 96 && b! <= 111;
}

test('the kubernetes Service names this server', async () => {
  const port = Number(new URL(s.url).port);
  const k = await svc('kubernetes');
  assert.equal(k.spec.clusterIP, '10.96.0.1');
  assert.deepEqual(k.spec.ports, [{ name: 'https', port: 443, protocol: 'TCP', targetPort: port }]);
  assert.equal(k.spec.type, 'ClusterIP');
  // Listening on loopback, the server has no Endpoints to publish: validation refuses loopback addresses.
  assert.match(await kubectl(s, ['get', 'endpoints', 'kubernetes']).then((r) => r.stderr), /endpoints "kubernetes" not found/);
  const loop = await kubectl(s, ['create', '-f', '-'], JSON.stringify({ apiVersion: 'v1', kind: 'Endpoints', metadata: { name: 'loop' }, subsets: [{ addresses: [{ ip: '127.0.0.1' }], ports: [{ port }] }] }));
  assert.match(loop.stderr, /subsets\[0\]\.addresses\[0\]\.ip: Invalid value: "127\.0\.0\.1": may not be in the loopback range \(127\.0\.0\.0\/8, ::1\/128\)/);
  assert.match(await ok(['get', 'svc']), /^kubernetes\s+ClusterIP\s+10\.96\.0\.1\s+<none>\s+443\/TCP\s+\S+$/m);
});

test('kubectl create service clusterip: defaults and an allocated clusterIP, read back as a cluster prints them', async () => {
  assert.match(await ok(['create', 'service', 'clusterip', 'x', '--tcp=80:8080']), /service\/x created/);
  const x = await svc('x');
  const ip = x.spec.clusterIP as string;
  assert.ok(inServiceCIDR(ip), ip);
  assert.deepEqual(x.spec, {
    clusterIP: ip,
    clusterIPs: [ip],
    internalTrafficPolicy: 'Cluster',
    ipFamilies: ['IPv4'],
    ipFamilyPolicy: 'SingleStack',
    ports: [{ name: '80-8080', port: 80, protocol: 'TCP', targetPort: 8080 }],
    selector: { app: 'x' },
    sessionAffinity: 'None',
    type: 'ClusterIP',
  });
  assert.deepEqual(x.status, { loadBalancer: {} });
  assert.match(await ok(['get', 'svc', 'x']), new RegExp(`^x\\s+ClusterIP\\s+${ip.replace(/\./g, '\\.')}\\s+<none>\\s+80/TCP\\s+\\S+$`, 'm'));
  const ipa = JSON.parse(await ok(['get', 'ipaddresses', ip, '-o', 'json'])) as { spec: unknown };
  // The core group is omitted (ParentReference.group is omitempty), as a cluster prints it.
  assert.deepEqual(ipa.spec, { parentRef: { resource: 'services', namespace: 'default', name: 'x' } });

  // The same address again, one outside the range, and a change of it are refused.
  assert.equal(
    await refused(['create', 'service', 'clusterip', 'y', '--tcp=80', `--clusterip=${ip}`]),
    `error: failed to create ClusterIP service: Service "y" is invalid: spec.clusterIPs: Invalid value: ["${ip}"]: failed to allocate IP ${ip}: provided IP is already allocated`,
  );
  assert.equal(
    await refused(['create', 'service', 'clusterip', 'y', '--tcp=80', '--clusterip=1.1.1.1']),
    'error: failed to create ClusterIP service: Service "y" is invalid: spec.clusterIPs: Invalid value: ["1.1.1.1"]: failed to allocate IP 1.1.1.1: the provided IP (1.1.1.1) is not in the valid range. The range of valid IPs is 10.96.0.0/12',
  );
  assert.match(
    await refused(['patch', 'svc', 'x', '-p', '{"spec":{"clusterIP":"10.96.0.99","clusterIPs":["10.96.0.99"]}}']),
    /The Service "x" is invalid: spec\.clusterIPs\[0\]: Invalid value: \["10\.96\.0\.99"\]: may not change once set/,
  );

  // Deleting x gives its address back: another Service may ask for it.
  await ok(['delete', 'svc', 'x']);
  await ok(['create', 'service', 'clusterip', 'y', '--tcp=80', `--clusterip=${ip}`]);
  assert.equal((await svc('y')).spec.clusterIP, ip);
  await ok(['delete', 'svc', 'y']);
});

test('NodePort Services: a requested port, an allocated one, refusals, and ports given back on a type change', async () => {
  await ok(['create', 'service', 'nodeport', 'np', '--tcp=80:8080', '--node-port=30080']);
  const np = await svc('np');
  assert.deepEqual(np.spec.ports, [{ name: '80-8080', nodePort: 30080, port: 80, protocol: 'TCP', targetPort: 8080 }]);
  assert.equal(np.spec.externalTrafficPolicy, 'Cluster');
  assert.match(await ok(['get', 'svc', 'np']), /^np\s+NodePort\s+10\.\S+\s+<none>\s+80:30080\/TCP\s+\S+$/m);
  assert.equal(
    await refused(['create', 'service', 'nodeport', 'np2', '--tcp=80', '--node-port=30080']),
    'error: failed to create NodePort service: Service "np2" is invalid: spec.ports[0].nodePort: Invalid value: 30080: provided port is already allocated',
  );
  assert.equal(
    await refused(['create', 'service', 'nodeport', 'np2', '--tcp=80', '--node-port=20000']),
    'error: failed to create NodePort service: Service "np2" is invalid: spec.ports[0].nodePort: Invalid value: 20000: provided port is not in the valid range. The range of valid ports is 30000-32767',
  );
  await ok(['create', 'service', 'nodeport', 'auto', '--tcp=81']);
  const auto = ((await svc('auto')).spec.ports as Array<{ nodePort: number }>)[0]!.nodePort;
  assert.ok(auto >= 30000 && auto <= 32767 && auto !== 30080, String(auto));

  // To ClusterIP: the nodePort is dropped and free again.
  await ok(['patch', 'svc', 'np', '-p', '{"spec":{"type":"ClusterIP"}}']);
  const back = await svc('np');
  assert.deepEqual(back.spec.ports, [{ name: '80-8080', port: 80, protocol: 'TCP', targetPort: 8080 }]);
  assert.equal(back.spec.externalTrafficPolicy, undefined);
  await ok(['create', 'service', 'nodeport', 'np2', '--tcp=80', '--node-port=30080']);
});

test('kubectl expose deployment takes its selector; mistakes are refused with the cluster message', async () => {
  await ok(['create', 'deployment', 'web', '--image=nginx', '--port=80']);
  await ok(['expose', 'deployment', 'web', '--port=8080', '--target-port=80']);
  const web = await svc('web');
  assert.deepEqual(web.spec.selector, { app: 'web' });
  assert.deepEqual(web.spec.ports, [{ port: 8080, protocol: 'TCP', targetPort: 80 }]);
  const twoPorts = JSON.stringify({
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name: 'bad' },
    spec: { ports: [{ port: 80 }, { port: 81, protocol: 'SMTP' }], sessionAffinity: 'ClientIP', sessionAffinityConfig: { clientIP: { timeoutSeconds: 0 } } },
  });
  assert.equal(
    await refused(['create', '-f', '-'], twoPorts),
    [
      'The Service "bad" is invalid: ',
      '* spec.ports[0].name: Required value',
      '* spec.ports[1].name: Required value',
      '* spec.ports[1].protocol: Unsupported value: "SMTP": supported values: "SCTP", "TCP", "UDP"',
      '* spec.sessionAffinityConfig.clientIP.timeoutSeconds: Invalid value: 0: must be greater than 0 and less than 86400',
    ].join('\n'),
  );
  const headlessLB = JSON.stringify({ apiVersion: 'v1', kind: 'Service', metadata: { name: 'bad' }, spec: { type: 'LoadBalancer', clusterIP: 'None', ports: [{ port: 80 }] } });
  assert.equal(
    await refused(['create', '-f', '-'], headlessLB),
    `The Service "bad" is invalid: spec.clusterIPs[0]: Invalid value: "None": may not be set to 'None' for LoadBalancer services`,
  );
});
