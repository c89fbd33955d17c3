/**
 * The CRD serving flow, as apiextensions-apiserver's crdHandler: watch the CRD store and serve
 * each served version of every Established CRD through a RESTStore made for it (rebuilt when the
 * spec changes, refusing creates while the CRD terminates, dropped when it is deleted).
 * Discovery and OpenAPI follow, since both derive from the served table. Naming, establishing
 * and instance cleanup are the registry's controllers, started beside this by the server.
 */
import type { Obj, RESTStore, ResourceInfo } from '../../registry/rest.ts';
import { isConditionTrue } from '../../registry/crd/conditions.ts';
import { storageVersionHash, type SubresourceInfo } from '../discovery/model.ts';
import type { ServedResource, ServedTable } from '../served.ts';
import { crdTableConvertor, type PrinterColumn } from '../table/convert.ts';

/** Creates the RESTStore for one version of a CRD (the registry's custom-resource strategy). */
export type CustomResourceStoreFactory = (crd: Obj, version: string, info: ResourceInfo) => RESTStore;

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

/** The names a CRD is served under: status.acceptedNames (as the crdHandler serves), else spec.names. */
function servedNames(crd: Obj): Obj {
  const accepted = obj(obj(crd.status).acceptedNames);
  return typeof accepted.plural === 'string' && accepted.plural !== '' ? accepted : obj(obj(crd.spec).names);
}

/** The resources to serve for an established CRD (one per served version). */
export function servedResourcesFor(crd: Obj, factory: CustomResourceStoreFactory): ServedResource[] {
  const spec = obj(crd.spec);
  const names = servedNames(crd);
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
    if (hasCondition(crd, 'Established')) this.serve(name, crd, deleting);
  }

  private serve(name: string, crd: Obj, terminating: boolean): void {
    const spec = obj(crd.spec);
    const specKey = JSON.stringify([spec, servedNames(crd), terminating]);
    const prev = this.built.get(name);
    if (prev && prev.specKey === specKey) return;
    const group = String(spec.group ?? '');
    const plural = String(servedNames(crd).plural ?? '');
    if (prev && (prev.group !== group || prev.plural !== plural)) this.table.setCustom(prev.group, prev.plural, []);
    const resources = servedResourcesFor(crd, this.factory);
    for (const r of resources) if (terminating) r.terminating = true;
    this.table.setCustom(group, plural, resources);
    this.built.set(name, { specKey, group, plural });
  }

  private forget(crd: Obj): void {
    const name = String(obj(crd.metadata).name ?? '');
    const prev = this.built.get(name);
    if (prev) {
      this.table.setCustom(prev.group, prev.plural, []);
      this.built.delete(name);
    }
  }
}
