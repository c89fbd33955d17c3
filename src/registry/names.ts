/**
 * Name generation for `metadata.generateName`, as k8s.io/apiserver/pkg/storage/names: the prefix
 * (cut to leave room) plus five random characters from an alphabet without vowels and confusable
 * characters, so generated names never spell words.
 */
import { randomInt } from 'node:crypto';

const alphanums = 'bcdfghjklmnpqrstvwxz2456789';
const randomLength = 5;
const maxNameLength = 63;
const maxGeneratedNameLength = maxNameLength - randomLength;

/** SimpleNameGenerator.GenerateName */
export function generateName(base: string): string {
  if (base.length > maxGeneratedNameLength) base = base.slice(0, maxGeneratedNameLength);
  let s = base;
  for (let i = 0; i < randomLength; i++) s += alphanums[randomInt(alphanums.length)];
  return s;
}

/** maxNameGenerationCreateAttempts: create retries with a fresh name this many times in all. */
export const maxNameGenerationCreateAttempts = 8;
