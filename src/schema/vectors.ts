/**
 * Test support for Kubernetes' tables in testdata/k8s: loads a vector file with Go's number
 * semantics (gojson.ts) and keeps the passed/failed/skipped tally each suite prints.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseGoJSON, type GoJSONOptions } from './gojson.ts';

export interface VectorFile<C> {
  description: string;
  conventions: Record<string, unknown>;
  cases: C[];
}

const root = fileURLToPath(new URL('../../testdata/k8s/', import.meta.url));

/** Read testdata/k8s/<name>. */
export function loadVectors<C>(name: string, opts?: GoJSONOptions): VectorFile<C> {
  return parseGoJSON(readFileSync(root + name, 'utf8'), opts) as VectorFile<C>;
}

export { Tally } from '../apimachinery/index.ts';
