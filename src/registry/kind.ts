/**
 * A served kind's definition: everything the server needs to serve one resource at one
 * group-version — the facts discovery publishes (resource, kind, scope, verbs, short names,
 * categories, subresources), the REST store (over the kind's strategy and codec), its table
 * convertor, and its subresources' stores (scale). Built-in kinds each export one from their
 * folder and are listed once in `kinds.ts`; custom resources get one per served CRD version
 * (`customresource/definition.ts`). The server only iterates definitions.
 */
import type { Admission, RESTStore, UserInfo } from './rest.ts';
import type { Store } from '../storage/index.ts';
import type { TableConvertor } from './table/convert.ts';
import type { ScaleStore } from './customresource/scale.ts';
import type { PatchMetaLookup } from '../apimachinery/index.ts';
import type { TokenGenerator } from './core/serviceaccount/token-generator.ts';

/** A subresource as discovery lists it. */
export interface KindSubresource {
  /** status, scale, finalize (served by the store's verbs), or one of the kind's actions. */
  name: string;
  verbs: readonly string[];
  /** The kind the subresource answers with (the kind itself; autoscaling/v1 Scale for scale). */
  responseKind: { group: string; version: string; kind: string };
}

export interface KindDefinition {
  group: string;
  version: string;
  /** Plural resource name, as in URLs. */
  resource: string;
  kind: string;
  listKind: string;
  singular: string;
  namespaced: boolean;
  verbs: readonly string[];
  shortNames: readonly string[];
  categories: readonly string[];
  subresources: readonly KindSubresource[];
  /** The version objects are stored in (discovery's storageVersionHash). */
  storageVersion: string;
  /** The group of that version, when it is another group's (events.k8s.io/v1 Events are stored as core/v1 Events). */
  storageGroup?: string;
  store: RESTStore;
  table: TableConvertor;
  /** The scale subresource's store, when the kind has one. */
  scale?: ScaleStore;
  /** Subresources answered by the kind's own code (pods/binding, pods/eviction, pods/log, .../proxy), by name. */
  actions?: Readonly<Record<string, SubresourceAction>>;
  /** PATCH with strategic-merge-patch is accepted (built-in kinds). */
  strategicMerge: boolean;
  /** The kind's merge keys and strategies for strategic merge patch (built from its OpenAPI once asked for). */
  patchMeta?: () => PatchMetaLookup;
  /** Accepts protobuf request bodies (kinds kubectl sends as protobuf). */
  protobuf: boolean;
  /** A custom resource (served from a CRD): conversion None, kind/apiVersion checked on decode. */
  custom: boolean;
  /** The OpenAPI v3 schema of the kind, when known (a CRD version's schema). */
  schema?: Record<string, unknown>;
  /** The CRD is being deleted: creates are refused while its instances are removed. */
  terminating?: boolean;
  /** Deprecation warning for a deprecated CRD version. */
  deprecationWarning?: string;
}

/** One request to an action subresource, as the server hands it over. */
export interface ActionRequest {
  /** The verb as RequestInfo names it (get, create, update, patch, delete). */
  verb: string;
  namespace: string | undefined;
  name: string;
  /** The decoded body of a create (JSON or YAML); undefined for other verbs. */
  body?: Record<string, unknown>;
  query: URLSearchParams;
  /** What follows the subresource in the path (proxy: the path to proxy to). */
  path: string;
  dryRun: boolean;
}

/** An action's answer: an object (a Status, say) with its code, or text (logs). */
export type ActionResponse = { code: number; object: Record<string, unknown> } | { code: number; text: string; contentType: string };

/** A subresource served by the kind's code; refusals are thrown StatusErrors. */
export interface SubresourceAction {
  readonly verbs: readonly string[];
  /** The type a create's body is decoded as (JSON, YAML, or protobuf of this apiVersion and kind); no body is read without it. */
  readonly body?: { apiVersion: string; kind: string };
  serve(req: ActionRequest): Promise<ActionResponse>;
}

/** What a kind's store is built over. */
export interface KindDeps {
  store: Store;
  admission?: Admission;
  /** Services' address and port ranges (default: kube-apiserver's, 10.96.0.0/12 and 30000-32767). */
  serviceNetwork?: ServiceNetworkOptions;
  /** Signs the tokens of serviceaccounts/token (no TokenRequest is answered without it). */
  tokenGenerator?: TokenGenerator;
}

/** kube-apiserver's --service-cluster-ip-range (one CIDR, or two of different families) and --service-node-port-range. */
export interface ServiceNetworkOptions {
  clusterIPRange?: string;
  nodePortRange?: string;
}

/** A create-only endpoint answered without storage (the access reviews, TokenReview, SelfSubjectReview). */
export interface ReviewDefinition {
  group: string;
  version: string;
  resource: string;
  kind: string;
  singular: string;
  /** Served under `namespaces/{ns}/` (LocalSubjectAccessReview). */
  namespaced?: boolean;
  /** The object the endpoint answers a create with. */
  create(obj: Record<string, unknown>, ctx?: ReviewContext): Record<string, unknown> | Promise<Record<string, unknown>>;
}

/** What an access review is about: a resource request or a non-resource path (authorizer.Attributes). */
export interface AccessAttributes {
  user: UserInfo;
  verb: string;
  resourceRequest: boolean;
  apiGroup: string;
  apiVersion: string;
  resource: string;
  subresource: string;
  namespace: string;
  name: string;
  path: string;
}

/** A rule as SelfSubjectRulesReview lists it. */
export interface ReviewRules {
  resourceRules: Array<{ verbs: string[]; apiGroups?: string[]; resources?: string[]; resourceNames?: string[] }>;
  nonResourceRules: Array<{ verbs: string[]; nonResourceURLs?: string[] }>;
  incomplete: boolean;
  evaluationError?: string;
}

/** The request a review is answered for, and the server's authorizer (given by the composition root). */
export interface ReviewContext {
  user: UserInfo;
  /** The request's namespace, for namespaced reviews. */
  namespace?: string;
  authorize(a: AccessAttributes): { decision: 'Allow' | 'Deny' | 'NoOpinion'; reason: string };
  rulesFor(user: UserInfo, namespace: string): ReviewRules;
  /**
   * The server's token authenticators asked about a TokenReview's token for `audiences` (none:
   * the API server's): null when no authenticator knows the token; throws an Error whose message
   * is the review's status.error when one knows it but refuses it.
   */
  authenticateToken?(token: string, audiences: readonly string[]): Promise<{ user: UserInfo; audiences: string[] } | null>;
}

/** The subresource entry of a kind's own status (or finalize) endpoint. */
export function ownSubresource(name: 'status' | 'finalize', d: { group: string; version: string; kind: string }, verbs: readonly string[]): KindSubresource {
  return { name, verbs, responseKind: { group: d.group, version: d.version, kind: d.kind } };
}

/** The scale subresource entry (autoscaling/v1 Scale). */
export const scaleSubresource: KindSubresource = {
  name: 'scale',
  verbs: ['get', 'patch', 'update'],
  responseKind: { group: 'autoscaling', version: 'v1', kind: 'Scale' },
};

/** True when the kind serves subresource `name`. */
export function hasSubresource(k: KindDefinition, name: string): boolean {
  return k.subresources.some((s) => s.name === name);
}
