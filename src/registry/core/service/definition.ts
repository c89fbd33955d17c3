/**
 * core/v1 Service as served: the built-in definition (discovery facts, codec with
 * SetDefaults_Service, table, status subresource) over the ServiceStore, whose writes allocate
 * cluster IPs and node ports. Service's strategy allows create on update, as upstream's does.
 */
import { compileSchema, type CompiledSchema } from '../../../schema/index.ts';
import { builtinResources } from '../../builtin/catalog.ts';
import { builtinKind } from '../../builtin/definition.ts';
import { openAPIDocument } from '../../builtin/openapi.ts';
import { kindSchema } from '../../builtin/schema.ts';
import { BuiltinStrategy } from '../../builtin/strategy.ts';
import type { GenericStore } from '../../generic-store.ts';
import type { KindDefinition, KindDeps } from '../../kind.ts';
import { serviceAllocators, ServiceStore } from './store.ts';

/** svcStrategy.AllowCreateOnUpdate: a PUT of a missing Service creates it. */
class ServiceStrategy extends BuiltinStrategy {
  override readonly allowCreateOnUpdate = true;
}

export function serviceKind(deps: KindDeps): KindDefinition {
  const r = builtinResources().find((x) => x.group === '' && x.version === 'v1' && x.resource === 'services')!;
  const base = builtinKind(r, deps);
  const generic = base.store as GenericStore;
  let compiled: CompiledSchema | undefined;
  const schema = () => (compiled ??= compileSchema(kindSchema(openAPIDocument(r.group, r.version).doc, r.schemaName)));
  const store = new ServiceStore(
    {
      store: deps.store,
      info: generic.info,
      ...(generic.ready ? { ready: generic.ready } : {}),
      strategy: new ServiceStrategy(r, schema),
      ...(generic.codec ? { codec: generic.codec } : {}),
      ...(deps.admission ? { admission: deps.admission } : {}),
      ...(generic.fieldManagers ? { fieldManagers: generic.fieldManagers } : {}),
    },
    serviceAllocators(deps.store, deps.serviceNetwork),
  );
  return { ...base, store };
}
