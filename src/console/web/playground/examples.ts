/**
 * What the playground starts with in each environment: an expression and inputs that run, so a
 * first visit shows every part of the answer.
 */
import type { EnvName, PlaygroundInput } from './evaluate.ts';

const crontabCRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: crontabs.stable.example.com
spec:
  group: stable.example.com
  names: {kind: CronTab, plural: crontabs, singular: crontab}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              replicas: {type: integer}
              maxReplicas: {type: integer}
              tags:
                type: array
                maxItems: 10
                items: {type: string, maxLength: 64}
`;

export const examples: Record<EnvName, PlaygroundInput> = {
  crd: {
    env: 'crd',
    expression: 'self.replicas <= self.maxReplicas && self.tags.all(t, t.size() < 20)',
    node: 'spec',
    docs: {
      schema: crontabCRD,
      object: 'apiVersion: stable.example.com/v1\nkind: CronTab\nmetadata:\n  name: nightly\nspec:\n  replicas: 3\n  maxReplicas: 5\n  tags: [backup, db]\n',
      oldObject: '',
    },
  },
  vap: {
    env: 'vap',
    expression: 'object.spec.replicas <= int(params.data.maxReplicas)',
    docs: {
      object: 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: 3\n',
      oldObject: '',
      request: 'operation: CREATE\nuserInfo:\n  username: jane\nresource: {group: apps, version: v1, resource: deployments}\nnamespace: default\nname: web\n',
      params: 'apiVersion: v1\nkind: ConfigMap\ndata:\n  maxReplicas: "5"\n',
      namespaceObject: 'apiVersion: v1\nkind: Namespace\nmetadata:\n  name: default\n',
      variables: 'isCreate: request.operation == "CREATE"\n',
    },
  },
  map: {
    env: 'map',
    expression: 'Object{spec: Object.spec{replicas: object.spec.replicas + 1}}',
    docs: {
      object: 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: 3\n',
      oldObject: '',
      request: 'operation: CREATE\n',
      params: '',
      namespaceObject: '',
      variables: '',
    },
  },
  dra: {
    env: 'dra',
    expression: 'device.driver == "gpu.example.com" && device.capacity["gpu.example.com"].memory.isGreaterThan(quantity("32Gi"))',
    docs: { device: 'driver: gpu.example.com\nattributes:\n  model: {string: a100}\ncapacity:\n  memory: {value: 40Gi}\n' },
  },
  plain: {
    env: 'plain',
    expression: 'items.map(x, x * factor).filter(y, y > 2)',
    docs: { vars: 'items: [1, 2, 3]\nfactor: 2\n' },
  },
};
