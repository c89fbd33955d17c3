/**
 * What the admission policy e2e tests share: a `kubectl apply` that must succeed, and the
 * Deployment manifest the policies judge and mutate.
 */
import assert from 'node:assert/strict';
import { kubectl, manifest, type ServerProcess, type Result } from './harness.ts';

/** `kubectl apply -f` of `yaml` written as `file`; fails the test unless kubectl succeeds. */
export async function applyOK(s: ServerProcess, file: string, yaml: string): Promise<Result> {
  const r = await kubectl(s, ['apply', '-f', manifest(s, file, yaml)]);
  assert.equal(r.code, 0, r.stderr);
  return r;
}

/** A Deployment of one nginx container, selected by `app: <name>`; replicas and labels only where given. */
export const deploymentYAML = (name: string, ns: string, opts: { replicas?: number; labels?: string } = {}) => `apiVersion: apps/v1
kind: Deployment
metadata:
  name: ${name}
  namespace: ${ns}
${opts.labels ? `  labels: {${opts.labels}}\n` : ''}spec:
${opts.replicas === undefined ? '' : `  replicas: ${opts.replicas}\n`}  selector:
    matchLabels: {app: ${name}}
  template:
    metadata:
      labels: {app: ${name}}
    spec:
      containers:
      - name: c
        image: nginx
`;
