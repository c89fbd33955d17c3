/**
 * Kubernetes 1.35's OpenAPI v3 documents, vendored under `vendor/k8s-openapi/1.35/`: which
 * group-versions are served by default, and each document read once, when first asked for; its
 * text (what `/openapi/v3` serves) and its parsed form (schemas, patch metadata) separately, so
 * that serving a document parses nothing.
 */
import { readFileSync } from 'node:fs';
import { OpenAPIV3PatchMeta, type PatchMetaLookup, vendorURL } from '../../apimachinery/index.ts';

/** The group-versions kube-apiserver 1.35 enables by default whose kinds are stored ('' is core). */
export const defaultGroupVersions: readonly { group: string; version: string }[] = [
  { group: '', version: 'v1' },
  { group: 'admissionregistration.k8s.io', version: 'v1' },
  // MutatingAdmissionPolicy(Binding) only, over v1's storage (admissionregistration/definition.ts).
  { group: 'admissionregistration.k8s.io', version: 'v1beta1' },
  { group: 'apiregistration.k8s.io', version: 'v1' },
  { group: 'apps', version: 'v1' },
  // autoscaling/v1 is served over v2's storage, converted (definition.ts).
  { group: 'autoscaling', version: 'v1' },
  { group: 'autoscaling', version: 'v2' },
  { group: 'batch', version: 'v1' },
  { group: 'certificates.k8s.io', version: 'v1' },
  { group: 'coordination.k8s.io', version: 'v1' },
  { group: 'discovery.k8s.io', version: 'v1' },
  { group: 'events.k8s.io', version: 'v1' },
  { group: 'flowcontrol.apiserver.k8s.io', version: 'v1' },
  { group: 'networking.k8s.io', version: 'v1' },
  { group: 'node.k8s.io', version: 'v1' },
  { group: 'policy', version: 'v1' },
  { group: 'rbac.authorization.k8s.io', version: 'v1' },
  { group: 'resource.k8s.io', version: 'v1' },
  { group: 'scheduling.k8s.io', version: 'v1' },
  { group: 'storage.k8s.io', version: 'v1' },
];

/** An OpenAPI v3 document as kube-apiserver serves it. */
export interface OpenAPIDocument {
  openapi: string;
  info: Record<string, unknown>;
  paths: Record<string, Record<string, Record<string, unknown>>>;
  components: { schemas: Record<string, Record<string, unknown>> };
}

/**
 * A file of the vendored documents' directory (or the catalog's index), found when first asked
 * for: the console's browser bundle loads this module too, and has no package root to look for.
 */
export function openAPIVendorURL(file: string): URL {
  return vendorURL(`k8s-openapi/1.35/${file}`);
}
const texts = new Map<string, string>();
const docs = new Map<string, { text: string; doc: OpenAPIDocument }>();

/** The document's path under `/openapi/v3/` (`api/v1`, `apis/apps/v1`). */
export function documentPath(group: string, version: string): string {
  return group === '' ? `api/${version}` : `apis/${group}/${version}`;
}

/** The vendored document's text, read once. */
function documentText(group: string, version: string): string {
  const p = documentPath(group, version);
  let text = texts.get(p);
  if (text === undefined) texts.set(p, (text = readFileSync(openAPIVendorURL(`${p}.json`), 'utf8')));
  return text;
}

/** The vendored document of a group-version, parsed once (its text kept to be served as is). */
export function openAPIDocument(group: string, version: string): { text: string; doc: OpenAPIDocument } {
  const p = documentPath(group, version);
  let d = docs.get(p);
  if (!d) {
    const text = documentText(group, version);
    docs.set(p, (d = { text, doc: JSON.parse(text) as OpenAPIDocument }));
  }
  return d;
}

/** The document text of a default group-version, as kube-apiserver serves it; undefined for others. */
export function builtinOpenAPIDocument(group: string, version: string): string | undefined {
  if (!defaultGroupVersions.some((gv) => gv.group === group && gv.version === version)) return undefined;
  return documentText(group, version);
}

/** A kind's strategic-merge-patch metadata from its group-version's document, built when first asked for. */
export function patchMetaFor(group: string, version: string, kind: string): () => PatchMetaLookup {
  let meta: PatchMetaLookup | undefined;
  return () => {
    meta ??= OpenAPIV3PatchMeta.forKind(openAPIDocument(group, version).doc as never, { group, version, kind });
    if (!meta) throw new Error(`no OpenAPI schema for ${kind}`);
    return meta;
  };
}
