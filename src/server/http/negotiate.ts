/**
 * Response content negotiation, as k8s.io/apiserver's endpoints/handlers/negotiation: the Accept
 * header is a list of media types with parameters (`as`, `v`, `g` ask for a transformed object: a
 * Table, PartialObjectMetadata, or aggregated discovery) and q-values. The first acceptable
 * entry in preference order wins; none acceptable is 406.
 */
import { newNotAcceptableMediaTypes } from '../../apimachinery/index.ts';

export type Encoding = 'json' | 'yaml' | 'protobuf';

/** A requested conversion of the response object (`application/json;as=Table;v=v1;g=meta.k8s.io`). */
export interface Target {
  as: string;
  version: string;
  group: string;
}

export interface Negotiated {
  encoding: Encoding;
  /** The Content-Type to answer with. */
  contentType: string;
  target?: Target;
  pretty: boolean;
  /**
   * The answer is an unstructured object (a custom resource or its list) whose JSON is written as
   * Go writes map[string]interface{}: keys sorted at every level. Typed answers (built-in
   * kinds, Tables, PartialObjectMetadata) keep their members' order.
   */
  sortKeys?: boolean;
}

interface AcceptEntry {
  type: string;
  subtype: string;
  params: Record<string, string>;
  q: number;
  order: number;
}

/** Parses an Accept header into entries sorted by q (stable: ties keep header order). */
export function parseAccept(header: string | undefined): AcceptEntry[] {
  if (header === undefined || header.trim() === '') return [{ type: '*', subtype: '*', params: {}, q: 1, order: 0 }];
  const out: AcceptEntry[] = [];
  header.split(',').forEach((part, order) => {
    const [mt, ...ps] = part.split(';').map((s) => s.trim());
    if (!mt) return;
    const [type, subtype = '*'] = mt.toLowerCase().split('/');
    const params: Record<string, string> = {};
    let q = 1;
    for (const p of ps) {
      const eq = p.indexOf('=');
      if (eq < 0) continue;
      const k = p.slice(0, eq).trim().toLowerCase();
      const v = p.slice(eq + 1).trim().replace(/^"|"$/g, '');
      if (k === 'q') q = Number(v);
      else params[k] = v;
    }
    if (!Number.isFinite(q)) q = 0;
    out.push({ type: type!, subtype, params, q, order });
  });
  return out.filter((e) => e.q > 0).sort((a, b) => b.q - a.q || a.order - b.order);
}

/** What an endpoint can produce besides plain objects: the `as` targets it accepts. */
export interface Produces {
  /** Accepts `as=Table` (lists and gets of resources). */
  table?: boolean;
  /** Accepts `as=PartialObjectMetadata[List]`. */
  partialMetadata?: boolean;
  /** Accepts `as=APIGroupDiscoveryList` (v2 and v2beta1). */
  aggregatedDiscovery?: boolean;
  /** Whether YAML output is offered (upstream offers it for objects, not for watch). */
  yaml?: boolean;
  /** Whether protobuf output is offered (built-in kinds; custom resources have no protobuf form). */
  protobuf?: boolean;
}

const supportedBase = ['application/json', 'application/yaml', 'application/vnd.kubernetes.protobuf'];

function targetAllowed(t: Target, p: Produces): boolean {
  if (t.as === 'Table') return !!p.table && t.group === 'meta.k8s.io' && (t.version === 'v1' || t.version === 'v1beta1');
  if (t.as === 'PartialObjectMetadata' || t.as === 'PartialObjectMetadataList') {
    return !!p.partialMetadata && t.group === 'meta.k8s.io' && (t.version === 'v1' || t.version === 'v1beta1');
  }
  if (t.as === 'APIGroupDiscoveryList') {
    return !!p.aggregatedDiscovery && t.group === 'apidiscovery.k8s.io' && (t.version === 'v2' || t.version === 'v2beta1');
  }
  return false;
}

/** Parsed Accept headers by text: clients send the same few on every request. */
const acceptCache = new Map<string, readonly AcceptEntry[]>();
const acceptCacheMax = 256;

/** parseAccept, memoised (entries are shared: read them, never change them). */
function acceptEntries(header: string | undefined): readonly AcceptEntry[] {
  if (header === undefined) return parseAccept(header);
  let entries = acceptCache.get(header);
  if (entries === undefined) {
    entries = parseAccept(header);
    // Bounded: a client inventing headers only ever costs a re-parse.
    if (acceptCache.size >= acceptCacheMax) acceptCache.clear();
    acceptCache.set(header, entries);
  }
  return entries;
}

/** The protobuf media type (`k8s\0` envelopes). */
export const protobufMediaType = 'application/vnd.kubernetes.protobuf';

/**
 * Picks the response form for an Accept header. Protobuf is produced where `produces.protobuf`
 * allows it, for plain objects (not Tables or metadata, which have no message here); elsewhere an
 * entry asking only for it is skipped (clients always list JSON after it). No acceptable entry: 406.
 */
export function negotiate(accept: string | undefined, produces: Produces, pretty = false): Negotiated {
  for (const e of acceptEntries(accept)) {
    if (produces.protobuf && e.type === 'application' && e.subtype === 'vnd.kubernetes.protobuf' && e.params.as === undefined) {
      return { encoding: 'protobuf', contentType: protobufMediaType, pretty: false };
    }
    const anyType = e.type === '*' && e.subtype === '*';
    const json = anyType || (e.type === 'application' && (e.subtype === 'json' || e.subtype === '*'));
    const yaml = produces.yaml !== false && e.type === 'application' && e.subtype === 'yaml';
    if (!json && !yaml) continue;
    const encoding: Encoding = yaml ? 'yaml' : 'json';
    if (e.params.as !== undefined) {
      const t: Target = { as: e.params.as, version: e.params.v ?? '', group: e.params.g ?? '' };
      if (!targetAllowed(t, produces)) continue;
      if (t.as === 'APIGroupDiscoveryList') {
        return {
          encoding: 'json',
          contentType: `application/json;g=apidiscovery.k8s.io;v=${t.version};as=APIGroupDiscoveryList`,
          target: t,
          pretty,
        };
      }
      return {
        encoding,
        contentType: `application/${encoding};as=${t.as};v=${t.version};g=${t.group}`,
        target: t,
        pretty,
      };
    }
    return { encoding, contentType: encoding === 'yaml' ? 'application/yaml' : 'application/json', pretty };
  }
  throw newNotAcceptableMediaTypes(supportedBase);
}
