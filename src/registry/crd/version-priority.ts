/**
 * Kubernetes' ordering of version names (apimachinery's version.CompareKubeAwareVersionStrings):
 * what decides a group's preferred version in discovery and which version a deprecated CRD
 * version's warning points to.
 */

interface ParsedVersion {
  major: number;
  kind: 3 | 2 | 1; // GA, beta, alpha
  minor: number;
}

function parseKubeVersion(v: string): ParsedVersion | undefined {
  const m = /^v(\d+)(?:(alpha|beta)(\d+))?$/.exec(v);
  if (!m) return undefined;
  return { major: Number(m[1]), kind: m[2] === 'alpha' ? 1 : m[2] === 'beta' ? 2 : 3, minor: m[3] ? Number(m[3]) : 0 };
}

/**
 * version.CompareKubeAwareVersionStrings as a sort comparator (higher priority first): GA before
 * beta before alpha, higher numbers first, Kubernetes-like versions before others (which sort
 * alphabetically).
 */
export function compareKubeAwareVersions(a: string, b: string): number {
  const pa = parseKubeVersion(a);
  const pb = parseKubeVersion(b);
  if (!pa && !pb) return a < b ? -1 : a > b ? 1 : 0;
  if (!pa) return 1;
  if (!pb) return -1;
  if (pa.kind !== pb.kind) return pb.kind - pa.kind;
  if (pa.major !== pb.major) return pb.major - pa.major;
  return pb.minor - pa.minor;
}
