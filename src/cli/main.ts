#!/usr/bin/env node
/**
 * The `crd-apiserver` command: dispatches to the subcommands (serve, validate, cel).
 */
const usage = `usage: crd-apiserver <command> [options]

commands:
  serve      run the API server (SQLite under --data-dir)
  validate   validate manifests against CRDs, offline
  cel        evaluate or check CEL expressions
`;

async function main(argv: string[]): Promise<number> {
  const [cmd] = argv;
  switch (cmd) {
    case undefined:
    case '-h':
    case '--help':
    case 'help':
      process.stdout.write(usage);
      return 0;
    default:
      process.stderr.write(`crd-apiserver: unknown command "${cmd}"\n\n${usage}`);
      return 2;
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(`crd-apiserver: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 1;
  },
);
