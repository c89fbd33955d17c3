/**
 * Derives `vendor/k8s-go-shape/1.35/shapes.json`, the table the Go-shape pass
 * (src/registry/goshape/) walks built-in objects with: per Go struct of the served group-versions,
 * its fields as encoding/json sees them — JSON name, omitempty/omitzero, pointer, inline, and the
 * field's type reduced to what decides its JSON (a scalar and its zero value, a struct, a slice or
 * map of something, or one of the hand-marshalled types: metav1.Time, Duration, Quantity,
 * IntOrString, RawExtension). For every kind of the vendored OpenAPI catalog, read from the Go
 * packages its types reach in k8s.io/api, apimachinery and kube-aggregator, at the tags the
 * protobuf descriptors come from (scripts/gen-k8s-proto.ts), so both tables describe one release.
 *
 *   tsx scripts/gen-go-zero-values.ts --api DIR --apimachinery DIR --aggregator DIR
 *
 * Each DIR is a git directory (a clone or bare mirror).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const tags = { api: 'v0.35.7', apimachinery: 'v0.35.7', aggregator: 'v0.35.6' };
type Repo = keyof typeof tags;

function arg(name: string): string {
  const i = process.argv.indexOf(`--${name}`);
  if (i < 0 || !process.argv[i + 1]) throw new Error(`usage: --api DIR --apimachinery DIR --aggregator DIR (missing --${name})`);
  return process.argv[i + 1]!;
}
const repos: Record<Repo, string> = { api: arg('api'), apimachinery: arg('apimachinery'), aggregator: arg('aggregator') };
const git = (repo: Repo, ...args: string[]) => execFileSync('git', ['-C', repos[repo], ...args], { encoding: 'utf8', maxBuffer: 256 << 20 });
const show = (repo: Repo, path: string) => git(repo, 'show', `${tags[repo]}:${path}`);
const ls = (repo: Repo, dir: string) => git(repo, 'ls-tree', '--name-only', `${tags[repo]}:${dir}`).split('\n').filter(Boolean);

/** A Go import path's repository and directory, for the repositories read here. */
function locate(path: string): { repo: Repo; dir: string; id: string } | undefined {
  const roots: [string, Repo][] = [
    ['k8s.io/api/', 'api'],
    ['k8s.io/apimachinery/', 'apimachinery'],
    ['k8s.io/kube-aggregator/', 'aggregator'],
  ];
  for (const [prefix, repo] of roots) {
    if (!path.startsWith(prefix)) continue;
    const dir = path.slice(prefix.length);
    // The table's package ids: `core/v1`, `meta/v1`, `apiregistration/v1`.
    return { repo, dir, id: dir.replace(/^pkg\/apis\//, '') };
  }
  return undefined;
}

/**
 * Types whose JSON is hand-written upstream (MarshalJSON), by import path and name, to the name
 * of their kind in the table; TypeMeta is left out (apiVersion and kind are the server's).
 */
const special: Record<string, string> = {
  'k8s.io/apimachinery/pkg/apis/meta/v1.Time': 'time',
  'k8s.io/apimachinery/pkg/apis/meta/v1.MicroTime': 'time',
  'k8s.io/apimachinery/pkg/apis/meta/v1.Duration': 'duration',
  'k8s.io/apimachinery/pkg/apis/meta/v1.FieldsV1': 'raw',
  'k8s.io/apimachinery/pkg/runtime.RawExtension': 'raw',
  'k8s.io/apimachinery/pkg/util/intstr.IntOrString': 'intstr',
  'k8s.io/apimachinery/pkg/api/resource.Quantity': 'quantity',
  'k8s.io/apimachinery/pkg/types.UID': 'string',
  'k8s.io/apimachinery/pkg/types.NodeName': 'string',
};

const goScalars: Record<string, string> = {
  string: 'string',
  bool: 'bool',
  byte: 'int',
  int: 'int',
  int32: 'int',
  int64: 'int',
  uint32: 'int',
  uint64: 'int',
  float32: 'float',
  float64: 'float',
};

interface RawField {
  name: string;
  type: string;
  json: string;
  opts: string[];
  embedded: boolean;
}
interface GoFile {
  imports: Map<string, string>;
}
interface PkgTypes {
  structs: Map<string, { fields: RawField[]; file: GoFile }>;
  named: Map<string, { type: string; file: GoFile }>;
  typeMeta: Set<string>;
}

/** The structs and named types of one package's hand-written Go files. */
function parsePackage(repo: Repo, dir: string): PkgTypes {
  const out: PkgTypes = { structs: new Map(), named: new Map(), typeMeta: new Set() };
  const files = ls(repo, dir).filter((f) => f.endsWith('.go') && !f.endsWith('_test.go') && !f.startsWith('generated') && !f.startsWith('zz_generated') && !f.includes('swagger_doc'));
  for (const f of files) {
    const text = show(repo, `${dir}/${f}`).replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
    const file: GoFile = { imports: new Map() };
    const block = /^import \(([\s\S]*?)^\)/m.exec(text)?.[1] ?? '';
    const single = [...text.matchAll(/^import\s+((?:\w+\s+)?"[^"]+")\s*$/gm)].map((m) => m[1]!);
    for (const line of [...block.split('\n'), ...single]) {
      const m = /^\s*(?:(\w+)\s+)?"([^"]+)"/.exec(line);
      if (m) file.imports.set(m[1] ?? m[2]!.split('/').pop()!, m[2]!);
    }
    for (const m of text.matchAll(/^type (\w+) struct \{\n([\s\S]*?)^\}/gm)) {
      const fields: RawField[] = [];
      for (const line of m[2]!.split('\n')) {
        const s = line.replace(/\s\/\/.*$/, '').trim();
        if (s === '') continue;
        const fm = /^(?:(\w+)\s+)?([^\s`]+)\s*(?:`([^`]*)`)?$/.exec(s);
        if (!fm) throw new Error(`${dir}.${m[1]}: cannot read field ${JSON.stringify(s)}`);
        const tag = /json:"([^"]*)"/.exec(fm[3] ?? '')?.[1];
        const type = fm[2]!;
        const embedded = fm[1] === undefined;
        if (embedded && /(^|\.)TypeMeta$/.test(type)) {
          out.typeMeta.add(m[1]!);
          continue;
        }
        if (tag === '-') continue;
        const [json = '', ...opts] = (tag ?? '').split(',');
        const name = fm[1] ?? type.replace(/^\*/, '').replace(/^\w+\./, '');
        fields.push({ name, type, json: json === '' && !embedded ? name : json, opts, embedded });
      }
      out.structs.set(m[1]!, { fields, file });
    }
    for (const m of text.matchAll(/^type (\w+) (?:= )?([\w.[\]*]+)\s*$/gm)) out.named.set(m[1]!, { type: m[2]!, file });
  }
  return out;
}

const parsedPackages = new Map<string, PkgTypes>();
/** A package's types, read when a served kind's types first reach it. */
function pkgOf(path: string): PkgTypes | undefined {
  let p = parsedPackages.get(path);
  if (p) return p;
  const at = locate(path);
  if (!at) return undefined;
  p = parsePackage(at.repo, at.dir);
  parsedPackages.set(path, p);
  return p;
}

/** Field flags in the table. */
const F = { omitempty: 1, omitzero: 2, pointer: 4, inline: 8 };

/**
 * A field's type as the table writes it: `string`, `bool`, `int`, `float`, `bytes` (a []byte:
 * base64), `time`, `duration`, `quantity`, `intstr`, `raw`, a struct's id (`core/v1.PodSpec`),
 * `[]T`, `map[]T`.
 */
function resolveType(goType: string, pkgPath: string, file: GoFile, seen: Set<string>): string {
  if (goType.startsWith('*')) return resolveType(goType.slice(1), pkgPath, file, seen);
  if (goType === '[]byte') return 'bytes';
  if (goType.startsWith('[]')) return `[]${resolveType(goType.slice(2), pkgPath, file, seen)}`;
  const map = /^map\[([\w.]+)\](.+)$/.exec(goType);
  if (map) return `map[]${resolveType(map[2]!, pkgPath, file, seen)}`;
  if (goScalars[goType]) return goScalars[goType]!;
  const dot = goType.indexOf('.');
  const path = dot < 0 ? pkgPath : file.imports.get(goType.slice(0, dot));
  const name = dot < 0 ? goType : goType.slice(dot + 1);
  if (path === undefined) throw new Error(`${pkgPath}: unknown package of ${goType}`);
  const sp = special[`${path}.${name}`];
  if (sp) return sp;
  const pkg = pkgOf(path);
  if (!pkg) throw new Error(`${pkgPath}: ${goType} is in ${path}, which is not read`);
  if (pkg.structs.has(name)) {
    want(path, name, seen);
    return `${locate(path)!.id}.${name}`;
  }
  const named = pkg.named.get(name);
  if (named) return resolveType(named.type, path, named.file, seen);
  throw new Error(`${pkgPath}: cannot resolve ${goType}`);
}

/** [JSON name, flags, type]: one field of a struct. */
type Field = [string, number, string];
const types: Record<string, Field[]> = {};

/** Adds a struct (and, through its fields, every struct it reaches) to the table. */
function want(path: string, name: string, seen: Set<string>): void {
  const id = `${locate(path)!.id}.${name}`;
  if (seen.has(id)) return;
  seen.add(id);
  const s = pkgOf(path)!.structs.get(name)!;
  const fields: Field[] = [];
  for (const f of s.fields) {
    let flags = 0;
    if (f.opts.includes('omitempty')) flags |= F.omitempty;
    if (f.opts.includes('omitzero')) flags |= F.omitzero;
    if (f.type.startsWith('*')) flags |= F.pointer;
    if (f.embedded && f.json === '') flags |= F.inline;
    if (f.opts.includes('inline')) flags |= F.inline;
    fields.push([flags & F.inline ? '' : f.json, flags, resolveType(f.type, path, s.file, seen)]);
  }
  types[id] = fields;
}

const root = resolve(import.meta.dirname, '..');

/**
 * The served kinds: the catalog of the vendored OpenAPI documents, whose schema names say where
 * each kind's Go type is (`io.k8s.api.core.v1.Pod` is k8s.io/api/core/v1's Pod).
 */
const catalog = JSON.parse(readFileSync(join(root, 'vendor/k8s-openapi/1.35/catalog.json'), 'utf8')) as { group: string; version: string; kind: string; schemaName: string }[];
const schemaPackages: [string, string][] = [
  ['io.k8s.api.', 'k8s.io/api/'],
  ['io.k8s.kube-aggregator.', 'k8s.io/kube-aggregator/'],
];
const kinds: Record<string, string> = {};
const seen = new Set<string>();
for (const r of catalog) {
  const prefix = schemaPackages.find(([p]) => r.schemaName.startsWith(p));
  if (!prefix) throw new Error(`${r.schemaName}: not a k8s.io/api or kube-aggregator type`);
  const dotted = r.schemaName.slice(prefix[0].length);
  const name = dotted.slice(dotted.lastIndexOf('.') + 1);
  let path = prefix[1] + dotted.slice(0, dotted.lastIndexOf('.')).replaceAll('.', '/');
  if (!pkgOf(path)?.structs.has(name)) {
    // MutatingAdmissionPolicy at v1 is Kubernetes 1.36's, served here with v1beta1's schema: its Go types are v1beta1's.
    const beta = path.replace(/\/v1$/, '/v1beta1');
    if (!pkgOf(beta)?.structs.has(name)) throw new Error(`no ${name} in ${path} at ${tags.api}`);
    console.warn(`${r.group}/${r.version} ${r.kind}: not in ${path} at ${tags.api}; ${beta}'s type`);
    path = beta;
  }
  want(path, name, seen);
  kinds[`${r.group === '' ? r.version : `${r.group}/${r.version}`}/${r.kind}`] = `${locate(path)!.id}.${name}`;
}

const outDir = join(root, 'vendor/k8s-go-shape/1.35');
mkdirSync(outDir, { recursive: true });
const source = Object.fromEntries((Object.keys(tags) as Repo[]).map((r) => [r, `${tags[r]} (${git(r, 'rev-parse', `${tags[r]}^{commit}`).trim()})`]));
const sorted = Object.fromEntries(Object.keys(types).sort().map((k) => [k, types[k]!]));
writeFileSync(join(outDir, 'shapes.json'), JSON.stringify({ source, flags: F, kinds, types: sorted }) + '\n');
console.log(`${Object.keys(types).length} structs, ${Object.keys(kinds).length} kinds -> ${join(outDir, 'shapes.json')}`);
