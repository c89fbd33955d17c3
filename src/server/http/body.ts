/**
 * Request bodies: read with kube-apiserver's 3 MiB cap (413 past it), then decode by Content-Type
 * (JSON, YAML, and the protobuf envelope of built-in kinds). JSON bodies are
 * also scanned for duplicate fields and YAML bodies for duplicate keys, which `fieldValidation`
 * reports.
 */
import type { IncomingMessage } from 'node:http';
import { newBadRequest, newRequestEntityTooLarge, newUnsupportedMediaType, StatusError } from '../../apimachinery/index.ts';
import { duplicateKeysMessage, yamlToJSON, YAMLDecodeError } from '../../apimachinery/index.ts';
import { decodeJSON, type DecodedBody } from '../../apimachinery/index.ts';
// JSON decoding is apimachinery's (validate reads JSON manifests with it too); the handlers find it here.
export { decodeJSON, JSONSyntaxError, type DecodedBody } from '../../apimachinery/index.ts';
import { decodeProtobufObject, type ProtobufTarget } from './protobuf.ts';

/** kube-apiserver's MaxRequestBodyBytes. */
export const maxRequestBodyBytes = 3 * 1024 * 1024;

/** Reads the whole body; rejects with 413 once more than `limit` bytes arrive. */
export function readBody(req: IncomingMessage, limit = maxRequestBodyBytes): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > limit) {
      req.resume();
      reject(newRequestEntityTooLarge(`limit is ${limit}`));
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let failed = false;
    req.on('data', (c: Buffer) => {
      if (failed) return;
      size += c.length;
      if (size > limit) {
        failed = true;
        reject(newRequestEntityTooLarge(`limit is ${limit}`));
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => {
      if (!failed) resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks));
    });
    req.on('error', (e) => {
      if (!failed) {
        failed = true;
        reject(e);
      }
    });
  });
}

/** The media type of a Content-Type header without parameters, lower-cased; JSON when absent. */
export function mediaTypeOf(contentType: string | undefined): string {
  if (contentType === undefined || contentType.trim() === '') return 'application/json';
  return contentType.split(';')[0]!.trim().toLowerCase();
}

/** Media types an object body may use; protobuf only where `allowProtobuf`. */
export function objectMediaTypes(allowProtobuf: boolean | ProtobufTarget): string[] {
  return allowProtobuf
    ? ['application/json', 'application/yaml', 'application/vnd.kubernetes.protobuf']
    : ['application/json', 'application/yaml'];
}

/**
 * A YAML body sigs.k8s.io/yaml cannot convert: a 400 whose message (`detail`) is the converter's error
 * (`yaml: line 2: ...`, `json: unsupported value: NaN`), which a handler may word as its decoder does.
 */
export class YAMLSyntaxError extends StatusError {
  constructor(readonly detail: string) {
    super(newBadRequest(detail).status);
    this.name = 'YAMLSyntaxError';
  }
}

/**
 * Reads a YAML body as kube-apiserver does (sigs.k8s.io/yaml.YAMLToJSON: the first document, as
 * kubectl reads YAML); its duplicate keys are kept as the strict decoding error they make.
 */
export function decodeYAML(text: string): DecodedBody {
  try {
    const { value, duplicates } = yamlToJSON(text);
    return duplicates.length === 0 ? { value, duplicates: [] } : { value, duplicates: [], strictErrors: [duplicateKeysMessage(duplicates)] };
  } catch (e) {
    if (e instanceof YAMLDecodeError) throw new YAMLSyntaxError(e.message);
    throw e;
  }
}

/**
 * Decodes an object body by media type; 415 for one the endpoint does not take. The value is
 * whatever the document holds (callers check that it is an object). `allowProtobuf` is the type
 * a protobuf body must decode into (true: whichever kind its envelope names; false: 415).
 */
export function decodeObjectBody(body: Buffer, contentType: string | undefined, allowProtobuf: boolean | ProtobufTarget): DecodedBody {
  const mt = mediaTypeOf(contentType);
  switch (mt) {
    case 'application/json':
      return decodeJSON(body.toString('utf8'));
    case 'application/yaml':
    case 'application/x-yaml':
    case 'text/yaml':
      return decodeYAML(body.toString('utf8'));
    case 'application/vnd.kubernetes.protobuf':
      if (allowProtobuf !== false) return { value: decodeProtobufObject(body, allowProtobuf), duplicates: [] };
      break;
  }
  throw newUnsupportedMediaType(objectMediaTypes(allowProtobuf));
}

/** summarizeData: the start of a body for error messages (JSON as text, anything else as hex). */
export function summarizeData(data: Uint8Array, maxLength = 30): string {
  if (data.length === 0) return '<empty>';
  const b = Buffer.from(data);
  if (b[0] === 0x7b) return b.length > maxLength ? b.subarray(0, maxLength).toString('utf8') + ' ...' : b.toString('utf8');
  return b.length > maxLength ? b.subarray(0, maxLength).toString('hex') + ' ...' : b.toString('hex');
}
