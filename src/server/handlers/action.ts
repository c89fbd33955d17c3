/**
 * Subresources a kind answers with its own code (pods/binding, pods/eviction, pods/log,
 * pods/exec, .../proxy): the verb must be one the subresource has (else 405 as upstream's
 * router answers), a create's body is decoded as the subresource's type, and the answer is the
 * object (a Status, say) or text the kind returns.
 */
import { newBadRequest, newMethodNotAllowed } from '../../apimachinery/index.ts';
import type { SubresourceAction } from '../../registry/index.ts';
import { decodeObjectBody, readBody } from '../http/body.ts';
import { writeObject } from '../http/respond.ts';
import { negotiateFor, type ResourceRequest } from './resource.ts';
import { writeOptions } from './options.ts';

export async function serveAction(r: ResourceRequest, action: SubresourceAction): Promise<void> {
  const verb = r.info.verb;
  if (!action.verbs.includes(verb)) throw newMethodNotAllowed('the server does not allow this method on the requested resource');
  let body: Record<string, unknown> | undefined;
  let dryRun = false;
  if (verb === 'create' && action.body) {
    dryRun = writeOptions(r.query, 'CreateOptions').dryRun === true;
    const d = decodeObjectBody(await readBody(r.req), r.req.headers['content-type'], r.served.protobuf && action.body);
    if (d.value === null || typeof d.value !== 'object' || Array.isArray(d.value)) {
      throw newBadRequest(`the object provided is unrecognized (must be of type ${action.body.kind})`);
    }
    body = d.value as Record<string, unknown>;
  } else {
    r.req.resume();
  }
  const out = await action.serve({
    verb,
    namespace: r.info.namespace,
    name: r.info.name!,
    ...(body ? { body } : {}),
    query: r.query.params,
    path: r.info.subpath ?? '',
    dryRun,
  });
  if ('object' in out) {
    writeObject(r.res, out.code, out.object, negotiateFor(r, { yaml: true }));
    return;
  }
  r.res.writeHead(out.code, { 'Content-Type': out.contentType, 'Content-Length': Buffer.byteLength(out.text) });
  r.res.end(out.text);
}
