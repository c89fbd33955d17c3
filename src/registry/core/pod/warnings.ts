/**
 * The warnings kube-apiserver returns for a pod or pod template (pkg/api/pod/warnings.go
 * GetWarningsForPod / GetWarningsForPodTemplate), the ones that are checks of values: deprecated
 * node labels in nodeSelector and node affinity, removed volume types, negative grace periods,
 * fractional memory, empty image pull secret names, env variables that hide earlier ones, and
 * duplicate container ports.
 */
import { Path, goQuote, isDNS1123Label } from '../../../apimachinery/index.ts';
import { deprecatedNodeLabels, nodeSelectorTerms, nodeSelectorTermWarnings } from '../nodeselector/validation.ts';
import { canonicalQuantityText } from '../../../cel/index.ts';
import { num, optNum, rec, recs, str, strMap, type Rec } from '../podspec/values.ts';

const removedVolumes: Record<string, string> = {
  gitRepo: 'deprecated in v1.11',
  photonPersistentDisk: 'deprecated in v1.11, non-functional in v1.16+',
  quobyte: 'deprecated in v1.22, non-functional in v1.25+',
  flocker: 'deprecated in v1.22, non-functional in v1.25+',
  storageos: 'deprecated in v1.22, non-functional in v1.25+',
  scaleIO: 'deprecated in v1.16, non-functional in v1.22+',
  cephfs: 'deprecated in v1.28, non-functional in v1.31+',
  rbd: 'deprecated in v1.28, non-functional in v1.31+',
  glusterfs: 'deprecated in v1.25, non-functional in v1.26+',
};

function containerWarnings(c: Rec, p: Path, out: string[]): void {
  const limits = rec(rec(c.resources)?.limits) ?? {};
  const requests = rec(rec(c.resources)?.requests) ?? {};
  for (const [kind, m] of [['limits', limits], ['requests', requests]] as const) {
    const v = m.memory;
    const q = typeof v === 'string' || typeof v === 'number' ? canonicalQuantityText(String(v)) : undefined;
    if (typeof q === 'string' && q.endsWith('m')) out.push(`${p.child('resources', kind).key('memory')}: fractional byte value ${goQuote(q)} is invalid, must be an integer`);
  }
  const seen = new Map<string, number>();
  recs(c.env).forEach((e, i) => {
    const name = str(e.name);
    if (seen.has(name)) out.push(`${p.child('env').index(i)}: hides previous definition of ${goQuote(name)}, which may be dropped when using apply`);
    seen.set(name, i);
  });
}

/** GetWarningsForPodTemplate's checks of a spec at specPath (a pod's `spec`, a template's `...template.spec`). */
export function podSpecWarnings(specValue: unknown, meta: Rec, specPath: Path): string[] {
  const spec = rec(specValue) ?? {};
  const out: string[] = [];
  const metaPath = specPath.toString() === 'spec' ? Path.of('metadata') : Path.of(specPath.toString().replace(/\.spec$/, '.metadata'));
  if (rec(meta.annotations)?.['seccomp.security.alpha.kubernetes.io/pod'] !== undefined) {
    out.push(`${metaPath.child('annotations').key('seccomp.security.alpha.kubernetes.io/pod')}: non-functional in v1.27+; use the "seccompProfile" field instead`);
  }
  for (const k of Object.keys(strMap(spec.nodeSelector)).sort()) {
    const msg = deprecatedNodeLabels[k];
    if (msg) out.push(`${specPath.child('nodeSelector').key(k)}: ${msg}`);
  }
  const termPath = specPath.child('affinity', 'nodeAffinity', 'requiredDuringSchedulingIgnoredDuringExecution', 'nodeSelectorTerms');
  nodeSelectorTerms(rec(rec(spec.affinity)?.nodeAffinity)?.requiredDuringSchedulingIgnoredDuringExecution).forEach((t, i) => out.push(...nodeSelectorTermWarnings(t, termPath.index(i))));
  recs(spec.volumes).forEach((v, i) => {
    for (const [kind, msg] of Object.entries(removedVolumes)) {
      if (rec(v[kind])) out.push(`${specPath.child('volumes').index(i).child(kind)}: ${msg}`);
    }
  });
  const tgps = optNum(spec.terminationGracePeriodSeconds);
  if (tgps !== undefined && tgps < 0) out.push(`${specPath.child('terminationGracePeriodSeconds')}: must be >= 0; negative values are invalid and will be treated as 1`);
  recs(spec.imagePullSecrets).forEach((s, i) => {
    if (str(s.name) === '') out.push(`${specPath.child('imagePullSecrets').index(i).child('name')}: invalid empty name ""`);
  });
  recs(spec.initContainers).forEach((c, i) => containerWarnings(c, specPath.child('initContainers').index(i), out));
  recs(spec.containers).forEach((c, i) => containerWarnings(c, specPath.child('containers').index(i), out));
  // Ports: the same containerPort and protocol (and hostIP/hostPort) declared twice.
  const ports = new Map<string, string>();
  recs(spec.containers).forEach((c, ci) => {
    recs(c.ports).forEach((port, pi) => {
      const key = `${num(port.containerPort)}/${str(port.protocol) || 'TCP'}/${str(port.hostIP)}/${num(port.hostPort)}`;
      const here = specPath.child('containers').index(ci).child('ports').index(pi).toString();
      const prev = ports.get(key);
      if (prev !== undefined) out.push(`${here}: duplicate port definition with ${prev}`);
      else ports.set(key, here);
    });
  });
  return out;
}

/**
 * A controller's warnings (its strategy's WarningsOnCreate/Update): a name that is not a DNS
 * label, then GetWarningsForPodTemplate of its template at templatePath. On update only the
 * warnings the stored object did not already have.
 */
export function controllerWarnings(obj: Rec, templatePath: Path, template: Rec | undefined, old?: { obj: Rec; template: Rec | undefined }): string[] {
  const out: string[] = [];
  const name = str(rec(obj.metadata)?.name);
  const msgs = isDNS1123Label(name);
  if (old === undefined && msgs.length > 0) {
    out.push(`metadata.name: this is used in Pod names and hostnames, which can result in surprising behavior; a DNS label is recommended: [${msgs.join(' ')}]`);
  }
  const spec = podSpecWarnings(template?.spec, rec(template?.metadata) ?? {}, templatePath.child('spec'));
  if (old === undefined) return [...out, ...spec];
  const before = new Set(podSpecWarnings(old.template?.spec, rec(old.template?.metadata) ?? {}, templatePath.child('spec')));
  return [...out, ...spec.filter((w) => !before.has(w))];
}
