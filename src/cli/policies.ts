/**
 * Admission policies for `validate --policies`: the policy objects, their bindings and their params
 * found under the given paths are written (as a server holding them would have them: defaulted and
 * validated by their own stores) into the in-memory store the documents are judged over, and the
 * admission plugins that evaluate them are started over that store, so that each document's
 * dry-run write passes the same admission as on the server. Each policy family is one entry of
 * `policyFamilies`: its kinds and the plugin that runs them (MutatingAdmissionPolicy first, as the
 * chain runs it, so validating policies judge the mutated object); a family whose plugin a build
 * lacks is refused with a clear error rather than silently skipped. With mutating policies loaded,
 * the object each document's write leaves mutating admission with is kept for the report.
 * The admission layer is imported only once policies are found: without them, `validate` does not
 * load its plugins (webhooks, policies, service accounts).
 */
import type { AnnotationSink, Plugin } from '../admission/index.ts';
import { isStatusError } from '../apimachinery/index.ts';
import { isObject, type Admission, type Obj, type RESTStore } from '../registry/index.ts';
import type { Store } from '../storage/index.ts';
import { collectFiles, InputError, loadManifests } from './manifests.ts';

const GROUP = 'admissionregistration.k8s.io';

/** The admission layer's public face, imported when the first policy is loaded. */
type AdmissionLayer = typeof import('../admission/index.ts');

/** A started admission plugin: synced once its caches have listed the store. */
interface StartedPlugin extends Plugin {
  readonly synced: Promise<void>;
  stop(): void;
}

/** One family of policy kinds and the plugin that evaluates them (undefined: not in this build). */
interface PolicyFamily {
  name: string;
  kinds: readonly string[];
  plugin?: (admission: AdmissionLayer, store: Store) => StartedPlugin;
  /** Its plugin mutates objects (the mutated object is reported). */
  mutating: boolean;
}

/** In chain order: mutating families first, as the admission chain runs them. */
const policyFamilies: readonly PolicyFamily[] = [
  { name: 'MutatingAdmissionPolicy', kinds: ['MutatingAdmissionPolicy', 'MutatingAdmissionPolicyBinding'], plugin: (a, store) => a.mutatingAdmissionPolicy(store), mutating: true },
  { name: 'ValidatingAdmissionPolicy', kinds: ['ValidatingAdmissionPolicy', 'ValidatingAdmissionPolicyBinding'], plugin: (a, store) => a.validatingAdmissionPolicy(store), mutating: false },
];

function familyOf(o: Obj): PolicyFamily | undefined {
  const apiVersion = typeof o.apiVersion === 'string' ? o.apiVersion : '';
  if (!apiVersion.startsWith(`${GROUP}/`)) return undefined;
  return policyFamilies.find((f) => f.kinds.includes(String(o.kind)));
}

/** Where documents are written: the store of a kind, and whether it is namespaced. */
export type StoreOf = (apiVersion: string, kind: string) => { store: RESTStore; namespaced: boolean } | undefined;

/** Writes go first: namespaces, then params (and anything else), then policies, then bindings. */
function rank(o: Obj): number {
  if (o.apiVersion === 'v1' && o.kind === 'Namespace') return 0;
  if (familyOf(o) === undefined) return 1;
  return String(o.kind).endsWith('Binding') ? 3 : 2;
}

/**
 * The admission of offline validation: passes everything until `start`, then runs the plugins of
 * the policy families found; `bypass` writes an object (an --old one) as already stored, without
 * admission, as it was on the server before the request being judged.
 */
export class OfflinePolicies {
  private chain: Admission | undefined;
  private plugins: StartedPlugin[] = [];
  private bypassing = false;
  private mutating = false;
  /** Set while writing what the judged document's request needs first (its namespace). */
  private preparing = false;
  private mutated: Obj | undefined;
  private layer: AdmissionLayer | undefined;
  readonly admission: Admission = {
    admit: async (a) => {
      if (this.chain === undefined || this.bypassing) return;
      await this.chain.admit(a);
      if (this.mutating && !this.preparing && a.object !== undefined) this.mutated = JSON.parse(JSON.stringify(a.object)) as Obj;
    },
    validate: async (a) => {
      if (this.chain !== undefined && !this.bypassing) await this.chain.validate(a);
    },
  };

  /** Whether any policy was loaded (the documents' namespaces are then needed as objects). */
  get active(): boolean {
    return this.chain !== undefined;
  }

  /**
   * Reads every document under `paths` and writes it through its kind's store. Throws InputError
   * for what a server would refuse (an invalid policy, a param of an unknown kind) and for a
   * policy family this build cannot evaluate.
   */
  async load(store: Store, paths: string[], storeOf: StoreOf): Promise<void> {
    const docs: { object: Obj; where: string }[] = [];
    for (const file of collectFiles(paths)) {
      for (const m of loadManifests(file)) {
        const where = `${m.file} (document ${m.index + 1})`;
        if (!isObject(m.object) || typeof m.object.kind !== 'string' || typeof m.object.apiVersion !== 'string') {
          throw new InputError(`${where}: not a Kubernetes object (apiVersion and kind are required)`);
        }
        docs.push({ object: m.object as Obj, where });
      }
    }
    docs.sort((a, b) => rank(a.object) - rank(b.object));
    const families = new Set<PolicyFamily>();
    for (const { object, where } of docs) {
      const family = familyOf(object);
      if (family !== undefined && family.plugin === undefined) {
        throw new InputError(`${where}: ${String(object.kind)} cannot be evaluated offline: this build has no ${family.name} admission plugin`);
      }
      if (family !== undefined) families.add(family);
      const target = storeOf(object.apiVersion as string, object.kind as string);
      if (target === undefined) throw new InputError(`${where}: no CRD given with --crds serves kind "${String(object.kind)}" in version "${String(object.apiVersion)}"`);
      const obj = JSON.parse(JSON.stringify(object)) as Obj;
      const meta = isObject(obj.metadata) ? obj.metadata : undefined;
      let ns: string | undefined;
      if (meta !== undefined && target.namespaced) {
        ns = typeof meta.namespace === 'string' && meta.namespace !== '' ? meta.namespace : 'default';
        meta.namespace = ns;
        await this.ensureNamespace(storeOf, ns);
      }
      try {
        await target.store.create(ns, obj, { fieldValidation: 'Strict' });
      } catch (e) {
        if (isStatusError(e)) throw new InputError(`${where}: ${e.status.message ?? e.message}`);
        throw e;
      }
    }
    this.mutating = [...families].some((f) => f.mutating);
    if (families.size === 0) return;
    const layer = (this.layer = await import('../admission/index.ts'));
    for (const f of policyFamilies) if (families.has(f)) this.plugins.push(f.plugin!(layer, store));
    await Promise.all(this.plugins.map((p) => p.synced));
    this.chain = layer.admissionChain(this.plugins);
  }

  /** Creates namespace `name` (bare, as `kubectl create namespace` would) unless it exists. */
  async ensureNamespace(storeOf: StoreOf, name: string): Promise<void> {
    const namespaces = storeOf('v1', 'Namespace')!.store;
    try {
      await namespaces.get(undefined, name);
      return;
    } catch (e) {
      if (!isStatusError(e) || e.status.code !== 404) throw e;
    }
    this.preparing = true;
    try {
      await namespaces.create(undefined, { apiVersion: 'v1', kind: 'Namespace', metadata: { name } }, {});
    } finally {
      this.preparing = false;
    }
  }

  /**
   * Runs `fn` (one document's judgement) and returns what it returned with the object its write
   * left mutating admission with — undefined without mutating policies, or when the write did not
   * reach admission or was refused there.
   */
  async withMutatedObject<T>(fn: () => Promise<T>): Promise<{ result: T; mutated?: Obj }> {
    this.mutated = undefined;
    const result = await fn();
    const mutated = this.mutated;
    this.mutated = undefined;
    return mutated === undefined ? { result } : { result, mutated };
  }

  /** Runs `fn` (one document's judgement) with `sink` collecting the audit annotations admission records; only while `active`. */
  withAuditAnnotations<T>(sink: AnnotationSink, fn: () => T): T {
    return this.layer!.withAuditAnnotations(sink, fn);
  }

  /** Runs `fn` with admission off. */
  async bypass<T>(fn: () => Promise<T>): Promise<T> {
    this.bypassing = true;
    try {
      return await fn();
    } finally {
      this.bypassing = false;
    }
  }

  stop(): void {
    for (const p of this.plugins) p.stop();
  }
}
