#!/usr/bin/env node
/**
 * The `crd-apiserver` command: dispatches to the subcommands (serve, validate, cel). Each
 * subcommand lives in its own module, loaded only when used, so that `cel eval` does not pay for
 * opening SQLite or building the HTTP server.
 */
const usage = `usage: crd-apiserver <command> [options]

commands:
  serve      run the API server: crd-apiserver serve [--listen 127.0.0.1:PORT] [--data-dir DIR]
  validate   validate manifests against CRDs, offline: crd-apiserver validate --crds PATH FILE_OR_DIR...
  cel        evaluate or check CEL expressions: crd-apiserver cel eval 'EXPR' [--vars JSON]
             crd-apiserver cel check 'EXPR' [--decls JSON]; crd-apiserver cel cost --crd FILE
`;

async function main(argv: string[]): Promise<number> {
  const [cmd, ...rest] = argv;
  switch (cmd) {
    case 'serve': {
      const { runServe } = await import('./serve.ts');
      return runServe(rest);
    }
    case 'validate': {
      const { runValidate } = await import('./validate.ts');
      return runValidate(rest);
    }
    case 'cel': {
      if (rest[0] === 'cost') {
        const { runCelCost } = await import('./cel-cost.ts');
        return runCelCost(rest.slice(1));
      }
      const { runCel } = await import('./cel.ts');
      return runCel(rest);
    }
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
