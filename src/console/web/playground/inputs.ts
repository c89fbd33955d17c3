/**
 * The playground's input documents: YAML (or JSON) read as the server reads request bodies
 * (sigs.k8s.io/yaml), each error naming the document and its line, as a value rather than an
 * exception.
 */
import { readYAML, YAMLDecodeError } from '../../../apimachinery/index.ts';

export interface InputError {
  /** The input's name (`object`, `params`, ...). */
  input: string;
  message: string;
  line?: number;
}

/** A document's value (undefined for an empty one), or its error. */
export function readInput(input: string, text: string | undefined): { value: unknown } | { error: InputError } {
  if (text === undefined || text.trim() === '') return { value: undefined };
  try {
    const d = readYAML(text);
    return { value: d.value ?? undefined };
  } catch (e) {
    if (e instanceof YAMLDecodeError) {
      const m = /line (\d+)/.exec(e.message);
      return { error: { input, message: e.message, ...(m ? { line: Number(m[1]) } : {}) } };
    }
    return { error: { input, message: e instanceof Error ? e.message : String(e) } };
  }
}
