/**
 * The request-limit flags of `serve` (k8s.io/apiserver `pkg/server/options/server_run_options.go`):
 * `--max-requests-inflight` (default 400), `--max-mutating-requests-inflight` (default 200) and
 * `--request-timeout` (default 1m0s), validated with upstream's messages.
 */
import { CelError, parseDuration } from '../../cel/index.ts';
import { parseIntFlag } from '../audit/options.ts';
import { defaultInflightLimits, type InflightLimits } from './inflight.ts';
import { defaultRequestTimeoutMs } from './timeout.ts';

export interface LimitOptions {
  inflight: InflightLimits;
  requestTimeoutMs: number;
}

export const defaultLimitOptions = (): LimitOptions => ({ inflight: { ...defaultInflightLimits }, requestTimeoutMs: defaultRequestTimeoutMs });

/** Sets one limit flag; false when `flag` is not one. */
export function setLimitFlag(o: LimitOptions, flag: string, value: () => string): boolean {
  switch (flag) {
    case '--max-requests-inflight':
      o.inflight.readOnly = parseIntFlag(flag, value());
      return true;
    case '--max-mutating-requests-inflight':
      o.inflight.mutating = parseIntFlag(flag, value());
      return true;
    case '--request-timeout': {
      const v = value();
      const d = parseDuration(v);
      if (d instanceof CelError) throw new Error(`invalid argument ${JSON.stringify(v)} for "${flag}" flag: ${d.message}`);
      o.requestTimeoutMs = Number(d.ns / 1_000_000n);
      return true;
    }
  }
  return false;
}

/** ServerRunOptions.Validate's checks of these flags. */
export function validateLimitOptions(o: LimitOptions): string[] {
  const errs: string[] = [];
  if (o.inflight.readOnly < 0) errs.push('--max-requests-inflight can not be negative value');
  if (o.inflight.mutating < 0) errs.push('--max-mutating-requests-inflight can not be negative value');
  if (o.requestTimeoutMs < 0) errs.push('--request-timeout can not be negative value');
  return errs;
}
