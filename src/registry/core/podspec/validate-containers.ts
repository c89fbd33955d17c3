/**
 * Containers and init containers of a pod spec (validateContainers, validateInitContainers,
 * validateContainerCommon): names unique DNS labels across both lists, image required, the
 * termination message and pull policies, ports, env, volume mounts referring to the pod's
 * volumes, resources, probes and hooks (init containers without restartPolicy Always may have
 * neither), security context, and host ports unique across the containers.
 */
import { Path, duplicate, forbidden, invalid, isValidPortName, notFound, notSupported, required, type FieldError } from '../../../apimachinery/index.ts';
import { validateEnv, validateEnvFrom } from './env.ts';
import { validateDNS1123Label } from './names.ts';
import { validateLifecycle, validateProbe } from './probes.ts';
import { validateContainerResources } from './resources.ts';
import { validateSecurityContext } from './security.ts';
import { leftToDefault, num, rec, recs, str, type PodValidationOptions, type Rec } from './values.ts';

const protocols = ['SCTP', 'TCP', 'UDP'];

function validatePorts(ports: unknown, fldPath: Path, opts: PodValidationOptions): FieldError[] {
  const errs: FieldError[] = [];
  const names = new Set<string>();
  recs(ports).forEach((port, i) => {
    const p = fldPath.index(i);
    const name = str(port.name);
    if (name !== '') {
      const msgs = isValidPortName(name);
      if (msgs.length > 0) for (const m of msgs) errs.push(invalid(p.child('name'), name, m));
      else if (names.has(name)) errs.push(duplicate(p.child('name'), name));
      else names.add(name);
    }
    const cp = num(port.containerPort);
    if (cp === 0) errs.push(required(p.child('containerPort'), ''));
    else if (cp < 1 || cp > 65535) errs.push(invalid(p.child('containerPort'), cp, 'must be between 1 and 65535, inclusive'));
    const hp = num(port.hostPort);
    if (hp !== 0 && (hp < 1 || hp > 65535)) errs.push(invalid(p.child('hostPort'), hp, 'must be between 1 and 65535, inclusive'));
    if (!leftToDefault(port.protocol, opts)) {
      const proto = str(port.protocol);
      if (proto === '') errs.push(required(p.child('protocol'), ''));
      else if (!protocols.includes(proto)) errs.push(notSupported(p.child('protocol'), proto, protocols));
    }
  });
  return errs;
}

/** validatePathNoBacksteps and validateLocalDescendingPath. */
export function validateLocalDescendingPath(target: string, fldPath: Path): FieldError[] {
  const errs: FieldError[] = [];
  if (target.startsWith('/')) errs.push(invalid(fldPath, target, 'must be a relative path'));
  if (target.split('/').includes('..')) errs.push(invalid(fldPath, target, "must not contain '..'"));
  return errs;
}

const propagationModes = ['Bidirectional', 'HostToContainer', 'None'];

function validateVolumeMounts(mounts: unknown, devices: readonly Rec[], volumes: ReadonlyMap<string, Rec>, fldPath: Path): FieldError[] {
  const errs: FieldError[] = [];
  const mountPoints = new Set<string>();
  recs(mounts).forEach((m, i) => {
    const p = fldPath.index(i);
    const name = str(m.name);
    const mountPath = str(m.mountPath);
    if (name === '') errs.push(required(p.child('name'), ''));
    if (!volumes.has(name)) errs.push(notFound(p.child('name'), name));
    if (mountPath === '') errs.push(required(p.child('mountPath'), ''));
    if (mountPoints.has(mountPath)) errs.push(invalid(p.child('mountPath'), mountPath, 'must be unique'));
    mountPoints.add(mountPath);
    if (devices.some((d) => str(d.name) === name)) errs.push(invalid(p.child('name'), name, 'must not already exist in volumeDevices'));
    if (devices.some((d) => str(d.devicePath) === mountPath)) errs.push(invalid(p.child('mountPath'), mountPath, 'must not already exist as a path in volumeDevices'));
    const subPath = str(m.subPath);
    if (subPath !== '') errs.push(...validateLocalDescendingPath(subPath, fldPath.child('subPath')));
    const subPathExpr = str(m.subPathExpr);
    if (subPathExpr !== '') {
      if (subPath !== '') errs.push(invalid(p.child('subPathExpr'), subPathExpr, 'subPathExpr and subPath are mutually exclusive'));
      errs.push(...validateLocalDescendingPath(subPathExpr, fldPath.child('subPathExpr')));
    }
    if (typeof m.mountPropagation === 'string' && !propagationModes.includes(m.mountPropagation)) {
      errs.push(notSupported(p.child('mountPropagation'), m.mountPropagation, propagationModes));
    }
  });
  return errs;
}

function validateVolumeDevices(devices: readonly Rec[], mounts: unknown, volumes: ReadonlyMap<string, Rec>, fldPath: Path): FieldError[] {
  const errs: FieldError[] = [];
  const paths = new Set<string>();
  const names = new Set<string>();
  const ms = recs(mounts);
  devices.forEach((d, i) => {
    const p = fldPath.index(i);
    const name = str(d.name);
    const devicePath = str(d.devicePath);
    if (name === '') errs.push(required(p.child('name'), ''));
    if (names.has(name)) errs.push(invalid(p.child('name'), name, 'must be unique'));
    names.add(name);
    const vol = volumes.get(name);
    if (vol === undefined) errs.push(notFound(p.child('name'), name));
    else if (!rec(vol.persistentVolumeClaim) && !rec(vol.ephemeral)) {
      errs.push(invalid(p.child('name'), name, 'can only use volume source type of PersistentVolumeClaim or Ephemeral for block mode'));
    }
    if (devicePath === '') errs.push(required(p.child('devicePath'), ''));
    if (paths.has(devicePath)) errs.push(invalid(p.child('devicePath'), devicePath, 'must be unique'));
    if (devicePath !== '' && devicePath.split('/').includes('..')) errs.push(invalid(p.child('devicePath'), devicePath, "can not contain backsteps ('..')"));
    paths.add(devicePath);
    if (ms.some((m) => str(m.name) === name)) errs.push(invalid(p.child('name'), name, 'must not already exist in volumeMounts'));
    if (ms.some((m) => str(m.mountPath) === devicePath)) errs.push(invalid(p.child('devicePath'), devicePath, 'must not already exist as a path in volumeMounts'));
  });
  return errs;
}

const terminationMessagePolicies = ['File', 'FallbackToLogsOnError'];
const pullPolicies = ['Always', 'IfNotPresent', 'Never'];

/** The pod-level facts every container's validation needs. */
export interface ContainerContext {
  volumes: ReadonlyMap<string, Rec>;
  podClaimNames: ReadonlySet<string>;
  opts: PodValidationOptions;
}

/** validateContainerCommon: what regular, init and ephemeral containers share. */
function validateContainerCommon(ctr: Rec, ctx: ContainerContext, path: Path): FieldError[] {
  const errs: FieldError[] = [];
  const name = str(ctr.name);
  if (name === '') errs.push(required(path.child('name'), ''));
  else errs.push(...validateDNS1123Label(name, path.child('name')));
  if (str(ctr.image) === '') errs.push(required(path.child('image'), ''));
  if (!leftToDefault(ctr.terminationMessagePolicy, ctx.opts)) {
    const tmp = str(ctr.terminationMessagePolicy);
    if (tmp === '') errs.push(required(path.child('terminationMessagePolicy'), ''));
    else if (!terminationMessagePolicies.includes(tmp)) errs.push(notSupported(path.child('terminationMessagePolicy'), tmp, terminationMessagePolicies));
  }
  const devices = recs(ctr.volumeDevices);
  errs.push(...validatePorts(ctr.ports, path.child('ports'), ctx.opts));
  errs.push(...validateEnv(ctr.env, path.child('env')));
  errs.push(...validateEnvFrom(ctr.envFrom, path.child('envFrom')));
  errs.push(...validateVolumeMounts(ctr.volumeMounts, devices, ctx.volumes, path.child('volumeMounts')));
  errs.push(...validateVolumeDevices(devices, ctr.volumeMounts, ctx.volumes, path.child('volumeDevices')));
  if (!leftToDefault(ctr.imagePullPolicy, ctx.opts)) {
    const pp = str(ctr.imagePullPolicy);
    if (pp === '') errs.push(required(path.child('imagePullPolicy'), ''));
    else if (!pullPolicies.includes(pp)) errs.push(notSupported(path.child('imagePullPolicy'), pp, pullPolicies));
  }
  errs.push(...validateContainerResources(rec(ctr.resources), ctx.podClaimNames, path.child('resources')));
  errs.push(...validateSecurityContext(rec(ctr.securityContext), path.child('securityContext')));
  return errs;
}

/** AccumulateUniqueHostPorts: `hostIP/protocol/hostPort` once across the containers. */
function uniqueHostPorts(containers: readonly Rec[], seen: Set<string>, fldPath: Path): FieldError[] {
  const errs: FieldError[] = [];
  containers.forEach((c, ci) => {
    recs(c.ports).forEach((port, pi) => {
      const hp = num(port.hostPort);
      if (hp === 0) return;
      const key = `${str(port.hostIP)}/${str(port.protocol) || 'TCP'}/${hp}`;
      if (seen.has(key)) errs.push(duplicate(fldPath.index(ci).child('ports').index(pi).child('hostPort'), key));
      else seen.add(key);
    });
  });
  return errs;
}

/** validateContainers: the pod's regular containers (at least one). */
export function validateContainers(containers: unknown, ctx: ContainerContext, fldPath: Path): FieldError[] {
  const list = recs(containers);
  if (list.length === 0) return [required(fldPath, '')];
  const errs: FieldError[] = [];
  const names = new Set<string>();
  list.forEach((ctr, i) => {
    const path = fldPath.index(i);
    errs.push(...validateContainerCommon(ctr, ctx, path));
    const name = str(ctr.name);
    if (names.has(name)) errs.push(duplicate(path.child('name'), name));
    else names.add(name);
    errs.push(...validateLifecycle(ctr.lifecycle, path.child('lifecycle'), ctx.opts));
    errs.push(...validateProbe(ctr.livenessProbe, true, path.child('livenessProbe'), ctx.opts));
    errs.push(...validateProbe(ctr.readinessProbe, false, path.child('readinessProbe'), ctx.opts));
    errs.push(...validateProbe(ctr.startupProbe, true, path.child('startupProbe'), ctx.opts));
    if (ctr.restartPolicy !== undefined && ctr.restartPolicy !== null) {
      errs.push(forbidden(path.child('restartPolicy'), 'may not be set for non-init containers'));
    }
  });
  errs.push(...uniqueHostPorts(list, new Set(), fldPath));
  return errs;
}

/** validateInitContainers: names unique across both lists; probes and hooks only for sidecars (restartPolicy Always). */
export function validateInitContainers(initContainers: unknown, containers: unknown, ctx: ContainerContext, fldPath: Path): FieldError[] {
  const errs: FieldError[] = [];
  const names = new Set(recs(containers).map((c) => str(c.name)));
  const list = recs(initContainers);
  list.forEach((ctr, i) => {
    const path = fldPath.index(i);
    errs.push(...validateContainerCommon(ctr, ctx, path));
    const name = str(ctr.name);
    if (names.has(name)) errs.push(duplicate(path.child('name'), name));
    else names.add(name);
    const restartPolicy = ctr.restartPolicy;
    if (restartPolicy === 'Always') {
      errs.push(...validateLifecycle(ctr.lifecycle, path.child('lifecycle'), ctx.opts));
      errs.push(...validateProbe(ctr.livenessProbe, true, path.child('livenessProbe'), ctx.opts));
      errs.push(...validateProbe(ctr.readinessProbe, false, path.child('readinessProbe'), ctx.opts));
      errs.push(...validateProbe(ctr.startupProbe, true, path.child('startupProbe'), ctx.opts));
    } else {
      if (restartPolicy !== undefined && restartPolicy !== null) {
        errs.push(notSupported(path.child('restartPolicy'), restartPolicy, ['Always']));
      }
      for (const k of ['lifecycle', 'livenessProbe', 'readinessProbe', 'startupProbe']) {
        if (ctr[k] !== undefined && ctr[k] !== null) errs.push(forbidden(path.child(k), 'may not be set for init containers without restartPolicy=Always'));
      }
    }
  });
  errs.push(...uniqueHostPorts(list, new Set(), fldPath));
  return errs;
}

/** validateContainersOnlyForPod: a pod's images carry no surrounding whitespace (templates may). */
export function validateContainersOnlyForPod(containers: unknown, fldPath: Path): FieldError[] {
  const errs: FieldError[] = [];
  recs(containers).forEach((c, i) => {
    const image = str(c.image);
    if (image.trim().length !== image.length) errs.push(invalid(fldPath.index(i).child('image'), image, 'must not have leading or trailing whitespace'));
  });
  return errs;
}
