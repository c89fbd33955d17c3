/**
 * Judging documents for `validate`: the registry's stores over an in-memory SQLite store (the
 * built-in kinds, the CRDs under --crds, the policies under --policies, the old objects under
 * --old), and each document's dry-run write through them, rendered as `validate` prints it. One
 * session per thread: the command's own, or each worker's of a pool (validate-pool.ts), which
 * loads the same catalog and judges whole files.
 */
import { isStatusError, type Status } from '../apimachinery/index.ts';
import { isObject } from '../registry/index.ts';
import { servedNames, servedVersions, type ServedVersion } from '../registry/index.ts';
import { builtinRegistry } from '../registry/index.ts';
import { GenericStore } from '../registry/index.ts';
import type { Admission, Obj, RESTStore } from '../registry/index.ts';
import type { Store } from '../storage/index.ts';
import { openSqliteStore } from '../storage/index.ts';
import { OfflinePolicies, type StoreOf } from './policies.ts';
import { collectFiles, InputError, loadManifests, readManifests, type Manifest } from './manifests.ts';
import { failureStatus, type FileReport, type RenderedDoc } from './validate-output.ts';

/** What judging needs of the command line. */
export interface JudgeOptions {
  crds: string[];
  policies: string[];
  old: string[];
  output: 'text' | 'json';
  showDefaulted: boolean;
}

/**
 * A CRD as loading created it (defaulted, judged valid), as JSON text, and where it was read: what
 * another thread's session needs to serve it without judging it again.
 */
export interface CreatedCRD {
  text: string;
  where: string;
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
 * and is then kept as it was created, nothing compiled, until a document of one of its kinds
 * arrives: a CRD set of hundreds of large schemas is mostly never used by the manifests at hand.
 * (It used to be kept as its JSON text: writing it cost more than the memory it saved, 500 CRDs
 * are 55 MB as JSON and about 66 MB decoded; as objects the command took 2% less CPU time and
 * peak RSS, in alternating runs.)
 *
 * With `admission` (--policies), every write passes it, and the CRDs are stored rather than
 * dry-run: a policy's paramKind may name one of their kinds, found as the server finds it.
 */
async function loadCatalog(store: Store, paths: string[] | Promise<CreatedCRD[]>, err: (s: string) => void, created: { crd: Obj; where: string }[], admission?: Admission): Promise<Catalog> {
  const registry = builtinRegistry({ store, admission });
  const catalog: Catalog = new Map();
  for (const k of registry.kinds) {
    const apiVersion = k.group === '' ? k.version : `${k.group}/${k.version}`;
    catalog.set(catalogKey(apiVersion, k.kind), { store: () => k.store, namespaced: k.namespaced });
  }
  if (!Array.isArray(paths)) {
    // Judged by the thread that read them: only served here.
    for (const c of await paths) addCRD(catalog, store, JSON.parse(c.text) as Obj, c.where, admission);
    return catalog;
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
      created.push({ crd, where });
      addCRD(catalog, store, crd, where, admission);
    }
  }
  return catalog;
}

/** Adds the served versions of a created CRD, their stores built together on first use (handed `crd` itself). */
function addCRD(catalog: Catalog, store: Store, crd: Obj, where: string, admission: Admission | undefined): void {
  let built: Map<string, RESTStore> | undefined;
  const storeOf = (version: string) => (): RESTStore => {
    if (built === undefined) {
      let versions: ServedVersion[];
      try {
        versions = servedVersions(crd);
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
async function judgeAudited(m: Manifest, catalog: Catalog, old: OldObjects, policies: OfflinePolicies, showDefaulted: boolean): Promise<Outcome> {
  if (!policies.active) return judge(m, catalog, old, policies, showDefaulted);
  const sink = new Map<string, string>();
  const { result: r, mutated } = await policies.withMutatedObject(() => policies.withAuditAnnotations(sink, () => judge(m, catalog, old, policies, showDefaulted)));
  if (sink.size > 0) r.auditAnnotations = Object.fromEntries(sink);
  if (mutated !== undefined) r.object = mutated;
  return r;
}

async function judge(m: Manifest, catalog: Catalog, old: OldObjects, policies: OfflinePolicies, showDefaulted: boolean): Promise<Outcome> {
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
  // The document is not used again (its label is taken before): handed over to the store as it is.
  const obj = o as Obj;
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
      ({ warnings, object: stored } = await target.store().create(ns, obj, { dryRun: true, fieldValidation: 'Strict', inputOwned: true, ...decoding }));
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
    // answer is not, as upstream's dry-run storage answers the object before storage. Only
    // --show-defaulted prints it, so only then is it read back.
    if (!showDefaulted) return { status: { status: 'Success' }, errors: [], ...(warnings.length > 0 ? { warnings } : {}) };
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
  return { status: failureStatus(code, reason, message) as unknown as Status, errors: [], summary: message };
}

/** A thread's stores and catalog, loaded once for every document it judges. */
export interface Session {
  /** The CRDs under --crds as loading created them, in order (for sessions given them instead of judging them); before any document is judged. */
  createdCRDs(): CreatedCRD[];
  judge(m: Manifest): Promise<RenderedDoc>;
  /** Reads one file and judges its documents; an InputError while judging stops it (`fatal`). */
  judgeFile(file: string): Promise<FileReport>;
  close(): Promise<void>;
}

/**
 * Loads the catalog (built-in kinds, the CRDs), the policies and the old objects; `err` gets the
 * notes loading prints. Throws InputError for what makes the run unusable (an invalid CRD).
 * `given` (not with --policies, where the CRDs are stored): the CRDs as another session created
 * them, served here without reading or judging --crds again; the built-in kinds load while they
 * are awaited.
 */
export async function openSession(opts: JudgeOptions, err: (s: string) => void, given?: Promise<CreatedCRD[]>): Promise<Session> {
  const store = await openSqliteStore({ path: ':memory:', compactIntervalMs: 0 });
  const policies = new OfflinePolicies();
  const close = async () => {
    policies.stop();
    await store.close();
  };
  let catalog: Catalog;
  let old: OldObjects;
  const created: { crd: Obj; where: string }[] = [];
  try {
    const withPolicies = opts.policies.length > 0;
    catalog = await loadCatalog(store, given ?? opts.crds, err, created, withPolicies ? policies.admission : undefined);
    if (withPolicies) await policies.load(store, opts.policies, storeOfCatalog(catalog));
    old = loadOld(opts.old, catalog);
  } catch (e) {
    await close();
    throw e;
  }
  const judgeOne = async (m: Manifest): Promise<RenderedDoc> => {
    // The label and position first: judging hands the document's object over to the store.
    const label = opts.output === 'text' ? labelOf(m) : '';
    const r = await judgeAudited(m, catalog, old, policies, opts.showDefaulted);
    return render(m, r, label, opts);
  };
  return {
    createdCRDs: () => created.map((c) => ({ text: JSON.stringify(c.crd), where: c.where })),
    judge: judgeOne,
    async judgeFile(file) {
      const { manifests, problems } = readManifests(file);
      const report: FileReport = { problems, docs: [] };
      for (const m of manifests) {
        try {
          report.docs.push(await judgeOne(m));
        } catch (e) {
          if (!(e instanceof InputError)) throw e;
          report.fatal = e.message;
          break;
        }
      }
      return report;
    },
    close,
  };
}

function labelOf(m: Manifest): string {
  const o = isObject(m.object) ? m.object : {};
  const meta = isObject(o.metadata) ? o.metadata : {};
  return `${String(o.kind ?? '?')}/${String(meta.name ?? meta.generateName ?? '')}`;
}

/** A document's outcome as `validate` prints it: its text lines, or its JSON result. */
function render(m: Manifest, r: Outcome, label: string, opts: JudgeOptions): RenderedDoc {
  const invalid = r.status.status !== 'Success';
  if (opts.output === 'json') {
    const record = {
      file: m.file,
      document: m.index + 1,
      status: r.status,
      ...(r.warnings ? { warnings: r.warnings } : {}),
      ...(r.auditAnnotations ? { auditAnnotations: r.auditAnnotations } : {}),
      ...(opts.showDefaulted && r.stored ? { object: r.stored } : r.object ? { object: r.object } : {}),
    };
    return { file: m.file, index: m.index, invalid, text: '', record };
  }
  let text = '';
  const hasLines = invalid || (r.warnings?.length ?? 0) > 0 || Object.keys(r.auditAnnotations ?? {}).length > 0;
  if (hasLines) {
    const docPos = m.locate('');
    const at = `${m.file}:${docPos.line}:${docPos.column}: ${label}`;
    // As kubectl prints a response's Warning headers, then what the audit log would record.
    for (const w of r.warnings ?? []) text += `${at}: Warning: ${w}\n`;
    for (const [k, v] of Object.entries(r.auditAnnotations ?? {})) text += `${at}: audit annotation ${k}: ${v}\n`;
    if (invalid) {
      text += `${at}: ${r.summary ?? 'invalid'}\n`;
      for (const e of r.errors) {
        // A denial's only cause repeats the summary's own message (admission.NewForbidden).
        if (e.field === '' && e.at === undefined && r.summary?.endsWith(`: ${e.message}`)) continue;
        const pos = e.at ?? m.locate(e.field);
        text += `  ${m.file}:${pos.line}:${pos.column}: ${e.at ? '' : `${e.field === '' ? '<nil>' : e.field}: `}${e.message}\n`;
      }
    }
  }
  return { file: m.file, index: m.index, invalid, text };
}
export { readManifests } from './manifests.ts';
