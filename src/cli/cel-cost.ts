/**
 * `crd-apiserver cel cost --crd FILE [--json]`: the estimated cost of every x-kubernetes-validations
 * rule of a CRD (YAML or JSON; several documents allowed), as kube-apiserver estimates it when the
 * CRD is written: per-call cost, the node's cardinality, the resulting cost and its share of the
 * CRD's budget (100,000,000), and which maxItems / maxProperties / maxLength would bound it. Also
 * prints the errors kube-apiserver would reject the rules with (compile errors, cost limits).
 *
 * Exit status: 0 when every rule would be accepted, 1 when some would not, 2 for usage or input
 * errors.
 */
import { readFileSync } from 'node:fs';
import { errorString } from '../apimachinery/index.ts';
import { readYAMLDocuments } from '../apimachinery/index.ts';
import { Path } from '../apimachinery/index.ts';
import { STATIC_ESTIMATED_COST_LIMIT, STATIC_ESTIMATED_CRD_COST_LIMIT, validateRulesAtCRDWrite, type RuleCost } from '../schema/index.ts';
import type { JSONSchemaProps } from '../schema/index.ts';

const usage = 'usage: crd-apiserver cel cost --crd FILE [--json]\n';

interface CRD {
  kind?: string;
  metadata?: { name?: string };
  spec?: { versions?: { name: string; schema?: { openAPIV3Schema?: JSONSchemaProps } }[]; validation?: { openAPIV3Schema?: JSONSchemaProps } };
}

/** One rule's line in the report. */
export interface RuleReport {
  crd: string;
  version: string;
  path: string;
  rule: string;
  perCallCost: string;
  cardinality: string;
  cost: string;
  /** Percentage of the CRD's total budget. */
  share: number;
  boundBy: string[];
}

/** What would bound a rule's cost: enclosing lists/maps (cardinality) and values the rule reads. */
function boundBy(c: RuleCost): string[] {
  const out: string[] = [];
  if (c.cardinality === undefined) for (const a of c.unboundedAncestors) out.push(`${a.keyword} on ${a.path}`);
  for (const u of c.compiled.unboundedSizes) out.push(`${u.keyword} on ${u.path}`);
  return out;
}

/** Costs and errors for every schema of the CRDs in text. */
export function celCostReport(text: string): { rules: RuleReport[]; errors: string[]; totals: { crd: string; version: string; total: bigint }[] } {
  const rules: RuleReport[] = [];
  const errors: string[] = [];
  const totals: { crd: string; version: string; total: bigint }[] = [];
  for (const doc of readYAMLDocuments(text)) {
    const crd = doc as CRD | null;
    if (!crd || crd.kind !== 'CustomResourceDefinition') continue;
    const name = crd.metadata?.name ?? '';
    const schemas: { version: string; path: Path; schema: JSONSchemaProps }[] = [];
    (crd.spec?.versions ?? []).forEach((v, i) => {
      const s = v.schema?.openAPIV3Schema;
      if (s) schemas.push({ version: v.name, path: Path.of('spec').child('versions').index(i).child('schema', 'openAPIV3Schema'), schema: s });
    });
    const top = crd.spec?.validation?.openAPIV3Schema;
    if (top) schemas.push({ version: '*', path: Path.of('spec', 'validation', 'openAPIV3Schema'), schema: top });
    for (const { version, path, schema } of schemas) {
      const r = validateRulesAtCRDWrite(schema, path);
      totals.push({ crd: name, version, total: r.totalCost });
      for (const e of r.errors) errors.push(`${name} ${version}: ${errorString(e)}`);
      for (const c of r.costs) {
        const isMessage = c.path.endsWith('.messageExpression');
        rules.push({
          crd: name,
          version,
          path: c.path,
          rule: isMessage ? (c.compiled.rule.messageExpression ?? '') : c.compiled.rule.rule,
          perCallCost: String(isMessage ? c.compiled.messageExpressionMaxCost : c.compiled.maxCost),
          cardinality: isMessage ? '1' : String(c.cardinality ?? c.compiled.maxCardinality) + (c.cardinality === undefined ? ' (request-size estimate)' : ''),
          cost: String(c.cost),
          share: Number((c.cost * 1_000_000n) / STATIC_ESTIMATED_CRD_COST_LIMIT) / 10_000,
          boundBy: isMessage ? [] : boundBy(c),
        });
      }
    }
  }
  return { rules, errors, totals };
}

/** Entry point: argv after `cel cost` (a leading `cost` is tolerated). Returns the exit status. */
export function runCelCost(argv: string[]): number {
  const args = argv[0] === 'cost' ? argv.slice(1) : argv;
  let file: string | undefined;
  let json = false;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--crd') file = args[++i];
    else if (a.startsWith('--crd=')) file = a.slice(6);
    else if (a === '--json') json = true;
    else {
      process.stderr.write(`crd-apiserver cel cost: unexpected argument ${JSON.stringify(a)}\n${usage}`);
      return 2;
    }
  }
  if (!file) {
    process.stderr.write(usage);
    return 2;
  }
  let report: ReturnType<typeof celCostReport>;
  try {
    report = celCostReport(readFileSync(file, 'utf8'));
  } catch (e) {
    process.stderr.write(`crd-apiserver cel cost: ${(e as Error).message}\n`);
    return 2;
  }
  if (json) {
    process.stdout.write(
      JSON.stringify({ rules: report.rules, errors: report.errors, totals: report.totals.map((t) => ({ ...t, total: String(t.total) })) }, null, 2) + '\n',
    );
    return report.errors.length > 0 ? 1 : 0;
  }
  const out: string[] = [];
  for (const t of report.totals) {
    const rs = report.rules.filter((r) => r.crd === t.crd && r.version === t.version);
    const share = Number((t.total * 1_000_000n) / STATIC_ESTIMATED_CRD_COST_LIMIT) / 10_000;
    out.push(`${t.crd} (version ${t.version}): ${rs.length} expressions, estimated total cost ${t.total} (${share}% of the CRD budget ${STATIC_ESTIMATED_CRD_COST_LIMIT})`);
    for (const r of [...rs].sort((a, b) => (BigInt(b.cost) > BigInt(a.cost) ? 1 : BigInt(b.cost) < BigInt(a.cost) ? -1 : 0))) {
      const over = BigInt(r.cost) > STATIC_ESTIMATED_COST_LIMIT ? '  OVER THE PER-EXPRESSION LIMIT' : '';
      out.push(`  ${r.cost.padStart(12)}  ${(r.share.toFixed(4) + '%').padStart(10)}  ${r.path}${over}`);
      out.push(`      ${r.rule.replace(/\s*\n\s*/g, ' ')}`);
      out.push(`      per call ${r.perCallCost} x cardinality ${r.cardinality}`);
      if (r.boundBy.length > 0) out.push(`      would be bounded by: ${r.boundBy.join('; ')}`);
    }
  }
  if (report.errors.length > 0) {
    out.push('', 'kube-apiserver would reject:');
    for (const e of report.errors) out.push(`  ${e}`);
  }
  process.stdout.write(out.join('\n') + '\n');
  return report.errors.length > 0 ? 1 : 0;
}
