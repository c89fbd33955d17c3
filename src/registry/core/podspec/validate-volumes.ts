/**
 * A pod's volumes (ValidateVolumes, validateVolumeSource): names unique DNS labels, exactly one
 * source each, and the rules of the sources pods use most (hostPath, emptyDir, secret, configMap,
 * persistentVolumeClaim, nfs, downwardAPI, projected, csi, ephemeral, image); the other
 * sources are counted. Returns the valid volumes by name for the containers' mounts.
 */
import { Path, forbidden, invalid, nameIsDNSSubdomain, notSupported, required, type FieldError } from '../../../apimachinery/index.ts';
import { validateLocalDescendingPath } from './validate-containers.ts';
import { validateObjectFieldSelector, validateResourceFieldSelector } from './env.ts';
import { validateDNS1123Label, validateSubdomainName } from './names.ts';
import { quantityOf, validateNonnegativeQuantity } from './resources.ts';
import { optNum, rec, recs, str, type Rec } from './values.ts';

const sources = [
  'hostPath', 'emptyDir', 'gitRepo', 'gcePersistentDisk', 'awsElasticBlockStore', 'secret', 'nfs', 'iscsi', 'glusterfs',
  'flocker', 'persistentVolumeClaim', 'rbd', 'cinder', 'cephfs', 'quobyte', 'downwardAPI', 'fc', 'azureFile',
  'vsphereVolume', 'photonPersistentDisk', 'portworxVolume', 'azureDisk', 'storageos', 'scaleIO', 'configMap',
  'flexVolume', 'projected', 'csi', 'ephemeral', 'image',
];

const hostPathTypes = ['', 'BlockDevice', 'CharDevice', 'Directory', 'DirectoryOrCreate', 'File', 'FileOrCreate', 'Socket'];
const mediums = ['', 'HugePages', 'Memory'];
const modeDetail = 'must be a number between 0 and 0777 (octal), both inclusive';
const volumeFieldPaths = ['metadata.annotations', 'metadata.labels', 'metadata.name', 'metadata.namespace', 'metadata.uid'];
const volumeResources = ['limits.cpu', 'limits.ephemeral-storage', 'limits.memory', 'requests.cpu', 'requests.ephemeral-storage', 'requests.memory'];

function validateMode(mode: number | undefined, fldPath: Path): FieldError[] {
  return mode !== undefined && (mode > 0o777 || mode < 0) ? [invalid(fldPath, mode, modeDetail)] : [];
}

/** validateKeyToPath: items of secret, configMap and projected sources. */
function validateItems(items: unknown, fldPath: Path): FieldError[] {
  const errs: FieldError[] = [];
  recs(items).forEach((kp, i) => {
    const p = fldPath.index(i);
    const key = str(kp.key);
    const path = str(kp.path);
    if (key === '') errs.push(required(p.child('key'), ''));
    if (path === '') errs.push(required(p.child('path'), ''));
    errs.push(...validateLocalNonReservedPath(path, p.child('path')));
    errs.push(...validateMode(optNum(kp.mode), p.child('mode')));
  });
  return errs;
}

/** validateLocalNonReservedPath: relative, no backsteps, not starting with '..'. */
function validateLocalNonReservedPath(path: string, fldPath: Path): FieldError[] {
  const errs = validateLocalDescendingPath(path, fldPath);
  if (path.startsWith('..')) errs.push(invalid(fldPath, path, "must not start with '..'"));
  return errs;
}

function validateDownwardAPIItems(items: unknown, fldPath: Path): FieldError[] {
  const errs: FieldError[] = [];
  recs(items).forEach((f, i) => {
    const p = fldPath.index(i);
    const path = str(f.path);
    if (path === '') errs.push(required(p.child('path'), ''));
    errs.push(...validateLocalNonReservedPath(path, p.child('path')));
    errs.push(...validateMode(optNum(f.mode), p.child('mode')));
    const fieldRef = rec(f.fieldRef);
    const resRef = rec(f.resourceFieldRef);
    if (fieldRef) {
      errs.push(...validateObjectFieldSelector(fieldRef, volumeFieldPaths, p.child('fieldRef')));
      if (resRef) errs.push(invalid(p, 'resource', 'fieldRef and resourceFieldRef can not be specified simultaneously'));
    } else if (resRef) {
      errs.push(...validateResourceFieldSelector(resRef, volumeResources, p.child('resourceFieldRef'), true));
    } else {
      errs.push(required(p, 'one of fieldRef and resourceFieldRef is required'));
    }
  });
  return errs;
}

function validateProjected(s: Rec, fldPath: Path): FieldError[] {
  const errs: FieldError[] = [];
  const paths = new Set<string>();
  recs(s.sources).forEach((src, i) => {
    const p = fldPath.child('sources').index(i);
    let n = 0;
    for (const k of ['secret', 'configMap', 'downwardAPI', 'serviceAccountToken', 'clusterTrustBundle', 'podCertificate']) {
      const v = rec(src[k]);
      if (!v) continue;
      n++;
      const sp = p.child(k);
      if (k === 'secret' || k === 'configMap') {
        if (str(v.name) === '') errs.push(required(sp.child('name'), ''));
        errs.push(...validateItems(v.items, sp.child('items')));
        for (const it of recs(v.items)) paths.add(str(it.path));
      } else if (k === 'downwardAPI') {
        errs.push(...validateDownwardAPIItems(v.items, sp.child('items')));
      } else if (k === 'serviceAccountToken') {
        const exp = optNum(v.expirationSeconds);
        if (exp !== undefined && exp < 600) errs.push(invalid(sp.child('expirationSeconds'), exp, 'may not specify a duration less than 10 minutes'));
        else if (exp !== undefined && exp > 4294967296) errs.push(invalid(sp.child('expirationSeconds'), exp, 'may not specify a duration larger than 2^32 seconds'));
        if (str(v.path) === '') errs.push(required(sp.child('path'), ''));
      }
    }
    if (n > 1) errs.push(forbidden(p, 'may not specify more than 1 volume type per source'));
  });
  errs.push(...validateMode(optNum(s.defaultMode), fldPath.child('defaultMode')));
  return errs;
}

/** One source's own rules. */
function validateSource(kind: string, s: Rec, fldPath: Path): FieldError[] {
  const errs: FieldError[] = [];
  switch (kind) {
    case 'hostPath': {
      const path = str(s.path);
      if (path === '') errs.push(required(fldPath.child('path'), ''));
      else if (path.split('/').includes('..')) errs.push(invalid(fldPath.child('path'), path, "must not contain '..'"));
      if (typeof s.type === 'string' && !hostPathTypes.includes(s.type)) errs.push(notSupported(fldPath.child('type'), s.type, hostPathTypes));
      break;
    }
    case 'emptyDir': {
      if (typeof s.medium === 'string' && !mediums.includes(s.medium)) errs.push(notSupported(fldPath.child('medium'), s.medium, mediums));
      const q = quantityOf(s.sizeLimit);
      if (q && q.sign() < 0) errs.push(forbidden(fldPath.child('sizeLimit'), 'SizeLimit field must be a valid resource quantity'));
      break;
    }
    case 'secret': {
      const name = str(s.secretName);
      if (name === '') errs.push(required(fldPath.child('secretName'), ''));
      else errs.push(...validateSubdomainName(name, fldPath.child('secretName')));
      errs.push(...validateMode(optNum(s.defaultMode), fldPath.child('defaultMode')));
      errs.push(...validateItems(s.items, fldPath.child('items')));
      break;
    }
    case 'configMap': {
      const name = str(s.name);
      if (name === '') errs.push(required(fldPath.child('name'), ''));
      else errs.push(...nameIsDNSSubdomain(name, false).map((m) => invalid(fldPath.child('name'), name, m)));
      errs.push(...validateMode(optNum(s.defaultMode), fldPath.child('defaultMode')));
      errs.push(...validateItems(s.items, fldPath.child('items')));
      break;
    }
    case 'persistentVolumeClaim':
      if (str(s.claimName) === '') errs.push(required(fldPath.child('claimName'), ''));
      break;
    case 'nfs': {
      if (str(s.server) === '') errs.push(required(fldPath.child('server'), ''));
      const path = str(s.path);
      if (path === '') errs.push(required(fldPath.child('path'), ''));
      else if (!path.startsWith('/')) errs.push(invalid(fldPath.child('path'), path, 'must be an absolute path'));
      break;
    }
    case 'downwardAPI':
      errs.push(...validateMode(optNum(s.defaultMode), fldPath.child('defaultMode')));
      errs.push(...validateDownwardAPIItems(s.items, fldPath.child('items')));
      break;
    case 'projected':
      errs.push(...validateProjected(s, fldPath));
      break;
    case 'csi': {
      const driver = str(s.driver);
      if (driver === '') errs.push(required(fldPath.child('driver'), ''));
      break;
    }
    case 'ephemeral':
      if (!rec(s.volumeClaimTemplate)) errs.push(required(fldPath.child('volumeClaimTemplate'), ''));
      break;
    case 'image':
      if (str(s.reference) === '') errs.push(required(fldPath.child('reference'), ''));
      break;
    case 'gitRepo': {
      if (str(s.repository) === '') errs.push(required(fldPath.child('repository'), ''));
      const dir = str(s.directory);
      if (dir !== '') errs.push(...validateLocalDescendingPath(dir, fldPath.child('directory')));
      break;
    }
  }
  return errs;
}

/** validateVolumeSource: exactly one source, checked by its own rules. */
function validateVolumeSource(vol: Rec, fldPath: Path): FieldError[] {
  const errs: FieldError[] = [];
  let n = 0;
  for (const kind of sources) {
    const s = rec(vol[kind]);
    if (!s) continue;
    if (n > 0) {
      errs.push(forbidden(fldPath.child(kind), 'may not specify more than 1 volume type'));
      continue;
    }
    n++;
    errs.push(...validateSource(kind, s, fldPath.child(kind)));
  }
  if (n === 0) errs.push(required(fldPath, 'must specify a volume type'));
  return errs;
}

/** ValidateVolumes: the valid volumes by name, and the errors. */
export function validateVolumes(volumes: unknown, fldPath: Path): { volumes: Map<string, Rec>; errors: FieldError[] } {
  const errors: FieldError[] = [];
  const byName = new Map<string, Rec>();
  const names = new Set<string>();
  recs(volumes).forEach((vol, i) => {
    const idx = fldPath.index(i);
    const namePath = idx.child('name');
    const name = str(vol.name);
    const el = validateVolumeSource(vol, idx);
    if (name === '') el.push(required(namePath, ''));
    else el.push(...validateDNS1123Label(name, namePath));
    if (names.has(name)) el.push({ type: 'FieldValueDuplicate', field: namePath.toString(), badValue: name, detail: '' });
    if (el.length === 0) {
      names.add(name);
      byName.set(name, vol);
    } else {
      errors.push(...el);
    }
  });
  return { volumes: byName, errors };
}
