/**
 * The strategy for core/v1 Namespace (pkg/registry/core/namespace/strategy.go): phase Active and
 * the `kubernetes` finalizer in spec.finalizers on create; spec.finalizers and status only change
 * through the `finalize` and `status` subresources; the `kubernetes.io/metadata.name` label always
 * equals the name; ValidateNamespace's checks (DNS-label names, finalizer names). A namespace is
 * kept while spec.finalizers is non-empty (ShouldDeleteNamespaceDuringUpdate).
 */
import { invalid, type FieldError } from '../../apimachinery/index.ts';
import { Path } from '../../apimachinery/index.ts';
import { newBadRequest } from '../../apimachinery/index.ts';
import { validateNamespaceName } from '../../apimachinery/index.ts';
import { validateFinalizerName } from '../../apimachinery/index.ts';
import { deepCopy, hasDeletionTimestamp, metaOf } from '../meta.ts';
import { validateObjectMetaWith } from '../objectmeta-checks.ts';
import type { Obj, ResourceInfo, Subresource } from '../rest.ts';
import { defaultAttrs, strategyDefaults, type Attrs, type RequestContext, type Strategy } from '../strategy.ts';
import { leaf, leaves, list, objectMetaType, struct } from '../typed-fields.ts';
import { typedCodec, type Codec } from '../codec.ts';

export const namespaceInfo: ResourceInfo = {
  group: '',
  version: 'v1',
  resource: 'namespaces',
  kind: 'Namespace',
  listKind: 'NamespaceList',
  namespaced: false,
  singular: 'namespace',
};

/** api.FinalizerKubernetes: the namespace controller's finalizer in spec.finalizers. */
export const finalizerKubernetes = 'kubernetes';
/** v1.LabelMetadataName */
export const labelMetadataName = 'kubernetes.io/metadata.name';

const standardFinalizers = new Set([finalizerKubernetes, 'orphan', 'foregroundDeletion']);

function record(v: unknown): Record<string, unknown> | undefined {
  return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
}

/** spec.finalizers as strings. */
export function specFinalizers(ns: Obj): string[] {
  const f = record(ns.spec)?.finalizers;
  return Array.isArray(f) ? f.filter((x): x is string => typeof x === 'string') : [];
}

function statusOf(ns: Obj): Record<string, unknown> {
  const s = record(ns.status);
  if (s) return s;
  const fresh: Record<string, unknown> = {};
  ns.status = fresh;
  return fresh;
}

/** core/v1 Namespace's JSON fields (typed decoding drops the others). */
const namespaceType = struct({
  apiVersion: leaf,
  kind: leaf,
  metadata: objectMetaType,
  spec: leaves(['finalizers']),
  status: struct({ phase: leaf, conditions: list(leaves(['type', 'status', 'lastTransitionTime', 'reason', 'message'])) }),
});

/** SetDefaults_Namespace / SetDefaults_NamespaceStatus, applied on every read. */
function setDefaults(ns: Obj): void {
  const m = metaOf(ns);
  if (typeof m.name === 'string' && m.name !== '') {
    const labels = record(m.labels) ?? {};
    labels[labelMetadataName] = m.name;
    m.labels = labels;
  }
  const status = statusOf(ns);
  if (!status.phase) status.phase = 'Active';
}

/** ValidateNamespace */
function validateNamespace(ns: Obj): FieldError[] {
  const errs = validateObjectMetaWith(ns, false, validateNamespaceName);
  const p = Path.of('spec', 'finalizers');
  for (const f of specFinalizers(ns)) {
    errs.push(...validateFinalizerName(f, p));
    if (!f.includes('/') && !standardFinalizers.has(f)) {
      errs.push(invalid(p, f, 'name is neither a standard finalizer name nor is it fully qualified'));
    }
  }
  return errs;
}

class NamespaceStrategy implements Strategy {
  readonly namespaced = false;
  readonly allowCreateOnUpdate = false;
  readonly allowUnconditionalUpdate = true;
  readonly returnDeletedObject = true;
  /** NamespaceToSelectableFields: status.phase besides metadata.name. */
  readonly selectableFields = ['status.phase'];

  constructor(private readonly sub?: 'status' | 'finalize') {}

  prepareForCreate(_ctx: RequestContext, ns: Obj): void {
    ns.status = { phase: 'Active' };
    const spec = record(ns.spec) ?? {};
    const fins = Array.isArray(spec.finalizers) ? [...spec.finalizers] : [];
    if (!fins.includes(finalizerKubernetes)) fins.push(finalizerKubernetes);
    spec.finalizers = fins;
    ns.spec = spec;
  }

  prepareForUpdate(_ctx: RequestContext, ns: Obj, old: Obj): void {
    if (this.sub === 'status') {
      ns.spec = deepCopy(old.spec);
    } else if (this.sub === 'finalize') {
      ns.status = deepCopy(old.status);
    } else {
      const spec = record(ns.spec) ?? {};
      const oldFins = record(old.spec)?.finalizers;
      if (oldFins === undefined) delete spec.finalizers;
      else spec.finalizers = deepCopy(oldFins);
      ns.spec = spec;
      ns.status = deepCopy(old.status);
    }
  }

  validate(_ctx: RequestContext, ns: Obj): FieldError[] {
    return validateNamespace(ns);
  }

  validateUpdate(_ctx: RequestContext, ns: Obj, _old: Obj): FieldError[] {
    if (this.sub === 'status') {
      const phase = statusOf(ns).phase ?? '';
      const p = Path.of('status', 'Phase');
      if (!hasDeletionTimestamp(ns)) {
        if (phase !== 'Active') return [invalid(p, phase, "may only be 'Active' if `deletionTimestamp` is empty")];
      } else if (phase !== 'Terminating') {
        return [invalid(p, phase, "may only be 'Terminating' if `deletionTimestamp` is not empty")];
      }
      return [];
    }
    return validateNamespace(ns);
  }

  warningsOnCreate = strategyDefaults.warningsOnCreate;
  warningsOnUpdate = strategyDefaults.warningsOnUpdate;

  /** The name label always matches the name (also for generated names, known only now). */
  canonicalize(ns: Obj): void {
    const m = metaOf(ns);
    const labels = record(m.labels) ?? {};
    labels[labelMetadataName] = String(m.name ?? '');
    m.labels = labels;
  }

  getAttrs(ns: Obj): Attrs {
    return defaultAttrs(ns, false, (o) => ({ 'status.phase': String(record(o.status)?.phase ?? '') }));
  }

  subresourceStrategy(sub: Subresource): Strategy | undefined {
    if (this.sub !== undefined) return undefined;
    if (sub === 'status') return statusStrategy;
    if (sub === 'finalize') return finalizeStrategy;
    return undefined;
  }

  hasPendingFinalization(ns: Obj): boolean {
    return specFinalizers(ns).length > 0;
  }
}

const statusStrategy = new NamespaceStrategy('status');
const finalizeStrategy = new NamespaceStrategy('finalize');

/** core/v1 Namespace decoded into its Go type, then SetDefaults_Namespace (on requests and reads). */
export const namespaceCodec: Codec = typedCodec(namespaceType, setDefaults);

/** The Namespace strategy (main resource; `status` and `finalize` via subresourceStrategy). */
export const namespaceStrategy: Strategy = new NamespaceStrategy();
