/**
 * The Pod printer (printPod): READY as ready/total containers (restartable init containers
 * count), STATUS from the phase, the status reason, init and app container states and the
 * deletion timestamp, RESTARTS with the age of the last restart, and the wide IP, NODE,
 * NOMINATED NODE and READINESS GATES. Pods that have completed carry a `Completed` row condition.
 */
import { ageColumn, col, nameColumn, printer, wide } from './columns.ts';
import { age, int, isSet, meta, nameOf, obj, objs, since, spec, status, str, timeOf, type Obj } from './cells.ts';

const podSucceededConditions = [{ type: 'Completed', status: 'True', reason: 'Succeeded', message: 'The pod has completed successfully.' }];
const podFailedConditions = [{ type: 'Completed', status: 'True', reason: 'Failed', message: 'The pod failed.' }];

/** podutil.IsRestartableInitContainer: a sidecar (`restartPolicy: Always`). */
function isRestartable(c: Obj | undefined): boolean {
  return c !== undefined && c.restartPolicy === 'Always';
}

function conditionTrue(conds: Obj[], type: string): boolean {
  for (const c of conds) if (c.type === type) return c.status === 'True';
  return false;
}

function hasPodReady(conds: Obj[]): boolean {
  return conds.some((c) => c.type === 'Ready' && c.status === 'True');
}

/** The later of a running maximum and a container's last termination (Time.Before). */
function lastFinish(current: number | undefined, cs: Obj): number | undefined {
  const term = obj(obj(cs.lastState).terminated);
  if (!isSet(obj(cs.lastState).terminated)) return current;
  const t = timeOf(term.finishedAt) ?? Number.NEGATIVE_INFINITY;
  return current === undefined || current < t ? t : current;
}

function podCells(pod: Obj, now: number): unknown[] {
  const ps = spec(pod);
  const st = status(pod);
  const conds = objs(st.conditions);
  const containers = objs(ps.containers);
  const initSpecs = objs(ps.initContainers);
  let restarts = 0;
  let sidecarRestarts = 0;
  let total = containers.length;
  let ready = 0;
  let lastRestart: number | undefined;
  let lastSidecarRestart: number | undefined;

  const phase = str(st.phase);
  let reason = st.reason ? str(st.reason) : phase;
  for (const c of conds) if (c.type === 'PodScheduled' && c.reason === 'SchedulingGated') reason = 'SchedulingGated';

  const initByName = new Map<string, Obj>();
  for (const c of initSpecs) {
    initByName.set(str(c.name), c);
    if (isRestartable(c)) total++;
  }

  let initializing = false;
  const initStatuses = objs(st.initContainerStatuses);
  for (let i = 0; i < initStatuses.length; i++) {
    const cs = initStatuses[i]!;
    const state = obj(cs.state);
    const terminated = isSet(state.terminated) ? obj(state.terminated) : undefined;
    const waiting = isSet(state.waiting) ? obj(state.waiting) : undefined;
    const restartable = isRestartable(initByName.get(str(cs.name)));
    restarts += int(cs.restartCount);
    lastRestart = lastFinish(lastRestart, cs);
    if (restartable) {
      sidecarRestarts += int(cs.restartCount);
      lastSidecarRestart = lastFinish(lastSidecarRestart, cs);
    }
    if (terminated && int(terminated.exitCode) === 0) continue;
    if (restartable && cs.started === true) {
      if (cs.ready === true) ready++;
      continue;
    }
    if (terminated) {
      if (str(terminated.reason) === '') {
        reason = int(terminated.signal) !== 0 ? `Init:Signal:${int(terminated.signal)}` : `Init:ExitCode:${int(terminated.exitCode)}`;
      } else reason = `Init:${str(terminated.reason)}`;
    } else if (waiting && str(waiting.reason) !== '' && waiting.reason !== 'PodInitializing') {
      reason = `Init:${str(waiting.reason)}`;
    } else {
      reason = `Init:${i}/${initSpecs.length}`;
    }
    initializing = true;
    break;
  }

  if (!initializing || conditionTrue(conds, 'Initialized')) {
    restarts = sidecarRestarts;
    lastRestart = lastSidecarRestart;
    let hasRunning = false;
    const statuses = objs(st.containerStatuses);
    for (let i = statuses.length - 1; i >= 0; i--) {
      const cs = statuses[i]!;
      const state = obj(cs.state);
      const terminated = isSet(state.terminated) ? obj(state.terminated) : undefined;
      const waiting = isSet(state.waiting) ? obj(state.waiting) : undefined;
      restarts += int(cs.restartCount);
      lastRestart = lastFinish(lastRestart, cs);
      if (waiting && str(waiting.reason) !== '') reason = str(waiting.reason);
      else if (terminated && str(terminated.reason) !== '') reason = str(terminated.reason);
      else if (terminated) {
        reason = int(terminated.signal) !== 0 ? `Signal:${int(terminated.signal)}` : `ExitCode:${int(terminated.exitCode)}`;
      } else if (cs.ready === true && isSet(state.running)) {
        hasRunning = true;
        ready++;
      }
    }
    // A pod whose last container completed while another still runs is Running (or NotReady).
    if (reason === 'Completed' && hasRunning) reason = hasPodReady(conds) ? 'Running' : 'NotReady';
  }

  const deleting = isSet(meta(pod).deletionTimestamp);
  if (deleting && st.reason === 'NodeLost') reason = 'Unknown';
  else if (deleting && phase !== 'Failed' && phase !== 'Succeeded') reason = 'Terminating';

  let restartsCell = String(restarts);
  if (restarts !== 0 && lastRestart !== undefined && Number.isFinite(lastRestart)) {
    restartsCell = `${restarts} (${since(new Date(lastRestart).toISOString(), now)} ago)`;
  }

  const podIPs = objs(st.podIPs);
  const podIP = podIPs.length > 0 && str(podIPs[0]!.ip) !== '' ? str(podIPs[0]!.ip) : '<none>';
  const nodeName = str(ps.nodeName) || '<none>';
  const nominated = str(st.nominatedNodeName) || '<none>';
  let gates = '<none>';
  const readinessGates = objs(ps.readinessGates);
  if (readinessGates.length > 0) {
    let trueConditions = 0;
    for (const g of readinessGates) {
      const c = conds.find((x) => x.type === g.conditionType);
      if (c && c.status === 'True') trueConditions++;
    }
    gates = `${trueConditions}/${readinessGates.length}`;
  }
  return [nameOf(pod), `${ready}/${total}`, reason, restartsCell, age(pod, now), podIP, nodeName, nominated, gates];
}

export const podPrinter = printer(
  [
    nameColumn,
    col('Ready', 'string', 'The aggregate readiness state of this pod for accepting traffic.'),
    col('Status', 'string', 'The aggregate status of the containers in this pod.'),
    col('Restarts', 'string', 'The number of times the containers in this pod have been restarted and when the last container in this pod has restarted.'),
    ageColumn,
    wide('IP', 'string', 'corev1.PodStatus.podIP'),
    wide('Node', 'string', 'corev1.PodSpec.nodeName'),
    wide('Nominated Node', 'string', 'corev1.PodStatus.nominatedNodeName'),
    wide('Readiness Gates', 'string', 'corev1.PodSpec.readinessGates'),
  ],
  podCells,
  {
    conditions(pod: Obj) {
      const phase = status(pod).phase;
      if (phase === 'Succeeded') return podSucceededConditions;
      if (phase === 'Failed') return podFailedConditions;
      return undefined;
    },
  },
);
