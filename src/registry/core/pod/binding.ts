/**
 * pods/binding (pkg/registry/core/pod/storage BindingREST): POST a v1 Binding naming the pod and
 * its target node; the pod gets spec.nodeName, the Binding's annotations and the PodScheduled
 * condition in one storage update (preconditions from the Binding's uid and resourceVersion).
 * Refusals are upstream's: a mismatched name is 400, ValidatePodBinding's errors a plain error
 * (500 with the aggregate text, as kube-apiserver answers it), a pod already bound, being deleted
 * or with scheduling gates a 409 Conflict on pods/binding, a missing pod 404.
 */
import { aggregateString, newBadRequest, newConflict, notSupported, Path, required, StatusError, successStatus, type FieldError } from '../../../apimachinery/index.ts';
import type { GenericStore } from '../../generic-store.ts';
import type { ActionResponse, SubresourceAction } from '../../kind.ts';
import { hasDeletionTimestamp, metaOf } from '../../meta.ts';
import type { Obj } from '../../rest.ts';
import { updatePodCondition } from './conditions.ts';

const isRec = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
const str = (v: unknown) => (typeof v === 'string' ? v : '');

/** ValidatePodBinding */
export function validatePodBinding(binding: Obj): FieldError[] {
  const errs: FieldError[] = [];
  const target = isRec(binding.target) ? binding.target : {};
  const kind = str(target.kind);
  if (kind !== '' && kind !== 'Node') errs.push(notSupported(Path.of('target', 'kind'), kind, ['Node', '<empty>']));
  if (str(target.name) === '') errs.push(required(Path.of('target', 'name')));
  return errs;
}

/** A refusal inside the update that becomes a Conflict on pods/binding. */
class BindRefused extends Error {}

export function bindingAction(pods: () => GenericStore): SubresourceAction {
  return {
    verbs: ['create'],
    body: { apiVersion: 'v1', kind: 'Binding' },
    async serve(req): Promise<ActionResponse> {
      const binding = req.body!;
      const m = isRec(binding.metadata) ? binding.metadata : {};
      if (str(m.name) !== req.name) throw newBadRequest('name in URL does not match name in Binding object');
      const errs = validatePodBinding(binding);
      if (errs.length > 0) throw new Error(aggregateString(errs));
      const node = str((binding.target as Record<string, unknown>).name);
      const annotations = isRec(m.annotations) ? (m.annotations as Record<string, string>) : {};
      const preconditions = { ...(str(m.uid) ? { uid: str(m.uid) } : {}), ...(str(m.resourceVersion) ? { resourceVersion: str(m.resourceVersion) } : {}) };
      try {
        await pods().guaranteedUpdate(
          req.namespace,
          req.name,
          (pod) => {
            const spec = isRec(pod.spec) ? pod.spec : (pod.spec = {});
            if (hasDeletionTimestamp(pod)) throw new BindRefused(`pod ${req.name} is being deleted, cannot be assigned to a host`);
            if (str(spec.nodeName) !== '') throw new BindRefused(`pod ${req.name} is already assigned to node ${JSON.stringify(spec.nodeName)}`);
            if (Array.isArray(spec.schedulingGates) && spec.schedulingGates.length > 0) throw new BindRefused(`pod ${req.name} has non-empty .spec.schedulingGates`);
            spec.nodeName = node;
            const pm = metaOf(pod);
            if (Object.keys(annotations).length > 0) pm.annotations = { ...(isRec(pm.annotations) ? pm.annotations : {}), ...annotations };
            updatePodCondition(pod, { type: 'PodScheduled', status: 'True' });
            return pod;
          },
          { dryRun: req.dryRun, ...(Object.keys(preconditions).length > 0 ? { preconditions } : {}) },
        );
      } catch (e) {
        if (e instanceof StatusError) throw e;
        throw newConflict({ group: '', resource: 'pods/binding' }, req.name, e instanceof Error ? e.message : String(e));
      }
      return { code: 201, object: { ...successStatus(), code: 201 } };
    },
  };
}
