/**
 * validateUID of pkg/apis/resource/validation (a share ID): google/uuid's Validate, then the
 * normalized form Kubernetes writes (36 characters, lowercase). Lengths are Go's, in bytes.
 */
import { goQuote, invalid, type FieldError, type Path } from '../../../apimachinery/index.ts';

const hex = (b: number) => (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x46) || (b >= 0x61 && b <= 0x66);
const hexPairs = [0, 2, 4, 6, 9, 11, 14, 16, 19, 21, 24, 26, 28, 30, 32, 34];

/** uuid.Validate: the error's text, or undefined for a UUID in one of its four spellings. */
export function uuidError(s: string): string | undefined {
  let b = Buffer.from(s, 'utf8');
  switch (b.length) {
    case 36:
      break;
    case 36 + 9:
      if (b.subarray(0, 9).toString('latin1').toLowerCase() !== 'urn:uuid:') return `invalid urn prefix: ${goQuote(b.subarray(0, 9).toString('utf8'))}`;
      b = b.subarray(9);
      break;
    case 36 + 2:
      if (b[0] !== 0x7b || b[b.length - 1] !== 0x7d) return 'invalid bracketed UUID format';
      b = b.subarray(1, b.length - 1);
      break;
    case 32:
      for (let i = 0; i < 32; i++) if (!hex(b[i]!)) return 'invalid UUID format';
      break;
    default:
      return `invalid UUID length: ${b.length}`;
  }
  if (b.length === 36) {
    if (b[8] !== 0x2d || b[13] !== 0x2d || b[18] !== 0x2d || b[23] !== 0x2d) return 'invalid UUID format';
    for (const x of hexPairs) if (!hex(b[x]!) || !hex(b[x + 1]!)) return 'invalid UUID format';
  }
  return undefined;
}

const normalizedDetail = 'uid must be in RFC 4122 normalized form, `xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx` with lowercase hexadecimal characters';

/** validateUID */
export function validateUID(uid: string, p: Path): FieldError[] {
  const err = uuidError(uid);
  if (err !== undefined) return [invalid(p, uid, `error validating uid: ${err}`)];
  if (Buffer.byteLength(uid, 'utf8') !== 36 || uid !== uid.toLowerCase()) return [invalid(p, uid, normalizedDetail)];
  return [];
}
