/**
 * The CRD serving flow, as apiextensions-apiserver's crdHandler and its controllers: watch the
 * CRD store, accept names and mark new CRDs Established (naming and establishing controllers),
 * serve each served version of every Established CRD through a RESTStore made for it, and on
 * deletion remove every custom resource before releasing the CRD's cleanup finalizer (finalizer
 * controller). Discovery and OpenAPI follow, since both derive from the served table.
 */
import type { Obj, RESTStore, ResourceInfo } from '../../registry/rest.ts';
import { StatusError } from '../../apimachinery/status.ts';
import { conditionsOf, isConditionTrue, setCondition } from '../../registry/crd/conditions.ts';
import { storageVersionHash, type SubresourceInfo } from '../discovery/model.ts';
import type { ServedResource, ServedTable } from '../served.ts';
import { crdTableConvertor, type PrinterColumn } from '../table/convert.ts';

/** Creates the RESTStore for one version of a CRD (the registry's custom-resource strategy). */
export type CustomResourceStoreFactory = (crd: Obj, version: string, info: ResourceInfo) => RESTStore;

export const cleanupFinalizer = 'customresourcecleanup.apiextensions.k8s.io';

function isObj(v: unknown): v is Obj {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

function obj(v: unknown): Obj {
  return isObj(v) ? v : {};
}

/** True when the CRD has condition `type` with status True. */
export const hasCondition = isConditionTrue;

interface CRDVersion {
  name: string;
  served?: boolean;
  storage?: boolean;
  deprecated?: boolean;
  deprecationWarning?: string;
  schema?: { openAPIV3Schema?: Obj };
  subresources?: { status?: Obj; scale?: { specReplicasPath?: string; statusReplicasPath?: string; labelSelectorPath?: string } };
  additionalPrinterColumns?: PrinterColumn[];
}

/** The resources to serve for an established CRD (one per served version). */
export function servedResourcesFor(crd: Obj, factory: CustomResourceStoreFactory): ServedResource[] {
  const spec = obj(crd.spec);
  const names = obj(spec.names);
  const group = String(spec.group ?? '');
  const plural = String(names.plural ?? '');
  const kind = String(names.kind ?? '');
  const listKind = String(names.listKind ?? `${kind}List`);
  const singular = String(names.singular ?? kind.toLowerCase());
  const namespaced = spec.scope !== 'Cluster';
  const versions = (Array.isArray(spec.versions) ? spec.versions : []) as CRDVersion[];
  const storage = versions.find((v) => v.storage)?.name ?? versions[0]?.name ?? '';
  const out: ServedResource[] = [];
  for (const v of versions) {
    if (!v.served) continue;
    const info: ResourceInfo = { group, version: v.name, resource: plural, kind, listKind, namespaced, singular };
    const subs: SubresourceInfo[] = [];
    const hasStatus = isObj(v.subresources?.status);
    const scale = v.subresources?.scale;
    if (hasStatus) subs.push({ subresource: 'status', responseKind: { group, version: v.name, kind }, verbs: ['get', 'patch', 'update'] });
    if (isObj(scale)) {
      subs.push({ subresource: 'scale', responseKind: { group: 'autoscaling', version: 'v1', kind: 'Scale' }, verbs: ['get', 'patch', 'update'] });
    }
    const r: ServedResource = {
      group,
      version: v.name,
      resource: plural,
      kind,
      listKind,
      namespaced,
      store: factory(crd, v.name, info),
      table: crdTableConvertor(v.additionalPrinterColumns),
      status: hasStatus,
      strategicMerge: false,
      protobuf: false,
      custom: true,
      discovery: {
        group,
        version: v.name,
        resource: plural,
        singular,
        kind,
        namespaced,
        verbs: ['delete', 'deletecollection', 'get', 'list', 'patch', 'create', 'update', 'watch'],
        shortNames: Array.isArray(names.shortNames) ? (names.shortNames as string[]) : [],
        categories: Array.isArray(names.categories) ? (names.categories as string[]) : [],
        subresources: subs,
        storageVersionHash: storageVersionHash(group, storage, kind),
      },
    };
    if (isObj(scale)) {
      r.scale = {
        specReplicasPath: scale.specReplicasPath ?? '.spec.replicas',
        statusReplicasPath: scale.statusReplicasPath ?? '.status.replicas',
      };
      if (scale.labelSelectorPath) r.scale.labelSelectorPath = scale.labelSelectorPath;
    }
    if (v.schema?.openAPIV3Schema) r.schema = v.schema.openAPIV3Schema;
    if (v.deprecated) {
      r.deprecationWarning = v.deprecationWarning ?? `${group}/${v.name} ${kind} is deprecated`;
    }
    out.push(r);
  }
  return out;
}

/** Keeps the served table in step with the CRD store and runs the CRD controllers. */
export class CRDServing {
  private watcher: { stop(): void } | undefined;
  private stopped = false;
  /** name -> the spec the served stores were built from (rebuilt when it changes). */
  private readonly built = new Map<string, { specKey: string; group: string; plural: string }>();
  private readonly finalizing = new Set<string>();
  private readonly establishing = new Set<string>();
  /** Resolves pending waiters when a CRD becomes served. */
  private readonly waiters: Array<() => void> = [];

  constructor(
    private readonly table: ServedTable,
    private readonly crds: RESTStore,
    private readonly factory: CustomResourceStoreFactory,
  ) {}

  /** Lists the CRDs, serves the established ones, then follows changes. */
  async start(): Promise<void> {
    const list = await this.crds.list(undefined, {});
    for (const crd of list.items) this.observe(crd);
    const rv = list.metadata.resourceVersion;
    const restart = (): void => {
      if (this.stopped) return;
      setTimeout(() => {
        this.startWatch('0', restart).catch(() => restart());
      }, 200);
    };
    await this.startWatch(rv, restart);
  }

  private async startWatch(rv: string, restart: () => void): Promise<void> {
    this.watcher = await this.crds.watch(
      undefined,
      { resourceVersion: rv, timeoutSeconds: 24 * 24 * 3600 },
      (ev) => {
        if (ev.type === 'ADDED' || ev.type === 'MODIFIED') this.observe(ev.object);
        else if (ev.type === 'DELETED') this.forget(ev.object);
        else if (ev.type === 'ERROR') restart();
      },
      () => restart(),
    );
  }

  stop(): void {
    this.stopped = true;
    this.watcher?.stop();
  }

  private observe(crd: Obj): void {
    const name = String(obj(crd.metadata).name ?? '');
    const deleting = obj(crd.metadata).deletionTimestamp !== undefined;
    if (!deleting && !hasCondition(crd, 'Established')) {
      void this.establish(name);
    }
    if (hasCondition(crd, 'Established')) this.serve(name, crd, deleting);
    if (deleting) void this.finalize(name, crd);
  }

  private serve(name: string, crd: Obj, terminating: boolean): void {
    const spec = obj(crd.spec);
    const specKey = JSON.stringify(spec) + (terminating ? ' terminating' : '');
    const prev = this.built.get(name);
    if (prev && prev.specKey === specKey) return;
    const group = String(spec.group ?? '');
    const plural = String(obj(spec.names).plural ?? '');
    if (prev && (prev.group !== group || prev.plural !== plural)) this.table.setCustom(prev.group, prev.plural, []);
    const resources = servedResourcesFor(crd, this.factory);
    for (const r of resources) if (terminating) r.terminating = true;
    this.table.setCustom(group, plural, resources);
    this.built.set(name, { specKey, group, plural });
    for (const w of this.waiters.splice(0)) w();
  }

  private forget(crd: Obj): void {
    const name = String(obj(crd.metadata).name ?? '');
    const prev = this.built.get(name);
    if (prev) {
      this.table.setCustom(prev.group, prev.plural, []);
      this.built.delete(name);
    }
  }

  /** Naming + establishing controllers: accept the names (conflicts are refused) and establish. */
  private async establish(name: string): Promise<void> {
    if (this.establishing.has(name) || this.stopped) return;
    this.establishing.add(name);
    try {
      const others = (await this.crds.list(undefined, {})).items.filter((c) => obj(c.metadata).name !== name);
      await this.crds.update(
        undefined,
        name,
        (cur) => {
          if (cur === undefined) throw new StatusError({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', code: 404 });
          const next = structuredClone(cur);
          const spec = obj(next.spec);
          const names = obj(spec.names);
          const conflict = nameConflict(spec, names, others);
          const status = ((next.status ??= {}) as Obj);
          if (conflict) {
            setCondition(next, { type: 'NamesAccepted', status: 'False', reason: conflict.reason, message: conflict.message });
            setCondition(next, { type: 'Established', status: 'False', reason: 'NotAccepted', message: 'not all names are accepted' });
            return next;
          }
          status.acceptedNames = { ...names, listKind: names.listKind ?? `${String(names.kind ?? '')}List`, singular: names.singular ?? String(names.kind ?? '').toLowerCase() };
          setCondition(next, { type: 'NamesAccepted', status: 'True', reason: 'NoConflicts', message: 'no conflicts found' });
          setCondition(next, { type: 'Established', status: 'True', reason: 'InitialNamesAccepted', message: 'the initial names have been accepted' });
          if (!Array.isArray(status.storedVersions) || status.storedVersions.length === 0) {
            const vs = (Array.isArray(spec.versions) ? spec.versions : []) as CRDVersion[];
            const st = vs.find((v) => v.storage)?.name;
            if (st) status.storedVersions = [st];
          }
          return next;
        },
        { subresource: 'status', fieldManager: 'apiextensions-apiserver' },
      );
    } catch {
      // The next change of the CRD retries; a CRD deleted meanwhile needs nothing.
    } finally {
      this.establishing.delete(name);
    }
  }

  /** Finalizer controller: delete every custom resource, then release the cleanup finalizer. */
  private async finalize(name: string, crd: Obj): Promise<void> {
    const fins = obj(crd.metadata).finalizers;
    if (!Array.isArray(fins) || !fins.includes(cleanupFinalizer) || this.finalizing.has(name) || this.stopped) return;
    this.finalizing.add(name);
    try {
      const spec = obj(crd.spec);
      const group = String(spec.group ?? '');
      const plural = String(obj(spec.names).plural ?? '');
      // The store marked the CRD InstanceDeletionPending; the controller says it has started.
      const cond = conditionsOf(crd).find((c) => c.type === 'Terminating');
      if (cond?.reason !== 'InstanceDeletionInProgress') {
        await this.crds.update(
          undefined,
          name,
          (cur) => {
            if (cur === undefined) throw new StatusError({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', code: 404 });
            const next = structuredClone(cur);
            setCondition(next, { type: 'Terminating', status: 'True', reason: 'InstanceDeletionInProgress', message: 'CustomResource deletion is in progress' });
            return next;
          },
          { subresource: 'status', fieldManager: 'apiextensions-apiserver' },
        );
      }
      const served = this.table.all().filter((r) => r.custom && r.group === group && r.resource === plural);
      const store = served[0]?.store;
      if (store) {
        for (let attempt = 0; ; attempt++) {
          await store.deleteCollection(undefined, {}, {});
          const left = await store.list(undefined, { limit: 1 });
          if (left.items.length === 0) break;
          if (this.stopped) return;
          await new Promise((r) => setTimeout(r, Math.min(1000, 50 * (attempt + 1))));
        }
      }
      await this.crds.update(
        undefined,
        name,
        (cur) => {
          if (cur === undefined) throw new StatusError({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', code: 404 });
          const next = structuredClone(cur);
          const m = obj(next.metadata);
          m.finalizers = (Array.isArray(m.finalizers) ? (m.finalizers as string[]) : []).filter((f) => f !== cleanupFinalizer);
          return next;
        },
        { fieldManager: 'apiextensions-apiserver' },
      );
    } catch {
      // Retry shortly (a conflict with another writer, or instances still finalizing).
      if (!this.stopped) {
        setTimeout(() => {
          this.crds.get(undefined, name).then((c) => this.observe(c), () => {});
        }, 500).unref();
      }
    } finally {
      this.finalizing.delete(name);
    }
  }
}

function nameConflict(spec: Obj, names: Obj, others: Obj[]): { reason: string; message: string } | undefined {
  const group = spec.group;
  for (const o of others) {
    const os = obj(o.spec);
    if (os.group !== group) continue;
    const accepted = obj(obj(o.status).acceptedNames);
    if (accepted.plural !== undefined && accepted.plural === names.plural) {
      return { reason: 'PluralConflict', message: `"${String(names.plural)}" is already in use` };
    }
    if (accepted.kind !== undefined && accepted.kind === names.kind) {
      return { reason: 'KindConflict', message: `"${String(names.kind)}" is already in use` };
    }
  }
  return undefined;
}
