/**
 * The verbs on a served resource (k8s.io/apiserver's endpoints/handlers): get, list, watch,
 * create, update, patch, delete and deletecollection, plus the status and scale subresources.
 * Each handler decodes and checks the request, calls the resource's RESTStore, and writes the
 * answer in the negotiated form (object, Table, PartialObjectMetadata, YAML).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  deepCopyJSON,
  duplicateKeysMessage,
  failureStatus,
  newBadRequest,
  newConflict,
  YAMLDecodeError,
  yamlToJSON,
  type DuplicateKey,
  newMethodNotSupported,
  newNotFound,
  newUnsupportedMediaType,
  StatusError,
} from '../../apimachinery/index.ts';
import { sortedKeys, stringifyJSON } from '../../apimachinery/index.ts';
import { hasSubresource, parseIncludeObject, patchedObjectJSON, reportDecoding, toTable } from '../../registry/index.ts';
import type { Obj, ObjList, Subresource, UpdateOptions, UserInfo } from '../../registry/index.ts';
import { decodeJSON, decodeObjectBody, JSONSyntaxError, mediaTypeOf, readBody, summarizeData, YAMLSyntaxError, type DecodedBody } from '../http/body.ts';
import { negotiate, type Negotiated, type Produces } from '../http/negotiate.ts';
import { ProtobufEnvelopeError } from '../http/protobuf.ts';
import type { Query } from '../http/query.ts';
import { setWarnings, writeList, writeObject } from '../http/respond.ts';
import type { RequestInfo } from '../requestinfo.ts';
import type { ServedResource } from '../served.ts';

import { deleteOptions, listOptions, writeOptions, type WriteOptions } from './options.ts';
import { serveWatch } from './watch.ts';
import { applyPatch, patchMediaTypes } from './patch.ts';
import { serveAction } from './action.ts';

export interface ResourceRequest {
  req: IncomingMessage;
  res: ServerResponse;
  query: Query;
  info: RequestInfo;
  served: ServedResource;
  /** The warnings a write's stages gathered, sent with its error if it fails (see serveResource). */
  warnings?: string[];
  /** Who makes the request (the stores' default, the admin, when absent). */
  user?: UserInfo;
}

function gr(s: ServedResource): { group: string; resource: string } {
  return { group: s.group, resource: s.resource };
}

function isObj(v: unknown): v is Obj {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

function metaOf(o: Obj): Obj {
  if (!isObj(o.metadata)) o.metadata = {};
  return o.metadata as Obj;
}

function apiVersionOf(s: ServedResource): string {
  return s.group === '' ? s.version : `${s.group}/${s.version}`;
}

function objectProduces(r: ResourceRequest): Produces {
  return { table: true, partialMetadata: true, yaml: true, protobuf: r.served.protobuf };
}

/**
 * Negotiates the response form; pretty-prints for `?pretty=true` and for curl and wget, as
 * upstream's isPrettyPrint does.
 */
export function negotiateFor(r: ResourceRequest, produces: Produces): Negotiated {
  const ua = r.req.headers['user-agent'] ?? '';
  const pretty = r.query.goBool('pretty') ?? (ua.startsWith('curl') || ua.startsWith('Wget') || ua.startsWith('kube-probe'));
  return negotiate(r.req.headers.accept, produces, pretty);
}

/**
 * The None conversion strategy of CRDs: every served version reads the same stored objects, which
 * leave the server with the apiVersion of the endpoint they were asked through. Mutates `obj`.
 */
export function toRequestVersion(s: ServedResource, obj: Obj): Obj {
  if (s.custom && typeof obj.apiVersion === 'string' && obj.kind === s.kind) obj.apiVersion = apiVersionOf(s);
  return obj;
}

/**
 * A custom resource, or a list of them, answered as itself: upstream it is unstructured, and Go
 * writes its JSON with every key sorted (unstructuredJSONScheme: a map[string]interface{}); a
 * list's metadata always has `continue`, "" on the last page (UnstructuredList.SetContinue sets
 * it even when empty; typed lists omit it). Sets n.sortKeys for the answer `value`; typed
 * answers (a Status, a Table, PartialObjectMetadata) are left as they are. Mutates `value`.
 */
export function asUnstructured(r: ResourceRequest, n: Negotiated, value: Obj, isList: boolean): Obj {
  if (!r.served.custom || n.target) return value;
  if (isList) {
    const m = value.metadata;
    if (m !== null && typeof m === 'object' && !Array.isArray(m) && (m as Obj).continue === undefined) value.metadata = { ...(m as Obj), continue: '' };
  } else if (value.kind !== r.served.kind) return value;
  n.sortKeys = true;
  return value;
}

/** A custom resource embedded in a typed answer (a Table row's object): its keys sorted. */
export function embeddedCustom(obj: Obj): Obj {
  return sortedKeys(obj) as Obj;
}

/** Converts an answer (object or list) into what the client negotiated. */
function transform(r: ResourceRequest, n: Negotiated, value: Obj, isList: boolean): Obj {
  if (isList) for (const item of (value.items as Obj[] | undefined) ?? []) toRequestVersion(r.served, item);
  else toRequestVersion(r.served, value);
  const t = n.target;
  if (!t) return asUnstructured(r, n, value, isList);
  if (t.as === 'Table') {
    return toTable(r.served.table, value, isList, {
      includeObject: parseIncludeObject(r.query.str('includeObject')),
      tableVersion: t.version,
      embed: r.served.custom ? embeddedCustom : undefined,
    });
  }
  if (t.as === 'PartialObjectMetadata' && !isList) {
    return { kind: 'PartialObjectMetadata', apiVersion: `meta.k8s.io/${t.version}`, metadata: metaOf(value) };
  }
  if (t.as === 'PartialObjectMetadataList' && isList) {
    const items = ((value.items as Obj[]) ?? []).map((i) => ({
      kind: 'PartialObjectMetadata',
      apiVersion: `meta.k8s.io/${t.version}`,
      metadata: metaOf(i),
    }));
    return { kind: 'PartialObjectMetadataList', apiVersion: `meta.k8s.io/${t.version}`, metadata: value.metadata, items };
  }
  throw newBadRequest(`the requested representation ${t.as} is not supported for this request`);
}

/**
 * Reads and decodes an object body; what cannot be decoded is a 400 worded as the handler's
 * transformDecodeError words it (`the object provided is unrecognized (must be of type CronTab):
 * ...`). `kind` is the type the endpoint decodes into.
 */
async function readObject(r: ResourceRequest, kind = r.served.kind): Promise<DecodedBody & { value: Obj }> {
  const buf = await readBody(r.req);
  const unrecognized = (why: string) =>
    newBadRequest(`the object provided is unrecognized (must be of type ${kind}): ${why} (${summarizeData(buf)})`);
  let d: DecodedBody;
  try {
    const protobuf = r.served.protobuf && { apiVersion: kind === 'Scale' ? 'autoscaling/v1' : apiVersionOf(r.served), kind };
    d = decodeObjectBody(buf, r.req.headers['content-type'], protobuf);
  } catch (e) {
    if (e instanceof JSONSyntaxError) throw unrecognized(`couldn't get version/kind; json parse error: ${e.message}`);
    if (e instanceof ProtobufEnvelopeError) throw unrecognized(e.message);
    if (e instanceof YAMLSyntaxError) throw unrecognized(e.detail);
    throw e;
  }
  if (!isObj(d.value)) {
    if (Array.isArray(d.value) || typeof d.value !== 'object') {
      throw unrecognized(`couldn't get version/kind; json parse error: json: cannot unmarshal ${Array.isArray(d.value) ? 'array' : typeof d.value === 'string' ? 'string' : typeof d.value === 'number' ? 'number' : typeof d.value === 'boolean' ? 'bool' : 'object'} into Go value of type struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }`);
    }
    throw unrecognized(`Object 'Kind' is missing in '${buf.toString('utf8')}'`);
  }
  return d as DecodedBody & { value: Obj };
}

/** The body's duplicate fields as strict decoding errors (reported with the codec's unknown fields). */
function duplicateErrors(paths: readonly string[], prefix = ''): string[] {
  return paths.map((p) => `${prefix}duplicate field ${JSON.stringify(p)}`);
}

/** The body's apiVersion/kind must be the endpoint's (when given); set them when absent. */
function checkTypeMeta(r: ResourceRequest, obj: Obj, expectKind = r.served.kind, expectAV = apiVersionOf(r.served)): void {
  const kind = obj.kind;
  const av = obj.apiVersion;
  if (r.served.custom && (typeof kind !== 'string' || kind === '')) {
    const body = stringifyJSON(obj);
    throw newBadRequest(
      `the object provided is unrecognized (must be of type ${expectKind}): Object 'Kind' is missing in '${body}' (${summarizeData(Buffer.from(body))})`,
    );
  }
  if (typeof av === 'string' && av !== '' && av !== expectAV) {
    throw newBadRequest(`the API version in the data (${av}) does not match the expected API version (${expectAV})`);
  }
  if (typeof kind === 'string' && kind !== '' && kind !== expectKind) {
    throw newBadRequest(`the kind in the data (${kind}) does not match the expected kind (${expectKind})`);
  }
  obj.apiVersion = expectAV;
  obj.kind = expectKind;
}

/** rest.EnsureObjectNamespaceMatchesRequestNamespace. */
function ensureNamespace(r: ResourceRequest, obj: Obj): void {
  const m = metaOf(obj);
  const ns = r.info.namespace;
  if (!r.served.namespaced) {
    if (typeof m.namespace === 'string' && m.namespace !== '') {
      throw newBadRequest('the namespace of the provided object does not match the namespace sent on the request');
    }
    delete m.namespace;
    return;
  }
  if (m.namespace === undefined || m.namespace === '') m.namespace = ns;
  else if (m.namespace !== ns) {
    throw newBadRequest('the namespace of the provided object does not match the namespace sent on the request');
  }
}

function ensureName(r: ResourceRequest, obj: Obj): void {
  const m = metaOf(obj);
  const name = r.info.name!;
  if (m.name === undefined || m.name === '') m.name = name;
  else if (m.name !== name) {
    throw newBadRequest(`the name of the object (${String(m.name)}) does not match the name on the URL (${name})`);
  }
}

/** The 404 for a path the server has no handler for (a missing subresource, a wrong scope). */
function resourceNotFound(): StatusError {
  return new StatusError(failureStatus(404, 'NotFound', 'the server could not find the requested resource', {}));
}

function subresourceOf(r: ResourceRequest): Subresource | undefined {
  const sub = r.info.subresource;
  if (sub === undefined) return undefined;
  if (sub === 'status' && hasSubresource(r.served, 'status')) return 'status';
  if (sub === 'scale' && r.served.scale) return 'scale';
  if (sub === 'finalize' && hasSubresource(r.served, 'finalize')) {
    if (r.info.verb !== 'update') throw newMethodNotSupported(gr(r.served), r.info.verb);
    return 'finalize';
  }
  throw resourceNotFound();
}

async function handleGet(r: ResourceRequest): Promise<void> {
  const sub = subresourceOf(r);
  const opts: { resourceVersion?: string } = {};
  const rv = r.query.str('resourceVersion');
  if (rv) opts.resourceVersion = rv;
  if (sub === 'scale') {
    writeObject(r.res, 200, await r.served.scale!.get(r.info.namespace, r.info.name!, opts), negotiateFor(r, { yaml: true, protobuf: r.served.protobuf }));
    return;
  }
  const obj = await r.served.store.get(r.info.namespace, r.info.name!, opts);
  const n = negotiateFor(r, objectProduces(r));
  writeObject(r.res, 200, transform(r, n, obj, false), n);
}

async function handleList(r: ResourceRequest): Promise<void> {
  const n = negotiateFor(r, objectProduces(r));
  const list: ObjList = await r.served.store.list(r.info.namespace, listOptions(r.query));
  writeList(r.res, 200, transform(r, n, list as unknown as Obj, true), n, n.target?.as === 'Table' ? 'rows' : 'items');
}

async function handleCreate(r: ResourceRequest): Promise<void> {
  if (r.info.name !== undefined) throw newMethodNotSupported(gr(r.served), 'create');
  if (r.served.terminating) {
    const err = newMethodNotSupported(gr(r.served), 'create');
    err.status.message = 'create not allowed while custom resource definition is terminating';
    err.message = err.status.message;
    throw err;
  }
  const opts = withManager(r, writeOptions(r.query, 'CreateOptions'));
  const n = negotiateFor(r, { yaml: true, partialMetadata: true, protobuf: r.served.protobuf });
  const { value: obj, duplicates, strictErrors } = await readObject(r);
  const warnings: string[] = [];
  checkTypeMeta(r, obj);
  ensureNamespace(r, obj);
  const result = await r.served.store.create(r.info.namespace, obj, { ...opts, inputOwned: true, decodeErrors: [...duplicateErrors(duplicates), ...(strictErrors ?? [])] });
  if (r.served.deprecationWarning) warnings.unshift(r.served.deprecationWarning);
  setWarnings(r.res, [...warnings, ...result.warnings]);
  writeObject(r.res, 201, transform(r, n, result.object, false), n);
}

async function handleUpdate(r: ResourceRequest): Promise<void> {
  const sub = subresourceOf(r);
  const opts = withManager(r, writeOptions(r.query, 'UpdateOptions'));
  const n = negotiateFor(r, { yaml: true, partialMetadata: true, protobuf: r.served.protobuf });
  const { value: body, duplicates, strictErrors } = await readObject(r, sub === 'scale' ? 'Scale' : r.served.kind);
  const warnings: string[] = [];
  if (sub === 'scale') {
    // The Scale body is decoded here, as autoscaling/v1 Scale.
    reportDecoding({ kind: 'Scale', version: 'v1', fieldValidation: opts.fieldValidation, decodeErrors: [...duplicateErrors(duplicates), ...(strictErrors ?? [])], warnings }, { strictErrors: [] });
    checkTypeMeta(r, body, 'Scale', 'autoscaling/v1');
    ensureName(r, body);
    const result = await r.served.scale!.update(r.info.namespace, r.info.name!, () => body, opts);
    setWarnings(r.res, [...warnings, ...result.warnings]);
    writeObject(r.res, 200, result.scale, n);
    return;
  }
  const uopts: UpdateOptions = { ...opts, decodeErrors: [...duplicateErrors(duplicates), ...(strictErrors ?? [])] };
  if (sub) uopts.subresource = sub;
  checkTypeMeta(r, body);
  ensureNamespace(r, body);
  ensureName(r, body);
  const result = await r.served.store.update(r.info.namespace, r.info.name!, () => body, uopts);
  if (r.served.deprecationWarning) warnings.unshift(r.served.deprecationWarning);
  setWarnings(r.res, [...warnings, ...result.warnings]);
  writeObject(r.res, result.created ? 201 : 200, transform(r, n, result.object, false), n);
}

async function handlePatch(r: ResourceRequest): Promise<void> {
  const sub = subresourceOf(r);
  const mt = mediaTypeOf(r.req.headers['content-type']);
  const accepted = patchMediaTypes(r.served);
  if (!accepted.includes(mt)) throw newUnsupportedMediaType(accepted);
  if (mt === 'application/apply-patch+yaml' && !r.served.store.apply) {
    throw newUnsupportedMediaType(accepted.filter((t) => t !== 'application/apply-patch+yaml'));
  }
  const opts = withManager(r, writeOptions(r.query, 'PatchOptions', mt));
  const n = negotiateFor(r, { yaml: true, partialMetadata: true, protobuf: r.served.protobuf });
  const buf = await readBody(r.req);
  if (mt === 'application/apply-patch+yaml') return handleApply(r, opts, n, buf);
  let patch: DecodedBody;
  try {
    patch = decodeJSON(buf.toString('utf8'));
  } catch (e) {
    if (e instanceof JSONSyntaxError) throw undecodablePatch(mt, opts.fieldValidation, e.message);
    throw e;
  }
  const warnings: string[] = [];
  // The patch's own duplicate fields are strict errors reported with the patched object's (kjson.UnmarshalStrict).
  const patchErrors = opts.fieldValidation === 'Ignore' ? [] : duplicateErrors(patch.duplicates, mt === 'application/json-patch+json' ? 'json patch ' : '');
  if (sub === 'scale') {
    // The patched Scale is decoded as its type; the patch's strict errors are reported as the patch
    // handler reports them, quoting the patched Scale.
    const result = await r.served.scale!.update(
      r.info.namespace,
      r.info.name!,
      (cur) => {
        const next = applyPatch(r.served, mt, cur, patch.value);
        if (patchErrors.length > 0) {
          const report = { kind: 'Scale', version: 'v1', fieldValidation: opts.fieldValidation, decodeErrors: patchErrors, patchedJSON: patchedObjectJSON(next), warnings };
          reportDecoding(report, { strictErrors: [] });
        }
        return next;
      },
      opts,
    );
    setWarnings(r.res, [...warnings, ...result.warnings]);
    writeObject(r.res, 200, result.scale, n);
    return;
  }
  const uopts: UpdateOptions = { ...opts, decodeErrors: patchErrors, patched: true };
  if (sub) uopts.subresource = sub;
  const tryUpdate = (cur: Obj | undefined): Obj => {
    if (cur === undefined) throw newNotFound(gr(r.served), r.info.name!);
    const next = applyPatch(r.served, mt, toRequestVersion(r.served, cur), patch.value);
    checkTypeMeta(r, next);
    ensureNamespace(r, next);
    ensureName(r, next);
    return next;
  };
  const result = await r.served.store.update(r.info.namespace, r.info.name!, tryUpdate, uopts);
  if (r.served.deprecationWarning) warnings.unshift(r.served.deprecationWarning);
  setWarnings(r.res, [...warnings, ...result.warnings]);
  writeObject(r.res, result.created ? 201 : 200, transform(r, n, result.object, false), n);
}

/**
 * PATCH with `application/apply-patch+yaml` (the patch handler's applyPatcher): the YAML (or
 * JSON) body is merged into the live object by the kind's field manager, creating it when missing
 * (never through a subresource); the result then takes the update path like any patch's.
 */
async function handleApply(r: ResourceRequest, opts: WriteOptions & { manager: string }, n: Negotiated, buf: Buffer): Promise<void> {
  const sub = subresourceOf(r);
  const patch = decodeApplyPatch(buf.toString('utf8'));
  const warnings: string[] = [];
  const force = r.query.bool('force') ?? false;
  if (sub === 'scale') {
    const result = await r.served.scale!.apply(r.info.namespace, r.info.name!, patch.value, { manager: opts.fieldManager!, force }, opts);
    setWarnings(r.res, result.warnings);
    writeObject(r.res, 200, result.scale, n);
    return;
  }
  const uopts: UpdateOptions = { ...opts, patched: true, applied: true, forceAllowCreate: sub === undefined };
  if (sub) uopts.subresource = sub;
  const tryUpdate = (cur: Obj | undefined): Obj => {
    if (cur === undefined && sub) throw newNotFound(gr(r.served), r.info.name!);
    const next = r.served.store.apply!(cur && toRequestVersion(r.served, cur), deepCopyJSON(patch.value) as Obj, {
      manager: opts.fieldManager!,
      force,
      ...(sub ? { subresource: sub } : {}),
    });
    if (opts.fieldValidation !== 'Ignore' && patch.duplicates.length > 0) {
      // yaml.UnmarshalStrict of the patch, checked once the apply has succeeded.
      const strict = `error converting YAML to JSON: ${duplicateKeysMessage(patch.duplicates)}`;
      if (opts.fieldValidation === 'Strict') throw newBadRequest(`error strict decoding patch: ${strict}`);
      warnings.length = 0;
      warnings.push(...patch.duplicates.map((d) => d.message));
    }
    const uid = metaOf(next).uid;
    if (cur === undefined && typeof uid === 'string' && uid !== '') {
      throw newConflict(gr(r.served), r.info.name!, `uid mismatch: the provided object specified uid ${uid}, and no existing object was found`);
    }
    ensureNamespace(r, next);
    checkPatchedName(r, next);
    return next;
  };
  const result = await r.served.store.update(r.info.namespace, r.info.name!, tryUpdate, uopts);
  if (r.served.deprecationWarning) warnings.unshift(r.served.deprecationWarning);
  setWarnings(r.res, [...warnings, ...result.warnings]);
  writeObject(r.res, result.created ? 201 : 200, transform(r, n, result.object, false), n);
}

/**
 * An apply patch read as the patch handler reads it: JSON passes through (util/yaml.ToJSON
 * leaves it for the YAML decode after), YAML it cannot convert is `error encoding patch: ...`,
 * and what does not decode into an object `error decoding patch: ...`.
 */
function decodeApplyPatch(text: string): { value: Obj; duplicates: DuplicateKey[] } {
  const jsonPrefixed = /^\s*\{/.test(text);
  let d: { value: unknown; duplicates: DuplicateKey[] } | undefined;
  if (jsonPrefixed) {
    // What clients send (kubectl, client-go's apply configurations): JSON reads as the YAML
    // decoder would read it; only a JSON body with duplicate keys needs the YAML reader's lines.
    try {
      const j = decodeJSON(text);
      if (j.duplicates.length === 0) d = { value: j.value, duplicates: [] };
    } catch {
      // not JSON after all: the YAML reader words the error
    }
  }
  try {
    d ??= yamlToJSON(text);
  } catch (e) {
    if (e instanceof YAMLDecodeError) {
      throw newBadRequest(jsonPrefixed ? `error decoding patch: error converting YAML to JSON: ${e.message}` : `error encoding patch: ${e.message}`);
    }
    throw e;
  }
  const v = d.value ?? {};
  if (typeof v !== 'object' || Array.isArray(v)) {
    const what = Array.isArray(v) ? 'array' : typeof v === 'string' ? 'string' : typeof v === 'number' ? 'number' : 'bool';
    throw newBadRequest(`error decoding patch: error unmarshaling JSON: while decoding JSON: json: cannot unmarshal ${what} into Go value of type map[string]interface {}`);
  }
  return { value: v as Obj, duplicates: d.duplicates };
}

/** checkName of the patch handler: the patched object names the object the URL names (an empty name does not). */
function checkPatchedName(r: ResourceRequest, obj: Obj): void {
  const m = metaOf(obj);
  const objName = typeof m.name === 'string' ? m.name : '';
  if (objName !== r.info.name) {
    throw newBadRequest(`the name of the object (${objName}) does not match the name on the URL (${r.info.name})`);
  }
  const objNs = typeof m.namespace === 'string' ? m.namespace : '';
  if (r.info.namespace && objNs !== '' && objNs !== r.info.namespace) {
    throw newBadRequest(`the namespace of the object (${objNs}) does not match the namespace on the URL (${r.info.namespace})`);
  }
}

/** FieldManagerMaxLength */
const fieldManagerMaxLength = 128;

/**
 * managerOrUserAgent: the manager a write is recorded under — the fieldManager option, else the
 * user agent up to its first `/`, without unprintable characters, cut at 128 bytes.
 */
function withManager<T extends WriteOptions>(r: ResourceRequest, opts: T): T & { manager: string; warnings: string[] } {
  const warnings = (r.warnings ??= []);
  const user = r.user ? { user: r.user } : {};
  if (opts.fieldManager) return { ...opts, manager: opts.fieldManager, warnings, ...user };
  return { ...opts, manager: managerFromUserAgent(r.req.headers['user-agent'] ?? ''), warnings, ...user };
}

/** The last User-Agent seen and its manager name: a client sends the same one on every request. */
let lastAgent = { ua: '', manager: '' };

/** The default fieldManager: the User-Agent up to its first `/`, printable characters only, at most 128 bytes. */
function managerFromUserAgent(header: string): string {
  if (header === lastAgent.ua) return lastAgent.manager;
  const ua = header.split('/')[0]!;
  let out = '';
  let bytes = 0;
  for (const ch of ua) {
    if (!/[\p{L}\p{M}\p{N}\p{P}\p{S} ]/u.test(ch)) continue;
    const len = Buffer.byteLength(ch);
    if (bytes + len > fieldManagerMaxLength) break;
    out += ch;
    bytes += len;
  }
  lastAgent = { ua: header, manager: out };
  return out;
}

/**
 * The 400 for a patch body the decoder refuses (bad syntax, or nested too deep), worded by the
 * step that meets it first upstream: under Strict and Warn the json and merge patchers decode
 * the patch strictly first (`error decoding patch: ...`); under Ignore jsonpatch.DecodePatch
 * passes the decoder's message on and jsonpatch.MergePatch answers ErrBadJSONPatch. A strategic
 * merge patch is decoded into a map, which passes the message on as is.
 */
function undecodablePatch(mt: string, fieldValidation: string, message: string): StatusError {
  if (mt === 'application/strategic-merge-patch+json') return newBadRequest(message);
  if (fieldValidation !== 'Ignore') return newBadRequest(`error decoding patch: ${message}`);
  return newBadRequest(mt === 'application/json-patch+json' ? message : 'Invalid JSON Patch');
}

async function readDeleteBody(r: ResourceRequest): Promise<unknown> {
  const buf = await readBody(r.req);
  if (buf.length === 0) return undefined;
  const mt = mediaTypeOf(r.req.headers['content-type']);
  if (mt === 'application/vnd.kubernetes.protobuf') {
    // The delete handler decodes with the meta scheme, where DeleteOptions is unversioned: any
    // group-version's DeleteOptions will do, whatever the resource.
    try {
      const value = decodeObjectBody(buf, r.req.headers['content-type'], { apiVersion: 'meta.k8s.io/v1', kind: 'DeleteOptions' }).value;
      delete (value as Obj).apiVersion;
      delete (value as Obj).kind;
      return value;
    } catch (e) {
      if (e instanceof ProtobufEnvelopeError) throw newBadRequest(e.message);
      throw e;
    }
  }
  if (mt !== 'application/json' && mt !== 'application/yaml') throw newUnsupportedMediaType(['application/json', 'application/yaml', 'application/vnd.kubernetes.protobuf']);
  return decodeObjectBody(buf, r.req.headers['content-type'], false).value;
}

async function handleDelete(r: ResourceRequest): Promise<void> {
  if (r.info.subresource !== undefined) throw newMethodNotSupported(gr(r.served), 'delete');
  const n = negotiateFor(r, { yaml: true, protobuf: r.served.protobuf });
  const opts = deleteOptions(r.query, await readDeleteBody(r));
  if (r.user) opts.user = r.user;
  const result = await r.served.store.delete(r.info.namespace, r.info.name!, opts);
  if (result.warnings) setWarnings(r.res, [...(r.served.deprecationWarning ? [r.served.deprecationWarning] : []), ...result.warnings]);
  writeObject(r.res, 200, asUnstructured(r, n, toRequestVersion(r.served, result.response), false), n);
}

async function handleDeleteCollection(r: ResourceRequest): Promise<void> {
  const n = negotiateFor(r, { yaml: true, protobuf: r.served.protobuf });
  const opts = deleteOptions(r.query, await readDeleteBody(r));
  if (r.user) opts.user = r.user;
  const warnings: string[] = [];
  const list = await r.served.store.deleteCollection(r.info.namespace, listOptions(r.query), { ...opts, warnings });
  setWarnings(r.res, [...(r.served.deprecationWarning ? [r.served.deprecationWarning] : []), ...warnings]);
  for (const item of list.items) toRequestVersion(r.served, item);
  writeObject(r.res, 200, asUnstructured(r, n, list as unknown as Obj, true), n);
}

/** Serves one resource request; throws StatusErrors for the caller to write. */
export async function serveResource(r: ResourceRequest): Promise<void> {
  const { verb } = r.info;
  if (!r.served.namespaced && r.info.namespace !== undefined) {
    // A cluster-scoped resource has no namespaced paths.
    throw resourceNotFound();
  }
  if (r.served.deprecationWarning && verb !== 'create' && verb !== 'update' && verb !== 'patch') {
    setWarnings(r.res, [r.served.deprecationWarning]);
  }
  if (r.served.namespaced && r.info.namespace === undefined && verb !== 'list' && verb !== 'watch') {
    // Namespaced objects are addressed through /namespaces/{ns}/ only.
    throw resourceNotFound();
  }
  const action = r.info.subresource !== undefined && r.info.name !== undefined ? r.served.actions?.[r.info.subresource] : undefined;
  if (action) return serveAction(r, action);
  if (r.info.subpath !== undefined) throw resourceNotFound();
  if (verb === 'create' || verb === 'update' || verb === 'patch') {
    try {
      return await serveVerb(r);
    } catch (e) {
      // A refused write still carries the warnings found before the refusal (a Warn policy's, an
      // unknown field's under fieldValidation=Warn, a deprecated version's).
      setWarnings(r.res, [...(r.served.deprecationWarning ? [r.served.deprecationWarning] : []), ...(r.warnings ?? [])]);
      throw e;
    }
  }
  return serveVerb(r);
}

function serveVerb(r: ResourceRequest): Promise<void> {
  switch (r.info.verb) {
    case 'get':
      return handleGet(r);
    case 'list':
      return handleList(r);
    case 'watch':
      return serveWatch(r);
    case 'create':
      return handleCreate(r);
    case 'update':
      return handleUpdate(r);
    case 'patch':
      return handlePatch(r);
    case 'delete':
      return handleDelete(r);
    case 'deletecollection':
      return handleDeleteCollection(r);
  }
}
