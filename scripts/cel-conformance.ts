/**
 * Runs the CEL conformance suite (google/cel-spec, vendored in testdata/cel-spec/) and prints
 * `N passed, N failed, N skipped` per file and in total, then each skip reason and the failures.
 * The harness itself is src/cel/eval/conformance.ts.
 *
 * Usage: npm run cel:conformance [-- --verbose] [-- FILE_PREFIX...]
 * Exit status 1 when a test outside the known-failures list fails.
 */
import { fileURLToPath } from 'node:url';
import { KNOWN_FAILURES, SPEC_DIR, type TestOutcome, runConformance, summary, testKey } from '../src/cel/index.ts';

function main(argv: string[]): number {
  const verbose = argv.includes('--verbose') || argv.includes('-v');
  const only = argv.filter((a) => !a.startsWith('-'));
  const results = runConformance(SPEC_DIR, only);
  const byFile = new Map<string, TestOutcome[]>();
  for (const r of results) byFile.set(r.file, [...(byFile.get(r.file) ?? []), r]);
  for (const [file, ts] of byFile) console.log(`${file.padEnd(18)} ${summary(ts)}`);
  console.log(`${'TOTAL'.padEnd(18)} ${summary(results)}`);
  const reasons = new Map<string, number>();
  for (const r of results) if (r.status === 'skip') reasons.set(r.reason!, (reasons.get(r.reason!) ?? 0) + 1);
  console.log('\nskipped:');
  for (const [reason, count] of [...reasons].sort((a, b) => b[1] - a[1])) console.log(`  ${String(count).padStart(5)}  ${reason}`);
  const failures = results.filter((r) => r.status === 'fail');
  const unexpected = failures.filter((r) => !KNOWN_FAILURES[testKey(r)]);
  if (failures.length) {
    console.log(`\nfailed (${unexpected.length} not in the known-failures list):`);
    for (const f of verbose ? failures : unexpected.slice(0, 50)) console.log(`  ${testKey(f)}: ${f.reason}`);
  }
  return unexpected.length ? 1 : 0;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  process.exitCode = main(process.argv.slice(2));
}
