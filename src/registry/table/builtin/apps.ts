/**
 * Printers of apps/v1: Deployments (READY ready/desired, UP-TO-DATE, AVAILABLE), ReplicaSets
 * and DaemonSets (their counters), StatefulSets (READY), with the wide CONTAINERS, IMAGES and
 * SELECTOR; and ControllerRevisions (CONTROLLER as `kind.group/name`, REVISION).
 */
import { ageColumn, col, containersColumn, imagesColumn, nameColumn, printer, wide } from './columns.ts';
import { age, containerCells, formatLabels, formatLabelSelector, int, isSet, meta, nameOf, obj, objs, selectorString, spec, status, str, templateContainers } from './cells.ts';

/** A workload's spec.replicas (the defaulted value, 1, comes from the write path, not the printer). */
function replicas(s: Record<string, unknown>): number {
  return int(s.replicas);
}

export const deploymentPrinter = printer(
  [
    nameColumn,
    col('Ready', 'string', 'Number of the pod with ready state'),
    col('Up-to-date', 'string', 'extensionsv1beta1.DeploymentStatus.updatedReplicas'),
    col('Available', 'string', 'extensionsv1beta1.DeploymentStatus.availableReplicas'),
    ageColumn,
    containersColumn,
    imagesColumn,
    wide('Selector', 'string', 'extensionsv1beta1.DeploymentSpec.selector'),
  ],
  (o, now) => {
    const s = spec(o);
    const st = status(o);
    const selector = selectorString(s.selector) ?? '<invalid>';
    return [nameOf(o), `${int(st.readyReplicas)}/${replicas(s)}`, int(st.updatedReplicas), int(st.availableReplicas), age(o, now), ...containerCells(templateContainers(s)), selector];
  },
);

export const replicaSetPrinter = printer(
  [
    nameColumn,
    col('Desired', 'integer', 'extensionsv1beta1.ReplicaSetSpec.replicas'),
    col('Current', 'integer', 'extensionsv1beta1.ReplicaSetStatus.replicas'),
    col('Ready', 'integer', 'extensionsv1beta1.ReplicaSetStatus.readyReplicas'),
    ageColumn,
    containersColumn,
    imagesColumn,
    wide('Selector', 'string', 'extensionsv1beta1.ReplicaSetSpec.selector'),
  ],
  (o, now) => {
    const s = spec(o);
    const st = status(o);
    return [nameOf(o), replicas(s), int(st.replicas), int(st.readyReplicas), age(o, now), ...containerCells(templateContainers(s)), formatLabelSelector(s.selector)];
  },
);

export const daemonSetPrinter = printer(
  [
    nameColumn,
    col('Desired', 'integer', 'extensionsv1beta1.DaemonSetStatus.desiredNumberScheduled'),
    col('Current', 'integer', 'extensionsv1beta1.DaemonSetStatus.currentNumberScheduled'),
    col('Ready', 'integer', 'extensionsv1beta1.DaemonSetStatus.numberReady'),
    col('Up-to-date', 'integer', 'extensionsv1beta1.DaemonSetStatus.updatedNumberScheduled'),
    col('Available', 'integer', 'extensionsv1beta1.DaemonSetStatus.numberAvailable'),
    col('Node Selector', 'string', 'corev1.PodSpec.nodeSelector'),
    ageColumn,
    containersColumn,
    imagesColumn,
    wide('Selector', 'string', 'extensionsv1beta1.DaemonSetSpec.selector'),
  ],
  (o, now) => {
    const s = spec(o);
    const st = status(o);
    return [
      nameOf(o),
      int(st.desiredNumberScheduled),
      int(st.currentNumberScheduled),
      int(st.numberReady),
      int(st.updatedNumberScheduled),
      int(st.numberAvailable),
      formatLabels(spec(obj(s.template)).nodeSelector),
      age(o, now),
      ...containerCells(templateContainers(s)),
      formatLabelSelector(s.selector),
    ];
  },
);

export const statefulSetPrinter = printer(
  [nameColumn, col('Ready', 'string', 'Number of the pod with ready state'), ageColumn, containersColumn, imagesColumn],
  (o, now) => {
    const s = spec(o);
    return [nameOf(o), `${int(status(o).readyReplicas)}/${replicas(s)}`, age(o, now), ...containerCells(templateContainers(s))];
  },
);

export const controllerRevisionPrinter = printer(
  [nameColumn, col('Controller', 'string', 'Controller of the object'), col('Revision', 'string', 'appsv1beta1.ControllerRevision.revision'), ageColumn],
  (o, now) => {
    const ref = objs(meta(o).ownerReferences).find((r) => r.controller === true);
    let controller = '<none>';
    if (ref) {
      // formatResourceName(GroupKind, name, withKind): `kind.group/name` in lower case, the name alone for an empty kind.
      const apiVersion = str(ref.apiVersion);
      const group = apiVersion.includes('/') ? apiVersion.slice(0, apiVersion.indexOf('/')) : '';
      const kind = str(ref.kind);
      const gk = group === '' ? kind : `${kind}.${group}`;
      controller = kind === '' && group === '' ? str(ref.name) : `${gk.toLowerCase()}/${str(ref.name)}`;
    }
    return [nameOf(o), controller, int(o.revision), age(o, now)];
  },
);
