/**
 * `crd-apiserver serve`: opens the SQLite store under --data-dir (or the etcd cluster that
 * --etcd-servers names, with kube-apiserver's --etcd-* flags), serves the API over HTTPS on the
 * --listen address with kube-apiserver's authentication (client certificates, --token-auth-file,
 * anonymous requests) in front of RBAC — with certificates of its own made in DIR/pki unless
 * --tls-cert-file and --client-ca-file name the user's —, or with --plain-http over plain HTTP on
 * loopback, every request the admin's; calls admission webhooks of services at the
 * --webhook-service-address each names, writes DIR/kubeconfig for kubectl and the client
 * libraries, and shuts down cleanly on SIGINT or SIGTERM.
 */
import { X509Certificate } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { resolve, join } from 'node:path';
import { openBackend, type StorageChoice } from '../server/index.ts';
import { defaultCompactionIntervalMs, defaultEtcdPrefix } from '../storage/index.ts';
import { ApiServer, auditFilter, defaultAuditOptions, defaultLimitOptions, ensureServerPKI, pkiFiles, servingNames, setAuditFlag, setLimitFlag, validateAuditOptions, validateLimitOptions, type ServingTLS } from '../server/index.ts';
import type { AuditOptions, LimitOptions } from '../server/index.ts';
import { readTokenFile, type AuthenticationOptions } from '../auth/index.ts';
import { fixedServiceResolver } from '../admission/index.ts';
import { checkServiceNetwork, type ServiceNetworkOptions } from '../registry/index.ts';
import { checkServiceAccountFlags, defaultServiceAccountFlags, rootCABundle, serviceAccountTokensFromFlags, type ServiceAccountFlags } from '../auth/index.ts';

const usage = `usage: crd-apiserver serve [--listen 127.0.0.1:PORT] [--data-dir DIR]

  --listen ADDR     address to serve HTTPS on (default 127.0.0.1:6443; port 0 picks a free port)
  --data-dir DIR    where the SQLite database, the certificates (DIR/pki) and the kubeconfig live
                    (default ./data)
  --plain-http      serve plain HTTP without authentication, every request the admin's; loopback
                    addresses only
  --tls-cert-file FILE, --tls-private-key-file FILE
                    serve with this certificate (PEM, intermediates after it) and key instead of
                    the one made in DIR/pki
  --tls-san NAME[,NAME]  more DNS names or IPs for the certificate made in DIR/pki (repeatable)
  --client-ca-file FILE  verify client certificates with these CAs (default: the CA in DIR/pki,
                    which also signs the kubeconfig's admin certificate); CN is the user, O the
                    groups
  --token-auth-file FILE  bearer tokens, one CSV record each: token,user,uid[,"group1,group2"]
  --anonymous-auth[=true|false]  let requests without credentials in as system:anonymous
                    (default true); RBAC decides what they may do
  --audit-policy-file FILE  the audit.k8s.io/v1 Policy (YAML or JSON) deciding what is logged;
                    without one nothing is
  --audit-log-path FILE  append the audit Events to FILE (- for standard output)
  --audit-log-format json|legacy   (default json)
  --audit-log-maxsize MB  rotate the log past this size (default 0: 100 MB)
  --audit-log-maxbackup N  backups kept (default 0: all)
  --audit-log-maxage DAYS  days a backup is kept (default 0: no limit)
  --max-requests-inflight N  read-only requests served at once (default 400; 0: no limit)
  --max-mutating-requests-inflight N  mutating requests served at once (default 200; 0: no limit)
  --request-timeout DUR  longest a request that is not long-running may take (default 1m0s)
  --webhook-service-address NAMESPACE/NAME=HOST:PORT
                    where the admission webhooks of service NAME in NAMESPACE listen (their
                    clientConfig.service; the certificate must name NAME.NAMESPACE.svc);
                    repeatable. Webhooks of other services are unreachable.
  --service-cluster-ip-range CIDR[,CIDR]  Services' cluster IPs come from here (default
                    10.96.0.0/12; two CIDRs of different families make the cluster dual-stack)
  --service-node-port-range RANGE  NodePort Services' ports (default 30000-32767)

  --service-account-issuer URL     the issuer of ServiceAccount tokens (default
                                   https://kubernetes.default.svc.cluster.local); repeatable: the
                                   first is written into new tokens, all are accepted
  --service-account-signing-key-file FILE  the PEM private key (RSA or ECDSA) tokens are signed
                                   with (default: DIR/service-account.key, made at first start)
  --service-account-key-file FILE  PEM public keys, private keys or certificates tokens are
                                   verified with (default: the signing key); repeatable
  --service-account-max-token-expiration DUR  the longest a requested token may live (default none)
  --service-account-extend-token-expiration BOOL  pods' tokens live a year, warning after their
                                   requested hour (default true)
  --api-audiences AUD[,AUD...]     the audiences of this server (default: the first issuer)
  --root-ca-file FILE              the CA bundle pods get as kube-root-ca.crt (default: the CA of
                                   the serving certificate, DIR/pki/ca.crt, else a CA made for the
                                   data directory)
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
  /** The --audit-* flags, when any is given. */
  audit?: AuditOptions;
  /** --max-requests-inflight, --max-mutating-requests-inflight, --request-timeout, when any is given (else their defaults). */
  limits?: LimitOptions;
  /** Set when --etcd-servers is given. */
  etcd?: EtcdArgs;
  /** --webhook-service-address: `namespace/name` -> `host:port`. */
  webhookServices?: Map<string, string>;
  /** --service-cluster-ip-range and --service-node-port-range, when given. */
  serviceNetwork?: ServiceNetworkOptions;
  /** Set (false) when --watch-cache=false turns the watch cache off. */
  watchCache?: false;
  /** The --service-account-* and --api-audiences flags. */
  serviceAccounts?: ServiceAccountFlags;
  /** --root-ca-file, when given. */
  rootCAFile?: string;
  /** --plain-http: no TLS, no authentication. */
  plainHTTP?: true;
  /** --tls-cert-file and --tls-private-key-file. */
  tlsCertFile?: string;
  tlsKeyFile?: string;
  /** --tls-san, each value split at commas. */
  tlsSANs?: string[];
  clientCAFile?: string;
  tokenAuthFile?: string;
  /** --anonymous-auth=false. */
  anonymousAuth?: false;
}

/** A Go boolean flag's value (strconv.ParseBool), with pflag's message for anything else. */
export function parseBoolFlag(flag: string, text: string): boolean {
  if (['1', 't', 'T', 'TRUE', 'true', 'True'].includes(text)) return true;
  if (['0', 'f', 'F', 'FALSE', 'false', 'False'].includes(text)) return false;
  throw new Error(`invalid argument ${JSON.stringify(text)} for "${flag}" flag: strconv.ParseBool: parsing ${JSON.stringify(text)}: invalid syntax`);
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
  const audit = defaultAuditOptions();
  const limits = defaultLimitOptions();
  let auditGiven = false;
  let limitsGiven = false;
  const webhookServices = new Map<string, string>();
  const serviceNetwork: ServiceNetworkOptions = {};
  const security: Pick<ServeArgs, 'plainHTTP' | 'tlsCertFile' | 'tlsKeyFile' | 'tlsSANs' | 'clientCAFile' | 'tokenAuthFile' | 'anonymousAuth'> = {};
  const serviceAccounts = defaultServiceAccountFlags();
  let rootCAFile: string | undefined;
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
      case '--data-dir':
        dataDir = next();
        break;
      case '--plain-http':
        if (value !== undefined ? parseBoolFlag(a, value) : true) security.plainHTTP = true;
        else delete security.plainHTTP;
        break;
      case '--anonymous-auth':
        // A boolean flag takes its value only after `=`, as pflag's.
        if (value !== undefined && !parseBoolFlag(a, value)) security.anonymousAuth = false;
        else delete security.anonymousAuth;
        break;
      case '--tls-cert-file':
        security.tlsCertFile = next();
        break;
      case '--tls-private-key-file':
        security.tlsKeyFile = next();
        break;
      case '--tls-san':
        security.tlsSANs = [...(security.tlsSANs ?? []), ...next().split(',').map((n) => n.trim()).filter((n) => n !== '')];
        break;
      case '--client-ca-file':
        security.clientCAFile = next();
        break;
      case '--token-auth-file':
        security.tokenAuthFile = next();
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
      case '--service-account-issuer':
        serviceAccounts.issuers.push(next());
        break;
      case '--service-account-key-file':
        serviceAccounts.keyFiles.push(next());
        break;
      case '--service-account-signing-key-file':
        serviceAccounts.signingKeyFile = next();
        break;
      case '--service-account-max-token-expiration':
        serviceAccounts.maxTokenExpirationSeconds = Math.floor(parseDuration(a, next()) / 1000);
        break;
      case '--service-account-extend-token-expiration': {
        const v = next();
        if (v !== 'true' && v !== 'false') throw new Error(`invalid argument ${JSON.stringify(v)} for "${a}" flag: strconv.ParseBool: parsing ${JSON.stringify(v)}: invalid syntax`);
        serviceAccounts.extendTokenExpiration = v === 'true';
        break;
      }
      case '--api-audiences':
        serviceAccounts.apiAudiences.push(...next().split(',').filter((x) => x !== ''));
        break;
      case '--root-ca-file':
        rootCAFile = next();
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
        if (setAuditFlag(audit, a, next)) auditGiven = true;
        else if (setLimitFlag(limits, a, next)) limitsGiven = true;
        else throw new Error(`unknown flag ${JSON.stringify(a)}`);
        break;
    }
  }
  const { host, port } = parseListen(listen);
  checkSecurity(listen, host, security);
  checkServiceNetwork(serviceNetwork);
  const invalidFlags = [...validateAuditOptions(audit), ...validateLimitOptions(limits)];
  if (invalidFlags.length > 0) throw new Error(invalidFlags.join('; '));
  const flagged = { ...(auditGiven ? { audit } : {}), ...(limitsGiven ? { limits } : {}) };
  checkServiceAccountFlags(serviceAccounts);
  const saGiven = JSON.stringify(serviceAccounts) !== JSON.stringify(defaultServiceAccountFlags());
  const net = { ...(Object.keys(serviceNetwork).length > 0 ? { serviceNetwork } : {}), ...security, ...(saGiven ? { serviceAccounts } : {}), ...(rootCAFile !== undefined ? { rootCAFile } : {}), ...(watchCache ? {} : { watchCache: false as const }) };
  if (etcdServers === undefined) {
    const stray = (['caFile', 'certFile', 'keyFile'] as const).find((k) => etcd[k] !== undefined);
    if (stray) throw new Error('the --etcd-* flags need --etcd-servers');
    return { host, port, dataDir, ...flagged, ...(webhookServices.size > 0 ? { webhookServices } : {}), ...net };
  }
  if (etcdServers.length === 0) throw new Error('--etcd-servers must name at least one URL');
  if ((etcd.certFile === undefined) !== (etcd.keyFile === undefined)) throw new Error('--etcd-certfile and --etcd-keyfile go together');
  return {
    host,
    port,
    dataDir,
    ...flagged,
    ...(webhookServices.size > 0 ? { webhookServices } : {}),
    ...net,
    etcd: { servers: etcdServers, ...etcd },
  };
}

/** The security flags' rules: --plain-http alone and on loopback only; the TLS pair together. */
function checkSecurity(listen: string, host: string, f: Pick<ServeArgs, 'plainHTTP' | 'tlsCertFile' | 'tlsKeyFile' | 'tlsSANs' | 'clientCAFile' | 'tokenAuthFile' | 'anonymousAuth'>): void {
  if (f.plainHTTP) {
    if (!isLoopback(host)) {
      throw new Error(`refusing to serve plain HTTP on ${listen}: --plain-http has no TLS or authentication, so only loopback addresses (127.0.0.1, ::1, localhost) are allowed; serve HTTPS (drop --plain-http) to listen on ${host}`);
    }
    const flag = ([['tlsCertFile', '--tls-cert-file'], ['tlsKeyFile', '--tls-private-key-file'], ['tlsSANs', '--tls-san'], ['clientCAFile', '--client-ca-file'], ['tokenAuthFile', '--token-auth-file'], ['anonymousAuth', '--anonymous-auth']] as const).find(([k]) => f[k] !== undefined);
    if (flag) throw new Error(`${flag[1]} cannot be used with --plain-http, which serves without TLS or authentication`);
  }
  if ((f.tlsCertFile === undefined) !== (f.tlsKeyFile === undefined)) throw new Error('--tls-cert-file and --tls-private-key-file go together');
  if (f.tlsCertFile !== undefined && f.tlsSANs !== undefined) throw new Error('--tls-san names the certificate made in DIR/pki; it cannot be used with --tls-cert-file');
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

/** What a kubeconfig for an HTTPS server carries (PEM texts). */
export interface KubeconfigTLS {
  /** The CA that signs the serving certificate; absent: the system's roots verify it. */
  ca?: string;
  /** The admin's client certificate and key, when the server trusts their CA. */
  clientCert?: string;
  clientKey?: string;
}

const b64 = (pem: string) => Buffer.from(pem).toString('base64');

/**
 * The kubeconfig for a server at `url`: over HTTPS with `tls` (the CA and the admin's client
 * certificate embedded, as kubeadm's admin.conf), or over plain HTTP (where client-node needs
 * insecure-skip-tls-verify to accept http).
 */
export function kubeconfigYAML(url: string, tls?: KubeconfigTLS): string {
  const cluster = tls ? (tls.ca !== undefined ? `    certificate-authority-data: ${b64(tls.ca)}\n` : '') : '    insecure-skip-tls-verify: true\n';
  const user =
    tls?.clientCert !== undefined && tls.clientKey !== undefined
      ? `  user:\n    client-certificate-data: ${b64(tls.clientCert)}\n    client-key-data: ${b64(tls.clientKey)}\n`
      : '  user: {}\n';
  return `apiVersion: v1
kind: Config
clusters:
- name: crd-apiserver
  cluster:
    server: ${url}
${cluster}contexts:
- name: crd-apiserver
  context:
    cluster: crd-apiserver
    namespace: default
    user: crd-apiserver
current-context: crd-apiserver
preferences: {}
users:
- name: crd-apiserver
${user}`;
}

/** The last certificate of a PEM bundle when it is self-signed (the root a kubeconfig can trust), else undefined. */
function selfSignedRoot(pem: string): string | undefined {
  const blocks = pem.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [];
  const last = blocks[blocks.length - 1];
  if (last === undefined) return undefined;
  const c = new X509Certificate(last);
  return c.checkIssued(c) && c.verify(c.publicKey) ? `${last}\n` : undefined;
}

interface Security {
  tls?: ServingTLS;
  authentication?: AuthenticationOptions;
  kubeconfig?: KubeconfigTLS;
  /** What start-up says about the certificates and credentials. */
  notes: string[];
}

/**
 * The serving certificate, the client CA, the authenticators and the kubeconfig's credentials the
 * flags ask for, making the data directory's certificates where the user gives none.
 */
async function security(args: ServeArgs, dataDir: string): Promise<Security> {
  if (args.plainHTTP) return { notes: [] };
  const tokenAuthenticators = args.tokenAuthFile !== undefined ? [readTokenFile(args.tokenAuthFile)] : [];
  const own = args.tlsCertFile !== undefined && args.tlsKeyFile !== undefined ? { cert: readFileSync(args.tlsCertFile, 'utf8'), key: readFileSync(args.tlsKeyFile, 'utf8') } : undefined;
  const clientCA = args.clientCAFile !== undefined ? readFileSync(args.clientCAFile, 'utf8') : undefined;
  // The data directory's CA signs the serving certificate unless the user gives one, and the
  // admin's client certificate unless the user names the client CA.
  const pki = own === undefined || clientCA === undefined ? await ensureServerPKI(dataDir, servingNames(args.host, args.tlsSANs)) : undefined;
  const notes: string[] = [];
  if (pki && pki.issued.length > 0) notes.push(`certificates made in ${join(dataDir, 'pki')}: ${pki.issued.join(', ')}`);
  const tls: ServingTLS = { cert: own?.cert ?? pki!.servingCert, key: own?.key ?? pki!.servingKey, clientCA: clientCA ?? pki!.ca };
  const kubeconfig: KubeconfigTLS = {
    ...(own === undefined ? { ca: pki!.ca } : selfSignedRoot(own.cert) !== undefined ? { ca: selfSignedRoot(own.cert)! } : {}),
    ...(clientCA === undefined ? { clientCert: pki!.adminCert, clientKey: pki!.adminKey } : {}),
  };
  if (clientCA !== undefined) notes.push('the kubeconfig has no client credentials (--client-ca-file names the CA that signs them): add yours');
  return { tls, authentication: { clientCertificates: true, tokenAuthenticators, anonymous: args.anonymousAuth !== false }, kubeconfig, notes };
}

/** The host a client dials for a bound address: loopback for a wildcard one. */
function dialHost(host: string): string {
  if (host === '0.0.0.0') return '127.0.0.1';
  if (host === '::' || host === '0:0:0:0:0:0:0:0') return '[::1]';
  return host.includes(':') ? `[${host}]` : host;
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
  let withAudit: ReturnType<typeof auditFilter>;
  try {
    withAudit = auditFilter(args.audit ?? defaultAuditOptions(), (msg) => process.stderr.write(`crd-apiserver serve: ${msg}\n`));
  } catch (e) {
    process.stderr.write(`crd-apiserver serve: ${e instanceof Error ? e.message : String(e)}\n`);
    return 1;
  }
  // The certificates are made (openssl processes) while the store opens.
  const secured = security(args, dataDir).then(
    (sec) => ({ sec }),
    (e: unknown) => ({ error: e instanceof Error ? e.message : String(e) }),
  );
  // The signing key is made (first start) while the store opens.
  const tokensReady = serviceAccountTokensFromFlags(dataDir, args.serviceAccounts ?? defaultServiceAccountFlags());
  tokensReady.catch(() => {});
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
  let tokens: { serviceAccountTokens: Awaited<ReturnType<typeof serviceAccountTokensFromFlags>>; rootCA: string };
  try {
    const serviceAccountTokens = await tokensReady;
    await secured;
    // kube-root-ca.crt carries the CA that signed the serving certificate, so that pods can verify the server.
    const servingCA = pkiFiles(dataDir).caCert;
    tokens = { serviceAccountTokens, rootCA: rootCABundle(dataDir, args.rootCAFile ?? (args.plainHTTP || args.tlsCertFile || !existsSync(servingCA) ? undefined : servingCA)) };
  } catch (e) {
    await backend.close();
    process.stderr.write(`crd-apiserver serve: ${e instanceof Error ? e.message : String(e)}\n`);
    return 1;
  }
  const got = await secured;
  if ('error' in got) {
    await backend.close();
    process.stderr.write(`crd-apiserver serve: invalid TLS or authentication config: ${got.error}\n`);
    return 1;
  }
  const sec = got.sec;
  let server: ApiServer;
  try {
    server = new ApiServer({ ...backend.deps, ...(args.serviceNetwork ? { serviceNetwork: args.serviceNetwork } : {}), ...(sec.tls ? { tls: sec.tls } : {}), ...(sec.authentication ? { authentication: sec.authentication } : {}), limits: args.limits ?? defaultLimitOptions(), ...tokens });
  } catch (e) {
    // A certificate and key that do not match, or PEM that is not one.
    await backend.close();
    process.stderr.write(`crd-apiserver serve: invalid TLS config: ${e instanceof Error ? e.message : String(e)}\n`);
    return 1;
  }
  if (withAudit) server.handle = withAudit(server.handle.bind(server));
  let bound: { host: string; port: number };
  try {
    bound = await server.listen(args.host, args.port);
  } catch (e) {
    await backend.close();
    process.stderr.write(`crd-apiserver serve: cannot listen on ${args.host}:${args.port}: ${e instanceof Error ? e.message : String(e)}\n`);
    return 1;
  }
  const url = `${sec.tls ? 'https' : 'http'}://${dialHost(bound.host)}:${bound.port}`;
  const kubeconfig = join(dataDir, 'kubeconfig');
  writeFileSync(kubeconfig, kubeconfigYAML(url, sec.kubeconfig), { mode: 0o600 });
  process.stdout.write(
    `crd-apiserver listening on ${url} (${args.etcd ? `objects in etcd at ${args.etcd.servers.join(',')} under ${args.etcd.prefix}` : `data in ${dataDir}`})\n` +
      sec.notes.map((n) => `${n}\n`).join('') +
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
