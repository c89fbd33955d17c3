/**
 * CEL validation rules benchmark (`npm run bench:rules`): a custom resource whose schema carries 20
 * rules of the usual shapes (comparisons, `all` over lists, string functions, transition rules),
 * validated on update as the write path does:
 *
 *   1. rules vs schema: the compiled rule validator against the same object's schema-only
 *      validation (OpenAPI schema, embedded resources, list-type sets and maps), same run;
 *   2. per rule: ns per evaluation of each compiled rule (self bound at its node, data already
 *      converted) against @marcbachmann/cel-js on the same expression and data.
 *
 * Every figure is the median of several timed rounds; the ratios are printed.
 * Usage: npm run bench:rules [-- --ms 300]
 */
import { parse as celJsParse } from '@marcbachmann/cel-js';
import { compileSchema } from '../src/schema/compile.ts';
import { compileRules } from '../src/schema/cel/compile.ts';
import { schemaDeclType } from '../src/schema/cel/types.ts';
import { compileCELValidator } from '../src/schema/cel/validation.ts';
import { ValueConverter } from '../src/schema/cel/values.ts';
import { newStructural, type Structural } from '../src/schema/structural.ts';
import type { JSONSchemaProps } from '../src/schema/types.ts';

const msArg = process.argv.indexOf('--ms');
const BUDGET_MS = msArg > 0 ? Number(process.argv[msArg + 1]) : 300;

/** Median ns per call over timed rounds of a calibrated batch size. */
function nsPerOp(fn: () => unknown): number {
  let ops = 1;
  for (;;) {
    const t = process.hrtime.bigint();
    for (let i = 0; i < ops; i++) fn();
    if (Number(process.hrtime.bigint() - t) > 5e6) break;
    ops *= 2;
  }
  const samples: number[] = [];
  const end = Date.now() + BUDGET_MS;
  while (Date.now() < end || samples.length < 7) {
    const t = process.hrtime.bigint();
    for (let i = 0; i < ops; i++) fn();
    samples.push(Number(process.hrtime.bigint() - t) / ops);
  }
  samples.sort((a, b) => a - b);
  return samples[Math.floor(samples.length / 2)]!;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const fmt = (ns: number) => (ns >= 1e6 ? `${(ns / 1e6).toFixed(2)}ms` : ns >= 1e3 ? `${(ns / 1e3).toFixed(2)}µs` : `${ns.toFixed(0)}ns`);

/** A rule and the schema node it sits on (a path of property names; `[]` for list items). */
interface Rule {
  at: string[];
  rule: string;
}

const RULES: Rule[] = [
  { at: ['spec'], rule: 'self.minReplicas <= self.replicas' },
  { at: ['spec'], rule: 'self.replicas <= self.maxReplicas' },
  { at: ['spec'], rule: "self.mode == 'Automatic' || has(self.schedule)" },
  { at: ['spec'], rule: 'size(self.ports) <= 64' },
  { at: ['spec'], rule: 'self.ports.all(p, p.port > 0 && p.port < 65536)' },
  { at: ['spec'], rule: 'self.ports.all(p, p.protocol in ["TCP", "UDP", "SCTP"])' },
  { at: ['spec'], rule: 'self.env.all(e, e.name.matches("^[A-Z_][A-Z0-9_]*$"))' },
  { at: ['spec'], rule: "self.env.exists(e, e.name == 'LOG_LEVEL')" },
  { at: ['spec'], rule: "self.tags.all(t, t.startsWith('team-') || t.startsWith('env-'))" },
  { at: ['spec'], rule: 'self.labels.all(k, size(k) <= 63)' },
  { at: ['spec'], rule: "!self.image.endsWith(':latest')" },
  { at: ['spec'], rule: "self.image.contains('/')" },
  { at: ['spec'], rule: "self.name.lowerAscii() == self.name" },
  { at: ['spec'], rule: "self.tls.mode == 'Terminate' ? size(self.tls.certificateRefs) > 0 : true" },
  { at: ['spec', 'ports', '[]'], rule: "self.name.size() <= 15 && !self.name.contains('--')" },
  { at: ['spec', 'ports', '[]'], rule: "has(self.targetPort) ? self.targetPort >= 1024 : true" },
  { at: ['spec', 'version'], rule: 'self == oldSelf' },
  { at: ['spec', 'mode'], rule: "oldSelf == 'Manual' || self == oldSelf" },
  { at: ['spec'], rule: 'self.replicas >= oldSelf.replicas || self.mode == oldSelf.mode' },
  { at: ['spec', 'name'], rule: 'self == oldSelf' },
];

const str = (maxLength?: number): JSONSchemaProps => ({ type: 'string', ...(maxLength ? { maxLength } : {}) });

function schemaWithRules(): JSONSchemaProps {
  const port: JSONSchemaProps = {
    type: 'object',
    required: ['name', 'port'],
    properties: { name: str(15), port: { type: 'integer', minimum: 1, maximum: 65535 }, targetPort: { type: 'integer' }, protocol: { type: 'string', enum: ['TCP', 'UDP', 'SCTP'] } },
  };
  const spec: JSONSchemaProps = {
    type: 'object',
    required: ['replicas', 'image'],
    properties: {
      name: str(63),
      image: str(256),
      version: str(32),
      mode: { type: 'string', enum: ['Automatic', 'Manual'] },
      schedule: str(64),
      replicas: { type: 'integer', minimum: 0 },
      minReplicas: { type: 'integer', minimum: 0 },
      maxReplicas: { type: 'integer', minimum: 0 },
      ports: { type: 'array', maxItems: 64, items: port, 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['name'] },
      env: { type: 'array', maxItems: 100, items: { type: 'object', required: ['name'], properties: { name: str(128), value: str(1024) } } },
      tags: { type: 'array', maxItems: 32, items: str(63), 'x-kubernetes-list-type': 'set' },
      labels: { type: 'object', maxProperties: 64, additionalProperties: str(63) },
      tls: { type: 'object', properties: { mode: { type: 'string', enum: ['Terminate', 'Passthrough'] }, certificateRefs: { type: 'array', maxItems: 8, items: str(253) } } },
    },
  };
  const root: JSONSchemaProps = { type: 'object', properties: { apiVersion: str(), kind: str(), metadata: { type: 'object' }, spec } };
  for (const r of RULES) {
    let node: JSONSchemaProps = root;
    for (const p of r.at) node = p === '[]' ? (node.items as JSONSchemaProps) : node.properties![p]!;
    (node['x-kubernetes-validations'] ??= []).push({ rule: r.rule });
  }
  return root;
}

function object(): Record<string, unknown> {
  return {
    apiVersion: 'example.com/v1',
    kind: 'Widget',
    metadata: { name: 'w', namespace: 'default' },
    spec: {
      name: 'frontend',
      image: 'registry.example.com/team/frontend:v1.2.3',
      version: 'v1',
      mode: 'Automatic',
      replicas: 3,
      minReplicas: 1,
      maxReplicas: 10,
      ports: Array.from({ length: 20 }, (_, i) => ({ name: `port-${i}`, port: 8000 + i, targetPort: 9000 + i, protocol: i % 2 ? 'TCP' : 'UDP' })),
      env: Array.from({ length: 20 }, (_, i) => ({ name: i === 7 ? 'LOG_LEVEL' : `VAR_${i}`, value: `value-${i}` })),
      tags: Array.from({ length: 10 }, (_, i) => (i % 2 ? `team-${i}` : `env-${i}`)),
      labels: Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`app.kubernetes.io/part-${i}`, `v${i}`])),
      tls: { mode: 'Terminate', certificateRefs: ['cert-a', 'cert-b'] },
    },
  };
}

/** JSON data with integers as bigint, the int representation cel-js expects. */
function withBigInts(x: unknown): unknown {
  if (typeof x === 'number') return Number.isInteger(x) ? BigInt(x) : x;
  if (Array.isArray(x)) return x.map(withBigInts);
  if (x && typeof x === 'object') return Object.fromEntries(Object.entries(x).map(([k, v]) => [k, withBigInts(v)]));
  return x;
}

const schemaJSON = schemaWithRules();
const compiled = compileSchema(schemaJSON);
const rules = compileCELValidator(compiled.structural, true)!;
const obj = object();
const oldObj = structuredClone(obj);
((oldObj.spec as Record<string, unknown>).replicas as number) = 2;

// sanity: both validations accept the object
const schemaErrs = compiled.validate(obj, oldObj);
const ruleRes = rules.validate(obj, oldObj);
if (schemaErrs.length > 0 || ruleRes.errors.length > 0) throw new Error(`object does not validate: ${JSON.stringify([...schemaErrs, ...ruleRes.errors])}`);
if (rules.rules().length !== RULES.length) throw new Error(`compiled ${rules.rules().length} rules, want ${RULES.length}`);

console.log(`1. whole object (${RULES.length} rules, 20 ports, 20 env vars, 20 labels), update with oldSelf:`);
const rounds = 3;
const schemaNs: number[] = [];
const rulesNs: number[] = [];
for (let i = 0; i < rounds; i++) {
  schemaNs.push(nsPerOp(() => compiled.validate(obj, oldObj)));
  rulesNs.push(nsPerOp(() => rules.validate(obj, oldObj)));
}
const sMed = median(schemaNs);
const rMed = median(rulesNs);
console.log(`   schema-only validation ${fmt(sMed)}, CEL rules ${fmt(rMed)}: rules/schema ratio ${(rMed / sMed).toFixed(2)}`);

console.log(`\n2. per rule, ns per evaluation against @marcbachmann/cel-js (ratio ours/cel-js):`);
console.log(`${'rule'.padEnd(70)} ${'ours'.padStart(10)} ${'cel-js'.padStart(10)}  ratio`);
const ratios: number[] = [];
const root = compiled.structural!;
for (const r of RULES) {
  let node: Structural = root;
  let data: unknown = obj;
  let old: unknown = oldObj;
  for (const p of r.at) {
    if (p === '[]') {
      node = node.items!;
      data = (data as unknown[])[0];
      old = (old as unknown[])[0];
    } else {
      node = node.properties!.get(p)!;
      data = (data as Record<string, unknown>)[p];
      old = (old as Record<string, unknown>)[p];
    }
  }
  const decl = schemaDeclType(node, false)!;
  const only = newStructural({ ...schemaJSONAt(r.at), 'x-kubernetes-validations': [{ rule: r.rule }] })!;
  const [c] = compileRules(only, decl);
  if (!c?.program) throw new Error(`${r.rule}: ${c?.error?.detail}`);
  const conv = new ValueConverter();
  const vars = { self: conv.convert(data, decl), oldSelf: conv.convert(old, decl) };
  const ours = c.program.eval(vars);
  const celJs = celJsParse(r.rule);
  const peerVars = { self: withBigInts(data), oldSelf: withBigInts(old) } as unknown as Record<string, never>;
  const theirs = celJs(peerVars);
  if (ours.value !== theirs) console.warn(`   ${r.rule}: results differ: ${String(ours.value ?? ours.error?.message)} / ${String(theirs)}`);
  const o: number[] = [];
  const t: number[] = [];
  for (let i = 0; i < rounds; i++) {
    o.push(nsPerOp(() => c.program!.eval(vars)));
    t.push(nsPerOp(() => celJs(peerVars)));
  }
  const ratio = median(o) / median(t);
  ratios.push(ratio);
  console.log(`${r.rule.slice(0, 70).padEnd(70)} ${fmt(median(o)).padStart(10)} ${fmt(median(t)).padStart(10)}  ${ratio.toFixed(2)}`);
}
console.log(`\nrules/schema-only ratio: ${(rMed / sMed).toFixed(2)}`);
console.log(`per-rule ratio to cel-js: median ${median(ratios).toFixed(2)}, max ${Math.max(...ratios).toFixed(2)}`);

/** The JSON schema at a rule's node (without the rules placed by schemaWithRules). */
function schemaJSONAt(at: string[]): JSONSchemaProps {
  let node: JSONSchemaProps = schemaJSON;
  for (const p of at) node = p === '[]' ? (node.items as JSONSchemaProps) : node.properties![p]!;
  const { 'x-kubernetes-validations': _, ...rest } = node;
  return rest;
}
