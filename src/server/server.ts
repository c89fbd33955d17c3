/**
 * The HTTP API server: one node:http (or, with TLS, node:https) request handler that
 * authenticates the request, applies impersonation, authorizes, routes health and version checks,
 * discovery, OpenAPI, verb-only endpoints (access reviews) and resource requests, and turns
 * every failure into a Kubernetes Status. `createApiServer` wires the served-resource table to
 * the stores; `listen`/`close` manage the socket and open watches.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createSecureServer, type Server as SecureServer } from 'node:https';
import { isIP, type Socket } from 'node:net';
import { failureStatus, newMethodNotAllowed, newNotFound, newUnauthorized } from '../apimachinery/index.ts';
import { builtinRegistry, isObject, type Admission, type BuiltinRegistry, type ConversionWebhookClient, type Obj, type RESTStore, type ServiceNetworkOptions } from '../registry/index.ts';
import type { Store } from '../storage/index.ts';
import { runLeaderElection, type LeaderElector } from '../storage/index.ts';
import { hostname } from 'node:os';
import { randomUUID } from 'node:crypto';
import { readBody, decodeObjectBody } from './http/body.ts';
import { negotiate } from './http/negotiate.ts';
import { Query } from './http/query.ts';
import { writeError, writeJSON, writeObject, writeStatus } from './http/respond.ts';
import { parseRequestInfo } from './requestinfo.ts';
import { ServedTable } from './served.ts';
import { serveResource } from './handlers/resource.ts';
import { serveDiscovery } from './discovery/handler.ts';
import { versionInfo } from './version.ts';
import { OpenAPIService } from './openapi/service.ts';
import { CRDServing, fromBootList, type BootList } from './crd/serving.ts';
import { loadBuiltinKindCode, loadControllers, type Controllers } from '../registry/index.ts';
import type { Controller } from '../registry/index.ts';
import { storageVersion } from '../registry/index.ts';
import { adminUser, escalationCheckedStore, type ReviewContext, type UserInfo } from '../registry/index.ts';
import {
  forbiddenMessage,
  impersonatedUser,
  newRequestAuthenticator,
  privilegedGroups,
  rbacAuthorizer,
  rbacEscalationChecks,
  rbacRulesFor,
  RBACCache,
  reconcileBootstrapPolicy,
  unionAuthorizer,
  type AuthenticationOptions,
  type AuthorizationAttributes,
  type Authorizer,
  type RBACStores,
  type RequestAuthenticator,
  type TokenAuthenticator,
} from '../auth/index.ts';
import { newForbidden } from '../apimachinery/index.ts';
import { ServiceStore, startKubernetesServiceController } from '../registry/index.ts';
import { auditAnnotation, auditImpersonatedUser, auditRequestUser } from './audit/index.ts';
import { InflightLimiter, type InflightLimits } from './filters/inflight.ts';
import { isLongRunning } from './filters/long-running.ts';
import { startDeadline } from './filters/timeout.ts';
import { ephemeralServiceAccountTokens, storeTokenGetter, type ServiceAccountTokenAuthenticator, type ServiceAccountTokens } from '../auth/index.ts';
import { serveConsole } from '../console/index.ts';

/** What the server needs from the layers below: the store everything is kept in, and the admission chain. */
export interface ApiServerDeps {
  store: Store;
  admission?: Admission;
  /** Several servers share the store: run the controllers only while holding their leader Lease. */
  leaderElection?: boolean;
  /** The storage health check of /readyz and /healthz (etcd: a read answered in time); throws when unhealthy. */
  checkStorage?: () => Promise<void>;
  /** Given the server's authorizer once it has one (the admission policies' `authorizer` asks it). */
  useAuthorizer?: (a: Authorizer) => void;
  /** Services' address and port ranges (serve --service-cluster-ip-range, --service-node-port-range). */
  serviceNetwork?: ServiceNetworkOptions;
  /** The ServiceAccount token issuer (serve's --service-account-* flags); default: a key made for this process. */
  serviceAccountTokens?: ServiceAccountTokens;
  /** The CA bundle (PEM) published as every namespace's kube-root-ca.crt and put into token Secrets. */
  rootCA?: string;
  /** How CRDs' conversion webhooks are called (without it, webhook conversion fails as an unreachable webhook does). */
  conversionWebhooks?: ConversionWebhookClient;
  /** --max-requests-inflight, --max-mutating-requests-inflight and --request-timeout (none when absent). */
  limits?: { inflight?: InflightLimits; requestTimeoutMs?: number };
  /**
   * Serve HTTPS with this certificate and key (PEM) instead of plain HTTP; client certificates
   * are asked for, and verified against `clientCA` when it is given.
   */
  tls?: ServingTLS;
  /**
   * Authenticate every request (client certificates, bearer tokens, anonymous). Without it every
   * request is the admin's unless it impersonates (plain HTTP on loopback, in-process servers).
   */
  authentication?: AuthenticationOptions;
}

export interface ServingTLS {
  cert: string | Buffer;
  key: string | Buffer;
  clientCA?: string | Buffer;
}

const notFoundStatus = () =>
  failureStatus(404, 'NotFound', 'the server could not find the requested resource', {});

/** The decoded segments of a path (a trailing slash adds none). */
export function splitPath(pathname: string): string[] {
  const segs = pathname.split('/').slice(1);
  if (segs.length > 0 && segs[segs.length - 1] === '') segs.pop();
  // Escapes are rare in API paths: a path without one is its segments as they are.
  if (!pathname.includes('%')) return segs;
  return segs.map((s) => {
    try {
      return decodeURIComponent(s);
    } catch {
      return s;
    }
  });
}

/** A request target WHATWG URL parsing would leave as it is: no dot segments, escapes or odd characters. */
const plainTarget = /^(?!\/\/)(\/(?:[A-Za-z0-9\-_~]|\.(?!\.?(?:\/|$|\?))|\/)*)(?:\?([A-Za-z0-9\-._~=&%+,:/;!*()'$@]*))?$/;

/**
 * The path and query of a request target. Targets as clients send them are split directly; any
 * other goes through `new URL`, whose normalisation (dot segments, escapes) is the reference.
 */
export function splitTarget(target: string): { pathname: string; params: URLSearchParams } {
  const m = plainTarget.exec(target);
  if (m) return { pathname: m[1]!, params: new URLSearchParams(m[2] ?? '') };
  const url = new URL(target, 'http://localhost');
  return { pathname: url.pathname, params: url.searchParams };
}

export class ApiServer {
  readonly table = new ServedTable();
  /** The built-in kinds, served from the registry's definitions. */
  readonly registry: BuiltinRegistry;
  readonly openapi: OpenAPIService;
  readonly crdServing: CRDServing;
  private controllers: Controller[] = [];
  /** The controllers' code, imported once the server listens (loadControllers). */
  private controllerCode: Controllers | undefined;
  /** The next post-start step queued (runPostStart). */
  private postStart: NodeJS.Immediate | undefined;
  private kubernetesService: { stop(): void } | undefined;
  private elector: LeaderElector | undefined;
  readonly http: Server | SecureServer;
  private readonly sockets = new Set<Socket>();
  private serverAddress = '127.0.0.1:6443';
  /** RBAC's objects as the authorizer reads them, and the chain: system:masters, then RBAC. */
  private readonly rbacStores: RBACStores;
  private readonly rbac: RBACCache;
  readonly authorizer: Authorizer;
  private readonly inflight: InflightLimiter | undefined;
  /**
   * The bearer token authenticators, asked in order after client certificates: the options' ones,
   * then ServiceAccount tokens; read on every request, so more may be appended once the server is
   * built.
   */
  readonly tokenAuthenticators: TokenAuthenticator[];
  private readonly authenticator: RequestAuthenticator | undefined;
  /** Whom each request in progress acts as (after authentication and impersonation), for `requestUser`. */
  private readonly users = new WeakMap<IncomingMessage, UserInfo>();

  /** ServiceAccount tokens (bound and Secret-based) as a token authenticator, over the served objects. */
  readonly serviceAccountAuthenticator: ServiceAccountTokenAuthenticator;
  private readonly serviceAccountTokens: ServiceAccountTokens;

  constructor(readonly deps: ApiServerDeps) {
    this.inflight = deps.limits?.inflight ? new InflightLimiter(deps.limits.inflight) : undefined;
    const tokens = (this.serviceAccountTokens = deps.serviceAccountTokens ?? ephemeralServiceAccountTokens());
    this.registry = builtinRegistry({ ...deps, tokenGenerator: tokens.generator });
    this.serviceAccountAuthenticator = tokens.authenticator(storeTokenGetter((r) => this.table.get('', 'v1', r)?.store));
    for (const k of this.registry.kinds) this.table.addBuiltin(k);
    for (const r of this.registry.reviews) this.table.addReview(r);
    const rbacStore = (resource: string) => this.table.get('rbac.authorization.k8s.io', 'v1', resource)!.store;
    this.rbacStores = { roles: rbacStore('roles'), clusterRoles: rbacStore('clusterroles'), roleBindings: rbacStore('rolebindings'), clusterRoleBindings: rbacStore('clusterrolebindings') };
    this.rbac = new RBACCache(this.rbacStores);
    this.authorizer = unionAuthorizer(privilegedGroups, rbacAuthorizer(this.rbac));
    // Role and binding writes are checked for escalation (the policybased storage); the
    // bootstrap policy and the controllers write through the unchecked stores.
    const escalation = rbacEscalationChecks(this.rbac, this.authorizer);
    for (const r of ['roles', 'clusterroles', 'rolebindings', 'clusterrolebindings'] as const) {
      const def = this.table.get('rbac.authorization.k8s.io', 'v1', r)!;
      this.table.addBuiltin({ ...def, store: escalationCheckedStore(r, def.store, () => escalation) });
    }
    deps.useAuthorizer?.(this.authorizer);
    this.openapi = new OpenAPIService(this.table);
    this.crdServing = new CRDServing(this.table, this.registry.crds, deps);
    // The options' token authenticators, then ServiceAccount tokens (bound and legacy Secret ones).
    this.tokenAuthenticators = [...(deps.authentication?.tokenAuthenticators ?? []), this.serviceAccountAuthenticator];
    this.authenticator = deps.authentication ? newRequestAuthenticator(deps.authentication, this.tokenAuthenticators) : undefined;
    const onRequest = (req: IncomingMessage, res: ServerResponse): void => {
      this.handle(req, res).catch((e) => {
        try {
          writeError(res, e);
        } catch {
          res.destroy();
        }
      });
    };
    const tls = deps.tls;
    // As kube-apiserver's tls.RequestClientCert: a certificate is asked for, not required, and
    // judged by the x509 authenticator, so that requests without one can use tokens.
    const server = tls
      ? createSecureServer({ keepAlive: true, cert: tls.cert, key: tls.key, ...(tls.clientCA !== undefined ? { ca: tls.clientCA, requestCert: true, rejectUnauthorized: false } : {}) }, onRequest)
      : createServer({ keepAlive: true }, onRequest);
    this.http = server;
    server.on('connection', (s: Socket) => {
      this.sockets.add(s);
      s.on('close', () => this.sockets.delete(s));
    });
    server.on('clientError', (_err: Error, socket: Socket) => {
      if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n');
      else socket.destroy();
    });
  }

  /**
   * Serves every stored CRD, listens, then starts the controllers; resolves with the bound address
   * (`host:port`) once the socket listens and every stored CRD is served (what /readyz answers
   * for), with the controllers' start queued behind it.
   */
  async listen(host: string, port: number): Promise<{ host: string; port: number }> {
    // Every built-in kind's folder and the Tables' printers (other commands import only what they use).
    await loadBuiltinKindCode();
    // The RBAC bootstrap policy (rbac/bootstrap-roles), then the authorizer's cache, before serving.
    await reconcileBootstrapPolicy(this.rbacStores);
    await this.rbac.start();
    await this.crdServing.start();
    try {
      await new Promise<void>((resolve, reject) => {
        this.http.once('error', reject);
        this.http.listen(port, host, () => {
          this.http.off('error', reject);
          resolve();
        });
      });
    } catch (e) {
      // Nothing may keep running when the socket cannot be had (the process must be able to exit).
      this.stopBackground();
      throw e;
    }
    const addr = this.http.address();
    const bound = typeof addr === 'object' && addr ? { host, port: addr.port } : { host, port };
    this.serverAddress = `${bound.host}:${bound.port}`;
    await this.startKubernetesService(bound);
    this.controllerCode = await loadControllers();
    this.startControllersOnce();
    return bound;
  }

  /**
   * Runs `steps` one per turn of the event loop, as kube-apiserver runs its post-start hooks
   * beside serving: each controller's first list and reconciles take the event loop for a while
   * (with hundreds of CRDs, hundreds of milliseconds), and requests arriving meanwhile (the first
   * /readyz) are answered between two of them instead of after all. Stops when the server does.
   */
  private runPostStart(steps: (() => void)[]): void {
    const next = (): void => {
      this.postStart = undefined;
      const step = steps.shift();
      if (step === undefined) return;
      step();
      if (steps.length > 0) this.postStart = setImmediate(next);
    };
    this.postStart = setImmediate(next);
  }

  /**
   * Controllers that must run once: with several servers on one store (etcd), only the holder of
   * the controllers' Lease runs them (as kube-controller-manager's --leader-elect), handing over
   * when it stops renewing; alone, the server runs them itself.
   */
  private startControllersOnce(): void {
    // Controllers started now begin from the CRDs serving just listed; a replica that may lead
    // only later lists afresh then (and does not hold the list meanwhile).
    const boot = this.crdServing.takeBootList();
    if (!this.deps.leaderElection) {
      this.startControllers(boot);
      return;
    }
    this.elector = runLeaderElection({
      store: this.deps.store,
      name: 'crd-apiserver-controllers',
      identity: `${hostname()}_${randomUUID()}`,
      onStartedLeading: () => this.startControllers(),
      onStoppedLeading: () => this.stopControllers(),
    });
  }

  private stopControllers(): void {
    if (this.postStart) clearImmediate(this.postStart);
    this.postStart = undefined;
    for (const c of this.controllers) c.stop();
    this.controllers = [];
  }

  /**
   * The registry's controllers: CRD names and Established, CRD instance cleanup (through the
   * served stores), the namespace deleter (over every served namespaced resource, built-in or
   * custom), the `default` ServiceAccount of every namespace, the tokens of ServiceAccount token
   * Secrets, every namespace's kube-root-ca.crt (given a root CA), and the garbage collector (over
   * every served kind, following ownerReferences).
   */
  private startControllers(boot?: BootList): void {
    const { crds, namespaces } = this.registry;
    const {
      admissionPolicyTypeChecker,
      bareInstanceStore,
      startClusterRoleAggregation,
      startCRDFinalizer,
      startCRDStatusController,
      startDeploymentController,
      startGarbageCollector,
      startNamespaceController,
      startPolicyStatusController,
      startRootCAPublisher,
      startServiceAccountController,
      startServiceAccountTokensController,
    } = this.controllerCode!;
    // Started in this order, one per turn of the event loop (runPostStart): the CRD controllers
    // first, the garbage collector (which lists every served kind) last.
    const steps: (() => void)[] = [];
    const start = (f: () => Controller): void => {
      steps.push(() => this.controllers.push(f()));
    };
    const contentStores = (): RESTStore[] => {
      const seen = new Set<string>();
      const out: RESTStore[] = [];
      for (const r of this.table.all()) {
        if (!r.namespaced) continue;
        const k = `${r.group}/${r.resource}`;
        if (seen.has(k)) continue;
        seen.add(k);
        out.push(r.store);
      }
      return out;
    };
    start(() => startCRDStatusController(fromBootList(crds, boot)));
    start(() =>
      // At boot the finalizer has work only for CRDs being deleted; the others it would each read
      // back from storage to find nothing to do. Their later changes reach it through the watch.
      startCRDFinalizer(fromBootList(crds, boot, (crd) => isObject(crd.metadata) && crd.metadata.deletionTimestamp !== undefined), {
        instanceStore: (crd) => {
          const spec = (crd.spec ?? {}) as { group?: string; names?: { plural?: string } };
          const v = storageVersion(crd);
          const served = v ? this.table.get(spec.group ?? '', v, spec.names?.plural ?? '') : undefined;
          return served?.store ?? bareInstanceStore(crds.store, crd);
        },
      }),
    );
    start(() => startNamespaceController(namespaces, { contentStores }));
    const serviceAccounts = this.table.get('', 'v1', 'serviceaccounts');
    if (serviceAccounts) start(() => startServiceAccountController(namespaces, serviceAccounts.store));
    const secrets = this.table.get('', 'v1', 'secrets');
    if (serviceAccounts && secrets) {
      start(() => startServiceAccountTokensController(serviceAccounts.store, secrets.store, { generator: this.serviceAccountTokens.generator, ...(this.deps.rootCA ? { rootCA: this.deps.rootCA } : {}) }));
    }
    const configMaps = this.table.get('', 'v1', 'configmaps');
    const rootCA = this.deps.rootCA;
    if (configMaps && rootCA) start(() => startRootCAPublisher(namespaces, configMaps.store, rootCA));
    const deployments = this.table.get('apps', 'v1', 'deployments');
    const replicaSets = this.table.get('apps', 'v1', 'replicasets');
    if (deployments && replicaSets) start(() => startDeploymentController(deployments.store, replicaSets.store));
    const policies = this.table.get('admissionregistration.k8s.io', 'v1', 'validatingadmissionpolicies');
    if (policies) {
      // Type checking reads the CRDs served when a policy changes (as upstream's RESTMapper does).
      const typeChecker = admissionPolicyTypeChecker(async () => (await crds.list(undefined, {})).items);
      start(() => startPolicyStatusController(policies.store, { typeChecker }));
    }
    start(() => startClusterRoleAggregation(this.rbacStores.clusterRoles));
    start(() => startGarbageCollector(this.table, { events: this.table.get('', 'v1', 'events')?.store }));
    this.runPostStart(steps);
  }

  /** The `kubernetes` Service in `default`, naming this server (kube-apiserver's kubernetesservice controller, run by every server). */
  private async startKubernetesService(bound: { host: string; port: number }): Promise<void> {
    const services = this.table.get('', 'v1', 'services')?.store;
    if (!(services instanceof ServiceStore)) return;
    const c = startKubernetesServiceController({
      services,
      endpoints: this.table.get('', 'v1', 'endpoints')?.store,
      endpointSlices: this.table.get('discovery.k8s.io', 'v1', 'endpointslices')?.store,
      host: isIP(bound.host) ? bound.host : '127.0.0.1',
      port: bound.port,
      onError: (e) => process.stderr.write(`crd-apiserver: the kubernetes Service: ${e instanceof Error ? e.message : String(e)}\n`),
    });
    this.kubernetesService = c;
    await c.synced;
  }

  /** Stops the CRD watch and the controllers. */
  private stopBackground(): void {
    this.crdServing.stop();
    this.rbac.stop();
    void this.elector?.stop();
    this.elector = undefined;
    this.kubernetesService?.stop();
    this.kubernetesService = undefined;
    this.stopControllers();
  }

  /** Stops accepting, ends open connections (watches included) and the CRD watch. */
  async close(): Promise<void> {
    this.stopBackground();
    const closed = new Promise<void>((resolve) => this.http.close(() => resolve()));
    for (const s of this.sockets) s.destroy();
    await closed;
  }

  /** Handles one request (exposed for tests that drive the handler without a socket). */
  async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const target = splitTarget(req.url ?? '/');
    const query = new Query(target.params);
    const segs = splitPath(target.pathname);
    const method = req.method ?? 'GET';
    try {
      const info = segs[0] === 'api' || segs[0] === 'apis' ? parseRequestInfo(method, segs, query) : undefined;
      const longRunning = isLongRunning(info, target.pathname);
      if (!longRunning && this.deps.limits?.requestTimeoutMs !== undefined) startDeadline(res, this.deps.limits.requestTimeoutMs, query.str('timeout'));
      // Without authentication (plain HTTP, in-process servers) every request is the admin's, or
      // whom it impersonates; with it, whom it authenticates as, then whom that user impersonates.
      const requester = this.authenticator ? await this.authenticate(req) : adminUser;
      auditRequestUser(requester);
      const user = hasImpersonation(req) ? impersonatedUser(requester, req.headers, this.authorizer) : requester;
      if (user !== requester) auditImpersonatedUser(user);
      this.users.set(req, user);
      if (this.inflight && !this.inflight.admit(res, { verb: info?.verb ?? method.toLowerCase(), longRunning }, user)) return;
      this.authorize(user, info, method, target.pathname);
      if (await this.handleNonResource(req, res, segs, query, method)) return;
      if (info === undefined) {
        writeStatus(res, notFoundStatus());
        return;
      }
      const virtual = this.table.getReview(info.group, info.version, info.resource);
      if (virtual !== undefined && info.name === undefined && (info.namespace !== undefined) === (virtual.namespaced === true)) {
        if (info.verb !== 'create') throw newMethodNotAllowed(`${info.verb} is not supported on resources of kind ${JSON.stringify(info.resource + '.' + info.group)}`);
        const body = decodeObjectBody(await readBody(req), req.headers['content-type'], true).value;
        if (body === null || typeof body !== 'object' || Array.isArray(body)) throw newNotFound({ group: info.group, resource: info.resource }, '');
        const n = negotiate(req.headers.accept, { yaml: true });
        writeObject(res, 201, await virtual.create(body as Obj, { ...this.reviewContext(user), ...(info.namespace !== undefined ? { namespace: info.namespace } : {}) }), n);
        return;
      }
      const served = this.table.get(info.group, info.version, info.resource);
      if (served === undefined) {
        writeStatus(res, notFoundStatus());
        return;
      }
      await serveResource({
        req,
        res,
        query,
        info,
        served,
        user,
      });
    } catch (e) {
      if (!res.headersSent) {
        // Drain what is left of the body so that keep-alive connections stay usable.
        req.resume();
      }
      writeError(res, e);
    }
  }

  /**
   * The user `req` acted as (authenticated, then impersonated), once the filters have run;
   * undefined for a request refused before (a 401, a refused impersonation). For what records
   * requests after they are answered, such as the audit log.
   */
  requestUser(req: IncomingMessage): UserInfo | undefined {
    return this.users.get(req);
  }

  /**
   * The authentication filter (endpoints/filters/authentication.go): the request's user, or the
   * 401 `Unauthorized` Status when its credentials are refused or, without anonymous auth, absent.
   * The Authorization header is dropped once it has served, as upstream drops it.
   */
  private async authenticate(req: IncomingMessage): Promise<UserInfo> {
    const r = await this.authenticator!.authenticateRequest(req);
    if (!r.user) throw newUnauthorized('Unauthorized');
    delete req.headers.authorization;
    return r.user;
  }

  /**
   * The authorization filter: the request's attributes (its RequestInfo, or the path and the
   * lower-cased method of a non-resource request) asked of the authorizer; anything it does not
   * allow is the 403 kube-apiserver writes (`configmaps is forbidden: User "jane" cannot list
   * resource "configmaps" in API group "" in the namespace "dev"`).
   */
  private authorize(user: UserInfo, info: ReturnType<typeof parseRequestInfo>, method: string, path: string): void {
    const a: AuthorizationAttributes = info
      ? {
          user,
          verb: info.verb,
          resourceRequest: true,
          apiGroup: info.group,
          apiVersion: info.version,
          resource: info.resource,
          subresource: info.subresource ?? '',
          namespace: info.namespace ?? '',
          name: info.name ?? '',
          path,
        }
      : { user, verb: method.toLowerCase(), resourceRequest: false, apiGroup: '', apiVersion: '', resource: '', subresource: '', namespace: '', name: '', path };
    const r = this.authorizer.authorize(a);
    auditAnnotation('authorization.k8s.io/decision', r.decision === 'Allow' ? 'allow' : 'forbid');
    auditAnnotation('authorization.k8s.io/reason', r.reason);
    if (r.decision === 'Allow') return;
    const msg = forbiddenMessage(a) + (r.reason ? `: ${r.reason}` : '');
    throw newForbidden(a.resourceRequest ? { group: a.apiGroup, resource: a.resource } : { group: '', resource: '' }, a.name, msg);
  }

  /** What an access review is answered with: the requester and the server's authorizer. */
  private reviewContext(user: UserInfo): ReviewContext {
    return {
      user,
      authorize: (a) => this.authorizer.authorize(a),
      rulesFor: (u, ns) => rbacRulesFor(this.rbac, u, ns),
      authenticateToken: (token, audiences) => this.reviewToken(token, audiences),
    };
  }

  /**
   * A TokenReview's answer from every token authenticator: ServiceAccount tokens for the audiences
   * asked, then the audience-agnostic ones (the token file) as WrapAudienceAgnosticToken wraps
   * them: good for the API audiences, refused for a review asking only others.
   */
  private async reviewToken(token: string, audiences: readonly string[]): Promise<{ user: UserInfo; audiences: string[] } | null> {
    const sa = await this.serviceAccountAuthenticator.authenticate(token, audiences);
    if (sa) return sa;
    const api = this.serviceAccountTokens.generator.apiAudiences;
    const good = audiences.length === 0 ? [...api] : audiences.filter((a) => api.includes(a));
    if (audiences.length > 0 && good.length === 0) return null;
    for (const a of this.tokenAuthenticators) {
      if (a === this.serviceAccountAuthenticator) continue;
      const user = await a.authenticateToken(token);
      // As the request authenticator answers it (the review authenticates a request carrying the token).
      if (user) return { user: user.groups.includes('system:authenticated') ? user : { ...user, groups: [...user.groups, 'system:authenticated'] }, audiences: good };
    }
    return null;
  }

  /** Non-resource paths; returns false when the path is a resource path. */
  private async handleNonResource(req: IncomingMessage, res: ServerResponse, segs: string[], query: Query, method: string): Promise<boolean> {
    const p = segs.join('/');
    const isRead = method === 'GET' || method === 'HEAD';
    switch (p) {
      case 'healthz':
      case 'livez':
      case 'readyz':
      case 'healthz/ping':
      case 'livez/ping':
      case 'readyz/ping': {
        if (!isRead) throw newMethodNotAllowed('the server does not allow this method on the requested resource');
        // As kube-apiserver's healthz handlers: `ok`, or the list of checks with `?verbose`; a
        // failing check is withheld from the body and makes it a 500. Liveness does not ask storage.
        const checks: [string, boolean][] = [['ping', true]];
        if (this.deps.checkStorage && segs[0] !== 'livez' && !segs[1]) {
          let ok = true;
          try {
            await this.deps.checkStorage();
          } catch {
            ok = false;
          }
          checks.push(['etcd', ok]);
        }
        const failed = checks.some(([, ok]) => !ok);
        const verbose = (query.has('verbose') || failed) && !segs[1];
        const lines = checks.map(([n, ok]) => (ok ? `[+]${n} ok` : `[-]${n} failed: reason withheld`)).join('\n');
        res.writeHead(failed ? 500 : 200, { 'Content-Type': 'text/plain; charset=utf-8', 'X-Content-Type-Options': 'nosniff' });
        res.end(verbose ? `${lines}\n${segs[0]} check ${failed ? 'failed' : 'passed'}\n` : 'ok');
        return true;
      }
      case 'version':
        if (!isRead) throw newMethodNotAllowed('the server does not allow this method on the requested resource');
        writeJSON(res, 200, JSON.stringify(versionInfo, null, 2));
        return true;
    }
    if (segs[0] === 'openapi') {
      if (!isRead) throw newMethodNotAllowed('the server does not allow this method on the requested resource');
      this.openapi.serve(req, res, segs, query);
      return true;
    }
    if (serveDiscovery(req, res, segs, isRead, this.table, this.serverAddress)) return true;
    if (segs[0] === 'console') {
      // The console's static files: a non-resource path, authorized as any other (`get` on /console/*).
      await serveConsole(req, res, segs, (req.url ?? '').split('?')[0]!.endsWith('/'));
      return true;
    }
    if (segs[0] !== 'api' && segs[0] !== 'apis') {
      writeStatus(res, notFoundStatus());
      return true;
    }
    return false;
  }
}

function hasImpersonation(req: IncomingMessage): boolean {
  for (const h of Object.keys(req.headers)) if (h.startsWith('impersonate-')) return true;
  return false;
}

/** Creates an ApiServer over the given stores (not yet listening). */
export function createApiServer(deps: ApiServerDeps): ApiServer {
  return new ApiServer(deps);
}
