/**
 * Printers of core/v1 kinds other than Pods and Events: PodTemplates, ReplicationControllers,
 * Services (TYPE, CLUSTER-IP, EXTERNAL-IP by service type, PORT(S) as `80/TCP` or
 * `80:30080/TCP`), Endpoints, Nodes (STATUS from the Ready condition, ROLES from labels),
 * Secrets, ServiceAccounts, ConfigMaps, PersistentVolumes and their claims, and ResourceQuotas.
 */
import { ageColumn, col, containersColumn, imagesColumn, nameColumn, printer, wide } from './columns.ts';
import {
  age,
  containerCells,
  formatLabels,
  int,
  isSet,
  meta,
  nameOf,
  obj,
  objs,
  quantity,
  spec,
  status,
  str,
  type Obj,
} from './cells.ts';

export const podTemplatePrinter = printer(
  [
    nameColumn,
    col('Containers', 'string', 'Names of each container in the template.'),
    col('Images', 'string', 'Images referenced by each container in the template.'),
    col('Pod Labels', 'string', 'The labels for the pod template.'),
  ],
  (o) => {
    const t = obj(o.template);
    return [nameOf(o), ...containerCells(spec(t).containers), formatLabels(meta(t).labels)];
  },
);

export const replicationControllerPrinter = printer(
  [
    nameColumn,
    col('Desired', 'integer', 'corev1.ReplicationControllerSpec.replicas'),
    col('Current', 'integer', 'corev1.ReplicationControllerStatus.replicas'),
    col('Ready', 'integer', 'corev1.ReplicationControllerStatus.readyReplicas'),
    ageColumn,
    containersColumn,
    imagesColumn,
    wide('Selector', 'string', 'corev1.ReplicationControllerSpec.selector'),
  ],
  (o, now) => {
    const s = spec(o);
    const st = status(o);
    const desired = int(s.replicas);
    const containers = isSet(s.template) ? spec(obj(s.template)).containers : [];
    return [nameOf(o), desired, int(st.replicas), int(st.readyReplicas), age(o, now), ...containerCells(containers), formatLabels(s.selector)];
  },
);

const loadBalancerWidth = 16;

/** loadBalancerStatusStringer: the sorted, de-duplicated ingress IPs or hostnames, clipped unless wide. */
export function loadBalancerStatus(lb: unknown, wideOutput: boolean): string {
  const set = new Set<string>();
  for (const ing of objs(obj(lb).ingress)) {
    if (str(ing.ip) !== '') set.add(str(ing.ip));
    else if (str(ing.hostname) !== '') set.add(str(ing.hostname));
  }
  let r = [...set].sort().join(',');
  if (!wideOutput && r.length > loadBalancerWidth) r = r.slice(0, loadBalancerWidth - 3) + '...';
  return r;
}

function externalIP(svc: Obj): string {
  const s = spec(svc);
  const ext = Array.isArray(s.externalIPs) ? s.externalIPs.map(str) : [];
  switch (s.type) {
    case 'ClusterIP':
    case 'NodePort':
      return ext.length > 0 ? ext.join(',') : '<none>';
    case 'LoadBalancer': {
      // The server prints the wide form (printerstorage sets Wide), so no clipping.
      const lbIps = loadBalancerStatus(status(svc).loadBalancer, true);
      if (ext.length > 0) return [...(lbIps ? lbIps.split(',') : []), ...ext].join(',');
      return lbIps || '<pending>';
    }
    case 'ExternalName':
      return str(s.externalName);
  }
  return '<unknown>';
}

function portString(ports: unknown): string {
  return objs(ports)
    .map((p) => {
      const protocol = str(p.protocol);
      return int(p.nodePort) > 0 ? `${int(p.port)}:${int(p.nodePort)}/${protocol}` : `${int(p.port)}/${protocol}`;
    })
    .join(',');
}

export const servicePrinter = printer(
  [
    nameColumn,
    col('Type', 'string', 'corev1.ServiceSpec.type'),
    col('Cluster-IP', 'string', 'corev1.ServiceSpec.clusterIP'),
    col('External-IP', 'string', 'corev1.ServiceSpec.externalIPs'),
    col('Port(s)', 'string', 'corev1.ServiceSpec.ports'),
    ageColumn,
    wide('Selector', 'string', 'corev1.ServiceSpec.selector'),
  ],
  (o, now) => {
    const s = spec(o);
    const clusterIPs = Array.isArray(s.clusterIPs) ? s.clusterIPs.map(str) : [];
    const internalIP = clusterIPs.length > 0 ? clusterIPs[0]! : '<none>';
    const ports = portString(s.ports) || '<none>';
    return [nameOf(o), str(s.type), internalIP, externalIP(o), ports, age(o, now), formatLabels(s.selector)];
  },
);

/** formatEndpoints: up to three `ip:port` (or `ip` for port-less subsets), then `+ N more...`. */
export function formatEndpoints(ep: Obj): string {
  const subsets = objs(ep.subsets);
  if (subsets.length === 0) return '<none>';
  const list: string[] = [];
  const max = 3;
  let more = false;
  let count = 0;
  for (const ss of subsets) {
    const addresses = objs(ss.addresses);
    const ports = objs(ss.ports);
    if (ports.length === 0) {
      count += addresses.length;
      for (const a of addresses) {
        if (list.length === max) {
          more = true;
          break;
        }
        list.push(str(a.ip));
      }
      continue;
    }
    for (const p of ports) {
      count += addresses.length;
      for (const a of addresses) {
        if (list.length === max) {
          more = true;
          break;
        }
        const ip = str(a.ip);
        list.push(`${ip.includes(':') ? `[${ip}]` : ip}:${int(p.port)}`);
      }
    }
  }
  const ret = list.join(',');
  return more ? `${ret} + ${count - max} more...` : ret;
}

export const endpointsPrinter = printer([nameColumn, col('Endpoints', 'string', 'corev1.Endpoints.subsets'), ageColumn], (o, now) => [
  nameOf(o),
  formatEndpoints(o),
  age(o, now),
]);

/** findNodeRoles: `node-role.kubernetes.io/<role>` label keys and `kubernetes.io/role` values, sorted. */
function nodeRoles(node: Obj): string[] {
  const roles = new Set<string>();
  const labels = obj(meta(node).labels);
  for (const [k, v] of Object.entries(labels)) {
    if (k.startsWith('node-role.kubernetes.io/')) {
      const role = k.slice('node-role.kubernetes.io/'.length);
      if (role !== '') roles.add(role);
    } else if (k === 'kubernetes.io/role' && str(v) !== '') roles.add(str(v));
  }
  return [...roles].sort();
}

function nodeAddress(node: Obj, type: string): string {
  const a = objs(status(node).addresses).find((x) => x.type === type);
  return a ? str(a.address) : '<none>';
}

export const nodePrinter = printer(
  [
    nameColumn,
    col('Status', 'string', 'The status of the node'),
    col('Roles', 'string', 'The roles of the node'),
    ageColumn,
    col('Version', 'string', 'corev1.NodeSystemInfo.kubeletVersion'),
    wide('Internal-IP', 'string', 'corev1.NodeStatus.addresses'),
    wide('External-IP', 'string', 'corev1.NodeStatus.addresses'),
    wide('OS-Image', 'string', 'corev1.NodeSystemInfo.osImage'),
    wide('Kernel-Version', 'string', 'corev1.NodeSystemInfo.kernelVersion'),
    wide('Container-Runtime', 'string', 'corev1.NodeSystemInfo.containerRuntimeVersion'),
  ],
  (o, now) => {
    const st = status(o);
    // Only the Ready condition is reported; the last condition of a type wins, as a map would keep it.
    const readyConds = objs(st.conditions).filter((c) => c.type === 'Ready');
    const states: string[] = [];
    if (readyConds.length > 0) states.push(readyConds[readyConds.length - 1]!.status === 'True' ? 'Ready' : 'NotReady');
    else states.push('Unknown');
    if (spec(o).unschedulable === true) states.push('SchedulingDisabled');
    const roles = nodeRoles(o).join(',') || '<none>';
    const info = obj(st.nodeInfo);
    return [
      nameOf(o),
      states.join(','),
      roles,
      age(o, now),
      str(info.kubeletVersion),
      nodeAddress(o, 'InternalIP'),
      nodeAddress(o, 'ExternalIP'),
      str(info.osImage) || '<unknown>',
      str(info.kernelVersion) || '<unknown>',
      str(info.containerRuntimeVersion) || '<unknown>',
    ];
  },
);

export const secretPrinter = printer(
  [nameColumn, col('Type', 'string', 'corev1.Secret.type'), col('Data', 'string', 'corev1.Secret.data'), ageColumn],
  (o, now) => [nameOf(o), str(o.type), Object.keys(obj(o.data)).length, age(o, now)],
);

export const serviceAccountPrinter = printer([nameColumn, col('Secrets', 'string', 'corev1.ServiceAccount.secrets'), ageColumn], (o, now) => [
  nameOf(o),
  objs(o.secrets).length,
  age(o, now),
]);

export const configMapPrinter = printer([nameColumn, col('Data', 'string', 'corev1.ConfigMap.data'), ageColumn], (o, now) => [
  nameOf(o),
  Object.keys(obj(o.data)).length + Object.keys(obj(o.binaryData)).length,
  age(o, now),
]);

const accessModeShort: Array<[string, string]> = [
  ['ReadWriteOnce', 'RWO'],
  ['ReadOnlyMany', 'ROX'],
  ['ReadWriteMany', 'RWX'],
  ['ReadWriteOncePod', 'RWOP'],
];

/** helper.GetAccessModesAsString: the distinct modes, abbreviated, in RWO, ROX, RWX, RWOP order. */
export function accessModes(modes: unknown): string {
  const have = new Set(Array.isArray(modes) ? modes.map(str) : []);
  return accessModeShort.filter(([m]) => have.has(m)).map(([, s]) => s).join(',');
}

/** The storage class of a PV or PVC: the beta annotation wins over spec.storageClassName. */
function storageClassOf(o: Obj): string {
  const ann = obj(meta(o).annotations);
  if ('volume.beta.kubernetes.io/storage-class' in ann) return str(ann['volume.beta.kubernetes.io/storage-class']);
  return str(spec(o).storageClassName);
}

export const persistentVolumePrinter = printer(
  [
    nameColumn,
    col('Capacity', 'string', 'corev1.PersistentVolumeSpec.capacity'),
    col('Access Modes', 'string', 'corev1.PersistentVolumeSpec.accessModes'),
    col('Reclaim Policy', 'string', 'corev1.PersistentVolumeSpec.persistentVolumeReclaimPolicy'),
    col('Status', 'string', 'corev1.PersistentVolumeStatus.phase'),
    col('Claim', 'string', 'corev1.PersistentVolumeSpec.claimRef'),
    col('StorageClass', 'string', 'StorageClass of the pv'),
    col('VolumeAttributesClass', 'string', 'VolumeAttributesClass of the pv'),
    col('Reason', 'string', 'corev1.PersistentVolumeStatus.reason'),
    ageColumn,
    wide('VolumeMode', 'string', 'corev1.PersistentVolumeSpec.volumeMode'),
  ],
  (o, now) => {
    const s = spec(o);
    const st = status(o);
    const claim = isSet(s.claimRef) ? `${str(obj(s.claimRef).namespace)}/${str(obj(s.claimRef).name)}` : '';
    const phase = isSet(meta(o).deletionTimestamp) ? 'Terminating' : str(st.phase);
    return [
      nameOf(o),
      quantity(obj(s.capacity).storage),
      accessModes(s.accessModes),
      str(s.persistentVolumeReclaimPolicy),
      phase,
      claim,
      storageClassOf(o),
      isSet(s.volumeAttributesClassName) ? str(s.volumeAttributesClassName) : '<unset>',
      str(st.reason),
      age(o, now),
      isSet(s.volumeMode) ? str(s.volumeMode) : '<unset>',
    ];
  },
);

export const persistentVolumeClaimPrinter = printer(
  [
    nameColumn,
    col('Status', 'string', 'corev1.PersistentVolumeClaimStatus.phase'),
    col('Volume', 'string', 'corev1.PersistentVolumeClaimSpec.volumeName'),
    col('Capacity', 'string', 'corev1.PersistentVolumeClaimStatus.capacity'),
    col('Access Modes', 'string', 'corev1.PersistentVolumeClaimStatus.accessModes'),
    col('StorageClass', 'string', 'StorageClass of the pvc'),
    col('VolumeAttributesClass', 'string', 'VolumeAttributesClass of the pvc'),
    ageColumn,
    wide('VolumeMode', 'string', 'corev1.PersistentVolumeClaimSpec.volumeMode'),
  ],
  (o, now) => {
    const s = spec(o);
    const st = status(o);
    const phase = isSet(meta(o).deletionTimestamp) ? 'Terminating' : str(st.phase);
    const bound = str(s.volumeName) !== '';
    return [
      nameOf(o),
      phase,
      str(s.volumeName),
      bound ? quantity(obj(st.capacity).storage) : '',
      bound ? accessModes(st.accessModes) : '',
      storageClassOf(o),
      isSet(s.volumeAttributesClassName) ? str(s.volumeAttributesClassName) : '<unset>',
      age(o, now),
      isSet(s.volumeMode) ? str(s.volumeMode) : '<unset>',
    ];
  },
);

export const resourceQuotaPrinter = printer(
  [
    nameColumn,
    col('Request', 'string', 'Request represents a minimum amount of cpu/memory that a container may consume.'),
    col('Limit', 'string', 'Limits control the maximum amount of cpu/memory that a container may use independent of contention on the node.'),
    ageColumn,
  ],
  (o, now) => {
    const st = status(o);
    const hard = obj(st.hard);
    const used = obj(st.used);
    const requests: string[] = [];
    const limits: string[] = [];
    for (const r of Object.keys(hard).sort()) {
      const pieces = r.split('.');
      const line = `${r}: ${quantity(used[r])}/${quantity(hard[r])}`;
      (pieces.length > 1 && pieces[0] === 'limits' ? limits : requests).push(line);
    }
    return [nameOf(o), requests.join(', '), limits.join(', '), age(o, now)];
  },
);
