/**
 * serviceaccounts/token (pkg/registry/core/serviceaccount/storage/token.go): POST an
 * authentication.k8s.io/v1 TokenRequest and get it back with a signed token in its status. The
 * body's name and namespace must be the ServiceAccount's when given; the request is defaulted
 * (expirationSeconds 3600, the API server's audiences) and validated
 * (pkg/apis/authentication/validation); a bound Pod, Secret or Node must exist with the UID the
 * reference names, a Pod must run as this ServiceAccount, and a Pod's Node is named in the token
 * too. The lifetime is capped by --service-account-max-token-expiration, and a pod token of 3607
 * seconds for the API server's audiences is extended to a year (warning after 3607 seconds).
 */
import { formatRFC3339, invalid, isNotFound, newBadRequest, newConflict, newInternalError, newInvalid, Path, type FieldError } from '../../../apimachinery/index.ts';
import type { ActionRequest, ActionResponse, SubresourceAction } from '../../kind.ts';
import type { Obj, RESTStore } from '../../rest.ts';
import type { TokenBoundRef, TokenGenerator } from './token-generator.ts';

const gk = { group: 'authentication.k8s.io', kind: 'TokenRequest' };
/** pkg/apis/authentication/validation's bounds. */
const minExpirationSeconds = 10 * 60;
const maxExpirationSeconds = 2 ** 32;

const rec = (v: unknown): Record<string, unknown> => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {});
const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const refOf = (o: Obj): TokenBoundRef => ({ name: str(rec(o.metadata).name), uid: str(rec(o.metadata).uid) });

/** ValidateTokenRequest. */
export function validateTokenRequest(spec: { expirationSeconds: number }): FieldError[] {
  const errs: FieldError[] = [];
  const p = Path.of('spec', 'expirationSeconds');
  if (spec.expirationSeconds < minExpirationSeconds) errs.push(invalid(p, spec.expirationSeconds, 'may not specify a duration less than 10 minutes'));
  if (spec.expirationSeconds > maxExpirationSeconds) errs.push(invalid(p, spec.expirationSeconds, 'may not specify a duration larger than 2^32 seconds'));
  return errs;
}

/** schema.FromAPIVersionAndKind, as gvk.String() prints it. */
function groupVersionOf(apiVersion: string): { group: string; version: string } {
  const parts = apiVersion.split('/');
  if (parts.length === 1) return { group: '', version: parts[0]! };
  if (parts.length === 2) return { group: parts[0]!, version: parts[1]! };
  return { group: '', version: '' };
}

export interface TokenRequestStores {
  serviceAccounts: () => RESTStore;
  pods: () => RESTStore;
  secrets: () => RESTStore;
  nodes: () => RESTStore | undefined;
}

export function tokenRequestAction(stores: TokenRequestStores, generator: () => TokenGenerator | undefined): SubresourceAction {
  return {
    verbs: ['create'],
    body: { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest' },
    async serve(req: ActionRequest): Promise<ActionResponse> {
      const gen = generator();
      if (!gen) throw newBadRequest('the token subresource is not served: no ServiceAccount token issuer is configured');
      const namespace = req.namespace ?? '';
      const name = req.name;
      const body = req.body ?? {};
      const meta = rec(body.metadata);
      if (str(meta.name) !== '' && meta.name !== name) {
        throw newInvalid(gk, name, [invalid(Path.of('metadata', 'name'), meta.name, 'must match the service account name if specified')]);
      }
      if (str(meta.namespace) !== '' && meta.namespace !== namespace) {
        throw newInvalid(gk, name, [invalid(Path.of('metadata', 'namespace'), meta.namespace, 'must match the service account namespace if specified')]);
      }
      const sa = await stores.serviceAccounts().get(namespace, name);
      const spec = rec(body.spec);
      const audiences = Array.isArray(spec.audiences) && spec.audiences.length > 0 ? (spec.audiences as unknown[]).map(str) : [...gen.apiAudiences];
      let expirationSeconds = typeof spec.expirationSeconds === 'number' ? spec.expirationSeconds : 3600;
      const nowMs = Date.now();
      const now = Math.floor(nowMs / 1000);
      const errs = validateTokenRequest({ expirationSeconds });
      if (errs.length > 0) throw newInvalid(gk, '', errs);

      let pod: Obj | undefined;
      let secret: Obj | undefined;
      let node: Obj | undefined;
      const boundRef = spec.boundObjectRef === undefined || spec.boundObjectRef === null ? undefined : rec(spec.boundObjectRef);
      if (boundRef) {
        const gv = groupVersionOf(str(boundRef.apiVersion));
        const kind = str(boundRef.kind);
        const refName = str(boundRef.name);
        let uid: string;
        if (gv.group === '' && kind === 'Pod') {
          pod = await stores.pods().get(namespace, refName);
          if (name !== str(rec(pod.spec).serviceAccountName)) {
            throw newBadRequest(`cannot bind token for serviceaccount ${JSON.stringify(name)} to pod running with different serviceaccount name.`);
          }
          uid = refOf(pod).uid;
          const nodeName = str(rec(pod.spec).nodeName);
          const nodes = stores.nodes();
          if (nodeName !== '' && nodes) {
            try {
              node = await nodes.get(undefined, nodeName);
            } catch (e) {
              // A pod's node that is gone is left out of the token.
              if (!isNotFound(e)) throw newInternalError(e instanceof Error ? e : String(e));
            }
          }
        } else if (gv.group === '' && kind === 'Node') {
          const nodes = stores.nodes();
          if (!nodes) throw newBadRequest('cannot bind token to a Node object: nodes are not served');
          node = await nodes.get(undefined, refName);
          uid = refOf(node).uid;
        } else if (gv.group === '' && kind === 'Secret') {
          secret = await stores.secrets().get(namespace, refName);
          uid = refOf(secret).uid;
        } else {
          throw newBadRequest(`cannot bind token to object of type ${gv.group}/${gv.version}, Kind=${kind}`);
        }
        const refUID = str(boundRef.uid);
        if (refUID !== '' && uid !== refUID) {
          throw newConflict(
            { group: gv.group, resource: kind },
            refName,
            `the UID in the bound object reference (${refUID}) does not match the UID in record. The object might have been deleted and then recreated`,
          );
        }
      }
      if (gen.maxExpirationSeconds > 0 && expirationSeconds > gen.maxExpirationSeconds) expirationSeconds = gen.maxExpirationSeconds;
      // Tokens the kubelet asks for pods (3607 s, for this server) live longer but warn after their requested life.
      let exp = expirationSeconds;
      let warnAfterSeconds = 0;
      const kubeAudiences = audiences.every((a) => gen.apiAudiences.includes(a));
      if (gen.extendExpiration && pod && expirationSeconds === 60 * 60 + 7 && kubeAudiences) {
        warnAfterSeconds = exp;
        exp = gen.maxExtendedExpirationSeconds;
      }
      const saRef = refOf(sa);
      const token = gen.generateToken({
        serviceAccount: { namespace, name: saRef.name, uid: saRef.uid },
        ...(pod ? { pod: refOf(pod) } : {}),
        ...(secret ? { secret: refOf(secret) } : {}),
        ...(node ? { node: refOf(node) } : {}),
        audiences,
        expirationSeconds: exp,
        ...(warnAfterSeconds ? { warnAfterSeconds } : {}),
        now,
      });
      const outSpec: Obj = { audiences, expirationSeconds, boundObjectRef: boundRef ?? null };
      if (!boundRef) delete outSpec.boundObjectRef;
      return {
        code: 201,
        object: {
          kind: 'TokenRequest',
          apiVersion: 'authentication.k8s.io/v1',
          metadata: { ...meta, name: saRef.name, namespace, creationTimestamp: formatRFC3339(nowMs) },
          spec: outSpec,
          status: { token, expirationTimestamp: formatRFC3339((now + expirationSeconds) * 1000) },
        },
      };
    },
  };
}
