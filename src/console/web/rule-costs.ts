/**
 * A CRD version's x-kubernetes-validations rules with their estimated costs, as kube-apiserver
 * estimates them when the CRD is written (the schema layer's own check): each expression's cost
 * per call, the node's cardinality, the resulting cost and its share of the CRD's budget, what
 * would bound it, and what the server would refuse.
 */
import { errorString, Path } from '../../apimachinery/index.ts';
import { STATIC_ESTIMATED_COST_LIMIT, STATIC_ESTIMATED_CRD_COST_LIMIT, validateRulesAtCRDWrite, type JSONSchemaProps, type RuleCost } from '../../schema/index.ts';

export interface RuleCostRow {
  /** The schema path of the expression (`...properties[spec].x-kubernetes-validations[0].rule`). */
  path: string;
  expression: string;
  perCall: string;
  cardinality: string;
  cost: string;
  /** Percentage of the CRD's budget. */
  share: number;
  overLimit: boolean;
  boundBy: string[];
}

const boundBy = (c: RuleCost): string[] => [
  ...(c.cardinality === undefined ? c.unboundedAncestors.map((a) => `${a.keyword} on ${a.path}`) : []),
  ...c.compiled.unboundedSizes.map((u) => `${u.keyword} on ${u.path}`),
];

/** The rules of one schema, most expensive first, with the total and the refusals. */
export function ruleCosts(schema: JSONSchemaProps): { rows: RuleCostRow[]; total: string; share: number; errors: string[] } {
  const r = validateRulesAtCRDWrite(schema, Path.of('openAPIV3Schema'));
  const share = (n: bigint) => Number((n * 1_000_000n) / STATIC_ESTIMATED_CRD_COST_LIMIT) / 10_000;
  const rows = r.costs.map((c): RuleCostRow => {
    const message = c.path.endsWith('.messageExpression');
    return {
      path: c.path,
      expression: message ? (c.compiled.rule.messageExpression ?? '') : c.compiled.rule.rule,
      perCall: String(message ? c.compiled.messageExpressionMaxCost : c.compiled.maxCost),
      cardinality: message ? '1' : String(c.cardinality ?? c.compiled.maxCardinality) + (c.cardinality === undefined ? ' (request-size estimate)' : ''),
      cost: String(c.cost),
      share: share(c.cost),
      overLimit: c.cost > STATIC_ESTIMATED_COST_LIMIT,
      boundBy: message ? [] : boundBy(c),
    };
  });
  rows.sort((a, b) => (BigInt(b.cost) > BigInt(a.cost) ? 1 : BigInt(b.cost) < BigInt(a.cost) ? -1 : 0));
  return { rows, total: String(r.totalCost), share: share(r.totalCost), errors: r.errors.map(errorString) };
}

/** The playground's node path (`spec.rules[*]`) of a rule's schema path, for "open in the playground". */
export function nodeOfRulePath(path: string): string {
  const at = path.indexOf('.x-kubernetes-validations[');
  const node = (at < 0 ? path : path.slice(0, at)).replace(/^openAPIV3Schema/, '');
  return node
    .replace(/\.properties\[([^\]]+)\]/g, '.$1')
    .replace(/\.items/g, '[*]')
    .replace(/\.additionalProperties/g, '.*')
    .replace(/^\./, '');
}
