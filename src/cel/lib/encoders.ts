/**
 * The encoders extension library (cel-go ext/encoders.go): base64.encode(bytes) -> string and
 * base64.decode(string) -> bytes (standard alphabet; unpadded input accepted, as cel-go retries
 * with RawStdEncoding).
 */
import { BytesType, StringType } from '../check/types.ts';
import { CelError, type Val, base64Encode } from '../eval/values.ts';
import type { Library } from './decls.ts';
import { fn, global } from './define.ts';

function decode(s: string): Val {
  const body = s.endsWith('==') ? s.slice(0, -2) : s.endsWith('=') ? s.slice(0, -1) : s;
  const bad = /[^A-Za-z0-9+/]/.exec(body);
  const padded = s.length !== body.length;
  if (bad) return new CelError(`illegal base64 data at input byte ${bad.index}`);
  if (body.length % 4 === 1 || (padded && s.length % 4 !== 0)) {
    return new CelError(`illegal base64 data at input byte ${padded ? body.length : body.length - 1}`);
  }
  return new Uint8Array(Buffer.from(body, 'base64'));
}

export const encodersLibrary: Library = {
  name: 'cel.lib.ext.encoders',
  functions: [
    fn('base64.decode', global('base64_decode_string', [StringType], BytesType, decode)),
    fn('base64.encode', global('base64_encode_bytes', [BytesType], StringType, (b: Uint8Array) => base64Encode(b))),
  ],
};
