/**
 * fetch, tried once more when it fails before any answer: a test that blocks its event loop (a
 * synchronous CLI run) past the server's keep-alive timeout leaves fetch's pooled connection
 * closed by the server, and the next request on it fails with `other side closed` without
 * having reached the server. `f` is the fetch to use (a TLS server's, from the harness).
 */
export async function fetchRetry(url: string, init?: RequestInit, f: typeof fetch = fetch): Promise<Response> {
  try {
    return await f(url, init);
  } catch (e) {
    if (!(e instanceof TypeError)) throw e;
    return f(url, init);
  }
}
