/**
 * The ServiceAccount admission plugin (plugin/pkg/admission/serviceaccount/admission.go), after
 * NamespaceLifecycle: a created Pod runs as `default` unless it names a ServiceAccount, which must
 * exist (the default one is waited for briefly, as its controller may not have made it yet); it
 * gets the ServiceAccount's imagePullSecrets when it has none, and — unless the pod or the
 * ServiceAccount sets automountServiceAccountToken false — the projected `kube-api-access-*`
 * volume (a 3607 s token, the kube-root-ca.crt bundle, the namespace) mounted read-only at
 * /var/run/secrets/kubernetes.io/serviceaccount in every container and init container. Mirror
 * pods are left as they are but may reference neither ServiceAccounts nor Secrets. A
 * ServiceAccount annotated `kubernetes.io/enforce-mountable-secrets: "true"` limits the Secrets
 * its pods may reference to those it lists.
 */
import { randomInt } from 'node:crypto';
import { isNotFound, newForbidden, newNotFound, StatusError } from '../../apimachinery/index.ts';
import { resourcePrefix, type AdmissionAttributes, type Obj } from '../../registry/index.ts';
import type { Store } from '../../storage/index.ts';
import type { Plugin } from '../chain.ts';
import { objectCache } from '../informer.ts';

export const defaultServiceAccountName = 'default';
export const serviceAccountVolumeName = 'kube-api-access';
export const defaultAPITokenMountPath = '/var/run/secrets/kubernetes.io/serviceaccount';
const mirrorPodAnnotation = 'kubernetes.io/config.mirror';
const enforceMountableSecretsAnnotation = 'kubernetes.io/enforce-mountable-secrets';

type Rec = Record<string, unknown>;
const rec = (v: unknown): Rec => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Rec) : {});
const arr = (v: unknown): Rec[] => (Array.isArray(v) ? (v as unknown[]).map(rec) : []);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/** names.SimpleNameGenerator: the base and five random characters of its alphabet. */
const alphanums = 'bcdfghjklmnpqrstvwxz2456789';
export function generateName(base: string): string {
  let s = base;
  for (let i = 0; i < 5; i++) s += alphanums[randomInt(alphanums.length)];
  return s;
}

/** TokenVolumeSource(): the projected source every mounted pod gets. */
export function tokenVolumeSource(): Rec {
  return {
    defaultMode: 0o644,
    sources: [
      { serviceAccountToken: { expirationSeconds: 3607, path: 'token' } },
      { configMap: { name: 'kube-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
      { downwardAPI: { items: [{ path: 'namespace', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } }] } },
    ],
  };
}

export interface ServiceAccountPluginOptions {
  /** The ServiceAccount as the plugin's cache holds it (undefined when the cache does not). */
  cached?: (namespace: string, name: string) => Obj | undefined;
  /** A live read; throws a NotFound StatusError when the ServiceAccount does not exist. */
  get: (namespace: string, name: string) => Promise<Obj>;
  /** Live reads of the default ServiceAccount before giving up (upstream: 10). */
  defaultAttempts?: number;
  /** Wait between them (upstream: 100-200 ms). */
  retryIntervalMs?: number;
  /** The volume name generator (tests). */
  generateName?: (base: string) => string;
}

/** Whether the pod should get the token volume: the pod's preference, then the ServiceAccount's, else true. */
export function shouldAutomount(sa: Obj, pod: Rec): boolean {
  const spec = rec(pod.spec);
  if (typeof spec.automountServiceAccountToken === 'boolean') return spec.automountServiceAccountToken;
  if (typeof sa.automountServiceAccountToken === 'boolean') return sa.automountServiceAccountToken;
  return true;
}

/** mountServiceAccountToken: the volume (reusing a `kube-api-access-*` one) and its mount in containers lacking one at the path. */
export function mountServiceAccountToken(spec: Rec, gen: (base: string) => string): void {
  const volumes = arr(spec.volumes);
  const existing = volumes.find((v) => str(v.name).startsWith(`${serviceAccountVolumeName}-`));
  const volumeName = existing ? str(existing.name) : gen(`${serviceAccountVolumeName}-`);
  let needsVolume = false;
  for (const field of ['initContainers', 'containers'] as const) {
    if (!Array.isArray(spec[field])) continue;
    for (const c of spec[field] as Rec[]) {
      const mounts = arr(c.volumeMounts);
      if (mounts.some((m) => m.mountPath === defaultAPITokenMountPath)) continue;
      c.volumeMounts = [...mounts, { name: volumeName, readOnly: true, mountPath: defaultAPITokenMountPath }];
      needsVolume = true;
    }
  }
  if (!existing && needsVolume) spec.volumes = [...volumes, { name: volumeName, projected: tokenVolumeSource() }];
}

const allContainers = (spec: Rec): Rec[] => [...arr(spec.initContainers), ...arr(spec.containers), ...arr(spec.ephemeralContainers)];

/** VisitPodSecretNames: whether the pod references any Secret (pull secrets, env, volumes). */
export function referencesSecrets(spec: Rec): boolean {
  if (arr(spec.imagePullSecrets).length > 0) return true;
  for (const c of allContainers(spec)) {
    if (arr(c.envFrom).some((e) => e.secretRef !== undefined && e.secretRef !== null)) return true;
    if (arr(c.env).some((e) => rec(e.valueFrom).secretKeyRef !== undefined && rec(e.valueFrom).secretKeyRef !== null)) return true;
  }
  for (const v of arr(spec.volumes)) {
    if (str(rec(v.secret).secretName) !== '') return true;
    if (str(rec(v.azureFile).secretName) !== '') return true;
    for (const k of ['cephfs', 'cinder', 'flexVolume', 'rbd', 'iscsi', 'scaleIO', 'storageos']) if (rec(v[k]).secretRef !== undefined && rec(rec(v[k]).secretRef).name) return true;
    if (rec(v.csi).nodePublishSecretRef !== undefined && str(rec(rec(v.csi).nodePublishSecretRef).name) !== '') return true;
    if (arr(rec(v.projected).sources).some((s) => str(rec(s.secret).name) !== '')) return true;
  }
  return false;
}

/** A container's Secret references the ServiceAccount does not list, as upstream reports the first. */
function containerSecretError(c: Rec, what: string, mountable: Set<string>, sa: string): string | undefined {
  for (const e of arr(c.env)) {
    const ref = rec(e.valueFrom).secretKeyRef;
    if (ref !== undefined && ref !== null && !mountable.has(str(rec(ref).name))) {
      return `${what} ${str(c.name)} with envVar ${str(e.name)} referencing secret.secretName="${str(rec(ref).name)}" is not allowed because service account ${sa} does not reference that secret`;
    }
  }
  for (const e of arr(c.envFrom)) {
    if (e.secretRef !== undefined && e.secretRef !== null && !mountable.has(str(rec(e.secretRef).name))) {
      return `${what} ${str(c.name)} with envFrom referencing secret.secretName="${str(rec(e.secretRef).name)}" is not allowed because service account ${sa} does not reference that secret`;
    }
  }
  return undefined;
}

/** limitSecretReferences: the first Secret the pod may not reference, as upstream words it. */
export function limitSecretReferences(sa: Obj, spec: Rec): string | undefined {
  const name = str(rec(sa.metadata).name);
  const mountable = new Set(arr(sa.secrets).map((s) => str(s.name)));
  for (const v of arr(spec.volumes)) {
    if (v.secret === undefined || v.secret === null) continue;
    const secretName = str(rec(v.secret).secretName);
    if (!mountable.has(secretName)) return `volume with secret.secretName="${secretName}" is not allowed because service account ${name} does not reference that secret`;
  }
  for (const c of arr(spec.initContainers)) {
    const e = containerSecretError(c, 'init container', mountable, name);
    if (e) return e;
  }
  for (const c of arr(spec.containers)) {
    const e = containerSecretError(c, 'container', mountable, name);
    if (e) return e;
  }
  const pull = new Set(arr(sa.imagePullSecrets).map((s) => str(s.name)));
  const refs = arr(spec.imagePullSecrets);
  for (let i = 0; i < refs.length; i++) {
    const n = str(refs[i]!.name);
    if (!pull.has(n)) return `imagePullSecrets[${i}].name="${n}" is not allowed because service account ${name} does not reference that imagePullSecret`;
  }
  return undefined;
}

const enforcesMountableSecrets = (sa: Obj) => ['1', 't', 'T', 'true', 'TRUE', 'True'].includes(str(rec(rec(sa.metadata).annotations)[enforceMountableSecretsAnnotation]));

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The plugin; `opts.get` reads ServiceAccounts live. */
export function serviceAccountAdmission(opts: ServiceAccountPluginOptions): Plugin {
  const gen = opts.generateName ?? generateName;
  /** getServiceAccount: the cache, then live reads (ten for the default ServiceAccount). */
  const getServiceAccount = async (ns: string, name: string): Promise<Obj> => {
    const cached = opts.cached?.(ns, name);
    if (cached) return cached;
    const attempts = name === defaultServiceAccountName ? (opts.defaultAttempts ?? 10) : 1;
    const interval = opts.retryIntervalMs ?? 100 + randomInt(100);
    for (let i = 0; i < attempts; i++) {
      if (i !== 0) await sleep(interval);
      try {
        return await opts.get(ns, name);
      } catch (e) {
        if (!isNotFound(e)) throw e;
      }
    }
    throw newNotFound({ group: '', resource: 'serviceaccount' }, name);
  };
  const forbidden = (a: AdmissionAttributes, msg: string) => newForbidden({ group: a.resource.group, resource: a.resource.resource }, a.name, msg);
  const lookup = async (a: AdmissionAttributes, name: string): Promise<Obj> => {
    try {
      return await getServiceAccount(a.namespace, name);
    } catch (e) {
      throw forbidden(a, `error looking up service account ${a.namespace}/${name}: ${e instanceof StatusError ? e.status.message : e instanceof Error ? e.message : String(e)}`);
    }
  };
  const ignored = (a: AdmissionAttributes) =>
    a.resource.group !== '' || a.resource.resource !== 'pods' || (a.subresource !== '' && a.subresource !== 'ephemeralcontainers') || a.object === undefined;

  const validate = async (a: AdmissionAttributes): Promise<void> => {
    if (ignored(a)) return;
    const pod = a.object!;
    const spec = rec(pod.spec);
    if (a.operation === 'UPDATE' && a.subresource === 'ephemeralcontainers') {
      const sa = str(spec.serviceAccountName) === '' ? undefined : await lookup(a, str(spec.serviceAccountName));
      if (!sa || !enforcesMountableSecrets(sa)) return;
      const mountable = new Set(arr(sa.secrets).map((s) => str(s.name)));
      for (const c of arr(spec.ephemeralContainers)) {
        const e = containerSecretError(c, 'ephemeral container', mountable, str(rec(sa.metadata).name));
        if (e) throw forbidden(a, e);
      }
      return;
    }
    if (a.operation !== 'CREATE') return;
    if (Object.hasOwn(rec(rec(pod.metadata).annotations), mirrorPodAnnotation)) {
      if (str(spec.serviceAccountName) !== '') throw forbidden(a, 'a mirror pod may not reference service accounts');
      if (referencesSecrets(spec)) throw forbidden(a, 'a mirror pod may not reference secrets');
      for (const v of arr(spec.volumes)) {
        if (arr(rec(v.projected).sources).some((s) => s.serviceAccountToken !== undefined && s.serviceAccountToken !== null)) {
          throw forbidden(a, 'a mirror pod may not use ServiceAccountToken volume projections');
        }
      }
      return;
    }
    const name = str(spec.serviceAccountName);
    if (name === '') throw forbidden(a, `no service account specified for pod ${a.namespace}/${str(rec(pod.metadata).name)}`);
    const sa = await lookup(a, name);
    if (enforcesMountableSecrets(sa)) {
      const e = limitSecretReferences(sa, spec);
      if (e) throw forbidden(a, e);
    }
  };

  return {
    name: 'ServiceAccount',
    handles: (op) => op === 'CREATE' || op === 'UPDATE',
    mayMutate: (a) => !ignored(a) && a.operation === 'CREATE',
    async admit(a) {
      if (ignored(a) || a.operation !== 'CREATE') return;
      const pod = a.object!;
      // Mirror pods are the kubelet's: their spec must stay as it is (and what they may reference is checked now).
      if (Object.hasOwn(rec(rec(pod.metadata).annotations), mirrorPodAnnotation)) return validate(a);
      if (pod.spec === null || typeof pod.spec !== 'object') pod.spec = {};
      const spec = pod.spec as Rec;
      // The v1 field's deprecated alias stands in when the name is unset, and mirrors it on output (v1 conversion).
      if (str(spec.serviceAccountName) === '') spec.serviceAccountName = str(spec.serviceAccount) || defaultServiceAccountName;
      spec.serviceAccount = spec.serviceAccountName;
      const sa = await lookup(a, str(spec.serviceAccountName));
      if (shouldAutomount(sa, pod)) mountServiceAccountToken(spec, gen);
      if (arr(spec.imagePullSecrets).length === 0 && arr(sa.imagePullSecrets).length > 0) {
        spec.imagePullSecrets = arr(sa.imagePullSecrets).map((s) => ({ name: str(s.name) }));
      }
      // Upstream's Admit ends with its Validate, so refusals come before the pod's own validation.
      await validate(a);
    },
    validate,
  };
}

/** The served plugin: ServiceAccounts from a watch-fed cache of `store`, read live when the cache lacks one; `stop` ends its watch. */
export function cachedServiceAccountAdmission(store: Store, opts: Omit<ServiceAccountPluginOptions, 'cached' | 'get'> = {}): Plugin & { stop(): void } {
  const prefix = resourcePrefix('', 'serviceaccounts');
  const cache = objectCache(store, prefix);
  const plugin = serviceAccountAdmission({
    ...opts,
    cached: (ns, name) => (cache.isSynced() ? cache.get(`${ns}/${name}`) : undefined),
    async get(ns, name) {
      const kv = await store.get(`${prefix}${ns}/${name}`);
      if (!kv) throw newNotFound({ group: '', resource: 'serviceaccounts' }, name);
      return JSON.parse(kv.value) as Obj;
    },
  });
  return { ...plugin, stop: () => cache.stop() };
}
