/**
 * Static tokens (`token/tokenfile`, `--token-auth-file`): a CSV file of
 * `token,user,uid[,"group1,group2"]` records, read once at start as kube-apiserver reads it
 * (columns after the fourth ignored, a record with an empty token skipped, a later duplicate
 * winning), answering for the tokens it lists.
 */
import { readFileSync } from 'node:fs';
import type { UserInfo } from '../../registry/index.ts';
import type { TokenAuthenticator } from './authenticator.ts';
import { readCSV } from './csv.ts';

/** The token→user map of a token file's text; throws with upstream's message for a short record. */
export function parseTokenFile(text: string, path: string): Map<string, UserInfo> {
  const tokens = new Map<string, UserInfo>();
  for (const record of readCSV(text)) {
    if (record.length < 3) throw new Error(`token file '${path}' must have at least 3 columns (token, user name, user uid), found ${record.length}`);
    const [token, username, uid] = record as [string, string, string];
    if (token === '') continue;
    tokens.set(token, { username, ...(uid !== '' ? { uid } : {}), groups: record.length >= 4 ? record[3]!.split(',') : [] });
  }
  return tokens;
}

/** The authenticator of a token file's users (each call answers with a fresh copy of the user). */
export function tokenFileAuthenticator(tokens: ReadonlyMap<string, UserInfo>): TokenAuthenticator {
  return {
    authenticateToken(token) {
      const u = tokens.get(token);
      return Promise.resolve(u ? { ...u, groups: [...u.groups] } : null);
    },
  };
}

/** Reads `--token-auth-file`; throws with the file's or the CSV reader's error. */
export function readTokenFile(path: string): TokenAuthenticator {
  return tokenFileAuthenticator(parseTokenFile(readFileSync(path, 'utf8'), path));
}
