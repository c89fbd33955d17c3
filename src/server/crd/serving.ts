/**
 * The CRD serving flow, as apiextensions-apiserver's crdHandler: watch the CRD store and serve
 * each served version of every Established CRD as the registry defines it (rebuilt when the
 * spec changes, refusing creates while the CRD terminates, dropped when it is deleted).
 * Discovery and OpenAPI follow, since both derive from the served table. Naming, establishing
 * and instance cleanup are the registry's controllers, started beside this by the server.
 */
import { stringifyJSON } from '../../apimachinery/index.ts';
import { customResourceKinds, isConditionTrue, servedNames, type CustomResourceDeps, type KindDeps, type Obj, type RESTStore } from '../../registry/index.ts';
import type { KeyValue, Store } from '../../storage/index.ts';
import type { ServedResource, ServedTable } from '../served.ts';

function obj(v: unknown): Obj {
  return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : {};
}

/** Every CRD at one revision, as the serving flow listed them at boot. */
export interface BootList {
  items: Obj[];
  resourceVersion: string;
}

/**
 * The CRD store as a controller started at boot sees it: its first watch without a
 * resourceVersion is answered with the CRDs of the boot list (as ADDED events, those `initial`
 * accepts), then follows storage from that list's revision, as upstream's controllers share one
 * CRD informer; later watches go to the store. Without it each controller listed and decoded every
 * CRD again while the first requests waited. The objects are shared with the serving flow: a
 * watcher must not mutate them (the controllers copy before they change one).
 */
export function fromBootList<T extends RESTStore>(crds: T, boot: BootList | undefined, initial: (crd: Obj) => boolean = () => true): T {
  let pending = boot;
  const view = Object.create(crds) as T;
  view.watch = async (ns, opts, onEvent, onEnd) => {
    const first = pending;
    pending = undefined;
    const plain = ns === undefined && (opts.resourceVersion ?? '') === '' && opts.sendInitialEvents === undefined && !opts.labelSelector && !opts.fieldSelector;
    if (first === undefined || !plain) return crds.watch(ns, opts, onEvent, onEnd);
    for (const object of first.items) if (initial(object)) onEvent({ type: 'ADDED', object });
    return crds.watch(ns, { ...opts, resourceVersion: first.resourceVersion }, onEvent, onEnd);
  };
  return view;
}

/** What a GenericStore offers beside RESTStore: its storage, its key layout and its decoding. */
interface StorageReader {
  readonly store: Store;
  readonly keys: { readonly prefix: string };
  decode(kv: KeyValue): Obj;
}

function readsStorage(s: RESTStore): s is RESTStore & StorageReader {
  const r = s as Partial<StorageReader>;
  return typeof r.decode === 'function' && typeof r.keys?.prefix === 'string' && r.store !== undefined;
}

/**
 * Every CRD at the current revision (a consistent read, from the watch cache when there is one),
 * each decoded once from its stored text. Not through the store's list: for each object a list
 * from the cache serves first, the cache works out how to serve it from its text (a decode, a
 * serialization and a comparison) and hands out a lazy item that decodes it again on first use,
 * three decodes of every CRD where the serving flow and the controllers sharing its list need one
 * (with 500 CRDs, about a second before the socket could listen).
 */
export async function listCRDs(crds: RESTStore): Promise<BootList> {
  if (!readsStorage(crds)) {
    const list = await crds.list(undefined, {});
    return { items: list.items, resourceVersion: list.metadata.resourceVersion ?? '' };
  }
  const res = await crds.store.range(crds.keys.prefix, { resourcePrefix: crds.keys.prefix });
  return { items: res.items.map((kv) => crds.decode(kv)), resourceVersion: String(res.revision) };
}

/** Keeps the served table in step with the CRD store and runs the CRD controllers. */
export class CRDServing {
  private watcher: { stop(): void } | undefined;
  private stopped = false;
  /** The first list (at boot), until the controllers take it for their own first watch. */
  private bootList: BootList | undefined;
  /** Increases with every (re)sync; events of an older watch are ignored. */
  private generation = 0;
  /** name -> the spec the served stores were built from (rebuilt when it changes). */
  private readonly built = new Map<string, { specKey: string; group: string; plural: string }>();

  constructor(
    private readonly table: ServedTable,
    private readonly crds: RESTStore,
    private readonly deps: KindDeps & CustomResourceDeps,
  ) {}

  /** Lists the CRDs, serves the established ones, then follows changes. */
  async start(): Promise<void> {
    await this.sync();
  }

  /**
   * List, reconcile the served table with the list (CRDs gone while no watch was open are
   * dropped), then watch from the list's revision. A watch that ends or fails starts this again.
   */
  private async sync(): Promise<void> {
    const generation = ++this.generation;
    this.watcher?.stop();
    const list = await listCRDs(this.crds);
    if (generation === 1) this.bootList = list;
    const present = new Set(list.items.map((c) => String(obj(c.metadata).name ?? '')));
    for (const name of [...this.built.keys()]) if (!present.has(name)) this.forgetName(name);
    for (const crd of list.items) this.observe(crd);
    const again = (): void => {
      // Only the newest watch restarts, once.
      if (this.stopped || generation !== this.generation) return;
      this.generation++;
      setTimeout(() => {
        if (!this.stopped) this.sync().catch(() => again2());
      }, 200).unref();
    };
    const again2 = (): void => {
      setTimeout(() => {
        if (!this.stopped) this.sync().catch(() => again2());
      }, 1000).unref();
    };
    const watcher = await this.crds.watch(
      undefined,
      { resourceVersion: list.resourceVersion, timeoutSeconds: 24 * 24 * 3600 },
      (ev) => {
        if (generation !== this.generation) return;
        if (ev.type === 'ADDED' || ev.type === 'MODIFIED') this.observe(ev.object);
        else if (ev.type === 'DELETED') this.forgetName(String(obj(ev.object.metadata).name ?? ''));
        else if (ev.type === 'ERROR') again();
      },
      () => again(),
    );
    if (this.stopped || generation !== this.generation) watcher.stop();
    else this.watcher = watcher;
  }

  /** The CRDs the boot list read, once: controllers started at boot begin from it (fromBootList). */
  takeBootList(): BootList | undefined {
    const b = this.bootList;
    this.bootList = undefined;
    return b;
  }

  stop(): void {
    this.stopped = true;
    this.watcher?.stop();
  }

  /** Serves an Established CRD; one that is not (or no longer) Established is not served. */
  private observe(crd: Obj): void {
    const name = String(obj(crd.metadata).name ?? '');
    const deleting = obj(crd.metadata).deletionTimestamp !== undefined;
    if (isConditionTrue(crd, 'Established')) this.serve(name, crd, deleting);
    else this.forgetName(name);
  }

  private serve(name: string, crd: Obj, terminating: boolean): void {
    const spec = obj(crd.spec);
    // The spec is known by its uid and generation (the CRD strategy bumps generation on every spec
    // change), so that neither the spec's text nor a digest of it is computed for hundreds of
    // large CRDs at startup.
    const meta = obj(crd.metadata);
    const specKey = stringifyJSON([meta.uid ?? '', meta.generation ?? 0, servedNames(crd), terminating]);
    const prev = this.built.get(name);
    if (prev && prev.specKey === specKey) return;
    const group = String(spec.group ?? '');
    const plural = String(servedNames(crd).plural ?? '');
    if (prev && (prev.group !== group || prev.plural !== plural)) this.table.setCustom(prev.group, prev.plural, []);
    let resources: ServedResource[];
    try {
      resources = customResourceKinds(crd, this.deps, { terminating });
    } catch (e) {
      // This runs in a watch callback: an error here would end the process. A CRD whose schema
      // cannot be compiled is not served, and says why.
      console.error(`crd-apiserver: not serving ${name}: ${e instanceof Error ? e.message : String(e)}`);
      this.forgetName(name);
      return;
    }
    this.table.setCustom(group, plural, resources);
    this.built.set(name, { specKey, group, plural });
  }

  private forgetName(name: string): void {
    const prev = this.built.get(name);
    if (prev) {
      this.table.setCustom(prev.group, prev.plural, []);
      this.built.delete(name);
    }
  }
}
