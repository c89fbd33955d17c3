/**
 * The HTTP API server: one node:http request handler that routes health and version checks,
 * discovery, OpenAPI, verb-only endpoints (access reviews) and resource requests, and turns
 * every failure into a Kubernetes Status. `createApiServer` wires the served-resource table to
 * the stores; `listen`/`close` manage the socket and open watches.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { isIP, type Socket } from 'node:net';
import { failureStatus, newMethodNotAllowed, newNotFound } from '../apimachinery/index.ts';
import { builtinRegistry, isObject, type Admission, type BuiltinRegistry, type Obj, type RESTStore, type ServiceNetworkOptions } from '../registry/index.ts';
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
import { startCRDStatusController } from '../registry/index.ts';
import { bareInstanceStore, startCRDFinalizer } from '../registry/index.ts';
import { admissionPolicyTypeChecker, startGarbageCollector, startNamespaceController, startPolicyStatusController, startServiceAccountController, startDeploymentController } from '../registry/index.ts';
import type { Controller } from '../registry/index.ts';
import { storageVersion } from '../registry/index.ts';
import { adminUser, startClusterRoleAggregation, type ReviewContext, type UserInfo } from '../registry/index.ts';
import {
  forbiddenMessage,
  impersonatedUser,
  privilegedGroups,
  rbacAuthorizer,
  rbacRulesFor,
  RBACCache,
  reconcileBootstrapPolicy,
  unionAuthorizer,
  type AuthorizationAttributes,
  type Authorizer,
  type RBACStores,
} from '../auth/index.ts';
import { newForbidden } from '../apimachinery/index.ts';
import { ServiceStore, startKubernetesServiceController } from '../registry/index.ts';

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
}

const notFoundStatus = () =>
  failureStatus(404, 'NotFound', 'the server could not find the requested resource', {});

function splitPath(pathname: string): string[] {
  const segs = pathname.split('/').slice(1);
  if (segs.length > 0 && segs[segs.length - 1] === '') segs.pop();
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
  private kubernetesService: { stop(): void } | undefined;
  private elector: LeaderElector | undefined;
  readonly http: Server;
  private readonly sockets = new Set<Socket>();
  private serverAddress = '127.0.0.1:6443';
  /** RBAC's objects as the authorizer reads them, and the chain: system:masters, then RBAC. */
  private readonly rbacStores: RBACStores;
  private readonly rbac: RBACCache;
  readonly authorizer: Authorizer;

  constructor(readonly deps: ApiServerDeps) {
    this.registry = builtinRegistry(deps);
    for (const k of this.registry.kinds) this.table.addBuiltin(k);
    for (const r of this.registry.reviews) this.table.addReview(r);
    const rbacStore = (resource: string) => this.table.get('rbac.authorization.k8s.io', 'v1', resource)!.store;
    this.rbacStores = { roles: rbacStore('roles'), clusterRoles: rbacStore('clusterroles'), roleBindings: rbacStore('rolebindings'), clusterRoleBindings: rbacStore('clusterrolebindings') };
    this.rbac = new RBACCache(this.rbacStores);
    this.authorizer = unionAuthorizer(privilegedGroups, rbacAuthorizer(this.rbac));
    deps.useAuthorizer?.(this.authorizer);
    this.openapi = new OpenAPIService(this.table);
    this.crdServing = new CRDServing(this.table, this.registry.crds, deps);
    this.http = createServer({ keepAlive: true }, (req, res) => {
      this.handle(req, res).catch((e) => {
        try {
          writeError(res, e);
        } catch {
          res.destroy();
        }
      });
    });
    this.http.on('connection', (s: Socket) => {
      this.sockets.add(s);
      s.on('close', () => this.sockets.delete(s));
    });
    this.http.on('clientError', (_err, socket: Socket) => {
      if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n');
      else socket.destroy();
    });
  }

  /** Starts the CRD and Namespace controllers and listens; resolves with the bound address (`host:port`). */
  async listen(host: string, port: number): Promise<{ host: string; port: number }> {
    // The RBAC bootstrap policy (rbac/bootstrap-roles), then the authorizer's cache, before serving.
    await reconcileBootstrapPolicy(this.rbacStores);
    await this.rbac.start();
    await this.crdServing.start();
    this.startControllersOnce();
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
    return bound;
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
    for (const c of this.controllers) c.stop();
    this.controllers = [];
  }

  /**
   * The registry's controllers: CRD names and Established, CRD instance cleanup (through the
   * served stores), the namespace deleter (over every served namespaced resource, built-in or
   * custom), the `default` ServiceAccount of every namespace, and the garbage collector (over every
   * served kind, following ownerReferences).
   */
  private startControllers(boot?: BootList): void {
    const { crds, namespaces } = this.registry;
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
    this.controllers.push(startCRDStatusController(fromBootList(crds, boot)));
    this.controllers.push(
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
    this.controllers.push(startNamespaceController(namespaces, { contentStores }));
    const serviceAccounts = this.table.get('', 'v1', 'serviceaccounts');
    if (serviceAccounts) this.controllers.push(startServiceAccountController(namespaces, serviceAccounts.store));
    const deployments = this.table.get('apps', 'v1', 'deployments');
    const replicaSets = this.table.get('apps', 'v1', 'replicasets');
    if (deployments && replicaSets) this.controllers.push(startDeploymentController(deployments.store, replicaSets.store));
    const policies = this.table.get('admissionregistration.k8s.io', 'v1', 'validatingadmissionpolicies');
    if (policies) {
      // Type checking reads the CRDs served when a policy changes (as upstream's RESTMapper does).
      const typeChecker = admissionPolicyTypeChecker(async () => (await crds.list(undefined, {})).items);
      this.controllers.push(startPolicyStatusController(policies.store, { typeChecker }));
    }
    this.controllers.push(startGarbageCollector(this.table, { events: this.table.get('', 'v1', 'events')?.store }));
    this.controllers.push(startClusterRoleAggregation(this.rbacStores.clusterRoles));
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
      // Without authentication every request is the admin's, or whom it impersonates.
      const user = hasImpersonation(req) ? impersonatedUser(adminUser, req.headers, this.authorizer) : adminUser;
      const info = segs[0] === 'api' || segs[0] === 'apis' ? parseRequestInfo(method, segs, query) : undefined;
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
        writeObject(res, 201, virtual.create(body as Obj, { ...this.reviewContext(user), ...(info.namespace !== undefined ? { namespace: info.namespace } : {}) }), n);
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
    if (r.decision === 'Allow') return;
    const msg = forbiddenMessage(a) + (r.reason ? `: ${r.reason}` : '');
    throw newForbidden(a.resourceRequest ? { group: a.apiGroup, resource: a.resource } : { group: '', resource: '' }, a.name, msg);
  }

  /** What an access review is answered with: the requester and the server's authorizer. */
  private reviewContext(user: UserInfo): ReviewContext {
    return { user, authorize: (a) => this.authorizer.authorize(a), rulesFor: (u, ns) => rbacRulesFor(this.rbac, u, ns) };
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
