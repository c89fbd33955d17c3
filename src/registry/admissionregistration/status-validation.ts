/**
 * ValidatingAdmissionPolicy's status: the type checker's warnings name a field by a JSONPath
 * (validateFieldRef). Its conditions follow metav1's rules, apimachinery's validateConditions.
 */
import { invalid, required, type FieldError, type Path } from '../../apimachinery/index.ts';
import { parseJSONPath } from '../table/jsonpath.ts';

/** validateFieldRef: a JSONPath that client-go's parser accepts (no further checks, for easier upgrades). */
export function validateFieldRef(fieldRef: string, path: Path): FieldError[] {
  const ref = fieldRef.trim();
  if (ref === '') return [required(path, '')];
  try {
    parseJSONPath(`{${ref}}`);
  } catch (e) {
    return [invalid(path, ref, `invalid JSONPath: ${(e as Error).message}`)];
  }
  return [];
}
