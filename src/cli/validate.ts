/**
 * `crd-apiserver validate --crds PATH [--crds PATH ...] [--old FILE_OR_DIR] [--output text|json] FILE_OR_DIR...`
 *
 * Validates manifests against CRDs offline, with the same stages the server runs on create
 * (prune with strict unknown-field checks, default, ObjectMeta, schema): each document is judged
 * as kube-apiserver would judge `kubectl apply --validate=strict` of it. Text output names the
 * failing document and each field as `file:line:column`; `--output json` prints, per document, the
 * Status kube-apiserver would answer. Exit codes: 0 all valid, 1 some invalid, 2 unusable input.
 */
import { aggregateString, errorBody, type FieldError } from '../apimachinery/field/errors.ts';
import { isStatusError, newInvalid, type Status } from '../apimachinery/status.ts';
import { toInternal, setV1Defaults, isObject, type JsonObject } from '../registry/crd/internal.ts';
import { servedVersions, type ServedVersion } from '../registry/crd/serving.ts';
import { validateCRD } from '../registry/crd/validation.ts';
import type { RequestContext } from '../registry/strategy.ts';
import { collectFiles, InputError, loadManifests, type Manifest } from './manifests.ts';

const usage = `usage: crd-apiserver validate --crds PATH [--crds PATH ...] [--output text|json] FILE_OR_DIR...

Validates YAML or JSON manifests (multi-document files, directories recursively) against the
CustomResourceDefinitions found under --crds, offline, as kube-apiserver would on create.
Exit status: 0 all valid, 1 some invalid, 2 unusable input.
`;

interface Args {
  crds: string[];
  old: string[];
  output: 'text' | 'json';
  inputs: string[];
}

function parseArgs(argv: string[]): Args | string {
  const a: Args = { crds: [], old: [], output: 'text', inputs: [] };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const value = (name: string): string | undefined => {
      if (arg.startsWith(`${name}=`)) return arg.slice(name.length + 1);
      if (arg === name) return argv[++i];
      return undefined;
    };
    if (arg === '-h' || arg === '--help') return 'help';
    let v: string | undefined;
    if ((v = value('--crds')) !== undefined) a.crds.push(v);
    else if ((v = value('--old')) !== undefined) a.old.push(v);
    else if ((v = value('--output')) !== undefined || (v = value('-o')) !== undefined) {
      if (v !== 'text' && v !== 'json') return `--output must be text or json, not "${v}"`;
      a.output = v;
    } else if (arg.startsWith('-')) return `unknown flag ${arg}`;
    else a.inputs.push(arg);
  }
  if (a.crds.length === 0) return 'at least one --crds PATH is required';
  if (a.inputs.length === 0) return 'no manifests given';
  return a;
}

/** Served versions of every CRD, by `group/version` and kind. */
type Catalog = Map<string, ServedVersion>;

function catalogKey(apiVersion: string, kind: string): string {
  return `${apiVersion}\u0000${kind}`;
}

function loadCatalog(paths: string[], err: (s: string) => void): Catalog {
  const catalog: Catalog = new Map();
  for (const file of collectFiles(paths)) {
    for (const m of loadManifests(file)) {
      const o = m.object;
      const where = `${m.file} (document ${m.index + 1})`;
      if (!isObject(o) || o.kind !== 'CustomResourceDefinition' || o.apiVersion !== 'apiextensions.k8s.io/v1') {
        const what = isObject(o) ? `${String(o.apiVersion ?? '?')} ${String(o.kind ?? '?')}` : 'not an object';
        err(`note: skipping ${where}: not an apiextensions.k8s.io/v1 CustomResourceDefinition (${what})\n`);
        continue;
      }
      const crd = setV1Defaults(JSON.parse(JSON.stringify(o)) as JsonObject);
      const errs = validateCRD(toInternal(crd));
      if (errs.length > 0) {
        const name = isObject(crd.metadata) ? String(crd.metadata.name ?? '') : '';
        throw new InputError(`${where}: ${newInvalid({ group: 'apiextensions.k8s.io', kind: 'CustomResourceDefinition' }, name, errs).message}`);
      }
      let versions: ServedVersion[];
      try {
        versions = servedVersions(crd);
      } catch (e) {
        throw new InputError(`${where}: cannot compile the schema: ${(e as Error).message}`);
      }
      for (const v of versions) {
        if (!v.served) continue;
        const apiVersion = `${v.info.group}/${v.info.version}`;
        catalog.set(catalogKey(apiVersion, v.info.kind), v);
      }
    }
  }
  return catalog;
}

/** The outcome for one document: the Status kube-apiserver would answer, and located field errors. */
interface Outcome {
  status: Status | { status: 'Success' };
  errors: { field: string; message: string }[];
  summary?: string;
}

function judge(m: Manifest, catalog: Catalog): Outcome {
  const o = m.object;
  if (!isObject(o)) {
    return badRequest(`Object 'Kind' is missing in '${JSON.stringify(o)}'`);
  }
  const kind = typeof o.kind === 'string' ? o.kind : '';
  const apiVersion = typeof o.apiVersion === 'string' ? o.apiVersion : '';
  if (kind === '') return badRequest(`Object 'Kind' is missing in '${JSON.stringify(o)}'`);
  const served = catalog.get(catalogKey(apiVersion, kind));
  if (!served) {
    return notFound(`no CRD given with --crds serves kind "${kind}" in version "${apiVersion}"`);
  }
  const obj = JSON.parse(JSON.stringify(o)) as JsonObject;
  // As a request would: kubectl puts namespaced objects in its context's namespace ("default"),
  // and the server drops the namespace of cluster-scoped ones (rest.BeforeCreate).
  if (isObject(obj.metadata)) {
    if (served.info.namespaced && !obj.metadata.namespace) obj.metadata.namespace = 'default';
    if (!served.info.namespaced) delete obj.metadata.namespace;
  }
  const ctx: RequestContext = { warnings: [], fieldValidation: 'Strict', dryRun: true };
  const gk = { group: served.info.group, kind: served.info.kind };
  const name = isObject(obj.metadata) && typeof obj.metadata.name === 'string' ? obj.metadata.name : '';
  try {
    served.strategy.prepareForCreate(ctx, obj);
  } catch (e) {
    if (isStatusError(e)) {
      const s = e.status;
      const message = `${kind} in version "${served.info.version}" cannot be handled as a ${kind}: ${s.message ?? ''}`;
      const unknown = [...(s.message ?? '').matchAll(/unknown field "([^"]*)"/g)].map((x) => x[1]!);
      return {
        status: { ...s, message },
        errors: unknown.map((f) => ({ field: f, message: `unknown field "${f}"` })),
        summary: message,
      };
    }
    throw e;
  }
  const errs: FieldError[] = served.strategy.validate(ctx, obj);
  if (errs.length === 0) return { status: { status: 'Success' }, errors: [] };
  const st = newInvalid(gk, name, errs).status;
  return {
    status: st,
    errors: errs.map((e) => ({ field: e.field, message: errorBody(e) })),
    summary: `${kind}.${served.info.group} "${name}" is invalid: ${aggregateString(errs)}`,
  };
}

function badRequest(message: string): Outcome {
  return {
    status: { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason: 'BadRequest', code: 400 },
    errors: [],
    summary: message,
  };
}

function notFound(message: string): Outcome {
  return {
    status: { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason: 'NotFound', code: 404 },
    errors: [],
    summary: message,
  };
}

export async function runValidate(argv: string[]): Promise<number> {
  const out = (s: string) => process.stdout.write(s);
  const err = (s: string) => process.stderr.write(s);
  const args = parseArgs(argv);
  if (args === 'help') {
    out(usage);
    return 0;
  }
  if (typeof args === 'string') {
    err(`crd-apiserver validate: ${args}\n\n${usage}`);
    return 2;
  }
  let catalog: Catalog;
  let manifests: Manifest[];
  try {
    catalog = loadCatalog(args.crds, err);
    manifests = collectFiles(args.inputs).flatMap((f) => loadManifests(f));
  } catch (e) {
    if (e instanceof InputError) {
      err(`crd-apiserver validate: ${e.message}\n`);
      return 2;
    }
    throw e;
  }
  const progress = process.stderr.isTTY && manifests.length >= 1000;
  let invalidCount = 0;
  const results: { file: string; document: number; status: unknown }[] = [];
  manifests.forEach((m, i) => {
    if (progress && i % 500 === 0) err(`\rvalidating ${i}/${manifests.length}`);
    const r = judge(m, catalog);
    if (r.status.status !== 'Success') invalidCount++;
    if (args.output === 'json') {
      results.push({ file: m.file, document: m.index + 1, status: r.status });
      return;
    }
    if (r.status.status === 'Success') return;
    const o = isObject(m.object) ? m.object : {};
    const meta = isObject(o.metadata) ? o.metadata : {};
    const label = `${String(o.kind ?? '?')}/${String(meta.name ?? meta.generateName ?? '')}`;
    const docPos = m.locate('');
    out(`${m.file}:${docPos.line}:${docPos.column}: ${label}: ${r.summary ?? 'invalid'}\n`);
    for (const e of r.errors) {
      const pos = m.locate(e.field);
      out(`  ${m.file}:${pos.line}:${pos.column}: ${e.field === '' ? '<nil>' : e.field}: ${e.message}\n`);
    }
  });
  if (progress) err(`\rvalidated ${manifests.length}/${manifests.length}\n`);
  if (args.output === 'json') {
    for (const r of results) out(JSON.stringify(r) + '\n');
  } else {
    const valid = manifests.length - invalidCount;
    out(`${manifests.length} documents: ${valid} valid, ${invalidCount} invalid\n`);
  }
  return invalidCount > 0 ? 1 : 0;
}
