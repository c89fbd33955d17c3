/**
 * The few protobuf request bodies kubectl sends (`application/vnd.kubernetes.protobuf`): a
 * Namespace (`kubectl create namespace`), a SelfSubjectAccessReview (`kubectl auth can-i`) and a
 * SelfSubjectRulesReview (`kubectl auth can-i --list`). Each arrives in the `k8s\0` envelope, a
 * runtime.Unknown whose `raw` holds the message. Only these messages are decoded, into the JSON
 * shape the rest of the server speaks; unknown fields are skipped as protobuf decoders skip them.
 */
import { newBadRequest } from '../../apimachinery/index.ts';

type Obj = Record<string, unknown>;

const magic = Buffer.from([0x6b, 0x38, 0x73, 0x00]);

class Reader {
  pos = 0;
  constructor(readonly buf: Uint8Array) {}
  eof(): boolean {
    return this.pos >= this.buf.length;
  }
  varint(): number {
    let result = 0;
    let mul = 1;
    for (let k = 0; k < 10; k++) {
      if (this.pos >= this.buf.length) throw new Error('unexpected EOF');
      const b = this.buf[this.pos++]!;
      result += (b & 0x7f) * mul;
      if ((b & 0x80) === 0) return result;
      mul *= 128;
    }
    throw new Error('varint overflow');
  }
  bytes(): Uint8Array {
    const len = this.varint();
    if (this.pos + len > this.buf.length) throw new Error('unexpected EOF');
    const b = this.buf.subarray(this.pos, this.pos + len);
    this.pos += len;
    return b;
  }
  string(): string {
    return Buffer.from(this.bytes()).toString('utf8');
  }
  /**
   * Skips one field's value, as gogo's generated skipGenerated does: a group (wire type 3) is
   * skipped to its matching end with a depth counter, not recursion, so groups nested in an
   * unknown field cost no stack however deep they go.
   */
  skip(wire: number): void {
    let depth = 0;
    for (;;) {
      switch (wire) {
        case 0:
          this.varint();
          break;
        case 1:
          this.pos += 8;
          break;
        case 2:
          this.bytes();
          break;
        case 3:
          depth++;
          break;
        case 4:
          if (depth === 0) throw new Error('proto: unexpected end of group');
          depth--;
          break;
        case 5:
          this.pos += 4;
          break;
        default:
          throw new Error(`proto: illegal wireType ${wire}`);
      }
      if (this.pos > this.buf.length) throw new Error('unexpected EOF');
      if (depth === 0) return;
      if (this.eof()) throw new Error('unexpected EOF');
      wire = this.varint() & 7;
    }
  }
}

/** Iterates (field, wireType) of a message, handing the reader to `fn`, which must consume or skip. */
function fields(buf: Uint8Array, fn: (field: number, wire: number, r: Reader) => boolean): void {
  const r = new Reader(buf);
  while (!r.eof()) {
    const tag = r.varint();
    const field = Math.floor(tag / 8);
    const wire = tag & 7;
    if (!fn(field, wire, r)) r.skip(wire);
  }
}

function decodeTime(buf: Uint8Array): string {
  let seconds = 0;
  fields(buf, (f, w, r) => {
    if (f === 1 && w === 0) {
      seconds = r.varint();
      return true;
    }
    return false;
  });
  return new Date(seconds * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

function decodeStringMap(buf: Uint8Array): [string, string] {
  let k = '';
  let v = '';
  fields(buf, (f, w, r) => {
    if (w !== 2) return false;
    if (f === 1) k = r.string();
    else if (f === 2) v = r.string();
    else return false;
    return true;
  });
  return [k, v];
}

/** ObjectMeta (k8s.io/apimachinery/pkg/apis/meta/v1/generated.proto), the fields clients set. */
function decodeObjectMeta(buf: Uint8Array): Obj {
  const m: Obj = {};
  const strFields: Record<number, string> = { 1: 'name', 2: 'generateName', 3: 'namespace', 5: 'uid', 6: 'resourceVersion' };
  fields(buf, (f, w, r) => {
    if (w === 2 && strFields[f] !== undefined) {
      const s = r.string();
      if (s !== '') m[strFields[f]!] = s;
      return true;
    }
    if (f === 7 && w === 0) {
      m.generation = r.varint();
      return true;
    }
    if (f === 8 && w === 2) {
      const t = r.bytes();
      if (t.length > 0) m.creationTimestamp = decodeTime(t);
      return true;
    }
    if ((f === 11 || f === 12) && w === 2) {
      const key = f === 11 ? 'labels' : 'annotations';
      const [k, v] = decodeStringMap(r.bytes());
      ((m[key] ??= {}) as Record<string, string>)[k] = v;
      return true;
    }
    if (f === 14 && w === 2) {
      ((m.finalizers ??= []) as string[]).push(r.string());
      return true;
    }
    return false;
  });
  return m;
}

function decodeRepeatedStrings(buf: Uint8Array, field: number): string[] | undefined {
  let out: string[] | undefined;
  fields(buf, (f, w, r) => {
    if (f === field && w === 2) {
      (out ??= []).push(r.string());
      return true;
    }
    return false;
  });
  return out;
}

function decodeNamespace(raw: Uint8Array): Obj {
  const ns: Obj = { apiVersion: 'v1', kind: 'Namespace' };
  fields(raw, (f, w, r) => {
    if (f === 1 && w === 2) {
      ns.metadata = decodeObjectMeta(r.bytes());
      return true;
    }
    if (f === 2 && w === 2) {
      const fin = decodeRepeatedStrings(r.bytes(), 1);
      ns.spec = fin ? { finalizers: fin } : {};
      return true;
    }
    return false;
  });
  ns.metadata ??= {};
  return ns;
}

function decodeStringFields(buf: Uint8Array, names: Record<number, string>): Obj {
  const o: Obj = {};
  fields(buf, (f, w, r) => {
    if (w === 2 && names[f] !== undefined) {
      const s = r.string();
      if (s !== '') o[names[f]!] = s;
      return true;
    }
    return false;
  });
  return o;
}

function decodeSSAR(raw: Uint8Array): Obj {
  const o: Obj = { apiVersion: 'authorization.k8s.io/v1', kind: 'SelfSubjectAccessReview', metadata: {} };
  fields(raw, (f, w, r) => {
    if (f === 1 && w === 2) {
      o.metadata = decodeObjectMeta(r.bytes());
      return true;
    }
    if (f === 2 && w === 2) {
      const spec: Obj = {};
      fields(r.bytes(), (sf, sw, sr) => {
        if (sf === 1 && sw === 2) {
          spec.resourceAttributes = decodeStringFields(sr.bytes(), {
            1: 'namespace',
            2: 'verb',
            3: 'group',
            4: 'version',
            5: 'resource',
            6: 'subresource',
            7: 'name',
          });
          return true;
        }
        if (sf === 2 && sw === 2) {
          spec.nonResourceAttributes = decodeStringFields(sr.bytes(), { 1: 'path', 2: 'verb' });
          return true;
        }
        return false;
      });
      o.spec = spec;
      return true;
    }
    return false;
  });
  return o;
}

function decodeSSRR(raw: Uint8Array): Obj {
  const o: Obj = { apiVersion: 'authorization.k8s.io/v1', kind: 'SelfSubjectRulesReview', metadata: {} };
  fields(raw, (f, w, r) => {
    if (f === 1 && w === 2) {
      o.metadata = decodeObjectMeta(r.bytes());
      return true;
    }
    if (f === 2 && w === 2) {
      o.spec = decodeStringFields(r.bytes(), { 1: 'namespace' });
      return true;
    }
    return false;
  });
  return o;
}

const decoders: Record<string, (raw: Uint8Array) => Obj> = {
  'v1/Namespace': decodeNamespace,
  'authorization.k8s.io/v1/SelfSubjectAccessReview': decodeSSAR,
  'authorization.k8s.io/v1/SelfSubjectRulesReview': decodeSSRR,
};

/**
 * Decodes a `k8s\0` protobuf envelope holding one of the supported kinds into its JSON form.
 * Anything else (no envelope, another kind, a truncated message) is a 400 BadRequest.
 */
export function decodeProtobufObject(body: Uint8Array): Obj {
  if (body.length < 4 || !Buffer.from(body.subarray(0, 4)).equals(magic)) {
    throw newBadRequest('provided value is not a protobuf message: missing the k8s protobuf prefix');
  }
  let apiVersion = '';
  let kind = '';
  let raw: Uint8Array = new Uint8Array();
  try {
    fields(body.subarray(4), (f, w, r) => {
      if (f === 1 && w === 2) {
        const tm = decodeStringFields(r.bytes(), { 1: 'apiVersion', 2: 'kind' });
        apiVersion = (tm.apiVersion as string | undefined) ?? '';
        kind = (tm.kind as string | undefined) ?? '';
        return true;
      }
      if (f === 2 && w === 2) {
        raw = r.bytes();
        return true;
      }
      return false;
    });
    const dec = decoders[`${apiVersion}/${kind}`];
    if (dec === undefined) {
      throw newBadRequest(`protobuf bodies are not supported for ${kind || 'this kind'} in version ${JSON.stringify(apiVersion)}`);
    }
    return dec(raw);
  } catch (e) {
    if (e instanceof Error && e.name === 'StatusError') throw e;
    throw newBadRequest(`unable to decode protobuf body: ${e instanceof Error ? e.message : String(e)}`);
  }
}
