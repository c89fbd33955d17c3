/**
 * core/v1 Secret's defaulting: Convert_v1_Secret_To_core_Secret writes stringData over data (each
 * value's UTF-8 bytes, so base64 here) and stringData is never stored; SetDefaults_Secret makes an
 * empty type Opaque.
 */
import type { Obj } from '../../rest.ts';
import { asObject, setDefault } from '../../defaulting/fields.ts';

/** MUTATES obj. */
export function defaultSecret(obj: Obj): void {
  const sd = asObject(obj.stringData);
  if (sd !== undefined) {
    const entries = Object.entries(sd);
    if (entries.length > 0) {
      const data = asObject(obj.data) ?? {};
      for (const [k, v] of entries) data[k] = Buffer.from(String(v), 'utf8').toString('base64');
      obj.data = data;
    }
  }
  delete obj.stringData;
  setDefault(obj, 'type', 'Opaque', '');
}

export const secretDefaulters = { '/v1/secrets': defaultSecret };
