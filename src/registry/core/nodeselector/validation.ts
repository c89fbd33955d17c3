/**
 * A core NodeSelector's rules (ValidateNodeSelector, ValidateNodeSelectorTerm and the two
 * requirement checks of pkg/apis/core/validation) as a PersistentVolume's node affinity uses
 * them: at least one term; label expressions with a known operator, a label-name key and, unless
 * the stored object already had bad ones, label values; field expressions on metadata.name only.
 * Also the warnings a term gets for deprecated node labels (pkg/api/node GetWarningsForNodeSelectorTerm).
 * Pod specs check their node affinity's terms here too.
 */
import { Path, forbidden, invalid, isValidLabelValue, nameIsDNSSubdomain, required, validateLabelName, type FieldError } from '../../../apimachinery/index.ts';
import { list, ptr, rec, str, strings } from '../../fieldvalues/fields.ts';

type Rec = Record<string, unknown>;

const terms = (selector: Rec): Rec[] => list(selector.nodeSelectorTerms).map(rec);
const expressions = (term: Rec, kind: 'matchExpressions' | 'matchFields'): Rec[] => list(term[kind]).map(rec);

/** ValidateNodeSelectorRequirement: a known operator with the values it takes, a label-name key, label values unless allowed not to be. */
export function validateNodeSelectorRequirement(r: Rec, allowInvalidLabelValue: boolean, fldPath: Path): FieldError[] {
  const errs: FieldError[] = [];
  const values = strings(r.values);
  const op = str(r.operator);
  switch (op) {
    case 'In':
    case 'NotIn':
      if (values.length === 0) errs.push(required(fldPath.child('values'), "must be specified when `operator` is 'In' or 'NotIn'"));
      break;
    case 'Exists':
    case 'DoesNotExist':
      if (values.length > 0) errs.push(forbidden(fldPath.child('values'), "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"));
      break;
    case 'Gt':
    case 'Lt':
      if (values.length !== 1) errs.push(required(fldPath.child('values'), "must be specified single value when `operator` is 'Lt' or 'Gt'"));
      break;
    default:
      errs.push(invalid(fldPath.child('operator'), op, 'not a valid selector operator'));
  }
  errs.push(...validateLabelName(str(r.key), fldPath.child('key')));
  if (!allowInvalidLabelValue) {
    values.forEach((v, i) => errs.push(...isValidLabelValue(v).map((msg) => invalid(fldPath.child('values').index(i), v, msg))));
  }
  return errs;
}

/** ValidateNodeFieldSelectorRequirement: only metadata.name, with In or NotIn and one node name. */
function validateFieldRequirement(r: Rec, fldPath: Path): FieldError[] {
  const errs: FieldError[] = [];
  const values = strings(r.values);
  const op = str(r.operator);
  if (op === 'In' || op === 'NotIn') {
    if (values.length !== 1) errs.push(required(fldPath.child('values'), "must be only one value when `operator` is 'In' or 'NotIn' for node field selector"));
  } else errs.push(invalid(fldPath.child('operator'), op, 'not a valid selector operator'));
  const key = str(r.key);
  if (key !== 'metadata.name') errs.push(invalid(fldPath.child('key'), key, 'not a valid field selector key'));
  else values.forEach((v, i) => errs.push(...nameIsDNSSubdomain(v, false).map((msg) => invalid(fldPath.child('values').index(i), v, msg))));
  return errs;
}

/** ValidateNodeSelectorTerm: its label expressions, then its field expressions. */
export function validateNodeSelectorTerm(term: Rec, allowInvalidLabelValue: boolean, fldPath: Path): FieldError[] {
  const errs: FieldError[] = [];
  expressions(term, 'matchExpressions').forEach((r, j) => errs.push(...validateNodeSelectorRequirement(r, allowInvalidLabelValue, fldPath.child('matchExpressions').index(j))));
  expressions(term, 'matchFields').forEach((r, j) => errs.push(...validateFieldRequirement(r, fldPath.child('matchFields').index(j))));
  return errs;
}

/** ValidateNodeSelector of a required selector (a PersistentVolume's spec.nodeAffinity.required, a pod's required node affinity). */
export function validateNodeSelector(selector: Rec, allowInvalidLabelValue: boolean, fldPath: Path): FieldError[] {
  const termPath = fldPath.child('nodeSelectorTerms');
  const ts = terms(selector);
  if (ts.length === 0) return [required(termPath, 'must have at least one node selector term')];
  return ts.flatMap((t, i) => validateNodeSelectorTerm(t, allowInvalidLabelValue, termPath.index(i)));
}

/** True when a stored selector has label values the rules now refuse (an update may keep them). */
export function hasInvalidLabelValues(selector: unknown): boolean {
  const s = ptr(selector);
  if (s === undefined) return false;
  return terms(s).some((t) => expressions(t, 'matchExpressions').some((r) => strings(r.values).some((v) => isValidLabelValue(v).length > 0)));
}

/** Node labels deprecated upstream, with the release that deprecated them and their replacement (pkg/api/node). */
export const deprecatedNodeLabels: Readonly<Record<string, string>> = {
  'beta.kubernetes.io/arch': 'deprecated since v1.14; use "kubernetes.io/arch" instead',
  'beta.kubernetes.io/os': 'deprecated since v1.14; use "kubernetes.io/os" instead',
  'failure-domain.beta.kubernetes.io/region': 'deprecated since v1.17; use "topology.kubernetes.io/region" instead',
  'failure-domain.beta.kubernetes.io/zone': 'deprecated since v1.17; use "topology.kubernetes.io/zone" instead',
  'beta.kubernetes.io/instance-type': 'deprecated since v1.17; use "node.kubernetes.io/instance-type" instead',
};

/** GetWarningsForNodeSelectorTerm: deprecated node labels used as expression keys. */
export function nodeSelectorTermWarnings(term: Rec, fldPath: Path): string[] {
  const out: string[] = [];
  expressions(term, 'matchExpressions').forEach((e, i) => {
    const key = str(e.key);
    const msg = deprecatedNodeLabels[key];
    if (msg !== undefined) out.push(`${fldPath.child('matchExpressions').index(i).child('key')}: ${key} is ${msg}`);
  });
  return out;
}

/** The selector's terms, for callers that warn per term. */
export const nodeSelectorTerms = (selector: unknown): Rec[] => terms(rec(selector));
