/**
 * A PersistentVolume's volume source (the PersistentVolumeSource part of ValidatePersistentVolumeSpec
 * and its per-source validators in pkg/apis/core/validation): exactly one source, each by its own
 * rules with upstream's field paths (a gcePersistentDisk's errors under `persistentDisk`, a cephfs's
 * under `cephfs` but its "more than 1" under `cephFS`, as upstream reports them). A local volume
 * requires node affinity. Which sources exist, in upstream's order, is `persistentVolumeSources`.
 */
import {
  Path, forbidden, inclusiveRangeError, invalid, isDNS1123Label, isDNS1123Subdomain, notSupported, required, tooLong, validateNamespaceName,
  type FieldError,
} from '../../../apimachinery/index.ts';
import { list, num, ptr, rec, str, strings } from '../../fieldvalues/fields.ts';

type Rec = Record<string, unknown>;

/** The PersistentVolumeSource members, in the order ValidatePersistentVolumeSpec checks them. */
export const persistentVolumeSources = [
  'hostPath', 'gcePersistentDisk', 'awsElasticBlockStore', 'glusterfs', 'flocker', 'nfs', 'rbd', 'quobyte', 'cephfs', 'iscsi',
  'cinder', 'fc', 'flexVolume', 'azureFile', 'vsphereVolume', 'photonPersistentDisk', 'portworxVolume', 'azureDisk', 'scaleIO',
  'local', 'storageos', 'csi',
] as const;

/** Where a source's "may not specify more than 1 volume type" is reported, where it is not its JSON name. */
const forbiddenPaths: Record<string, string> = { cephfs: 'cephFS' };
/** Where a source's own errors are reported, where it is not its JSON name. */
const errorPaths: Record<string, string> = { gcePersistentDisk: 'persistentDisk' };

const hostPathTypes = ['', 'BlockDevice', 'CharDevice', 'Directory', 'DirectoryOrCreate', 'File', 'FileOrCreate', 'Socket'];
const azureCachingModes = ['None', 'ReadOnly', 'ReadWrite'];
const azureDiskKinds = ['Dedicated', 'Managed', 'Shared'];
const pdPartitionErrorMsg = inclusiveRangeError(1, 255);

const iqnRegex = /iqn\.\d{4}-\d{2}\.([A-Za-z0-9\-.]+)(:[^,;*&$|\s]+)$/;
const euiRegex = /^eui.[A-Za-z0-9]{16}$/;
const naaRegex = /^naa.[A-Za-z0-9]{32}$/;

const dns1123Label = (v: string, p: Path) => isDNS1123Label(v).map((m) => invalid(p, v, m));
const dns1123Subdomain = (v: string, p: Path) => isDNS1123Subdomain(v).map((m) => invalid(p, v, m));

/** validatePathNoBacksteps: no `..` element. */
export function validatePathNoBacksteps(path: string, fldPath: Path): FieldError[] {
  return path.split('/').includes('..') ? [invalid(fldPath, path, "must not contain '..'")] : [];
}

/** The iqn, eui or naa forms of an iSCSI name (the IQN's detail when it has no known prefix is the caller's). */
function iscsiNameErrors(name: string, fldPath: Path, noPrefixDetail: string): FieldError[] {
  if (!name.startsWith('iqn') && !name.startsWith('eui') && !name.startsWith('naa')) return [invalid(fldPath, name, noPrefixDetail)];
  if (name.startsWith('iqn') && !iqnRegex.test(name)) return [invalid(fldPath, name, 'must be valid format')];
  if (name.startsWith('eui') && !euiRegex.test(name)) return [invalid(fldPath, name, 'must be valid format')];
  if (name.startsWith('naa') && !naaRegex.test(name)) return [invalid(fldPath, name, 'must be valid format')];
  return [];
}

function validateISCSI(s: Rec, pvName: string, p: Path): FieldError[] {
  const errs: FieldError[] = [];
  const portal = str(s.targetPortal);
  if (portal === '') errs.push(required(p.child('targetPortal'), ''));
  const initiator = typeof s.initiatorName === 'string' ? s.initiatorName : undefined;
  if (initiator !== undefined && `${pvName}:${portal}`.length > 64) {
    errs.push(invalid(p.child('targetportal'), portal, 'Total length of <volume name>:<iscsi.targetPortal> must be under 64 characters if iscsi.initiatorName is specified.'));
  }
  const iqn = str(s.iqn);
  if (iqn === '') errs.push(required(p.child('iqn'), ''));
  else errs.push(...iscsiNameErrors(iqn, p.child('iqn'), 'must be valid format'));
  const lun = num(s.lun) ?? 0;
  if (lun < 0 || lun > 255) errs.push(invalid(p.child('lun'), lun, inclusiveRangeError(0, 255)));
  if ((s.chapAuthDiscovery === true || s.chapAuthSession === true) && ptr(s.secretRef) === undefined) errs.push(required(p.child('secretRef'), ''));
  const ref = ptr(s.secretRef);
  if (ref !== undefined && str(ref.name) === '') errs.push(required(p.child('secretRef', 'name'), ''));
  if (initiator !== undefined) {
    // Upstream checks the prefix, then (independently) the form of the prefixed name.
    if (!initiator.startsWith('iqn') && !initiator.startsWith('eui') && !initiator.startsWith('naa')) errs.push(invalid(p.child('initiatorname'), initiator, 'must be valid format'));
    else errs.push(...iscsiNameErrors(initiator, p.child('initiatorname'), 'must be valid format'));
  }
  return errs;
}

function validateFC(s: Rec, p: Path): FieldError[] {
  const errs: FieldError[] = [];
  const wwns = strings(s.targetWWNs);
  const wwids = strings(s.wwids);
  if (wwns.length < 1 && wwids.length < 1) errs.push(required(p.child('targetWWNs'), 'must specify either targetWWNs or wwids, but not both'));
  if (wwns.length !== 0 && wwids.length !== 0) errs.push(invalid(p.child('targetWWNs'), wwns, 'targetWWNs and wwids can not be specified simultaneously'));
  if (wwns.length !== 0) {
    const lun = num(s.lun);
    if (lun === undefined) errs.push(required(p.child('lun'), 'lun is required if targetWWNs is specified'));
    else if (lun < 0 || lun > 255) errs.push(invalid(p.child('lun'), lun, inclusiveRangeError(0, 255)));
  }
  return errs;
}

/** net.SplitHostPort's verdict on one `host:port` of a Quobyte registry. */
function isHostPort(hp: string): boolean {
  if (hp.startsWith('[')) {
    const end = hp.indexOf(']');
    return end > 0 && hp[end + 1] === ':' && !hp.slice(end + 2).includes(':') && !hp.slice(1, end).includes('[');
  }
  const i = hp.lastIndexOf(':');
  if (i < 0) return false;
  return !hp.slice(0, i).includes(':') && !hp.includes('[') && !hp.includes(']');
}

function validateQuobyte(s: Rec, p: Path): FieldError[] {
  const errs: FieldError[] = [];
  const registry = str(s.registry);
  const hostPortDetail = 'must be a host:port pair or multiple pairs separated by commas';
  if (registry === '') errs.push(required(p.child('registry'), hostPortDetail));
  else if (str(s.tenant).length >= 65) errs.push(required(p.child('tenant'), 'must be a UUID and may not exceed a length of 64 characters'));
  else for (const hp of registry.split(',')) if (!isHostPort(hp)) errs.push(invalid(p.child('registry'), registry, hostPortDetail));
  if (str(s.volume) === '') errs.push(required(p.child('volume'), ''));
  return errs;
}

/** Flex options may not use the kubernetes.io and k8s.io namespaces. */
function validateFlex(s: Rec, p: Path): FieldError[] {
  const errs: FieldError[] = [];
  if (str(s.driver) === '') errs.push(required(p.child('driver'), ''));
  for (const k of Object.keys(rec(s.options)).sort()) {
    const slash = k.indexOf('/');
    const normalized = `.${(slash >= 0 ? k.slice(0, slash) : k).toLowerCase()}`;
    if (normalized.endsWith('.kubernetes.io') || normalized.endsWith('.k8s.io')) errs.push(invalid(p.child('options').key(k), k, 'kubernetes.io and k8s.io namespaces are reserved'));
  }
  return errs;
}

function validateAzureDisk(s: Rec, p: Path): FieldError[] {
  const errs: FieldError[] = [];
  if (str(s.diskName) === '') errs.push(required(p.child('diskName'), ''));
  const uri = str(s.diskURI);
  if (uri === '') errs.push(required(p.child('diskURI'), ''));
  if (typeof s.cachingMode === 'string' && !azureCachingModes.includes(s.cachingMode)) errs.push(notSupported(p.child('cachingMode'), s.cachingMode, azureCachingModes));
  if (typeof s.kind === 'string') {
    if (!azureDiskKinds.includes(s.kind)) errs.push(notSupported(p.child('kind'), s.kind, azureDiskKinds));
    if (s.kind === 'Managed' && !uri.startsWith('/subscriptions/')) {
      errs.push(notSupported(p.child('diskURI'), uri, ['/subscriptions/{sub-id}/resourcegroups/{group-name}/providers/microsoft.compute/disks/{disk-id}']));
    }
    if (s.kind !== 'Managed' && !uri.startsWith('https://')) errs.push(notSupported(p.child('diskURI'), uri, ['https://{account-name}.blob.core.windows.net/{container-name}/{disk-name}.vhd']));
  }
  return errs;
}

/** validatePVSecretReference: a DNS-subdomain name and a DNS-label namespace, both required. */
function validatePVSecretReference(ref: Rec, p: Path): FieldError[] {
  const errs: FieldError[] = [];
  const name = str(ref.name);
  if (name === '') errs.push(required(p.child('name'), ''));
  else errs.push(...dns1123Subdomain(name, p.child('name')));
  const ns = str(ref.namespace);
  if (ns === '') errs.push(required(p.child('namespace'), ''));
  else errs.push(...dns1123Label(ns, p.child('namespace')));
  return errs;
}

/** ValidateCSIDriverName: required, at most 63 characters, a DNS subdomain once lowercased. */
export function validateCSIDriverName(driver: string, p: Path): FieldError[] {
  const errs: FieldError[] = [];
  if (driver === '') errs.push(required(p, ''));
  if (driver.length > 63) errs.push(tooLong(p, driver, 63));
  errs.push(...isDNS1123Subdomain(driver.toLowerCase()).map((m) => invalid(p, driver, m)));
  return errs;
}

function validateCSI(s: Rec, p: Path): FieldError[] {
  const errs = validateCSIDriverName(str(s.driver), p.child('driver'));
  if (str(s.volumeHandle) === '') errs.push(required(p.child('volumeHandle'), ''));
  for (const k of ['controllerPublishSecretRef', 'controllerExpandSecretRef', 'nodePublishSecretRef', 'nodeExpandSecretRef']) {
    const ref = ptr(s[k]);
    if (ref !== undefined) errs.push(...validatePVSecretReference(ref, p.child(k)));
  }
  return errs;
}

/** A secretRef whose name (and, for the PV forms, namespace) must be set. */
function secretRefRequired(s: Rec, p: Path, withNamespace: boolean): FieldError[] {
  const ref = ptr(s.secretRef);
  if (ref === undefined) return [];
  const errs: FieldError[] = [];
  if (str(ref.name) === '') errs.push(required(p.child('secretRef', 'name'), ''));
  if (withNamespace && str(ref.namespace) === '') errs.push(required(p.child('secretRef', 'namespace'), ''));
  return errs;
}

const requiredString = (s: Rec, k: string, p: Path, path = k): FieldError[] => (str(s[k]) === '' ? [required(p.child(path), '')] : []);

/** One source's own rules. */
function validateSource(kind: string, s: Rec, pvName: string, p: Path): FieldError[] {
  switch (kind) {
    case 'hostPath': {
      const path = str(s.path);
      if (path === '') return [required(p.child('path'), '')];
      const errs = validatePathNoBacksteps(path, p.child('path'));
      if (typeof s.type === 'string' && !hostPathTypes.includes(s.type)) errs.push(notSupported(p.child('type'), s.type, hostPathTypes));
      return errs;
    }
    case 'gcePersistentDisk':
    case 'awsElasticBlockStore': {
      const errs = requiredString(s, kind === 'gcePersistentDisk' ? 'pdName' : 'volumeID', p);
      const partition = num(s.partition) ?? 0;
      if (partition < 0 || partition > 255) errs.push(invalid(p.child('partition'), partition, pdPartitionErrorMsg));
      return errs;
    }
    case 'glusterfs': {
      const errs = [...requiredString(s, 'endpoints', p), ...requiredString(s, 'path', p)];
      if (typeof s.endpointsNamespace === 'string') {
        const ns = s.endpointsNamespace;
        if (ns === '') errs.push(invalid(p.child('endpointsNamespace'), ns, 'if the endpointnamespace is set, it must be a valid namespace name'));
        else errs.push(...validateNamespaceName(ns, false).map((m) => invalid(p.child('endpointsNamespace'), ns, m)));
      }
      return errs;
    }
    case 'flocker': {
      const errs: FieldError[] = [];
      const name = str(s.datasetName);
      const uuid = str(s.datasetUUID);
      if (name === '' && uuid === '') errs.push(required(p, 'one of datasetName and datasetUUID is required'));
      if (name !== '' && uuid !== '') errs.push(invalid(p, 'resource', 'datasetName and datasetUUID can not be specified simultaneously'));
      if (name.includes('/')) errs.push(invalid(p.child('datasetName'), name, "must not contain '/'"));
      return errs;
    }
    case 'nfs': {
      const errs = [...requiredString(s, 'server', p), ...requiredString(s, 'path', p)];
      const path = str(s.path);
      if (!path.startsWith('/')) errs.push(invalid(p.child('path'), path, 'must be an absolute path'));
      return errs;
    }
    case 'rbd':
      return [...(list(s.monitors).length === 0 ? [required(p.child('monitors'), '')] : []), ...requiredString(s, 'image', p)];
    case 'quobyte':
      return validateQuobyte(s, p);
    case 'cephfs':
      return list(s.monitors).length === 0 ? [required(p.child('monitors'), '')] : [];
    case 'iscsi':
      return validateISCSI(s, pvName, p);
    case 'cinder':
      return [...requiredString(s, 'volumeID', p), ...secretRefRequired(s, p, true)];
    case 'fc':
      return validateFC(s, p);
    case 'flexVolume':
      return validateFlex(s, p);
    case 'azureFile': {
      const errs = [...requiredString(s, 'secretName', p), ...requiredString(s, 'shareName', p)];
      if (s.secretNamespace === '') errs.push(required(p.child('secretNamespace'), ''));
      return errs;
    }
    case 'vsphereVolume':
      return requiredString(s, 'volumePath', p);
    case 'photonPersistentDisk':
      return requiredString(s, 'pdID', p);
    case 'portworxVolume':
      return requiredString(s, 'volumeID', p);
    case 'azureDisk':
      return validateAzureDisk(s, p);
    case 'scaleIO':
      return [...requiredString(s, 'gateway', p), ...requiredString(s, 'system', p), ...requiredString(s, 'volumeName', p)];
    case 'local': {
      const path = str(s.path);
      return path === '' ? [required(p.child('path'), '')] : validatePathNoBacksteps(path, p.child('path'));
    }
    case 'storageos': {
      const name = str(s.volumeName);
      const errs = name === '' ? [required(p.child('volumeName'), '')] : dns1123Label(name, p.child('volumeName'));
      const ns = str(s.volumeNamespace);
      if (ns !== '') errs.push(...dns1123Label(ns, p.child('volumeNamespace')));
      errs.push(...secretRefRequired(s, p, true));
      return errs;
    }
    case 'csi':
      return validateCSI(s, p);
  }
  return [];
}

/**
 * The volume source rules of ValidatePersistentVolumeSpec (not inline): exactly one source (a
 * flexVolume is counted without the "more than 1" check, as upstream), a local one only with node
 * affinity. Returns the errors in upstream's order.
 */
export function validatePersistentVolumeSource(spec: Rec, pvName: string, nodeAffinitySpecified: boolean, fldPath: Path): FieldError[] {
  const errs: FieldError[] = [];
  let n = 0;
  for (const kind of persistentVolumeSources) {
    const s = ptr(spec[kind]);
    if (s === undefined) continue;
    if (n > 0 && kind !== 'flexVolume') {
      errs.push(forbidden(fldPath.child(forbiddenPaths[kind] ?? kind), 'may not specify more than 1 volume type'));
      continue;
    }
    n++;
    errs.push(...validateSource(kind, s, pvName, fldPath.child(errorPaths[kind] ?? kind)));
    if (kind === 'local' && !nodeAffinitySpecified) errs.push(required(fldPath.child('nodeAffinity'), 'Local volume requires node affinity'));
  }
  if (n === 0) errs.push(required(fldPath, 'must specify a volume type'));
  return errs;
}
