/**
 * HTTPRoute documents for the `validate` throughput benchmark: a deterministic mix of the Gateway
 * API examples (renamed copies) and invalid routes, each invalid one either an upstream invalid
 * example or a valid example with one typical mistake (a port out of range, an unknown method or
 * path match type, a malformed hostname, a misspelled field).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stringify } from 'yaml';
import type { Doc } from './manifests.ts';

type Mutation = (spec: Record<string, any>) => boolean;

/** One mistake each; a mutation returns false when the route has nothing it applies to. */
const MUTATIONS: Mutation[] = [
  (spec) => {
    const ref = spec.rules?.find((r: any) => r.backendRefs?.length)?.backendRefs[0];
    if (!ref) return false;
    ref.port = 70000;
    return true;
  },
  (spec) => {
    const rule = spec.rules?.[0];
    if (!rule) return false;
    (rule.matches ??= []).push({ method: 'FETCH' });
    return true;
  },
  (spec) => {
    const rule = spec.rules?.[0];
    if (!rule) return false;
    (rule.matches ??= []).push({ path: { type: 'Glob', value: '/static/*' } });
    return true;
  },
  (spec) => {
    spec.hostnames = ['Shop_Front.example.com'];
    return true;
  },
  (spec) => {
    const ref = spec.parentRefs?.[0];
    if (!ref) return false;
    ref.sectionname = 'https'; // the field is sectionName: pruned, an error under strict field validation
    return true;
  },
];

export interface GeneratedRoutes {
  docs: Doc[];
  /** How many were generated to be invalid (schema or unknown-field errors, or an upstream invalid example). */
  invalid: number;
}

/**
 * generateHTTPRoutes: n documents, about `invalidShare` of them invalid, cycling through `valid`
 * (renamed, namespace `default`) and, for the invalid ones, alternately through `invalidExamples`
 * and mutated valid routes. Deterministic; the inputs are not modified.
 */
export function generateHTTPRoutes(n: number, valid: readonly Doc[], invalidExamples: readonly Doc[], invalidShare = 0.2): GeneratedRoutes {
  if (valid.length === 0) throw new Error('no valid HTTPRoute examples');
  const docs: Doc[] = [];
  let invalid = 0;
  const every = Math.max(1, Math.round(1 / invalidShare));
  for (let i = 0; i < n; i++) {
    const bad = i % every === every - 1;
    const k = Math.floor(i / every);
    let doc: Doc;
    if (bad && invalidExamples.length > 0 && k % 2 === 0) {
      doc = structuredClone(invalidExamples[(k / 2) % invalidExamples.length]!);
    } else {
      doc = structuredClone(valid[i % valid.length]!);
      if (bad) {
        const spec = (doc.spec ??= {}) as Record<string, any>;
        for (let j = 0; j < MUTATIONS.length; j++) if (MUTATIONS[(k + j) % MUTATIONS.length]!(spec)) break;
      }
    }
    const meta = (doc.metadata ?? {}) as Record<string, unknown>;
    doc.metadata = { ...meta, name: `${String(meta.name ?? 'route')}-${i}`, namespace: 'default' };
    if (bad) invalid++;
    docs.push(doc);
  }
  return { docs, invalid };
}

/** Writes docs as multi-document YAML files of `perFile` documents each into dir (created); returns the file count. */
export function writeYAMLFiles(dir: string, docs: readonly Doc[], perFile = 50): number {
  mkdirSync(dir, { recursive: true });
  let files = 0;
  for (let i = 0; i < docs.length; i += perFile) {
    const text = docs
      .slice(i, i + perFile)
      .map((d) => stringify(d))
      .join('---\n');
    writeFileSync(join(dir, `routes-${String(files).padStart(4, '0')}.yaml`), text);
    files++;
  }
  return files;
}
