/**
 * Derives `vendor/k8s-proto/1.35/descriptors.json`, the compact message descriptors the protobuf
 * codec (src/apimachinery/protobuf/) reads, from Kubernetes' own sources: the field numbers and
 * proto types of each package's `generated.proto`, joined by field number with the Go struct tags
 * of its `types.go` (JSON name, omitempty/omitzero, inline, pointer-ness, field order), since JSON
 * rendering follows the Go struct and not the proto file. Also copies the `testdata/HEAD` round-trip
 * vectors of the served group-versions into `testdata/k8s-proto/`.
 *
 *   tsx scripts/gen-k8s-proto.ts --api DIR --apimachinery DIR --aggregator DIR
 *
 * Each DIR is a git directory (a clone or bare mirror) read at the tags below, so the output is
 * reproducible from upstream alone.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

const tags = { api: 'v0.35.7', apimachinery: 'v0.35.7', aggregator: 'v0.35.6' };

function arg(name: string): string {
  const i = process.argv.indexOf(`--${name}`);
  if (i < 0 || !process.argv[i + 1]) throw new Error(`usage: --api DIR --apimachinery DIR --aggregator DIR (missing --${name})`);
  return process.argv[i + 1]!;
}

const repos = { api: arg('api'), apimachinery: arg('apimachinery'), aggregator: arg('aggregator') };
type Repo = keyof typeof repos;

function git(repo: Repo, ...args: string[]): string {
  return execFileSync('git', ['-C', repos[repo], ...args], { encoding: 'utf8', maxBuffer: 256 << 20 });
}
function show(repo: Repo, path: string): string {
  return git(repo, 'show', `${tags[repo]}:${path}`);
}
function showBytes(repo: Repo, path: string): Buffer {
  return execFileSync('git', ['-C', repos[repo], 'show', `${tags[repo]}:${path}`], { maxBuffer: 256 << 20 });
}
function ls(repo: Repo, dir: string): string[] {
  return git(repo, 'ls-tree', '--name-only', `${tags[repo]}:${dir}`).split('\n').filter(Boolean);
}

/** The packages whose messages are described: the served group-versions, the reviews, meta. */
const packages: { repo: Repo; dir: string }[] = [
  ...[
    'core/v1',
    'admissionregistration/v1',
    'apps/v1',
    'authentication/v1',
    'authorization/v1',
    'autoscaling/v1',
    'autoscaling/v2',
    'batch/v1',
    'certificates/v1',
    'coordination/v1',
    'discovery/v1',
    'events/v1',
    'flowcontrol/v1',
    'networking/v1',
    'node/v1',
    'policy/v1',
    'rbac/v1',
    'resource/v1',
    'scheduling/v1',
    'storage/v1',
  ].map((dir) => ({ repo: 'api' as Repo, dir })),
  { repo: 'apimachinery', dir: 'pkg/apis/meta/v1' },
  { repo: 'apimachinery', dir: 'pkg/runtime' },
  { repo: 'apimachinery', dir: 'pkg/util/intstr' },
  { repo: 'apimachinery', dir: 'pkg/api/resource' },
  { repo: 'aggregator', dir: 'pkg/apis/apiregistration/v1' },
];

/** Messages whose wire form or JSON is hand-written upstream (time_proto.go, quantity_proto.go, ...). */
const special: Record<string, string> = {
  'k8s.io.apimachinery.pkg.apis.meta.v1.Time': 'time',
  'k8s.io.apimachinery.pkg.apis.meta.v1.MicroTime': 'microtime',
  'k8s.io.apimachinery.pkg.apis.meta.v1.Duration': 'duration',
  'k8s.io.apimachinery.pkg.apis.meta.v1.FieldsV1': 'rawjson',
  'k8s.io.apimachinery.pkg.runtime.RawExtension': 'rawjson',
  'k8s.io.apimachinery.pkg.util.intstr.IntOrString': 'intstr',
  'k8s.io.apimachinery.pkg.api.resource.Quantity': 'quantity',
  'k8s.io.apimachinery.pkg.api.resource.QuantityValue': 'quantity',
};

interface ProtoField {
  number: number;
  name: string;
  type: string;
  label: 'optional' | 'repeated' | 'map';
  mapKey?: string;
}

/** Parses the messages of a generated.proto (flat messages, proto2 fields and maps only). */
function parseProto(text: string): { pkg: string; messages: Map<string, ProtoField[]> } {
  const pkg = /^package ([\w.]+);/m.exec(text)![1]!;
  const messages = new Map<string, ProtoField[]>();
  const clean = text.replace(/\/\/.*$/gm, '');
  const re = /^message (\w+) \{([^}]*)\}/gm;
  for (let m = re.exec(clean); m; m = re.exec(clean)) {
    const fields: ProtoField[] = [];
    for (const line of m[2]!.split(';')) {
      const s = line.trim();
      if (s === '') continue;
      let fm = /^map<\s*([\w.]+)\s*,\s*([\w.]+)\s*>\s+(\w+)\s*=\s*(\d+)/.exec(s);
      if (fm) {
        fields.push({ label: 'map', mapKey: fm[1]!, type: fm[2]!, name: fm[3]!, number: Number(fm[4]) });
        continue;
      }
      fm = /^(optional|repeated|required)\s+([\w.]+)\s+(\w+)\s*=\s*(\d+)/.exec(s);
      if (!fm) throw new Error(`${pkg}.${m[1]}: cannot read field ${JSON.stringify(s)}`);
      fields.push({ label: fm[1] === 'repeated' ? 'repeated' : 'optional', type: fm[2]!, name: fm[3]!, number: Number(fm[4]) });
    }
    messages.set(m[1]!, fields);
  }
  return { pkg, messages };
}

interface GoField {
  goName: string;
  goType: string;
  json: string;
  omitempty: boolean;
  omitzero: boolean;
  inline: boolean;
  /** `json:"-"`: on the wire only (runtime.Unknown's raw). */
  noJSON: boolean;
  number?: number;
}

type GoType = { kind: 'struct'; fields: GoField[]; typeMeta: boolean } | { kind: 'alias'; type: string } | { kind: 'unreadable'; why: string };

/** The struct and named types of a Go package's hand-written files. */
function parseGo(texts: string[]): Map<string, GoType> {
  const out = new Map<string, GoType>();
  for (const raw of texts) {
    const text = raw.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
    const structRe = /^type (\w+) struct \{\n([\s\S]*?)^\}/gm;
    for (let m = structRe.exec(text); m; m = structRe.exec(text)) {
      const fields: GoField[] = [];
      let typeMeta = false;
      let bad: string | undefined;
      for (const line of m[2]!.split('\n')) {
        const s = line.replace(/\s\/\/.*$/, '').trim();
        if (s === '') continue;
        const fm = /^(?:(\w+)\s+)?([^\s`]+)\s*(?:`([^`]*)`)?$/.exec(s);
        if (!fm) {
          // Only structs that have a message must be readable (runtime's helpers are not).
          bad = `cannot read field ${JSON.stringify(s)}`;
          break;
        }
        const tag = fm[3] ?? '';
        const jsonTag = /json:"([^"]*)"/.exec(tag)?.[1];
        const pbTag = /protobuf:"([^"]*)"/.exec(tag)?.[1];
        const goType = fm[2]!;
        const goName = fm[1] ?? goType.replace(/^\*/, '').replace(/^\w+\./, '');
        if (fm[1] === undefined && /(^|\.)TypeMeta$/.test(goType)) typeMeta = true;
        if (jsonTag === '-' && pbTag === undefined) continue;
        const [jsonName = '', ...opts] = (jsonTag ?? '').split(',');
        const f: GoField = {
          goName,
          goType,
          json: jsonName === '' && jsonTag === undefined ? goName : jsonName,
          omitempty: opts.includes('omitempty'),
          omitzero: opts.includes('omitzero'),
          inline: opts.includes('inline') || (fm[1] === undefined && jsonName === ''),
          noJSON: jsonTag === '-',
        };
        if (pbTag !== undefined) f.number = Number(pbTag.split(',')[1]);
        fields.push(f);
      }
      out.set(m[1]!, bad === undefined ? { kind: 'struct', fields, typeMeta } : { kind: 'unreadable', why: bad });
    }
    const aliasRe = /^type (\w+) ((?:\[\]|map\[)[\w.[\]*]+)\s*$/gm;
    for (let m = aliasRe.exec(text); m; m = aliasRe.exec(text)) out.set(m[1]!, { kind: 'alias', type: m[2]! });
  }
  return out;
}

/** Flags of a descriptor field. */
const F = { repeated: 1, omitempty: 2, pointer: 4, inline: 8, omitzero: 16, map: 32, noJSON: 64 };

/** [number, Go name, JSON name, type, flags, map key type]: the codec's view of one field. */
type Field = [number, string, string, string, number] | [number, string, string, string, number, string];

const scalars = new Set(['string', 'bytes', 'bool', 'int32', 'int64', 'uint32', 'uint64', 'sint32', 'sint64', 'fixed32', 'fixed64', 'sfixed32', 'sfixed64', 'double', 'float']);

function qualify(type: string, pkg: string, known: Set<string>): string {
  if (scalars.has(type)) return type;
  if (type.startsWith('.')) type = type.slice(1);
  if (known.has(`${pkg}.${type}`)) return `${pkg}.${type}`;
  if (known.has(type)) return type;
  throw new Error(`${pkg}: unknown type ${type}`);
}

const messages: Record<string, { f: Field[] } | { special: string } | { list: string }> = {};
const kinds: Record<string, string> = {};

const parsed = packages.map((p) => {
  const files = ls(p.repo, p.dir);
  const proto = parseProto(show(p.repo, `${p.dir}/generated.proto`));
  const goFiles = files.filter((f) => f.endsWith('.go') && !f.endsWith('_test.go') && !f.startsWith('generated') && !f.startsWith('zz_generated') && !f.includes('swagger_doc'));
  const go = parseGo(goFiles.map((f) => show(p.repo, `${p.dir}/${f}`)));
  const register = files.includes('register.go') ? show(p.repo, `${p.dir}/register.go`) : '';
  const group = /GroupName\s*=\s*"([^"]*)"/.exec(register)?.[1];
  return { ...p, proto, go, group, version: p.dir.split('/').pop()! };
});
const known = new Set(parsed.flatMap((p) => [...p.proto.messages.keys()].map((m) => `${p.proto.pkg}.${m}`)));

for (const p of parsed) {
  for (const [name, pfields] of p.proto.messages) {
    const full = `${p.proto.pkg}.${name}`;
    if (special[full]) {
      messages[full] = { special: special[full]! };
      continue;
    }
    const gt = p.go.get(name);
    if (!gt) {
      // core/v1's List is `type List metav1.List`, never served as itself.
      console.warn(`skipped ${full}: no Go struct`);
      continue;
    }
    if (gt.kind === 'unreadable') throw new Error(`${full}: ${gt.why}`);
    if (gt.kind === 'alias') {
      // A named slice (authorization's ExtraValue): a message of one repeated field on the wire, a JSON array.
      if (pfields.length !== 1 || pfields[0]!.label !== 'repeated' || !gt.type.startsWith('[]')) throw new Error(`${full}: unexpected alias ${gt.type}`);
      messages[full] = { list: qualify(pfields[0]!.type, p.proto.pkg, known) };
      continue;
    }
    const byNumber = new Map(pfields.map((f) => [f.number, f]));
    const fields: Field[] = [];
    for (const gf of gt.fields) {
      if (gf.number === undefined) {
        if (gf.inline && /(^|\.)TypeMeta$/.test(gf.goType)) continue;
        if (gf.inline && /(^|\.)ListMeta$/.test(gf.goType)) throw new Error(`${full}: inline ListMeta`);
        throw new Error(`${full}.${gf.goName}: no protobuf tag`);
      }
      const pf = byNumber.get(gf.number);
      if (!pf) throw new Error(`${full}.${gf.goName}: field ${gf.number} not in generated.proto`);
      byNumber.delete(gf.number);
      let flags = 0;
      if (pf.label === 'repeated') flags |= F.repeated;
      if (pf.label === 'map') flags |= F.map;
      if (gf.omitempty) flags |= F.omitempty;
      if (gf.omitzero) flags |= F.omitzero;
      if (gf.inline) flags |= F.inline;
      if (gf.noJSON) flags |= F.noJSON;
      if (gf.goType.startsWith('*')) flags |= F.pointer;
      const type = qualify(pf.type, p.proto.pkg, known);
      const field: Field = [gf.number, gf.goName, gf.json, type, flags];
      if (pf.mapKey !== undefined) field.push(qualify(pf.mapKey, p.proto.pkg, known));
      fields.push(field);
    }
    if (byNumber.size > 0) throw new Error(`${full}: proto fields without Go fields: ${[...byNumber.keys()]}`);
    messages[full] = { f: fields };
    if (gt.typeMeta && p.group !== undefined) {
      const apiVersion = p.group === '' ? p.version : `${p.group}/${p.version}`;
      kinds[`${apiVersion}/${name}`] = full;
    }
  }
}

// metav1.AddToGroupVersion registers these meta types in every group-version; the vectors carry them as core v1's.
for (const kind of ['APIGroup', 'APIGroupList', 'APIResourceList', 'APIVersions', 'CreateOptions', 'DeleteOptions', 'GetOptions', 'ListOptions', 'PatchOptions', 'Status', 'UpdateOptions', 'WatchEvent']) {
  kinds[`v1/${kind}`] = `k8s.io.apimachinery.pkg.apis.meta.v1.${kind}`;
}

const root = resolve(import.meta.dirname, '..');
const outDir = join(root, 'vendor/k8s-proto/1.35');
mkdirSync(outDir, { recursive: true });
const commits = Object.fromEntries((Object.keys(repos) as Repo[]).map((r) => [r, `${tags[r]} (${git(r, 'rev-parse', `${tags[r]}^{commit}`).trim()})`]));
const doc = { source: { 'kubernetes/api': commits.api, 'kubernetes/apimachinery': commits.apimachinery, 'kubernetes/kube-aggregator': commits.aggregator }, kinds, messages };
writeFileSync(join(outDir, 'descriptors.json'), JSON.stringify(doc) + '\n');
console.log(`${Object.keys(messages).length} messages, ${Object.keys(kinds).length} kinds -> ${join(outDir, 'descriptors.json')}`);

// The round-trip vectors (k8s.io/api's testdata/HEAD: one fuzzed object per kind, as .pb and .json).
const served = new Set(parsed.filter((p) => p.repo === 'api').map((p) => `${p.group === '' ? 'core' : p.group}.${p.version}.`));
const vecDir = join(root, 'testdata/k8s-proto/HEAD');
rmSync(vecDir, { recursive: true, force: true });
mkdirSync(vecDir, { recursive: true });
let n = 0;
for (const f of ls('api', 'testdata/HEAD')) {
  if (!f.endsWith('.pb') && !f.endsWith('.json')) continue;
  const base = f.replace(/\.(pb|json)$/, '');
  const prefix = base.slice(0, base.lastIndexOf('.') + 1);
  if (!served.has(prefix)) continue;
  const dest = join(vecDir, f);
  mkdirSync(dirname(dest), { recursive: true });
  writeFileSync(dest, showBytes('api', `testdata/HEAD/${f}`));
  if (f.endsWith('.pb')) n++;
}
console.log(`${n} vectors -> ${vecDir}`);
