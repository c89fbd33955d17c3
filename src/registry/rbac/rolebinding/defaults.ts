/**
 * rbac.authorization.k8s.io/v1 RoleBinding's and ClusterRoleBinding's defaulting: the roleRef's
 * empty apiGroup is RBAC's (SetDefaults_RoleBinding, _ClusterRoleBinding), and each subject's
 * empty apiGroup follows its kind (SetDefaults_Subject: "" for a ServiceAccount, RBAC's for a User
 * or Group, unchanged for any other kind).
 */
import type { Obj } from '../../rest.ts';
import { items, struct, unset } from '../../defaulting/fields.ts';

const rbacGroup = 'rbac.authorization.k8s.io';
/** A ServiceAccount's group stays "", which is what unset means already. */
const subjectGroups: Record<string, string> = { User: rbacGroup, Group: rbacGroup };

/** MUTATES obj. */
export function defaultRoleBinding(obj: Obj): void {
  const roleRef = struct(obj, 'roleRef');
  if (roleRef && unset(roleRef, 'apiGroup', '')) roleRef.apiGroup = rbacGroup;
  for (const s of items(obj, 'subjects')) {
    if (!unset(s, 'apiGroup', '') || typeof s.kind !== 'string') continue;
    const g = subjectGroups[s.kind];
    if (g !== undefined) s.apiGroup = g;
  }
}

export const roleBindingDefaulters = {
  'rbac.authorization.k8s.io/v1/rolebindings': defaultRoleBinding,
  'rbac.authorization.k8s.io/v1/clusterrolebindings': defaultRoleBinding,
};
