/**
 * The request deadline (k8s.io/apiserver `endpoints/filters/request_deadline.go` and
 * `server/filters/timeout.go`): a request that is not long-running gets `--request-timeout`
 * (default 60s), or less when its `timeout` query parameter asks for less; a handler still running
 * then is answered with upstream's 504 (`Timeout: request did not complete within the allotted
 * timeout`), and what it writes afterwards is dropped. A response already under way cannot be
 * turned into a 504: its connection is closed, as upstream aborts the handler. Watches end by their
 * own `timeoutSeconds` instead.
 */
import type { ServerResponse } from 'node:http';
import { CelError, parseDuration } from '../../cel/index.ts';
import { newBadRequest } from '../../apimachinery/index.ts';

export const defaultRequestTimeoutMs = 60_000;

const invalidTimeoutInURL = 'invalid timeout specified in the request URL';

/** parseTimeout: the `timeout` parameter in milliseconds (undefined when absent); 400 when it does not parse. */
export function timeoutParameter(value: string | undefined): number | undefined {
  if (value === undefined || value === '') return undefined;
  const d = parseDuration(value);
  if (d instanceof CelError) throw newBadRequest(`${invalidTimeoutInURL} - ${d.message}`);
  return Number(d.ns / 1_000_000n);
}

/**
 * The Status of NewTimeoutError("request did not complete within the allotted timeout", 0), as
 * the timeout writer encodes it: without kind and apiVersion, and (Go sniffing the body) as
 * text/plain.
 */
export const timeoutStatus = {
  metadata: {},
  status: 'Failure',
  message: 'Timeout: request did not complete within the allotted timeout',
  reason: 'Timeout',
  details: {},
  code: 504,
};

/**
 * Starts the deadline of one request (`requestTimeoutMs` <= 0: none): at the deadline the 504 is
 * written unless the response is done. `timeoutParam` is the request's `timeout` parameter.
 */
export function startDeadline(res: ServerResponse, requestTimeoutMs: number, timeoutParam: string | undefined): void {
  const asked = timeoutParameter(timeoutParam);
  // A timeout of zero or less in the URL leaves the server's own (WithRequestDeadline).
  const ms = asked !== undefined && asked > 0 && (requestTimeoutMs <= 0 || asked < requestTimeoutMs) ? asked : requestTimeoutMs;
  if (ms <= 0) return;
  const timer = setTimeout(() => {
    if (res.writableEnded) return;
    if (res.headersSent) {
      res.destroy();
      return;
    }
    const body = JSON.stringify(timeoutStatus) + '\n';
    res.writeHead(504, { 'Content-Type': 'text/plain; charset=utf-8', 'Content-Length': Buffer.byteLength(body) });
    res.end(body);
    // The handler goes on; nothing it writes reaches the client (http.ErrHandlerTimeout).
    const drop = function (this: ServerResponse) {
      return this;
    };
    Object.assign(res, {
      writeHead: drop,
      setHeader: drop,
      removeHeader: drop,
      write: () => false,
      end: drop,
      destroy: drop,
    });
  }, ms);
  timer.unref();
  res.once('close', () => clearTimeout(timer));
}
