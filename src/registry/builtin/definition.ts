/**
 * The definitions of the built-in kinds served from Kubernetes 1.35's OpenAPI: one per stored
 * resource of every default group-version (kinds with a folder of their own — Namespace — are
 * defined there instead). A kind's schema is compiled when its first object is written or read,
 * not at startup; its folder's code (native-index.ts) is imported before its store's first
 * operation, or all of it and the Tables' printers by the server before it serves
 * (`loadBuiltinKindCode`; `validate` loads the folders of the kinds it judges).
 */
import { compileSchema, schemaCodec, type Codec, type CompiledSchema } from '../../schema/index.ts';
import { GenericStore } from '../generic-store.ts';
import { ScaleStore } from '../customresource/scale.ts';
import type { Obj, RESTStore } from '../rest.ts';
import { ConvertedStore, type VersionConversion } from './converted-store.ts';
import { eventsV1Conversion } from './events.ts';
import { hpaV1Conversion } from './hpa.ts';
import { ownSubresource, scaleSubresource, type KindDefinition, type KindDeps, type KindSubresource } from '../kind.ts';
import type { TableConvertor } from '../table/convert.ts';
import { FieldManagers, type SharedStorage } from '../field-managers.ts';
import { builtinTypeConverter } from './merge-schema.ts';
import { builtinResources, type BuiltinResource } from './catalog.ts';
import { openAPIDocument, patchMetaFor } from './openapi.ts';
import { defaultsOf, loadAllKindSemantics, loadKindSemantics, writeHooksOf } from './native-index.ts';
import type { Defaulter } from './native.ts';
import { goShapeOf } from '../goshape/shape.ts';
import { goDecodeCheck, type GoDecodeCheck } from './go-decode.ts';
import { hasWorkloadScale, workloadScale } from './scale.ts';
import { kindSchema } from './schema.ts';
import { BuiltinStrategy } from './strategy.ts';
import { admissionPolicyDefaults, admissionPolicyStorage, admissionPolicyStrategy } from '../admissionregistration/definition.ts';

/** kube-apiserver's default --event-ttl: Events (core/v1 and events.k8s.io/v1) expire an hour after their last write. */
export const eventTTLSeconds = 3600;

/**
 * A kind's compiled schema and codec, built on first use: a request object is decoded as Go
 * decodes it into the kind's type (a type error is the decoder's), then by its schema's codec
 * (unknown fields, ObjectMeta), then the kind's defaults, then Go's JSON shape (the fields
 * encoding/json always writes, see goshape/; a request's without the nulls its schema would
 * refuse, every object read or returned with them).
 */
function lazySchema(r: BuiltinResource): { schema: () => CompiledSchema; codec: Codec } {
  let compiled: CompiledSchema | undefined;
  let codec: Codec | undefined;
  let check: GoDecodeCheck | undefined;
  const schema = () => (compiled ??= compileSchema(kindSchema(openAPIDocument(r.group, r.version).doc, r.schemaName)));
  const c = () => (codec ??= schemaCodec(schema()));
  const goCheck = () => (check ??= goDecodeCheck(openAPIDocument(r.group, r.version).doc, r.schemaName));
  // Looked up on the first decode, after the kind's store has loaded its folder.
  let defaultsFound: Defaulter | null | undefined;
  const defaults = () => (defaultsFound ??= admissionPolicyDefaults(r.group, r.resource) ?? defaultsOf(r.group, r.version, r.resource) ?? null);
  const shape = goShapeOf(r.group, r.version, r.kind);
  return {
    schema,
    codec: {
      decode: (obj, track) => {
        const error = goCheck()(obj);
        if (error !== undefined) return { error, strictErrors: [] };
        const d = c().decode(obj, track);
        if (d.error === undefined) {
          defaults()?.(obj);
          shape?.(obj, false);
        }
        return d;
      },
      decodeStored: (obj) => {
        c().decodeStored(obj);
        defaults()?.(obj);
        shape?.(obj, true);
      },
    },
  };
}

/** The built-in kinds' printers (table/builtin/, some 25 modules), once imported. */
let printers: typeof import('../table/builtin/index.ts') | undefined;
let printersLoading: Promise<void> | undefined;

/** Imports the printers of the built-in kinds' Tables, once. */
function loadBuiltinPrinters(): Promise<void> {
  return (printersLoading ??= import('../table/builtin/index.ts').then((m) => {
    printers = m;
  }));
}

/** A built-in resource's Table convertor, its printer found on first use (after loadBuiltinKindCode). */
function builtinTable(group: string, resource: string): TableConvertor {
  let found: TableConvertor | undefined;
  const conv = (): TableConvertor => {
    if (found !== undefined) return found;
    if (printers === undefined) throw new Error(`the Table of ${group}/${resource} is used before loadBuiltinKindCode`);
    return (found = printers.builtinTableConvertor(group, resource));
  };
  return {
    get columns() {
      return conv().columns;
    },
    cells: (obj, now) => conv().cells(obj, now),
    get conditions() {
      const c = conv();
      return c.conditions?.bind(c);
    },
    get order() {
      const c = conv();
      return c.order?.bind(c);
    },
  };
}

/**
 * Imports every built-in kind's folder and the Tables' printers: what a server, which serves them
 * all, awaits before it serves. Its stores then answer from their first operation without waiting,
 * as they did when everything loaded at startup (the garbage collector applies each kind's first
 * list as it arrives: owners listed before their dependents' kind loaded would look unblocked).
 */
export function loadBuiltinKindCode(): Promise<void> {
  return Promise.all([loadAllKindSemantics(), loadBuiltinPrinters()]).then(() => undefined);
}

/** Waits for both loads (either may be undefined: nothing to wait for); undefined when neither waits. */
function bothLoaded(a: Promise<void> | undefined, b: Promise<void> | undefined): Promise<void> | undefined {
  return a && b ? Promise.all([a, b]).then(() => undefined) : (a ?? b);
}

/** Another version's store a resource is served over, and the conversion to its version. */
export interface ServedOver {
  store: RESTStore;
  conversion: VersionConversion;
  /** The group and version objects are stored in (discovery's storageVersionHash). */
  storageGroup: string;
  storageVersion: string;
}

/** The field managers of a built-in kind's endpoints, knowing the versions that share its storage. */
export function builtinFieldManagers(r: BuiltinResource): FieldManagers {
  const own = gvrOf(r);
  const stored = oneStorage.find((o) => o.served === own)?.stored ?? own;
  const served = oneStorage.filter((o) => o.stored === stored);
  return new FieldManagers({
    apiVersion: r.group === '' ? r.version : `${r.group}/${r.version}`,
    kind: r.kind,
    typeConverter: () => builtinTypeConverter(r.group, r.version),
    hasStatus: r.hasStatus,
    ...(served.length > 0 ? { sharedStorage: sharedStorageOf(stored, served) } : {}),
  });
}

/** The resource `group/version/resource` names, with its apiVersion and kind. */
function resourceAt(gvr: string): { group: string; version: string; apiVersion: string; kind: string } {
  const [group, version, resource] = gvr.split('/') as [string, string, string];
  const kind = builtinResources().find((b) => b.group === group && b.version === version && b.resource === resource)?.kind ?? '';
  return { group, version, apiVersion: group === '' ? version : `${group}/${version}`, kind };
}

function sharedStorageOf(stored: string, served: typeof oneStorage): SharedStorage {
  const s = resourceAt(stored);
  const byVersion = new Map([s, ...served.map((o) => resourceAt(o.served))].map((v) => [v.apiVersion, v]));
  return {
    storedAPIVersion: s.apiVersion,
    storedKind: s.kind,
    served: served.map((o) => ({ ...resourceAt(o.served), toStorage: (x: Obj) => o.conversion.toStorage(x), fromStorage: (x: Obj) => o.conversion.fromStorage(x) })),
    typeConverter: (apiVersion) => {
      const v = byVersion.get(apiVersion)!;
      return builtinTypeConverter(v.group, v.version);
    },
  };
}

/**
 * The definition of one built-in resource over `deps`; with `over`, served from that store of
 * another version of the resource (one storage, converted), else from a store of its own.
 */
export function builtinKind(r: BuiltinResource, deps: KindDeps, over?: ServedOver): KindDefinition {
  const { schema, codec } = lazySchema(r);
  const strategy = admissionPolicyStrategy(r, schema) ?? new BuiltinStrategy(r, schema);
  const info = { group: r.group, version: r.version, resource: r.resource, kind: r.kind, listKind: `${r.kind}List`, namespaced: r.namespaced, singular: r.kind.toLowerCase() };
  const ready = () => loadKindSemantics(r.group, r.resource);
  const store: RESTStore = over
    ? new ConvertedStore(info, over.store, over.conversion, codec, schema, builtinFieldManagers(r), () => {
        // This version's defaults and the storage version's rules (events.k8s.io's Events are core's).
        return bothLoaded(ready(), loadKindSemantics(over.store.info.group, over.store.info.resource));
      })
    : new GenericStore({
        ready,
        store: deps.store,
        hooks: writeHooksOf(r.group, r.resource, deps.store),
        info,
        strategy,
        codec,
        admission: deps.admission,
        fieldManagers: builtinFieldManagers(r),
        ...(r.resource === 'events' ? { ttlSeconds: eventTTLSeconds } : {}),
      });
  const subresources: KindSubresource[] = r.hasStatus ? [ownSubresource('status', r, ['get', 'patch', 'update'])] : [];
  const scaled = r.hasScale && hasWorkloadScale(r.group, r.resource);
  if (scaled) subresources.push(scaleSubresource);
  return {
    ...info,
    singular: info.singular,
    verbs: r.verbs,
    shortNames: r.shortNames,
    categories: r.categories,
    subresources,
    storageVersion: over?.storageVersion ?? r.version,
    ...(over && over.storageGroup !== r.group ? { storageGroup: over.storageGroup } : {}),
    store,
    ...(scaled ? { scale: new ScaleStore(store, workloadScale(r.group, r.resource)) } : {}),
    table: builtinTable(r.group, r.resource),
    strategicMerge: true,
    patchMeta: patchMetaFor(r.group, r.version, r.kind),
    protobuf: true,
    custom: false,
  };
}

/**
 * Resources served over the storage of another group-version's resource (`group/version/resource`
 * of the served one -> of the stored one), with the conversion between them.
 */
export const oneStorage: ReadonlyArray<{ served: string; stored: string; conversion: VersionConversion }> = [
  { served: 'events.k8s.io/v1/events', stored: '/v1/events', conversion: eventsV1Conversion },
  { served: 'autoscaling/v1/horizontalpodautoscalers', stored: 'autoscaling/v2/horizontalpodautoscalers', conversion: hpaV1Conversion },
  ...admissionPolicyStorage,
];

const gvrOf = (r: { group: string; version: string; resource: string }) => `${r.group}/${r.version}/${r.resource}`;

/** Every built-in resource served from OpenAPI except those in `own` (`group/resource` of kinds defined in their own folders). */
export function builtinKinds(deps: KindDeps, own: ReadonlySet<string>): KindDefinition[] {
  const resources = builtinResources().filter((r) => !own.has(`${r.group}/${r.resource}`));
  const served = new Map(oneStorage.map((o) => [o.served, o]));
  const defs = new Map<string, KindDefinition>();
  for (const r of resources) if (!served.has(gvrOf(r))) defs.set(gvrOf(r), builtinKind(r, deps));
  return resources.map((r) => {
    const o = served.get(gvrOf(r));
    const stored = o && defs.get(o.stored);
    if (!o || !stored) return defs.get(gvrOf(r)) ?? builtinKind(r, deps);
    return builtinKind(r, deps, { store: stored.store, conversion: o.conversion, storageGroup: stored.group, storageVersion: stored.version });
  });
}
