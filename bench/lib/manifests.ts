/**
 * Loading benchmark inputs from the repository's test data: CRDs and their per-version
 * openAPIV3Schema, and example objects of one kind from a tree of (multi-document) YAML files.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { readYAMLDocuments } from '../../src/apimachinery/yaml/index.ts';
import type { JSONSchemaProps } from '../../src/schema/types.ts';

/** A decoded Kubernetes object (one YAML document). */
export type Doc = Record<string, unknown>;

/** Every document of every `.yaml`/`.yml`/`.json` file under path (a file or a directory), in path order. */
export function loadDocs(path: string): Doc[] {
  const out: Doc[] = [];
  for (const file of yamlFiles(path)) {
    let docs: unknown[];
    try {
      docs = readYAMLDocuments(readFileSync(file, 'utf8'));
    } catch (e) {
      throw new Error(`${file}: ${(e as Error).message}`);
    }
    for (const o of docs) {
      if (o !== null && typeof o === 'object' && !Array.isArray(o)) out.push(o as Doc);
    }
  }
  return out;
}

function yamlFiles(path: string): string[] {
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path)
    .sort()
    .flatMap((name) => {
      const p = join(path, name);
      if (statSync(p).isDirectory()) return yamlFiles(p);
      return /\.(ya?ml|json)$/.test(name) ? [p] : [];
    });
}

/** The documents under path of the given apiVersion and kind. */
export function docsOfKind(path: string, apiVersion: string, kind: string): Doc[] {
  return loadDocs(path).filter((d) => d.apiVersion === apiVersion && d.kind === kind);
}

/** The openAPIV3Schema of one version of the CRD named `crdName` (`<plural>.<group>`) in file. Throws if absent. */
export function crdVersionSchema(file: string, crdName: string, version: string): JSONSchemaProps {
  for (const d of loadDocs(file)) {
    if (d.kind !== 'CustomResourceDefinition') continue;
    const meta = d.metadata as { name?: string } | undefined;
    if (meta?.name !== crdName) continue;
    const spec = d.spec as { versions?: { name: string; schema?: { openAPIV3Schema?: JSONSchemaProps } }[] };
    const v = spec.versions?.find((x) => x.name === version);
    const s = v?.schema?.openAPIV3Schema;
    if (s) return s;
  }
  throw new Error(`${file}: no CRD ${crdName} with a schema for version ${version}`);
}
