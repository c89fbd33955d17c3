/**
 * Printers of admissionregistration.k8s.io/v1: webhook configurations (WEBHOOKS), validating
 * and mutating admission policies (VALIDATIONS or MUTATIONS, PARAMKIND) and their bindings
 * (POLICYNAME, PARAMREF as `namespace/name`, `*\/name` or the selector).
 */
import { ageColumn, col, nameColumn, printer } from './columns.ts';
import { age, isSet, nameOf, obj, objs, spec, str, type Obj } from './cells.ts';

const webhooksColumn = col('Webhooks', 'integer', 'Webhooks indicates the number of webhooks registered in this configuration');

export const webhookConfigurationPrinter = printer([nameColumn, webhooksColumn, ageColumn], (o, now) => [nameOf(o), objs(o.webhooks).length, age(o, now)]);

const paramKindColumn = col('ParamKind', 'string', 'ParamKind specifies the kind of resources used to parameterize this policy');

function paramKind(s: Obj): string {
  if (!isSet(s.paramKind)) return '<unset>';
  const pk = obj(s.paramKind);
  return `${str(pk.apiVersion)}/${str(pk.kind)}`;
}

export const validatingAdmissionPolicyPrinter = printer(
  [nameColumn, col('Validations', 'integer', 'Validations indicates the number of validation rules defined in this configuration'), paramKindColumn, ageColumn],
  (o, now) => [nameOf(o), objs(spec(o).validations).length, paramKind(spec(o)), age(o, now)],
);

export const mutatingAdmissionPolicyPrinter = printer(
  [nameColumn, col('Mutations', 'integer', 'Mutation indicates the number of mutations rules defined in this configuration'), paramKindColumn, ageColumn],
  (o, now) => [nameOf(o), objs(spec(o).mutations).length, paramKind(spec(o)), age(o, now)],
);

function paramRef(s: Obj): string {
  if (!isSet(s.paramRef)) return '<unset>';
  const pr = obj(s.paramRef);
  if (str(pr.name) !== '') {
    // Whether the param is cluster-scoped cannot be told here: no namespace prints as `*`.
    return str(pr.namespace) !== '' ? `${str(pr.namespace)}/${str(pr.name)}` : `*/${str(pr.name)}`;
  }
  if (isSet(pr.selector)) return labelSelectorGoString(obj(pr.selector));
  return '<unset>';
}

/** The generated LabelSelector.String(): `&LabelSelector{MatchLabels:map[string]string{k: v,},MatchExpressions:[]LabelSelectorRequirement{{k In [a b]},},}`. */
function labelSelectorGoString(sel: Obj): string {
  const ml = obj(sel.matchLabels);
  const labels = Object.keys(ml)
    .sort()
    .map((k) => `${k}: ${str(ml[k])},`)
    .join('');
  const exprs = objs(sel.matchExpressions)
    .map((e) => `{${str(e.key)} ${str(e.operator)} [${(Array.isArray(e.values) ? e.values.map(str) : []).join(' ')}]},`)
    .join('');
  return `&LabelSelector{MatchLabels:map[string]string{${labels}},MatchExpressions:[]LabelSelectorRequirement{${exprs}},}`;
}

export const admissionPolicyBindingPrinter = printer(
  [
    nameColumn,
    col('PolicyName', 'string', 'PolicyName indicates the policy definition which the policy binding binded to'),
    col('ParamRef', 'string', 'ParamRef indicates the param resource which sets the configration param'),
    ageColumn,
  ],
  (o, now) => [nameOf(o), str(spec(o).policyName), paramRef(spec(o)), age(o, now)],
);
