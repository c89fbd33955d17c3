/**
 * The registry's public face: the RESTStore interface the server calls, the generic store and its
 * strategies (custom resources, Namespace, CustomResourceDefinition), and the controllers that
 * finish what deletes start (namespace content, CRD instances) and establish CRDs (imported on
 * demand, `loadControllers`).
 */
export * from './rest.ts';
export { GenericStore, optimisticLockErrorMsg, type GenericStoreConfig } from './generic-store.ts';
export type { Attrs, RequestContext, Strategy } from './strategy.ts';
export {
  CustomResourceStrategy,
  type CustomResourceHooks,
  type CustomResourceStrategyConfig,
  type ScaleSpec,
} from './customresource/strategy.ts';
export { applyScale, scaleFromCustomResource } from './customresource/scale.ts';
export { NamespaceStore, type NamespaceStoreOptions } from './namespace/rest.ts';
export {
  finalizerKubernetes,
  labelMetadataName,
  namespaceInfo,
  namespaceStrategy,
} from './namespace/strategy.ts';
export { resourcePrefix } from './keys.ts';
export { patchedObjectJSON, reportDecoding, typedCodec, type Codec, type Decoded } from './codec.ts';
export { CRDStore, customResourceCleanupFinalizer } from './crd/store.ts';
export { crdInfo, crdStrategy, storageVersion } from './crd/strategy.ts';
export { findCondition, isConditionTrue, setCondition } from './crd/conditions.ts';
/** The controllers (controllers/index.ts), imported when a server starts them: commands that run none never load them. */
export const loadControllers = (): Promise<Controllers> => import('./controllers/index.ts');
export type Controllers = typeof import('./controllers/index.ts');
export type {
  CollectedKinds,
  CRDFinalizerOptions,
  DeploymentControllerOptions,
  GarbageCollector,
  NamespaceControllerOptions,
  PolicyExpressionChecker,
  PolicyTypeChecker,
  RootCAPublisherOptions,
  ServiceAccountControllerOptions,
  TokensControllerOptions,
} from './controllers/index.ts';
export type { Controller, Key, Reconcile } from './controllers/loop.ts';
export { initialEventsEndAnnotation } from './watch.ts';
export {
  hasSubresource,
  type KindDefinition,
  type KindDeps,
  type ServiceNetworkOptions,
  type KindSubresource,
  type ActionRequest,
  type ActionResponse,
  type SubresourceAction,
  type ReviewDefinition,
  type AccessAttributes,
  type ReviewContext,
  type ReviewRules,
} from './kind.ts';
export { escalationCheckedStore, isOnlyMutatingGCFields, type EscalationChecks, type RBACRule, type RoleReference } from './rbac/policybased.ts';
export { builtinRegistry, type BuiltinRegistry } from './kinds.ts';
export type { BoundTokenRequest, TokenBoundRef, TokenGenerator } from './core/serviceaccount/token-generator.ts';
export { checkServiceNetwork, ServiceStore } from './core/service/store.ts';
export { startKubernetesServiceController } from './core/service/kubernetes-service.ts';
export { customResourceKinds } from './customresource/definition.ts';
export type { CustomResourceDeps } from './customresource/conversion/for-crd.ts';
export type { ConversionWebhookClient } from './customresource/conversion/webhook.ts';
export { servedNames, servedVersions, type ServedVersion } from './crd/serving.ts';
export { compareKubeAwareVersions } from './crd/version-priority.ts';
export { ScaleStore } from './customresource/scale.ts';
export {
  crdTableConvertor,
  defaultTableConvertor,
  namespaceTableConvertor,
  parseIncludeObject,
  toTable,
  type ColumnDefinition,
  type PrinterColumn,
  type TableConvertor,
} from './table/convert.ts';
export { builtinOpenAPIDocument } from './builtin/openapi.ts';
export { type BuiltinResource, builtinResources } from './builtin/catalog.ts';
export { loadBuiltinKindCode, oneStorage as builtinSharedStorage } from './builtin/definition.ts';
export { builtinTypeConverter, objectMetaModels } from './builtin/merge-schema.ts';
export { defaultsOf, nativeRulesOf } from './builtin/native-index.ts';
export type { Defaulter, EndpointRules, NativeRules } from './builtin/native.ts';
export { openAPIDocument } from './builtin/openapi.ts';
export { kindSchema } from './builtin/schema.ts';
export { isObject } from './crd/internal.ts';
/** The environment device selectors are compiled in (resource.k8s.io), for `cel --env dra`. */
export { DEVICE_TYPE, deviceEnv, deviceFields, deviceSize } from './resource/cel/selector.ts';
export { sharedItemJSON } from './shared-objects.ts';
