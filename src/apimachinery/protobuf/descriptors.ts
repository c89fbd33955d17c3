/**
 * The message descriptors of Kubernetes 1.35's API types, vendored under
 * `vendor/k8s-proto/1.35/descriptors.json` (derived by `scripts/gen-k8s-proto.ts` from k8s.io/api's
 * and apimachinery's `generated.proto` and Go struct tags). The file is read on the first protobuf
 * request, not at startup, and each message is compiled (field lookup by number) on first use.
 */
import { readFileSync } from 'node:fs';
import { vendorURL } from '../vendor.ts';

/** Field flags, as the generator writes them. */
export const enum FieldFlag {
  Repeated = 1,
  OmitEmpty = 2,
  Pointer = 4,
  Inline = 8,
  OmitZero = 16,
  Map = 32,
  /** `json:"-"`: the field is on the wire only. */
  NoJSON = 64,
}

/** Messages whose wire form or JSON upstream writes by hand. */
export type SpecialKind = 'time' | 'microtime' | 'duration' | 'rawjson' | 'intstr' | 'quantity';

export interface Field {
  /** Its position in the message's fields. */
  index: number;
  number: number;
  /** The Go field name (the generated decoder's errors name it). */
  goName: string;
  /** The JSON name ('' for an inline struct). */
  json: string;
  /** A scalar proto type, or a message's full name; for a map, the value type. */
  type: string;
  /** The key type of a map. */
  mapKey?: string;
  repeated: boolean;
  map: boolean;
  omitEmpty: boolean;
  omitZero: boolean;
  pointer: boolean;
  inline: boolean;
  noJSON: boolean;
  /** Set when `type` is a message. */
  message?: Message;
}

export interface Message {
  fullName: string;
  /** The Go type name (the generated decoder's errors name it). */
  goName: string;
  special?: SpecialKind;
  /** A named slice (`type ExtraValue []string`): one repeated field on the wire, a JSON array. */
  listOf?: string;
  /** Fields in Go struct order (the order encoding/json writes them). */
  fields: Field[];
  byNumber: Map<number, Field>;
}

type RawField = [number, string, string, string, number, string?];
type RawMessage = { f: RawField[] } | { special: SpecialKind } | { list: string };
interface RawDescriptors {
  source: Record<string, string>;
  /** `apiVersion/Kind` -> message full name, for every kind with TypeMeta. */
  kinds: Record<string, string>;
  messages: Record<string, RawMessage>;
}

let raw: RawDescriptors | undefined;
const compiled = new Map<string, Message>();

function descriptors(): RawDescriptors {
  raw ??= JSON.parse(readFileSync(vendorURL('k8s-proto/1.35/descriptors.json'), 'utf8')) as RawDescriptors;
  return raw;
}

/** A message by full name (`k8s.io.api.apps.v1.Deployment`), compiled on first use; undefined if unknown. */
export function messageByName(fullName: string): Message | undefined {
  const done = compiled.get(fullName);
  if (done) return done;
  const r = descriptors().messages[fullName];
  if (r === undefined) return undefined;
  const m: Message = { fullName, goName: fullName.slice(fullName.lastIndexOf('.') + 1), fields: [], byNumber: new Map() };
  // Registered before its fields resolve, so that a message may refer to itself.
  compiled.set(fullName, m);
  if ('special' in r) m.special = r.special;
  else if ('list' in r) m.listOf = r.list;
  else {
    for (const [number, goName, json, type, flags, mapKey] of r.f) {
      const f: Field = {
        index: m.fields.length,
        number,
        goName,
        json,
        type,
        repeated: (flags & FieldFlag.Repeated) !== 0,
        map: (flags & FieldFlag.Map) !== 0,
        omitEmpty: (flags & FieldFlag.OmitEmpty) !== 0,
        omitZero: (flags & FieldFlag.OmitZero) !== 0,
        pointer: (flags & FieldFlag.Pointer) !== 0,
        inline: (flags & FieldFlag.Inline) !== 0,
        noJSON: (flags & FieldFlag.NoJSON) !== 0,
      };
      if (mapKey !== undefined) f.mapKey = mapKey;
      const sub = type.includes('.') ? messageByName(type) : undefined;
      if (type.includes('.') && sub === undefined) throw new Error(`protobuf descriptors: ${fullName}.${goName} refers to unknown ${type}`);
      if (sub) f.message = sub;
      m.fields.push(f);
      m.byNumber.set(number, f);
    }
  }
  return m;
}

/**
 * The options kinds and WatchEvent, which metav1.AddToGroupVersion registers in every
 * group-version (a typed client sends `apps/v1` DeleteOptions): all are meta/v1's messages.
 */
const everyGroupVersion = new Set(['CreateOptions', 'DeleteOptions', 'GetOptions', 'ListOptions', 'PatchOptions', 'UpdateOptions', 'WatchEvent']);

/** The message of a kind (`apps/v1`, `Deployment`), or undefined when the descriptors have none. */
export function kindMessage(apiVersion: string, kind: string): Message | undefined {
  const kinds = descriptors().kinds;
  const name = kinds[`${apiVersion}/${kind}`] ?? (everyGroupVersion.has(kind) ? kinds[`v1/${kind}`] : undefined);
  return name === undefined ? undefined : messageByName(name);
}
