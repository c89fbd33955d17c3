/**
 * The tokens controller (kube-controller-manager's serviceaccount-token controller,
 * pkg/controller/serviceaccount/tokens_controller.go): a `kubernetes.io/service-account-token`
 * Secret gets `data.token` (a legacy token signed for its ServiceAccount), `data.ca.crt` and
 * `data.namespace`, and the ServiceAccount's name and UID annotations; a Secret naming a
 * ServiceAccount that does not exist (or has another UID) is deleted, and so are a ServiceAccount's
 * token Secrets when it is deleted.
 */
import { isConflict, isNotFound, newNotFound } from '../../apimachinery/index.ts';
import type { Obj, RESTStore } from '../rest.ts';
import type { TokenGenerator } from '../core/serviceaccount/token-generator.ts';
import { runController, type Controller } from './loop.ts';

export const serviceAccountTokenSecretType = 'kubernetes.io/service-account-token';
const nameKey = 'kubernetes.io/service-account.name';
const uidKey = 'kubernetes.io/service-account.uid';

export interface TokensControllerOptions {
  generator: TokenGenerator;
  /** The CA bundle written into `ca.crt` (none: left as it is). */
  rootCA?: string;
  onError?: (err: unknown) => void;
}

const rec = (v: unknown): Record<string, unknown> => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {});
const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64');

/** The ServiceAccount a token Secret names: its annotations' name and UID. */
function accountOf(secret: Obj): { name: string; uid: string } | undefined {
  if (secret.type !== serviceAccountTokenSecretType) return undefined;
  const a = rec(rec(secret.metadata).annotations);
  return str(a[nameKey]) === '' ? undefined : { name: str(a[nameKey]), uid: str(a[uidKey]) };
}

/** secretUpdateNeeded: which of ca.crt, namespace and token are missing or stale. */
function updateNeeded(secret: Obj, rootCA: string | undefined): { ca: boolean; namespace: boolean; token: boolean } {
  const data = rec(secret.data);
  return {
    ca: rootCA !== undefined && rootCA !== '' && str(data['ca.crt']) !== b64(rootCA),
    namespace: str(data.namespace) === '',
    token: str(data.token) === '',
  };
}

export function startServiceAccountTokensController(serviceAccounts: RESTStore, secrets: RESTStore, opts: TokensControllerOptions): Controller {
  const cachedSecrets = new Map<string, Obj>();
  const deleteSecret = async (secret: Obj) => {
    const m = rec(secret.metadata);
    try {
      await secrets.delete(str(m.namespace), str(m.name), { preconditions: { uid: str(m.uid) } });
    } catch (e) {
      if (!isNotFound(e) && !isConflict(e)) throw e;
    }
  };
  /** The ServiceAccount, or undefined when it is missing or has another UID than the one named. */
  const liveAccount = async (ns: string, ref: { name: string; uid: string }): Promise<Obj | undefined> => {
    try {
      const sa = await serviceAccounts.get(ns, ref.name);
      return ref.uid !== '' && str(rec(sa.metadata).uid) !== ref.uid ? undefined : sa;
    } catch (e) {
      if (isNotFound(e)) return undefined;
      throw e;
    }
  };
  const syncSecret = runController(
    secrets,
    async (key) => {
      const cached = cachedSecrets.get(`${key.namespace ?? ''}/${key.name}`);
      const ref = cached ? accountOf(cached) : undefined;
      if (!cached || !ref) return;
      const ns = key.namespace ?? '';
      const sa = await liveAccount(ns, ref);
      if (!sa) {
        await deleteSecret(cached);
        return;
      }
      if (!Object.values(updateNeeded(cached, opts.rootCA)).some(Boolean)) return;
      const saMeta = rec(sa.metadata);
      try {
        await secrets.update(
          ns,
          key.name,
          (live) => {
            if (!live) throw newNotFound({ group: '', resource: 'secrets' }, key.name);
            const need = updateNeeded(live, opts.rootCA);
            const data = { ...rec(live.data) };
            if (need.ca) data['ca.crt'] = b64(opts.rootCA!);
            if (need.namespace) data.namespace = b64(ns);
            if (need.token) data.token = b64(opts.generator.generateLegacyToken({ namespace: ns, name: str(saMeta.name), uid: str(saMeta.uid) }, key.name));
            const meta = rec(live.metadata);
            return { ...live, metadata: { ...meta, annotations: { ...rec(meta.annotations), [nameKey]: str(saMeta.name), [uidKey]: str(saMeta.uid) } }, data };
          },
          {},
        );
      } catch (e) {
        // Changed by someone else (its event comes) or gone: nothing to populate now.
        if (!isConflict(e) && !isNotFound(e)) throw e;
      }
    },
    { cache: cachedSecrets, onError: (_k, e) => opts.onError?.(e) },
  );
  // A ServiceAccount's events bring its token Secrets back to the queue; once it is gone, they are deleted there.
  const syncAccount = runController(serviceAccounts, async (key) => {
    for (const [k, s] of cachedSecrets) {
      const ref = accountOf(s);
      if (ref && ref.name === key.name && k.startsWith(`${key.namespace ?? ''}/`)) syncSecret.enqueue({ namespace: key.namespace, name: str(rec(s.metadata).name) } as { namespace: string; name: string });
    }
  });
  return {
    enqueue: (key) => syncSecret.enqueue(key),
    idle: async () => {
      await syncAccount.idle();
      await syncSecret.idle();
    },
    stop() {
      syncAccount.stop();
      syncSecret.stop();
    },
  };
}
