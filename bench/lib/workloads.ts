/**
 * The built-in objects the benches write: a Deployment as applications define them, shared by
 * bench:http (created over HTTP) and bench:managedfields (its field manager Updates).
 */

/** A Deployment of one container with ports, resources, probes and an env var. */
export const benchDeployment = (name: string): Record<string, unknown> => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name, labels: { app: 'bench' } },
  spec: {
    replicas: 2,
    selector: { matchLabels: { app: name } },
    template: {
      metadata: { labels: { app: name } },
      spec: {
        containers: [
          {
            name: 'web',
            image: 'nginx:1.27',
            ports: [{ containerPort: 80, name: 'http' }],
            env: [{ name: 'MODE', value: 'production' }],
            resources: { requests: { cpu: '100m', memory: '128Mi' }, limits: { memory: '256Mi' } },
            readinessProbe: { httpGet: { path: '/', port: 'http' }, periodSeconds: 5 },
          },
        ],
      },
    },
  },
});
