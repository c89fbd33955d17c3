/**
 * The definitions of the built-in kinds served from Kubernetes 1.35's OpenAPI: one per stored
 * resource of every default group-version (kinds with a folder of their own — Namespace — are
 * defined there instead). A kind's schema is compiled when its first object is written or read,
 * not at startup.
 */
import { compileSchema, schemaCodec, type Codec, type CompiledSchema } from '../../schema/index.ts';
import { GenericStore } from '../generic-store.ts';
import { ownSubresource, type KindDefinition, type KindDeps } from '../kind.ts';
import { builtinTableConvertor } from '../table/builtin/index.ts';
import { builtinResources, type BuiltinResource } from './catalog.ts';
import { openAPIDocument, patchMetaFor } from './openapi.ts';
import { kindSchema } from './schema.ts';
import { BuiltinStrategy } from './strategy.ts';
import { FieldManagers } from '../field-managers.ts';
import { builtinTypeConverter } from './merge-schema.ts';

/** kube-apiserver's default --event-ttl: Events (core/v1 and events.k8s.io/v1) expire an hour after their last write. */
export const eventTTLSeconds = 3600;

/** A kind's compiled schema and codec, built on first use. */
function lazySchema(r: BuiltinResource): { schema: () => CompiledSchema; codec: Codec } {
  let compiled: CompiledSchema | undefined;
  let codec: Codec | undefined;
  const schema = () => (compiled ??= compileSchema(kindSchema(openAPIDocument(r.group, r.version).doc, r.schemaName)));
  const c = () => (codec ??= schemaCodec(schema()));
  return { schema, codec: { decode: (obj, track) => c().decode(obj, track), decodeStored: (obj) => c().decodeStored(obj) } };
}

/** The field managers of a built-in kind's endpoints. */
export function builtinFieldManagers(r: BuiltinResource): FieldManagers {
  return new FieldManagers({
    apiVersion: r.group === '' ? r.version : `${r.group}/${r.version}`,
    kind: r.kind,
    typeConverter: () => builtinTypeConverter(r.group, r.version),
    hasStatus: r.hasStatus,
  });
}

/** The definition of one built-in resource over `deps`. */
export function builtinKind(r: BuiltinResource, deps: KindDeps): KindDefinition {
  const { schema, codec } = lazySchema(r);
  const strategy = new BuiltinStrategy(r, schema);
  const info = { group: r.group, version: r.version, resource: r.resource, kind: r.kind, listKind: `${r.kind}List`, namespaced: r.namespaced, singular: r.kind.toLowerCase() };
  return {
    ...info,
    singular: info.singular,
    verbs: r.verbs,
    shortNames: r.shortNames,
    categories: r.categories,
    subresources: r.hasStatus ? [ownSubresource('status', r, ['get', 'patch', 'update'])] : [],
    storageVersion: r.version,
    store: new GenericStore({
      store: deps.store,
      info,
      strategy,
      codec,
      admission: deps.admission,
      fieldManagers: builtinFieldManagers(r),
      ...(r.resource === 'events' ? { ttlSeconds: eventTTLSeconds } : {}),
    }),
    table: builtinTableConvertor(r.group, r.resource),
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
