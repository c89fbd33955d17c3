/**
 * `/version`: the version.Info kube-apiserver reports. kubectl's dispatcher picks the kubectl
 * binary matching gitVersion; we follow Kubernetes 1.35 semantics and say so.
 */
export const versionInfo = {
  major: '1',
  minor: '35',
  emulationMajor: '1',
  emulationMinor: '35',
  minCompatibilityMajor: '1',
  minCompatibilityMinor: '34',
  gitVersion: 'v1.35.0',
  gitCommit: '0000000000000000000000000000000000000000',
  gitTreeState: 'clean',
  buildDate: '2026-01-01T00:00:00Z',
  goVersion: 'go1.25.0',
  compiler: 'gc',
  platform: `${process.platform}/${process.arch === 'x64' ? 'amd64' : process.arch}`,
};
