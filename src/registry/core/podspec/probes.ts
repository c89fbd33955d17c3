/**
 * Probes and lifecycle hooks (validateProbe, validateHandler, validateLifecycle): exactly one
 * handler (exec, httpGet, tcpSocket, grpc; sleep for hooks), each handler's rules, non-negative
 * timings, and successThreshold 1 for liveness and startup probes.
 */
import { Path, forbidden, invalid, isValidPortName, notSupported, required, type FieldError } from '../../../apimachinery/index.ts';
import { isNegativeErrorMsg } from './resources.ts';
import { leftToDefault, num, optNum, rec, str, type PodValidationOptions, type Rec } from './values.ts';

/** ValidateNonnegativeField */
export function validateNonnegative(value: number, fldPath: Path): FieldError[] {
  return value < 0 ? [invalid(fldPath, value, isNegativeErrorMsg)] : [];
}

/** ValidatePortNumOrName: an int-or-string port. */
export function validatePortNumOrName(port: unknown, fldPath: Path): FieldError[] {
  if (typeof port === 'number') {
    return port >= 1 && port <= 65535 ? [] : [invalid(fldPath, port, 'must be between 1 and 65535, inclusive')];
  }
  if (typeof port === 'string') {
    if (port === '') return [required(fldPath, '')];
    return isValidPortName(port).map((m) => invalid(fldPath, port, m));
  }
  return [required(fldPath, '')];
}

const httpHeaderNameRegexp = /^[-A-Za-z0-9]+$/;

function validateHTTPGet(h: Rec, fldPath: Path, opts: PodValidationOptions): FieldError[] {
  const errs: FieldError[] = [];
  if (!leftToDefault(h.path, opts) && str(h.path) === '') errs.push(required(fldPath.child('path'), ''));
  errs.push(...validatePortNumOrName(h.port, fldPath.child('port')));
  if (!leftToDefault(h.scheme, opts) && h.scheme !== 'HTTP' && h.scheme !== 'HTTPS') {
    errs.push(notSupported(fldPath.child('scheme'), str(h.scheme), ['HTTP', 'HTTPS']));
  }
  (Array.isArray(h.httpHeaders) ? h.httpHeaders : []).forEach((x, i) => {
    const name = str(rec(x)?.name);
    if (!httpHeaderNameRegexp.test(name)) {
      errs.push(invalid(fldPath.child('httpHeaders').index(i).child('name'), name, "a valid HTTP header must consist of alphanumeric characters or '-' (e.g. 'X-Header-Name', regex used for validation is '[-A-Za-z0-9]+')"));
    }
  });
  return errs;
}

/** validateHandler: the one handler of a probe or hook. */
function validateHandler(h: Rec, kinds: readonly string[], fldPath: Path, opts: PodValidationOptions): FieldError[] {
  const errs: FieldError[] = [];
  let n = 0;
  for (const k of kinds) {
    const v = rec(h[k]);
    if (!v) continue;
    if (n > 0) {
      errs.push(forbidden(fldPath.child(k), 'may not specify more than 1 handler type'));
      continue;
    }
    n++;
    const p = fldPath.child(k);
    switch (k) {
      case 'exec':
        if (!Array.isArray(v.command) || v.command.length === 0) errs.push(required(p.child('command'), ''));
        break;
      case 'httpGet':
        errs.push(...validateHTTPGet(v, p, opts));
        break;
      case 'tcpSocket':
        errs.push(...validatePortNumOrName(v.port, p.child('port')));
        break;
      case 'grpc': {
        const port = num(v.port);
        if (port < 1 || port > 65535) errs.push(invalid(p.child('port'), port, 'must be between 1 and 65535, inclusive'));
        break;
      }
      case 'sleep': {
        const s = num(v.seconds);
        if (s < 0) errs.push(invalid(p, s, 'must be non-negative'));
        break;
      }
    }
  }
  if (n === 0) errs.push(required(fldPath, 'must specify a handler type'));
  return errs;
}

const probeHandlers = ['exec', 'httpGet', 'tcpSocket', 'grpc'];
const hookHandlers = ['exec', 'httpGet', 'tcpSocket', 'sleep'];

/** validateProbe; `mustBeOne` for liveness and startup probes (successThreshold must be 1). */
export function validateProbe(probe: unknown, mustBeOne: boolean, fldPath: Path, opts: PodValidationOptions): FieldError[] {
  const p = rec(probe);
  if (!p) return [];
  const errs = validateHandler(p, probeHandlers, fldPath, opts);
  for (const k of ['initialDelaySeconds', 'timeoutSeconds', 'periodSeconds', 'successThreshold', 'failureThreshold']) {
    errs.push(...validateNonnegative(num(p[k]), fldPath.child(k)));
  }
  const tgps = optNum(p.terminationGracePeriodSeconds);
  if (tgps !== undefined && tgps <= 0) errs.push(invalid(fldPath.child('terminationGracePeriodSeconds'), tgps, 'must be greater than 0'));
  const st = optNum(p.successThreshold);
  if (mustBeOne && (st ?? (opts.defaultsApplied ? 0 : 1)) !== 1) errs.push(invalid(fldPath.child('successThreshold'), st ?? 0, 'must be 1'));
  return errs;
}

/** validateLifecycle: postStart and preStop hooks. */
export function validateLifecycle(lifecycle: unknown, fldPath: Path, opts: PodValidationOptions): FieldError[] {
  const l = rec(lifecycle);
  if (!l) return [];
  const errs: FieldError[] = [];
  for (const k of ['postStart', 'preStop']) {
    const h = rec(l[k]);
    if (h) errs.push(...validateHandler(h, hookHandlers, fldPath.child(k), opts));
  }
  return errs;
}
