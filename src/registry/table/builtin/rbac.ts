/**
 * Printers of rbac.authorization.k8s.io/v1 bindings: ROLE as `Kind/name`, and the wide USERS,
 * GROUPS and SERVICEACCOUNTS (rbac.SubjectsStrings). Roles and ClusterRoles have no printer
 * upstream and keep the default Name / Created At table.
 */
import { ageColumn, col, nameColumn, printer, wide } from './columns.ts';
import { age, nameOf, obj, objs, str, type Obj } from './cells.ts';

/** rbac.SubjectsStrings: users, groups and `namespace/name` service accounts, in subject order. */
function subjects(o: Obj): [string, string, string] {
  const users: string[] = [];
  const groups: string[] = [];
  const sas: string[] = [];
  for (const s of objs(o.subjects)) {
    switch (s.kind) {
      case 'ServiceAccount':
        sas.push(`${str(s.namespace)}/${str(s.name)}`);
        break;
      case 'User':
        users.push(str(s.name));
        break;
      case 'Group':
        groups.push(str(s.name));
        break;
    }
  }
  return [users.join(', '), groups.join(', '), sas.join(', ')];
}

function bindingPrinter(scope: 'roleBinding' | 'clusterRoleBinding', doc: 'rbacv1beta1.RoleBinding.roleRef' | 'rbacv1beta1.ClusterRoleBinding.roleRef') {
  return printer(
    [
      nameColumn,
      col('Role', 'string', doc),
      ageColumn,
      wide('Users', 'string', `Users in the ${scope}`),
      wide('Groups', 'string', `Groups in the ${scope}`),
      wide('ServiceAccounts', 'string', `ServiceAccounts in the ${scope}`),
    ],
    (o, now) => {
      const ref = obj(o.roleRef);
      return [nameOf(o), `${str(ref.kind)}/${str(ref.name)}`, age(o, now), ...subjects(o)];
    },
  );
}

export const roleBindingPrinter = bindingPrinter('roleBinding', 'rbacv1beta1.RoleBinding.roleRef');
export const clusterRoleBindingPrinter = bindingPrinter('clusterRoleBinding', 'rbacv1beta1.ClusterRoleBinding.roleRef');
