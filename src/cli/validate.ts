/**
 * `crd-apiserver validate [--crds PATH ...] [--old FILE_OR_DIR] [--output text|json] FILE_OR_DIR...`
 *
 * Validates manifests offline with the server's own stores, as a dry-run create over an in-memory
 * SQLite store (prune with strict unknown-field checks, default, ObjectMeta, schema): each
 * document is judged as kube-apiserver would judge `kubectl create --validate=strict` of it. The
 * built-in kinds (Kubernetes 1.35's, from its OpenAPI documents, as the server serves them) need
 * no flag; custom resources are judged by the CRDs under --crds, Namespaces and CRDs in the
 * inputs as the server judges them too. Text output names the failing document and each field as
 * `file:line:column`; `--output json` prints, per document, the Status kube-apiserver would
 * answer. A file or document that cannot be read is reported on its own and the others are still
 * judged. With --policies, the admission policies, bindings and params found there are held by
 * the store and run on every document's write (see policies.ts): denials are the Status the server
 * answers, warnings and audit annotations are printed with the document, and in JSON output the
 * object after the MutatingAdmissionPolicies too. `--show-defaulted` (with `--output json`) adds,
 * for each valid document, the object the server would store: defaulted, in Go's JSON shape.
 * Exit codes: 0 all valid, 1 some invalid, 2 some input unusable.
 */
import { isStatusError, type Status } from '../apimachinery/index.ts';
import { isObject } from '../registry/index.ts';
import { servedNames, servedVersions, type ServedVersion } from '../registry/index.ts';
import { builtinRegistry } from '../registry/index.ts';
import { GenericStore } from '../registry/index.ts';
import type { Admission, Obj, RESTStore } from '../registry/index.ts';
import type { Store } from '../storage/index.ts';
import { openSqliteStore } from '../storage/index.ts';
import { withAuditAnnotations } from '../admission/index.ts';
import { OfflinePolicies, type StoreOf } from './policies.ts';
import { collectFiles, InputError, loadManifests, readManifests, type InputProblem, type Manifest } from './manifests.ts';

const usage = `usage: crd-apiserver validate [--crds PATH ...] [--policies PATH ...] [--old FILE_OR_DIR] [--output text|json [--show-defaulted]] FILE_OR_DIR...

Validates YAML or JSON manifests (multi-document files, directories recursively) offline, as
kube-apiserver would on create: built-in kinds (Kubernetes 1.35) by their own schemas, custom
resources by the CustomResourceDefinitions found under --crds; with
--old, a document whose object (same kind, namespace and name) is found there is judged as an
update of it, so transition rules (oldSelf) run.
With --policies, the ValidatingAdmissionPolicies, their bindings and their params (ConfigMaps,
custom resources, Namespaces) found there run on every document as on a server holding them:
denials, warnings and audit annotations are printed per document; MutatingAdmissionPolicies
run first, and --output json prints each document's mutated object as "object".
With --output json --show-defaulted, each valid document's "object" is what the server would
store: the kind's defaults applied, as kubectl get -o json of the created object shows it.
A file or document that cannot be read (malformed YAML, an unreadable file) is reported and
the rest still judged.
Exit status: 0 all valid, 1 some invalid, 2 some input unusable (or an invalid CRD under --crds).
`;

interface Args {
  crds: string[];
  policies: string[];
  old: string[];
  output: 'text' | 'json';
  showDefaulted: boolean;
  inputs: string[];
}

function parseArgs(argv: string[]): Args | string {
  const a: Args = { crds: [], policies: [], old: [], output: 'text', showDefaulted: false, inputs: [] };
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
    else if ((v = value('--policies')) !== undefined) a.policies.push(v);
    else if ((v = value('--old')) !== undefined) a.old.push(v);
    else if ((v = value('--output')) !== undefined || (v = value('-o')) !== undefined) {
      if (v !== 'text' && v !== 'json') return `--output must be text or json, not "${v}"`;
      a.output = v;
    } else if (arg === '--show-defaulted') a.showDefaulted = true;
    else if (arg.startsWith('-')) return `unknown flag ${arg}`;
    else a.inputs.push(arg);
  }
  if (a.inputs.length === 0) return 'no manifests given';
  if (a.showDefaulted && a.output !== 'json') return '--show-defaulted needs --output json';
  return a;
}

/** A kind documents can be judged as: its store is built on the first document of the kind. */
interface Target {
  store: () => RESTStore;
  namespaced: boolean;
}

/** The kinds documents are judged as, by `apiVersion` and kind. */
type Catalog = Map<string, Target>;

function catalogKey(apiVersion: string, kind: string): string {
  return `${apiVersion}\u0000${kind}`;
}

/**
 * The registry's stores over an in-memory SQLite store: every built-in kind as the server serves
 * it (Namespaces and CRDs included), and every served version of every CRD under --crds.
 * Documents are created with dryRun, so each is judged alone and nothing is kept.
 *
 * Each CRD is judged as its create would be (the write checks compile its rules and cost them),
 * and is then kept as its JSON text until a document of one of its kinds arrives: a CRD set of
 * hundreds of large schemas is mostly never used by the manifests at hand, and its text is a
 * fraction of the size of its objects.
 *
 * With `admission` (--policies), every write passes it, and the CRDs are stored rather than
 * dry-run: a policy's paramKind may name one of their kinds, found as the server finds it.
 */
async function loadCatalog(store: Store, paths: string[], err: (s: string) => void, admission?: Admission): Promise<Catalog> {
  const registry = builtinRegistry({ store, admission });
  const catalog: Catalog = new Map();
  for (const k of registry.kinds) {
    const apiVersion = k.group === '' ? k.version : `${k.group}/${k.version}`;
    catalog.set(catalogKey(apiVersion, k.kind), { store: () => k.store, namespaced: k.namespaced });
  }
  for (const file of collectFiles(paths)) {
    for (const m of loadManifests(file)) {
      const o = m.object;
      const where = `${m.file} (document ${m.index + 1})`;
      if (!isObject(o) || o.kind !== 'CustomResourceDefinition' || o.apiVersion !== 'apiextensions.k8s.io/v1') {
        const what = isObject(o) ? `${String(o.apiVersion ?? '?')} ${String(o.kind ?? '?')}` : 'not an object';
        err(`note: skipping ${where}: not an apiextensions.k8s.io/v1 CustomResourceDefinition (${what})\n`);
        continue;
      }
      let crd: Obj;
      try {
        // The CRD store defaults and validates exactly as a create of the CRD would. The
        // document is not used again, so it is handed over as it is.
        crd = (await registry.crds.create(undefined, o as Obj, { dryRun: admission === undefined, fieldValidation: 'Strict', inputOwned: true })).object;
      } catch (e) {
        if (isStatusError(e)) throw new InputError(`${where}: ${e.status.message ?? e.message}`);
        throw e;
      }
      addCRD(catalog, store, crd, where, admission);
    }
  }
  return catalog;
}

/** Adds the served versions of a created CRD, their stores built together on first use. */
function addCRD(catalog: Catalog, store: Store, crd: Obj, where: string, admission: Admission | undefined): void {
  const text = JSON.stringify(crd);
  let built: Map<string, RESTStore> | undefined;
  const storeOf = (version: string) => (): RESTStore => {
    if (built === undefined) {
      let versions: ServedVersion[];
      try {
        versions = servedVersions(JSON.parse(text) as Obj);
      } catch (e) {
        throw new InputError(`${where}: cannot compile the schema: ${(e as Error).message}`);
      }
      built = new Map(versions.map((v) => [v.name, new GenericStore({ store, info: v.info, strategy: v.strategy, codec: v.codec, admission })]));
    }
    return built.get(version)!;
  };
  // Read from the created CRD without compiling anything: what servedVersions would name.
  const spec = isObject(crd.spec) ? crd.spec : {};
  const names = servedNames(crd);
  const namespaced = spec.scope === 'Namespaced';
  for (const v of Array.isArray(spec.versions) ? spec.versions : []) {
    if (!isObject(v) || v.served !== true) continue;
    const name = String(v.name ?? '');
    const key = catalogKey(`${String(spec.group ?? '')}/${name}`, String(names.kind ?? ''));
    // A built-in kind keeps its own store, as the server's table keeps built-in groups.
    if (!catalog.has(key)) catalog.set(key, { store: storeOf(name), namespaced });
  }
}

/** The outcome for one document: the Status kube-apiserver would answer, and located field errors. */
interface Outcome {
  status: Status | { status: 'Success' };
  /** Field errors; `at` where the position is not the field's (a duplicate key's second value). */
  errors: { field: string; message: string; at?: { line: number; column: number } }[];
  summary?: string;
  /** What the server would send as `Warning` headers (policies' Warn actions among them). */
  warnings?: string[];
  /** The audit annotations admission recorded for the request (policies' Audit actions, auditAnnotations). */
  auditAnnotations?: Record<string, string>;
  /** The object after the MutatingAdmissionPolicies (when any are loaded and the write reached them). */
  object?: Obj;
  /** The object the dry-run write returned: what the server would store. */
  stored?: Obj;
}

/** Old versions of objects (--old), by identity; `stored` once written to the in-memory store. */
type OldObjects = Map<string, { object: Obj; where: string; stored: boolean }>;

function identity(apiVersion: string, kind: string, ns: string | undefined, name: string): string {
  return [apiVersion, kind, ns ?? '', name].join('\u0000');
}

/** Namespace as a request would have it: kubectl's context namespace ("default") for namespaced kinds, none otherwise. */
function placeNamespace(obj: Obj, namespaced: boolean): string | undefined {
  if (!isObject(obj.metadata)) return undefined;
  if (!namespaced) {
    delete obj.metadata.namespace;
    return undefined;
  }
  const ns = typeof obj.metadata.namespace === 'string' && obj.metadata.namespace ? obj.metadata.namespace : 'default';
  obj.metadata.namespace = ns;
  return ns;
}

function loadOld(paths: string[], catalog: Catalog): OldObjects {
  const old: OldObjects = new Map();
  for (const m of collectFiles(paths).flatMap((f) => loadManifests(f))) {
    const o = m.object;
    if (!isObject(o) || typeof o.kind !== 'string' || typeof o.apiVersion !== 'string') continue;
    const target = catalog.get(catalogKey(o.apiVersion, o.kind));
    if (!target) continue;
    const obj = JSON.parse(JSON.stringify(o)) as Obj;
    const ns = placeNamespace(obj, target.namespaced);
    const name = isObject(obj.metadata) && typeof obj.metadata.name === 'string' ? obj.metadata.name : '';
    if (name) old.set(identity(o.apiVersion, o.kind, ns, name), { object: obj, where: `${m.file} (document ${m.index + 1})`, stored: false });
  }
  return old;
}

/** The catalog as the policies' loader reads it. */
function storeOfCatalog(catalog: Catalog): StoreOf {
  return (apiVersion, kind) => {
    const t = catalog.get(catalogKey(apiVersion, kind));
    return t === undefined ? undefined : { store: t.store(), namespaced: t.namespaced };
  };
}

/** `judge`, with the audit annotations admission records for the document's request. */
async function judgeAudited(m: Manifest, catalog: Catalog, old: OldObjects, policies: OfflinePolicies): Promise<Outcome> {
  if (!policies.active) return judge(m, catalog, old, policies);
  const sink = new Map<string, string>();
  const { result: r, mutated } = await policies.withMutatedObject(() => withAuditAnnotations(sink, () => judge(m, catalog, old, policies)));
  if (sink.size > 0) r.auditAnnotations = Object.fromEntries(sink);
  if (mutated !== undefined) r.object = mutated;
  return r;
}

async function judge(m: Manifest, catalog: Catalog, old: OldObjects, policies: OfflinePolicies): Promise<Outcome> {
  // kubectl skips a document of only comments; kubectl-validate judges it a Success.
  if (m.empty) return { status: { status: 'Success' }, errors: [] };
  const o = m.object;
  if (!isObject(o) || typeof o.kind !== 'string' || o.kind === '') {
    return failure(400, 'BadRequest', `Object 'Kind' is missing in '${JSON.stringify(o)}'`);
  }
  const kind = o.kind;
  const apiVersion = typeof o.apiVersion === 'string' ? o.apiVersion : '';
  const target = catalog.get(catalogKey(apiVersion, kind));
  if (!target) {
    return failure(404, 'NotFound', `no CRD given with --crds serves kind "${kind}" in version "${apiVersion}"`);
  }
  const obj = JSON.parse(JSON.stringify(o)) as Obj;
  const ns = placeNamespace(obj, target.namespaced);
  const name = isObject(obj.metadata) && typeof obj.metadata.name === 'string' ? obj.metadata.name : '';
  const prior = name ? old.get(identity(apiVersion, kind, ns, name)) : undefined;
  // The body's own strict decoding errors, reported with the unknown fields as the server does.
  const decoding = { decodeErrors: [...m.duplicateFields.map((f) => `duplicate field ${JSON.stringify(f)}`), ...m.strictErrors] };
  // Policies read the request's namespace object, which the server has for any namespace it
  // admits a write into.
  if (policies.active && ns !== undefined) await policies.ensureNamespace(storeOfCatalog(catalog), ns);
  try {
    let warnings: string[];
    let stored: Obj;
    if (prior === undefined) {
      ({ warnings, object: stored } = await target.store().create(ns, obj, { dryRun: true, fieldValidation: 'Strict', ...decoding }));
    } else {
      // An update of the old object: transition rules (oldSelf) run, unchanged values ratchet.
      if (!prior.stored) {
        try {
          // Stored as it already was before the request: not itself admitted.
          await policies.bypass(() => target.store().create(ns, JSON.parse(JSON.stringify(prior.object)) as Obj, { fieldValidation: 'Ignore' }));
        } catch (e) {
          if (isStatusError(e)) throw new InputError(`${prior.where}: the old object is not acceptable: ${e.status.message ?? e.message}`);
          throw e;
        }
        prior.stored = true;
      }
      ({ warnings, object: stored } = await target.store().update(
        ns,
        name,
        (current) => {
          const next = JSON.parse(JSON.stringify(obj)) as Obj;
          const meta = (next.metadata ??= {}) as Obj;
          const cur = (current?.metadata ?? {}) as Obj;
          meta.resourceVersion = cur.resourceVersion;
          return next;
        },
        { dryRun: true, fieldValidation: 'Strict', ...decoding },
      ));
    }
    // A stored object is read back through the codec, whose defaulting runs again (a Job's labels
    // come from its template's, generated at create): what `kubectl get` shows. A dry run's
    // answer is not, as upstream's dry-run storage answers the object before storage.
    const store = target.store();
    if (store instanceof GenericStore) store.codec?.decodeStored(stored);
    return { status: { status: 'Success' }, errors: [], stored, ...(warnings.length > 0 ? { warnings } : {}) };
  } catch (e) {
    if (!isStatusError(e)) throw e;
    const st = e.status;
    const causes = st.details?.causes ?? [];
    let errors = causes.map((c) => ({ field: c.field ?? '', message: c.message ?? '' }));
    if (errors.length === 0) {
      errors = [...(st.message ?? '').matchAll(/(unknown|duplicate) field "([^"]*)"/g)].map((x) => ({ field: x[2]!, message: x[0] }));
      if (st.message?.includes('yaml: unmarshal errors:')) {
        errors.unshift(...m.duplicateKeys.map((d) => ({ field: '', message: d.message, at: { line: d.line, column: d.column } })));
      }
    }
    return { status: st, errors, summary: st.message };
  }
}

function failure(code: number, reason: string, message: string): Outcome {
  return {
    status: { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason, code },
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
  const store = await openSqliteStore({ path: ':memory:', compactIntervalMs: 0 });
  const policies = new OfflinePolicies();
  try {
    return await validateWith(store, args, policies, out, err);
  } catch (e) {
    if (e instanceof InputError) {
      err(`crd-apiserver validate: ${e.message}\n`);
      return 2;
    }
    throw e;
  } finally {
    policies.stop();
    await store.close();
  }
}

async function validateWith(store: Store, args: Args, policies: OfflinePolicies, out: (s: string) => void, err: (s: string) => void): Promise<number> {
  const withPolicies = args.policies.length > 0;
  const catalog = await loadCatalog(store, args.crds, err, withPolicies ? policies.admission : undefined);
  if (withPolicies) await policies.load(store, args.policies, storeOfCatalog(catalog));
  const old = loadOld(args.old, catalog);
  const manifests: Manifest[] = [];
  const problems: InputProblem[] = [];
  for (const input of args.inputs) {
    let files: string[];
    try {
      files = collectFiles([input]);
    } catch (e) {
      if (!(e instanceof InputError)) throw e;
      problems.push({ file: input, line: 1, column: 1, message: e.message });
      continue;
    }
    for (const f of files) {
      const r = readManifests(f);
      manifests.push(...r.manifests);
      problems.push(...r.problems);
    }
  }
  for (const p of problems) {
    err(`crd-apiserver validate: ${p.message.startsWith('cannot read ') ? p.message : `${p.file}:${p.line}:${p.column}: ${p.message}`}\n`);
  }
  const progress = process.stderr.isTTY && manifests.length >= 1000;
  let invalidCount = 0;
  const results: { file: string; document?: number; status: unknown }[] = [];
  // In JSON output a document that cannot be read gets what the server answers for a body it
  // cannot decode, in its place among the file's documents.
  const problemsOf = new Map<string, InputProblem[]>();
  for (const p of problems) problemsOf.set(p.file, [...(problemsOf.get(p.file) ?? []), p]);
  const flushProblems = (file: string, before: number) => {
    const ps = problemsOf.get(file);
    while (ps && ps.length > 0 && (ps[0]!.index ?? Infinity) < before) {
      const p = ps.shift()!;
      const status = failure(400, 'BadRequest', p.message).status;
      results.push(p.index === undefined ? { file: p.file, status } : { file: p.file, document: p.index + 1, status });
    }
  };
  let lastFile: string | undefined;
  for (const [i, m] of manifests.entries()) {
    if (args.output === 'json') {
      if (lastFile !== undefined && lastFile !== m.file) flushProblems(lastFile, Infinity);
      flushProblems(m.file, m.index);
      lastFile = m.file;
    }
    if (progress && i % 500 === 0) err(`\rvalidating ${i}/${manifests.length}`);
    const r = await judgeAudited(m, catalog, old, policies);
    if (r.status.status !== 'Success') invalidCount++;
    if (args.output === 'json') {
      results.push({
        file: m.file,
        document: m.index + 1,
        status: r.status,
        ...(r.warnings ? { warnings: r.warnings } : {}),
        ...(r.auditAnnotations ? { auditAnnotations: r.auditAnnotations } : {}),
        ...(args.showDefaulted && r.stored ? { object: r.stored } : r.object ? { object: r.object } : {}),
      });
      continue;
    }
    const o = isObject(m.object) ? m.object : {};
    const meta = isObject(o.metadata) ? o.metadata : {};
    const label = `${String(o.kind ?? '?')}/${String(meta.name ?? meta.generateName ?? '')}`;
    const docPos = m.locate('');
    // As kubectl prints a response's Warning headers, then what the audit log would record.
    for (const w of r.warnings ?? []) out(`${m.file}:${docPos.line}:${docPos.column}: ${label}: Warning: ${w}\n`);
    for (const [k, v] of Object.entries(r.auditAnnotations ?? {})) out(`${m.file}:${docPos.line}:${docPos.column}: ${label}: audit annotation ${k}: ${v}\n`);
    if (r.status.status === 'Success') continue;
    out(`${m.file}:${docPos.line}:${docPos.column}: ${label}: ${r.summary ?? 'invalid'}\n`);
    for (const e of r.errors) {
      // A denial's only cause repeats the summary's own message (admission.NewForbidden).
      if (e.field === '' && e.at === undefined && r.summary?.endsWith(`: ${e.message}`)) continue;
      const pos = e.at ?? m.locate(e.field);
      out(`  ${m.file}:${pos.line}:${pos.column}: ${e.at ? '' : `${e.field === '' ? '<nil>' : e.field}: `}${e.message}\n`);
    }
  }
  if (progress) err(`\rvalidated ${manifests.length}/${manifests.length}\n`);
  if (args.output === 'json') {
    for (const file of problemsOf.keys()) flushProblems(file, Infinity);
    for (const r of results) out(JSON.stringify(r) + '\n');
  } else {
    const valid = manifests.length - invalidCount;
    const unreadable = problems.length > 0 ? `, ${problems.length} unreadable` : '';
    out(`${manifests.length} documents: ${valid} valid, ${invalidCount} invalid${unreadable}\n`);
  }
  if (problems.length > 0) return 2;
  return invalidCount > 0 ? 1 : 0;
}
