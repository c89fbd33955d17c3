/**
 * Printers of storage.k8s.io/v1: StorageClasses (`(default)` after the default class's name),
 * VolumeAttributesClasses, VolumeAttachments, CSIDrivers and CSINodes. (CSIStorageCapacities have a
 * printer upstream, but their REST storage serves the default table, so they do here too.)
 */
import { ageColumn, col, nameColumn, printer } from './columns.ts';
import { age, boolOr, isSet, meta, nameOf, obj, objs, spec, status, str, type Obj } from './cells.ts';

/** storageutil.IsDefaultAnnotation: the GA or beta is-default-class annotation is "true". */
function isDefaultClass(o: Obj, annotations: string[]): boolean {
  const ann = obj(meta(o).annotations);
  return annotations.some((a) => ann[a] === 'true');
}

export const storageClassPrinter = printer(
  [
    nameColumn,
    col('Provisioner', 'string', 'storagev1.StorageClass.provisioner'),
    col('ReclaimPolicy', 'string', 'storagev1.StorageClass.reclaimPolicy'),
    col('VolumeBindingMode', 'string', 'storagev1.StorageClass.volumeBindingMode'),
    col('AllowVolumeExpansion', 'string', 'storagev1.StorageClass.allowVolumeExpansion'),
    ageColumn,
  ],
  (o, now) => {
    let name = nameOf(o);
    if (isDefaultClass(o, ['storageclass.kubernetes.io/is-default-class', 'storageclass.beta.kubernetes.io/is-default-class'])) name += ' (default)';
    const reclaim = isSet(o.reclaimPolicy) ? str(o.reclaimPolicy) : 'Delete';
    const binding = isSet(o.volumeBindingMode) ? str(o.volumeBindingMode) : 'Immediate';
    return [name, str(o.provisioner), reclaim, binding, boolOr(o.allowVolumeExpansion, false), age(o, now)];
  },
);

export const volumeAttributesClassPrinter = printer([nameColumn, col('DriverName', 'string', 'storagev1beta1.VolumeAttributesClass.driverName'), ageColumn], (o, now) => {
  let name = nameOf(o);
  if (isDefaultClass(o, ['storage.kubernetes.io/is-default-class'])) name += ' (default)';
  return [name, str(o.driverName), age(o, now)];
});

export const volumeAttachmentPrinter = printer(
  [
    nameColumn,
    col('Attacher', 'string', 'storagev1.VolumeAttachmentSpec.attacher', 0, 'name'),
    col('PV', 'string', 'storagev1.VolumeAttachmentSource.persistentVolumeName'),
    col('Node', 'string', 'storagev1.VolumeAttachmentSpec.nodeName'),
    col('Attached', 'boolean', 'storagev1.VolumeAttachmentStatus.attached'),
    ageColumn,
  ],
  (o, now) => {
    const s = spec(o);
    const source = obj(s.source);
    const pv = isSet(source.persistentVolumeName) ? str(source.persistentVolumeName) : '';
    return [nameOf(o), str(s.attacher), pv, str(s.nodeName), status(o).attached === true, age(o, now)];
  },
);

export const csiDriverPrinter = printer(
  [
    nameColumn,
    col('AttachRequired', 'boolean', 'storagev1.CSIDriverSpec.attachRequired'),
    col('PodInfoOnMount', 'boolean', 'storagev1.CSIDriverSpec.podInfoOnMount'),
    col('StorageCapacity', 'boolean', 'storagev1.CSIDriverSpec.storageCapacity'),
    col('TokenRequests', 'string', 'storagev1.CSIDriverSpec.tokenRequests'),
    col('RequiresRepublish', 'boolean', 'storagev1.CSIDriverSpec.requiresRepublish'),
    col('Modes', 'string', 'storagev1.CSIDriverSpec.volumeLifecycleModes'),
    ageColumn,
  ],
  (o, now) => {
    const s = spec(o);
    const modes = (Array.isArray(s.volumeLifecycleModes) ? s.volumeLifecycleModes.map(str) : []).join(',') || '<none>';
    const tokenRequests = isSet(s.tokenRequests) ? objs(s.tokenRequests).map((t) => str(t.audience)).join(',') : '<unset>';
    return [
      nameOf(o),
      boolOr(s.attachRequired, true),
      boolOr(s.podInfoOnMount, false),
      boolOr(s.storageCapacity, false),
      tokenRequests,
      boolOr(s.requiresRepublish, false),
      modes,
      age(o, now),
    ];
  },
);

export const csiNodePrinter = printer(
  [nameColumn, col('Drivers', 'integer', 'Drivers indicates the number of CSI drivers registered on the node'), ageColumn],
  (o, now) => [nameOf(o), objs(spec(o).drivers).length, age(o, now)],
);
