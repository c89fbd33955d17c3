/**
 * The registry's public face: the RESTStore interface the server calls, the generic store and its
 * strategies (custom resources, Namespace, CustomResourceDefinition), and the controllers that
 * finish what deletes start (namespace content, CRD instances) and establish CRDs.
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
export { finalizerKubernetes, labelMetadataName, namespaceInfo, namespaceStrategy } from './namespace/strategy.ts';
export { immortalNamespaces, namespaceLifecycle, type NamespaceGate } from './namespace/lifecycle.ts';
export { CRDStore, customResourceCleanupFinalizer } from './crd/store.ts';
export { crdInfo, crdStrategy, storageVersion } from './crd/strategy.ts';
export { findCondition, isConditionTrue, setCondition } from './crd/conditions.ts';
export { startCRDStatusController, calculateNamesAndConditions } from './controllers/crd-status.ts';
export { bareInstanceStore, startCRDFinalizer, type CRDFinalizerOptions } from './controllers/crd-finalizer.ts';
export { startNamespaceController, type NamespaceControllerOptions } from './controllers/namespace.ts';
export type { Controller, Key, Reconcile } from './controllers/loop.ts';
export { initialEventsEndAnnotation } from './watch.ts';
