/**
 * Where a server error points in the YAML the user edited: a Status cause's field path
 * (`spec.template.spec.containers[0].image`, `metadata.labels[app]`, `spec.x[key]`) resolved to
 * the line of that node in the text, or of its deepest existing ancestor, so the editor can mark
 * the error where the field is.
 */
import { readYAML } from '../../apimachinery/index.ts';

/** The keys and indices of a Kubernetes field path. */
export function fieldPathSegments(field: string): (string | number)[] {
  const out: (string | number)[] = [];
  const re = /([^.[\]]+)|\[([^\]]*)\]/g;
  for (let m = re.exec(field); m; m = re.exec(field)) {
    if (m[1] !== undefined) out.push(m[1]);
    else out.push(/^\d+$/.test(m[2]!) ? Number(m[2]) : m[2]!);
  }
  return out;
}

export interface LocatedError {
  message: string;
  field?: string;
  /** 1-based line in the text (1 when nothing better is known). */
  line: number;
}

/** A Status's causes (or its message) located in the YAML text the request was made from. */
export function locateStatus(text: string, status: { message?: string; details?: { causes?: { field?: string; message?: string; reason?: string }[] } }): LocatedError[] {
  let doc: ReturnType<typeof readYAML> | undefined;
  try {
    doc = readYAML(text);
  } catch {
    doc = undefined;
  }
  const lineOf = (field: string | undefined): number => {
    if (doc === undefined || field === undefined || field === '') return 1;
    return doc.position(doc.offsetOf(fieldPathSegments(field))).line;
  };
  const causes = status.details?.causes ?? [];
  if (causes.length === 0) {
    // A decode error names its line itself (`error converting YAML to JSON: yaml: line 3: ...`).
    const m = /\bline (\d+)\b/.exec(status.message ?? '');
    return [{ message: status.message ?? 'the request failed', line: m ? Number(m[1]) : 1 }];
  }
  return causes.map((c) => ({
    message: c.field ? `${c.field}: ${c.message ?? c.reason ?? ''}` : (c.message ?? c.reason ?? ''),
    ...(c.field ? { field: c.field } : {}),
    line: lineOf(c.field),
  }));
}
