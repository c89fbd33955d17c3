/**
 * The difference a refused pod update shows after `pod updates may not change fields other
 * than ...`: upstream prints cmp.Diff of its internal PodSpec structs; this renders the same
 * shape — the struct, then `-` (stored) and `+` (requested) lines for each changed field, by
 * Go field name, with the values as JSON — not Go's byte-for-byte rendering of the structs.
 */
import { jsonEqual } from '../../../apimachinery/index.ts';
import type { Rec } from '../podspec/values.ts';

/** Go names whose initialisms are not a plain capitalisation of the JSON name. */
const goNames: Record<string, string> = {
  dnsPolicy: 'DNSPolicy',
  dnsConfig: 'DNSConfig',
  hostIPC: 'HostIPC',
  hostPID: 'HostPID',
  os: 'OS',
};

function goName(jsonName: string): string {
  return goNames[jsonName] ?? jsonName.charAt(0).toUpperCase() + jsonName.slice(1);
}

/** The rendered difference between the stored spec and the munged requested one. */
export function podSpecDiff(oldSpec: Rec, newSpec: Rec): string {
  const keys = [...new Set([...Object.keys(oldSpec), ...Object.keys(newSpec)])];
  const lines = ['  core.PodSpec{'];
  let same = 0;
  const flush = (): void => {
    if (same > 0) lines.push(`  \t... // ${same} identical field${same === 1 ? '' : 's'}`);
    same = 0;
  };
  for (const k of keys) {
    const a = oldSpec[k];
    const b = newSpec[k];
    if (jsonEqual(a, b)) {
      same++;
      continue;
    }
    flush();
    if (a !== undefined) lines.push(`- \t${goName(k)}: ${JSON.stringify(a)},`);
    if (b !== undefined) lines.push(`+ \t${goName(k)}: ${JSON.stringify(b)},`);
  }
  flush();
  lines.push('  }');
  return lines.join('\n') + '\n';
}
