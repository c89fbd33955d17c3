/**
 * The definitions of the built-in kinds served from Kubernetes 1.35's OpenAPI: one per stored
 * resource of every default group-version (kinds with a folder of their own — Namespace — are
 * defined there instead). A kind's schema is compiled when its first object is written or read,
 * not at startup.
 */
import { compileSchema, schemaCodec, type Codec, type CompiledSchema } from '../../schema/index.ts';
import { GenericStore } from '../generic-store.ts';
import { ScaleStore } from '../customresource/scale.ts';
import { ownSubresource, scaleSubresource, type KindDefinition, type KindDeps, type KindSubresource } from '../kind.ts';
import { defaultTableConvertor } from '../table/convert.ts';
import { builtinResources, type BuiltinResource } from './catalog.ts';
import { openAPIDocument, patchMetaFor } from './openapi.ts';
import { defaultsOf } from './defaults.ts';
import { goDecodeCheck, type GoDecodeCheck } from './go-decode.ts';
import { hasWorkloadScale, workloadScale } from './scale.ts';
import { kindSchema } from './schema.ts';
import { BuiltinStrategy } from './strategy.ts';

/** kube-apiserver's default --event-ttl: Events (core/v1 and events.k8s.io/v1) expire an hour after their last write. */
export const eventTTLSeconds = 3600;

/**
 * A kind's compiled schema and codec, built on first use: a request object is decoded as Go
 * decodes it into the kind's type (a type error is the decoder's), then by its schema's codec
 * (unknown fields, ObjectMeta), then the kind's defaults.
 */
function lazySchema(r: BuiltinResource): { schema: () => CompiledSchema; codec: Codec } {
  let compiled: CompiledSchema | undefined;
  let codec: Codec | undefined;
  let check: GoDecodeCheck | undefined;
  const schema = () => (compiled ??= compileSchema(kindSchema(openAPIDocument(r.group, r.version).doc, r.schemaName)));
  const c = () => (codec ??= schemaCodec(schema()));
  const goCheck = () => (check ??= goDecodeCheck(openAPIDocument(r.group, r.version).doc, r.schemaName));
  const defaults = defaultsOf(r.group, r.resource);
  return {
    schema,
    codec: {
      decode: (obj, track) => {
        const error = goCheck()(obj);
        if (error !== undefined) return { error, strictErrors: [] };
        const d = c().decode(obj, track);
        if (d.error === undefined) defaults?.(obj);
        return d;
      },
      decodeStored: (obj) => {
        c().decodeStored(obj);
        defaults?.(obj);
      },
    },
  };
}

/** The definition of one built-in resource over `deps`. */
export function builtinKind(r: BuiltinResource, deps: KindDeps): KindDefinition {
  const { schema, codec } = lazySchema(r);
  const strategy = new BuiltinStrategy(r, schema);
  const info = { group: r.group, version: r.version, resource: r.resource, kind: r.kind, listKind: `${r.kind}List`, namespaced: r.namespaced, singular: r.kind.toLowerCase() };
  const store = new GenericStore({ store: deps.store, info, strategy, codec, admission: deps.admission, ...(r.resource === 'events' ? { ttlSeconds: eventTTLSeconds } : {}) });
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
    storageVersion: r.version,
    store,
    ...(scaled ? { scale: new ScaleStore(store, workloadScale(r.group, r.resource)) } : {}),
    table: defaultTableConvertor,
    strategicMerge: true,
    patchMeta: patchMetaFor(r.group, r.version, r.kind),
    protobuf: true,
    custom: false,
  };
}

/** Every built-in resource served from OpenAPI except those in `own` (`group/resource` of kinds defined in their own folders). */
export function builtinKinds(deps: KindDeps, own: ReadonlySet<string>): KindDefinition[] {
  return builtinResources()
    .filter((r) => !own.has(`${r.group}/${r.resource}`))
    .map((r) => builtinKind(r, deps));
}
