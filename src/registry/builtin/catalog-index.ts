/**
 * The catalog's index, `vendor/k8s-openapi/1.35/catalog.json`: every built-in resource of the
 * default group-versions as catalog.ts derives it from their OpenAPI documents, written once
 * when the documents are vendored, so that a starting server reads a few kilobytes instead of
 * parsing 7.5 MB of documents (each document is parsed when a request first needs it). A test
 * (catalog.test.ts) derives it again and fails when the file is stale.
 *
 * Regenerate: `node --import tsx src/registry/builtin/catalog-index.ts`
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { deriveBuiltinResources, catalogIndexURL } from './catalog.ts';

/** The index's text: one resource per line, so that a change reads well in a diff. */
export function catalogIndexText(): string {
  return `[\n${deriveBuiltinResources()
    .map((r) => JSON.stringify(r))
    .join(',\n')}\n]\n`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  writeFileSync(catalogIndexURL(), catalogIndexText());
  console.log(`wrote ${fileURLToPath(catalogIndexURL())}`);
}
