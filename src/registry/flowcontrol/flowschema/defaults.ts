/** flowcontrol.apiserver.k8s.io/v1 FlowSchema's defaulting: SetDefaults_FlowSchemaSpec, matchingPrecedence 1000 when 0. */
import type { Obj } from '../../rest.ts';
import { setDefault, struct } from '../../defaulting/fields.ts';

/** MUTATES obj. */
export function defaultFlowSchema(obj: Obj): void {
  const spec = struct(obj, 'spec');
  if (spec) setDefault(spec, 'matchingPrecedence', 1000, 0);
}

export const flowSchemaDefaulters = { 'flowcontrol.apiserver.k8s.io/v1/flowschemas': defaultFlowSchema };
