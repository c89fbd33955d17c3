/**
 * The controllers a server runs beside serving: CRD status and finalizer, namespace deletion,
 * garbage collection, service accounts and their tokens, the root CA ConfigMap, Deployments,
 * admission policy status, ClusterRole aggregation. The registry's face (../index.ts) imports
 * this module when a server starts them (`loadControllers`), so that commands running none
 * (`validate`) never load them.
 */
export { startCRDStatusController, calculateNamesAndConditions } from './crd-status.ts';
export { bareInstanceStore, startCRDFinalizer, type CRDFinalizerOptions } from './crd-finalizer.ts';
export { startNamespaceController, type NamespaceControllerOptions } from './namespace.ts';
export { startGarbageCollector, type CollectedKinds, type GarbageCollector } from './garbage-collector/index.ts';
export { startServiceAccountController, type ServiceAccountControllerOptions } from './service-account.ts';
export { startServiceAccountTokensController, serviceAccountTokenSecretType, type TokensControllerOptions } from './service-account-tokens.ts';
export { startRootCAPublisher, rootCACertConfigMapName, type RootCAPublisherOptions } from './root-ca-publisher.ts';
export { startDeploymentController, type DeploymentControllerOptions } from './deployment/index.ts';
export { startPolicyStatusController, type PolicyTypeChecker } from '../admissionregistration/status-controller.ts';
export { admissionPolicyTypeChecker } from '../admissionregistration/type-checker.ts';
export { usePolicyExpressionChecker, type PolicyExpressionChecker } from '../admissionregistration/expression-checker.ts';
export { startClusterRoleAggregation, aggregatedRules } from './cluster-role-aggregation.ts';
