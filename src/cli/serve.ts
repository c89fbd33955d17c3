/**
 * `crd-apiserver serve`: opens the SQLite store under --data-dir (or the etcd cluster that
 * --etcd-servers names, with kube-apiserver's --etcd-* flags), serves the API over plain HTTP
 * on a loopback --listen address (no TLS or authentication yet, so nothing else is allowed),
 * calls admission webhooks of services at the --webhook-service-address each names,
 * writes DIR/kubeconfig for kubectl and the client libraries, and shuts down cleanly on SIGINT
 * or SIGTERM.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { resolve, join } from 'node:path';
import { openBackend, type StorageChoice } from '../server/index.ts';
import { defaultCompactionIntervalMs, defaultEtcdPrefix } from '../storage/index.ts';
import { ApiServer, auditLogged } from '../server/index.ts';
import { fixedServiceResolver } from '../admission/index.ts';
import { checkServiceNetwork, type ServiceNetworkOptions } from '../registry/index.ts';

const usage = `usage: crd-apiserver serve [--listen 127.0.0.1:PORT] [--data-dir DIR]

  --listen ADDR     address to serve plain HTTP on (default 127.0.0.1:6443; port 0 picks a free port);
                    only loopback addresses are accepted until TLS and authentication exist
  --data-dir DIR    where the SQLite database and the kubeconfig live (default ./data)
  --audit-log-path FILE  append an audit.k8s.io/v1 Event for every request to FILE (JSON lines,
                    Metadata level)
  --webhook-service-address NAMESPACE/NAME=HOST:PORT
                    where the admission webhooks of service NAME in NAMESPACE listen (their
                    clientConfig.service; the certificate must name NAME.NAMESPACE.svc);
                    repeatable. Webhooks of other services are unreachable.
  --service-cluster-ip-range CIDR[,CIDR]  Services' cluster IPs come from here (default
                    10.96.0.0/12; two CIDRs of different families make the cluster dual-stack)
  --service-node-port-range RANGE  NodePort Services' ports (default 30000-32767)

  --watch-cache[=false]            serve lists and watches from an in-memory cache of each
                                   resource kept current from the store's watch (default true)

  --etcd-servers URL[,URL...]      keep objects in this etcd cluster instead of SQLite; several
                                   servers on one cluster serve the same objects
  --etcd-prefix PREFIX             the root of every key in etcd (default /registry)
  --etcd-cafile FILE               CA bundle to verify the etcd members' certificates
  --etcd-certfile FILE             client certificate for etcd
  --etcd-keyfile FILE              client key for etcd
  --etcd-compaction-interval DUR   how often etcd is compacted (default 5m0s; 0 disables)
`;

export interface EtcdArgs {
  servers: string[];
  prefix: string;
  caFile?: string;
  certFile?: string;
  keyFile?: string;
  compactionIntervalMs: number;
}

export interface ServeArgs {
  host: string;
  port: number;
  dataDir: string;
  /** Where the audit log goes (--audit-log-path), when given. */
  auditLogPath?: string;
  /** Set when --etcd-servers is given. */
  etcd?: EtcdArgs;
  /** --webhook-service-address: `namespace/name` -> `host:port`. */
  webhookServices?: Map<string, string>;
  /** --service-cluster-ip-range and --service-node-port-range, when given. */
  serviceNetwork?: ServiceNetworkOptions;
  /** Set (false) when --watch-cache=false turns the watch cache off. */
  watchCache?: false;
}

/** One --webhook-service-address value: `NAMESPACE/NAME=HOST:PORT`. */
export function parseWebhookServiceAddress(value: string): [string, string] {
  const m = /^([a-z0-9]([-a-z0-9]*[a-z0-9])?)\/([a-z0-9]([-a-z0-9]*[a-z0-9])?)=(\[[0-9a-fA-F:.]+\]|[^:\s/]+):(\d{1,5})$/.exec(value);
  if (!m || Number(m[6]) < 1 || Number(m[6]) > 65535) {
    throw new Error(`invalid --webhook-service-address ${JSON.stringify(value)}: expected NAMESPACE/NAME=HOST:PORT`);
  }
  return [`${m[1]}/${m[3]}`, `${m[5]}:${m[6]}`];
}

const durationUnits: Record<string, number> = { ns: 1e-6, us: 1e-3, 'µs': 1e-3, ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** A Go duration (`5m0s`, `90s`, `1h`, `0`) in milliseconds, as pflag's DurationVar parses it. */
export function parseDuration(flag: string, text: string): number {
  const bad = () => new Error(`invalid argument ${JSON.stringify(text)} for "${flag}" flag: time: invalid duration ${JSON.stringify(text)}`);
  let s = text;
  let sign = 1;
  if (s.startsWith('-') || s.startsWith('+')) {
    if (s[0] === '-') sign = -1;
    s = s.slice(1);
  }
  if (s === '0') return 0;
  if (s === '') throw bad();
  let total = 0;
  const re = /^(\d+(?:\.\d*)?|\.\d+)(ns|us|µs|ms|s|m|h)/;
  while (s.length > 0) {
    const m = re.exec(s);
    if (!m) throw bad();
    total += Number(m[1]) * durationUnits[m[2]!]!;
    s = s.slice(m[0].length);
  }
  return sign * total;
}

/** Splits `host:port` (`[::1]:6443` for IPv6). */
export function parseListen(addr: string): { host: string; port: number } {
  const m = /^(?:\[([^\]]+)\]|([^:]*)):(\d+)$/.exec(addr);
  if (!m) throw new Error(`invalid --listen address ${JSON.stringify(addr)}: expected HOST:PORT`);
  const host = m[1] ?? m[2] ?? '';
  const port = Number(m[3]);
  if (port > 65535) throw new Error(`invalid --listen port ${port}`);
  return { host: host === '' ? '127.0.0.1' : host, port };
}

/** True for loopback hosts: 127.0.0.0/8, ::1 and localhost. */
export function isLoopback(host: string): boolean {
  if (host === 'localhost') return true;
  if (isIP(host) === 4) return host.startsWith('127.');
  if (isIP(host) === 6) return host === '::1' || host === '0:0:0:0:0:0:0:1';
  return false;
}

/** Parses the serve flags (`--flag value` and `--flag=value`). */
export function parseServeArgs(argv: string[]): ServeArgs | 'help' {
  let listen = '127.0.0.1:6443';
  let dataDir = './data';
  let auditLogPath: string | undefined;
  const webhookServices = new Map<string, string>();
  const serviceNetwork: ServiceNetworkOptions = {};
  let etcdServers: string[] | undefined;
  let watchCache = true;
  const etcd: Omit<EtcdArgs, 'servers'> = { prefix: defaultEtcdPrefix, compactionIntervalMs: defaultCompactionIntervalMs };
  for (let i = 0; i < argv.length; i++) {
    let a = argv[i]!;
    let value: string | undefined;
    const eq = a.indexOf('=');
    if (a.startsWith('--') && eq > 0) {
      value = a.slice(eq + 1);
      a = a.slice(0, eq);
    }
    const next = (): string => {
      if (value !== undefined) return value;
      const v = argv[++i];
      if (v === undefined) throw new Error(`flag ${a} needs a value`);
      return v;
    };
    switch (a) {
      case '-h':
      case '--help':
        return 'help';
      case '--listen':
        listen = next();
        break;
      case '--audit-log-path':
        auditLogPath = next();
        break;
      case '--data-dir':
        dataDir = next();
        break;
      case '--webhook-service-address': {
        const [service, address] = parseWebhookServiceAddress(next());
        webhookServices.set(service, address);
        break;
      }
      case '--service-cluster-ip-range':
        serviceNetwork.clusterIPRange = next();
        break;
      case '--service-node-port-range':
        serviceNetwork.nodePortRange = next();
        break;
      case '--watch-cache': {
        // A pflag bool: bare means true, otherwise strconv.ParseBool's spellings.
        const v = value ?? 'true';
        if (['1', 't', 'T', 'TRUE', 'true', 'True'].includes(v)) watchCache = true;
        else if (['0', 'f', 'F', 'FALSE', 'false', 'False'].includes(v)) watchCache = false;
        else throw new Error(`invalid argument ${JSON.stringify(v)} for "--watch-cache" flag: strconv.ParseBool: parsing ${JSON.stringify(v)}: invalid syntax`);
        break;
      }
      case '--etcd-servers':
        etcdServers = next()
          .split(',')
          .map((u) => u.trim())
          .filter((u) => u !== '');
        for (const u of etcdServers) {
          if (!/^https?:\/\/[^/]+\/?$/.test(u)) throw new Error(`invalid --etcd-servers URL ${JSON.stringify(u)}: expected http://HOST:PORT or https://HOST:PORT`);
        }
        break;
      case '--etcd-prefix':
        etcd.prefix = next();
        break;
      case '--etcd-cafile':
        etcd.caFile = next();
        break;
      case '--etcd-certfile':
        etcd.certFile = next();
        break;
      case '--etcd-keyfile':
        etcd.keyFile = next();
        break;
      case '--etcd-compaction-interval':
        etcd.compactionIntervalMs = Math.max(0, parseDuration(a, next()));
        break;
      default:
        throw new Error(`unknown flag ${JSON.stringify(a)}`);
    }
  }
  const { host, port } = parseListen(listen);
  if (!isLoopback(host)) {
    throw new Error(
      `refusing to listen on ${listen}: only loopback addresses (127.0.0.1, ::1, localhost) are allowed, because the server has no TLS or authentication yet`,
    );
  }
  checkServiceNetwork(serviceNetwork);
  const net = { ...(Object.keys(serviceNetwork).length > 0 ? { serviceNetwork } : {}), ...(watchCache ? {} : { watchCache: false as const }) };
  if (etcdServers === undefined) {
    const stray = (['caFile', 'certFile', 'keyFile'] as const).find((k) => etcd[k] !== undefined);
    if (stray) throw new Error('the --etcd-* flags need --etcd-servers');
    return { host, port, dataDir, ...(auditLogPath !== undefined ? { auditLogPath } : {}), ...(webhookServices.size > 0 ? { webhookServices } : {}), ...net };
  }
  if (etcdServers.length === 0) throw new Error('--etcd-servers must name at least one URL');
  if ((etcd.certFile === undefined) !== (etcd.keyFile === undefined)) throw new Error('--etcd-certfile and --etcd-keyfile go together');
  return {
    host,
    port,
    dataDir,
    ...(auditLogPath !== undefined ? { auditLogPath } : {}),
    ...(webhookServices.size > 0 ? { webhookServices } : {}),
    ...net,
    etcd: { servers: etcdServers, ...etcd },
  };
}

/** The storage the parsed flags choose; reads the TLS files. */
export function storageChoice(args: ServeArgs): StorageChoice {
  const e = args.etcd;
  const cache = args.watchCache === false ? { watchCache: false } : {};
  if (!e) return cache;
  const read = (f: string | undefined) => (f === undefined ? undefined : readFileSync(f));
  const tls = e.caFile || e.certFile ? { ca: read(e.caFile), cert: read(e.certFile), key: read(e.keyFile) } : undefined;
  return {
    ...cache,
    etcd: {
      endpoints: e.servers.map((u) => u.replace(/\/$/, '')),
      prefix: e.prefix,
      tls,
      compactionIntervalMs: e.compactionIntervalMs,
      onError: (err) => process.stderr.write(`crd-apiserver serve: etcd compaction failed: ${err instanceof Error ? err.message : String(err)}\n`),
    },
  };
}

/** The kubeconfig for a server at `url` (client-node needs insecure-skip-tls-verify to accept http). */
export function kubeconfigYAML(url: string): string {
  return `apiVersion: v1
kind: Config
clusters:
- name: crd-apiserver
  cluster:
    server: ${url}
    insecure-skip-tls-verify: true
contexts:
- name: crd-apiserver
  context:
    cluster: crd-apiserver
    namespace: default
    user: crd-apiserver
current-context: crd-apiserver
preferences: {}
users:
- name: crd-apiserver
  user: {}
`;
}

/** Runs the server until SIGINT/SIGTERM; resolves with the exit code. */
export async function runServe(argv: string[]): Promise<number> {
  let args: ServeArgs | 'help';
  try {
    args = parseServeArgs(argv);
  } catch (e) {
    process.stderr.write(`crd-apiserver serve: ${e instanceof Error ? e.message : String(e)}\n\n${usage}`);
    return 2;
  }
  if (args === 'help') {
    process.stdout.write(usage);
    return 0;
  }
  const dataDir = resolve(args.dataDir);
  mkdirSync(dataDir, { recursive: true });
  let backend: Awaited<ReturnType<typeof openBackend>>;
  try {
    backend = await openBackend(dataDir, storageChoice(args), { webhookServices: fixedServiceResolver(args.webhookServices ?? new Map()) });
  } catch (e) {
    const msg = e instanceof Error ? e.message : String(e);
    const hint = /locked|busy/i.test(msg) ? ' (is another crd-apiserver serving this data directory?)' : '';
    const where = args.etcd ? `etcd at ${args.etcd.servers.join(',')}` : dataDir;
    process.stderr.write(`crd-apiserver serve: cannot open the store in ${where}: ${msg}${hint}\n`);
    return 1;
  }
  const server = new ApiServer({ ...backend.deps, ...(args.serviceNetwork ? { serviceNetwork: args.serviceNetwork } : {}) });
  if (args.auditLogPath !== undefined) server.handle = auditLogged(server.handle.bind(server), resolve(args.auditLogPath));
  let bound: { host: string; port: number };
  try {
    bound = await server.listen(args.host, args.port);
  } catch (e) {
    await backend.close();
    process.stderr.write(`crd-apiserver serve: cannot listen on ${args.host}:${args.port}: ${e instanceof Error ? e.message : String(e)}\n`);
    return 1;
  }
  const hostForUrl = bound.host.includes(':') ? `[${bound.host}]` : bound.host;
  const url = `http://${hostForUrl}:${bound.port}`;
  const kubeconfig = join(dataDir, 'kubeconfig');
  writeFileSync(kubeconfig, kubeconfigYAML(url), { mode: 0o600 });
  process.stdout.write(
    `crd-apiserver listening on ${url} (${args.etcd ? `objects in etcd at ${args.etcd.servers.join(',')} under ${args.etcd.prefix}` : `data in ${dataDir}`})\n` +
      `kubeconfig written to ${kubeconfig}; use it with:\n` +
      `  export KUBECONFIG=${kubeconfig}\n` +
      `  kubectl get crds\n`,
  );
  return await new Promise<number>((done) => {
    let stopping = false;
    const stop = (signal: string): void => {
      if (stopping) return;
      stopping = true;
      process.stdout.write(`received ${signal}, shutting down\n`);
      server
        .close()
        .then(() => backend.close())
        .then(
          () => done(0),
          (e: unknown) => {
            process.stderr.write(`crd-apiserver serve: error during shutdown: ${e instanceof Error ? e.message : String(e)}\n`);
            done(1);
          },
        );
    };
    process.once('SIGINT', () => stop('SIGINT'));
    process.once('SIGTERM', () => stop('SIGTERM'));
  });
}

// Run directly (`tsx src/cli/serve.ts ...`) as well as through the CLI entry.
if (process.argv[1] && import.meta.url === new URL(`file://${resolve(process.argv[1])}`).href) {
  runServe(process.argv.slice(2)).then((code) => {
    process.exitCode = code;
  });
}
