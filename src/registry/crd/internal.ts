/**
 * The internal (hub) shape of a CustomResourceDefinition and its conversion from apiextensions/v1.
 *
 * kube-apiserver validates CRDs in its internal form, not in v1: when every version carries the
 * same schema (or subresources, printer columns, selectable fields), the v1 -> internal conversion
 * hoists it to the top level (`spec.validation`, `spec.subresources`, ...). That is why real
 * clusters report errors such as `spec.validation.openAPIV3Schema.properties[foo].type` for a v1 CRD,
 * and why we convert before validating: the error paths users see must be the same.
 */

import { deepCopyJSON } from '../../apimachinery/index.ts';

export type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
export type JsonObject = { [k: string]: unknown };

export interface CRDNames {
  plural?: string;
  singular?: string;
  shortNames?: string[];
  kind?: string;
  listKind?: string;
  categories?: string[];
}

export interface ColumnDefinition {
  name?: string;
  type?: string;
  format?: string;
  description?: string;
  priority?: number;
  jsonPath?: string;
}

export interface SelectableField {
  jsonPath?: string;
}

export interface ScaleSubresource {
  specReplicasPath?: string;
  statusReplicasPath?: string;
  labelSelectorPath?: string | null;
}

export interface Subresources {
  status?: JsonObject | null;
  scale?: ScaleSubresource | null;
}

export interface CustomResourceValidation {
  openAPIV3Schema?: JsonObject | null;
}

export interface ServiceReference {
  namespace?: string;
  name?: string;
  path?: string | null;
  port?: number;
}

export interface WebhookClientConfig {
  url?: string | null;
  service?: ServiceReference | null;
  caBundle?: string;
}

export interface InternalVersion {
  name?: string;
  served?: boolean;
  storage?: boolean;
  deprecated?: boolean;
  deprecationWarning?: string | null;
  schema?: CustomResourceValidation | null;
  subresources?: Subresources | null;
  additionalPrinterColumns?: ColumnDefinition[];
  selectableFields?: SelectableField[];
}

export interface InternalConversion {
  strategy?: string;
  webhookClientConfig?: WebhookClientConfig | null;
  conversionReviewVersions?: string[];
}

export interface InternalSpec {
  group?: string;
  version?: string;
  names?: CRDNames;
  scope?: string;
  validation?: CustomResourceValidation | null;
  subresources?: Subresources | null;
  versions?: InternalVersion[];
  additionalPrinterColumns?: ColumnDefinition[];
  selectableFields?: SelectableField[];
  conversion?: InternalConversion | null;
  preserveUnknownFields?: boolean | null;
}

export interface CRDCondition {
  type?: string;
  status?: string;
  lastTransitionTime?: string;
  reason?: string;
  message?: string;
}

export interface CRDStatus {
  conditions?: CRDCondition[];
  acceptedNames?: CRDNames;
  storedVersions?: string[];
}

export interface InternalCRD {
  metadata?: JsonObject;
  spec?: InternalSpec;
  status?: CRDStatus;
}

/**
 * Go's apiequality.Semantic.DeepEqual on JSON data: like deep equality, except that an absent
 * field, null, an empty list and an empty map of a pointer/slice/map field compare as Go's zero
 * values do (nil and empty slices are equal).
 */
export function semanticEqual(a: unknown, b: unknown): boolean {
  // Pairs still to compare, on an explicit stack: schemas nest as deep as a CRD body may.
  const pending: unknown[] = [a, b];
  while (pending.length > 0) {
    const y = pending.pop();
    const x = pending.pop();
    if (isEmptyish(x) && isEmptyish(y)) continue;
    if (x === y) continue;
    if (typeof x !== typeof y || x === null || y === null) return false;
    if (Array.isArray(x)) {
      if (!Array.isArray(y) || x.length !== y.length) return false;
      for (let i = 0; i < x.length; i++) pending.push(x[i], y[i]);
      continue;
    }
    if (typeof x !== 'object' || Array.isArray(y)) return false;
    const xo = x as Record<string, unknown>;
    const yo = y as Record<string, unknown>;
    for (const k of new Set([...Object.keys(xo), ...Object.keys(yo)])) pending.push(xo[k], yo[k]);
  }
  return true;
}

function isEmptyish(v: unknown): boolean {
  return v === undefined || v === null || (Array.isArray(v) && v.length === 0);
}

/** A deep copy of JSON data. */
function clone<T>(v: T): T {
  return deepCopyJSON(v);
}

/**
 * Convert a v1 CustomResourceDefinition (JSON) to the internal shape, as
 * Convert_v1_CustomResourceDefinitionSpec_To_apiextensions_CustomResourceDefinitionSpec does:
 * `version` is versions[0].name; per-version fields identical across all versions move to the top.
 * The input is not modified; the result shares its values (it must not be modified either).
 */
export function toInternal(v1: JsonObject): InternalCRD {
  // The internal form shares the v1 object's values (its validation only reads them); only the
  // versions, which hoisting changes, are copies (a copy of every schema was most of the cost of
  // converting a large CRD).
  const spec = (isObject(v1.spec) ? v1.spec : {}) as JsonObject;
  const out: InternalSpec = {
    group: spec.group as string | undefined,
    names: spec.names as CRDNames | undefined,
    scope: spec.scope as string | undefined,
    versions: Array.isArray(spec.versions) ? (spec.versions as unknown[]).map((v) => (isObject(v) ? { ...v } : v) as InternalVersion) : [],
    // v1's preserveUnknownFields is a plain bool (false when absent); internally it is a pointer.
    preserveUnknownFields: spec.preserveUnknownFields === true,
  };
  if (isObject(spec.conversion)) {
    const c = spec.conversion as JsonObject;
    const conv: InternalConversion = { strategy: c.strategy as string | undefined };
    if (isObject(c.webhook)) {
      const w = c.webhook as JsonObject;
      conv.conversionReviewVersions = w.conversionReviewVersions as string[] | undefined;
      if (isObject(w.clientConfig)) conv.webhookClientConfig = w.clientConfig as WebhookClientConfig;
    }
    out.conversion = conv;
  }
  const versions = out.versions!;
  if (versions.length > 0) {
    out.version = versions[0]!.name;
    const hoist = <K extends 'subresources' | 'schema' | 'additionalPrinterColumns' | 'selectableFields'>(k: K) => {
      const first = versions[0]![k];
      if (!versions.every((v) => semanticEqual(v[k], first))) return undefined;
      for (const v of versions) delete v[k];
      return first;
    };
    const sub = hoist('subresources');
    if (sub !== undefined) out.subresources = sub;
    const schema = hoist('schema');
    if (schema !== undefined) out.validation = schema;
    const cols = hoist('additionalPrinterColumns');
    if (cols !== undefined) out.additionalPrinterColumns = cols;
    const sel = hoist('selectableFields');
    if (sel !== undefined) out.selectableFields = sel;
  }
  return {
    metadata: (isObject(v1.metadata) ? clone(v1.metadata) : {}) as JsonObject,
    spec: out,
    status: (isObject(v1.status) ? clone(v1.status) : {}) as CRDStatus,
  };
}

/**
 * Apply the v1 defaults (SetDefaults_CustomResourceDefinition): singular from kind, listKind
 * `<Kind>List`, conversion strategy None, storedVersions from the storage version.
 * Mutates and returns `crd`.
 */
export function setV1Defaults(crd: JsonObject): JsonObject {
  if (!isObject(crd.spec)) return crd;
  const spec = crd.spec as JsonObject;
  if (isObject(spec.names)) {
    const names = spec.names as CRDNames;
    if (!names.singular && typeof names.kind === 'string') names.singular = names.kind.toLowerCase();
    if (!names.listKind && typeof names.kind === 'string' && names.kind.length > 0) names.listKind = names.kind + 'List';
  }
  if (spec.conversion === undefined || spec.conversion === null) spec.conversion = { strategy: 'None' };
  if (isObject(spec.conversion) && isObject((spec.conversion as JsonObject).webhook)) {
    const cc = ((spec.conversion as JsonObject).webhook as JsonObject).clientConfig;
    if (isObject(cc) && isObject((cc as JsonObject).service)) {
      const svc = (cc as JsonObject).service as JsonObject;
      if (svc.port === undefined || svc.port === null) svc.port = 443;
    }
  }
  if (!isObject(crd.status)) crd.status = {};
  const status = crd.status as CRDStatus;
  if (!status.storedVersions || status.storedVersions.length === 0) {
    const storage = Array.isArray(spec.versions)
      ? (spec.versions as InternalVersion[]).find((v) => isObject(v) && v.storage === true)
      : undefined;
    if (storage?.name) status.storedVersions = [storage.name];
  }
  return crd;
}

export function isObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
