/**
 * The reset fields of a custom resource's endpoints (apiextensions' customresource strategy
 * GetResetFields): with a status subresource, the main resource resets `status` and the status
 * subresource resets `metadata` and `spec`, so no manager at an endpoint owns what it cannot write.
 */
import { fieldElement } from '../smd/fieldpath/element.ts';
import { excludeSetFilter, FieldSet, type Filter } from '../smd/fieldpath/set.ts';

/**
 * The resetFields option of newFieldManager for one endpoint: `groupVersions` are every served
 * version that has the status subresource (`stable.example.com/v1`, ...); subresource is '' for
 * the main resource or 'status'. Undefined when nothing is reset.
 */
export function customResourceResetFields(groupVersions: readonly string[], subresource: '' | 'status'): Map<string, Filter> | undefined {
  if (groupVersions.length === 0) return undefined;
  const paths = subresource === 'status' ? ['metadata', 'spec'] : ['status'];
  const filter = excludeSetFilter(FieldSet.of(...paths.map((p) => [fieldElement(p)])));
  return new Map(groupVersions.map((gv) => [gv, filter]));
}
