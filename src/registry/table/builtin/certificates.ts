/**
 * The CertificateSigningRequest printer (certificates.k8s.io/v1): SIGNERNAME, REQUESTOR,
 * REQUESTEDDURATION and CONDITION (`Denied`/`Approved`/`Pending`, then `,Failed`, `,Issued`).
 */
import { ageColumn, col, nameColumn, printer } from './columns.ts';
import { age, int, isSet, nameOf, objs, spec, status, str, type Obj } from './cells.ts';
import { humanDuration } from '../duration.ts';

/** extractCSRStatus. */
function csrCondition(o: Obj): string {
  const types = new Set(objs(status(o).conditions).map((c) => c.type));
  let s = types.has('Denied') ? 'Denied' : types.has('Approved') ? 'Approved' : 'Pending';
  if (types.has('Failed')) s += ',Failed';
  if (str(status(o).certificate).length > 0) s += ',Issued';
  return s;
}

export const certificateSigningRequestPrinter = printer(
  [
    nameColumn,
    ageColumn,
    col('SignerName', 'string', 'certificatesv1beta1.CertificateSigningRequestSpec.signerName'),
    col('Requestor', 'string', 'certificatesv1beta1.CertificateSigningRequestSpec.request'),
    col('RequestedDuration', 'string', 'certificatesv1beta1.CertificateSigningRequestSpec.expirationSeconds'),
    col('Condition', 'string', 'certificatesv1beta1.CertificateSigningRequestStatus.conditions'),
  ],
  (o, now) => {
    const s = spec(o);
    const duration = isSet(s.expirationSeconds) ? humanDuration(int(s.expirationSeconds) * 1000) : '<none>';
    return [nameOf(o), age(o, now), str(s.signerName) || '<none>', str(s.username), duration, csrCondition(o)];
  },
);
