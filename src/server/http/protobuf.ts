/**
 * Protobuf request bodies (`application/vnd.kubernetes.protobuf`), which kubectl's typed clients
 * send for every built-in kind: the `k8s\0` envelope is read and its message decoded (by the codec
 * in apimachinery/protobuf) into the JSON the rest of the server speaks, answering what
 * kube-apiserver's create and update handlers answer when decoding fails — `the object provided
 * is unrecognized (must be of type Deployment): ...` when the envelope itself is bad, `Deployment
 * in version "v1" cannot be handled as a Deployment: ...` once it has named a kind.
 */
import {
  decodeEnvelope,
  decodeProtobufMessage,
  newBadRequest,
  protobufKindMessage,
  ProtoError,
} from '../../apimachinery/index.ts';

type Obj = Record<string, unknown>;

/** The type an endpoint decodes into (`apps/v1`, `Deployment`). */
export interface ProtobufTarget {
  apiVersion: string;
  kind: string;
}

/**
 * A body whose envelope cannot be read (no prefix, empty, a broken runtime.Unknown): no kind is
 * known yet, so the handler words it as an unrecognized object, with the body's summary.
 */
export class ProtobufEnvelopeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ProtobufEnvelopeError';
  }
}

/** The scheme kube-apiserver names when an envelope's kind is not registered. */
const schemeName = 'k8s.io/kubernetes/pkg/api/legacyscheme/scheme.go:30';

function splitAPIVersion(av: string): { group: string; version: string } {
  const i = av.indexOf('/');
  return i < 0 ? { group: '', version: av } : { group: av.slice(0, i), version: av.slice(i + 1) };
}

/** The Go package name of a group's internal types (conversion errors name them). */
function internalPackage(group: string, kind: string): string {
  if (group === '' || (group === 'events.k8s.io' && kind === 'Event')) return 'core';
  return group.split('.')[0]!;
}

/**
 * Decodes a protobuf body into the JSON object of the kind its envelope names. `into` is the
 * endpoint's type (true: whichever kind the envelope names, for the review endpoints); a kind it
 * cannot convert to is a 400, as the versioning decoder's conversion fails upstream. A version of
 * the same kind is decoded, for the handler's own apiVersion check to answer.
 */
export function decodeProtobufObject(body: Uint8Array, into: ProtobufTarget | true): Obj {
  let env;
  try {
    env = decodeEnvelope(body);
  } catch (e) {
    if (e instanceof ProtoError) throw new ProtobufEnvelopeError(e.message);
    throw e;
  }
  // copyKindDefaults: the endpoint's kind and group-version fill what the envelope leaves out.
  let { apiVersion, kind } = env;
  if (into !== true) {
    if (kind === '') kind = into.kind;
    if (splitAPIVersion(apiVersion).version === '') apiVersion = into.apiVersion;
  }
  const { group, version } = splitAPIVersion(apiVersion);
  const intoKind = into === true ? kind : into.kind;
  const cannotHandle = (why: string) => newBadRequest(`${kind} in version ${JSON.stringify(version)} cannot be handled as a ${intoKind}: ${why}`);
  if (kind === '') throw newBadRequest(`Object 'Kind' is missing in 'runtime.TypeMeta{APIVersion:${JSON.stringify(env.apiVersion)}, Kind:""}'`);
  const m = protobufKindMessage(apiVersion, kind);
  if (m === undefined) {
    throw cannotHandle(`no kind ${JSON.stringify(kind)} is registered for version ${JSON.stringify(apiVersion)} in scheme ${JSON.stringify(schemeName)}`);
  }
  let obj: Obj;
  try {
    obj = decodeProtobufMessage(m, env.raw, { apiVersion, kind });
  } catch (e) {
    if (e instanceof ProtoError) throw cannotHandle(e.message);
    throw e;
  }
  if (into !== true && kind !== into.kind) {
    const target = splitAPIVersion(into.apiVersion);
    throw cannotHandle(`converting (${version}.${kind}) to (${internalPackage(target.group, into.kind)}.${into.kind}): unknown conversion`);
  }
  return obj;
}
