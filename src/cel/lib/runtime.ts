/**
 * Runtime wiring of the libraries: the implementations every Env carries (optional values,
 * cel.@mapInsert) and the named extension libraries an Env may install.
 */
import { libraryOverloads, type RtOverload } from '../eval/dispatch.ts';
import { bindingsLibrary } from './bindings.ts';
import { comprehensionsLibrary } from './comprehensions.ts';
import type { Library } from './decls.ts';
import { encodersLibrary } from './encoders.ts';
import { listsLibrary } from './lists.ts';
import { mathLibrary } from './math.ts';
import { optionalOverloads } from './optional.ts';
import { regexLibrary } from './regex.ts';
import { setsLibrary } from './sets.ts';
import { stringsLibrary } from './strings.ts';

/** Implementations installed in every Env (their declarations are in std/decls.ts or always present). */
export const extensionOverloads: readonly RtOverload[] = [...optionalOverloads, ...libraryOverloads(comprehensionsLibrary)];

/** The extension libraries by short name. */
export const extensionLibraries = {
  strings: stringsLibrary,
  lists: listsLibrary,
  sets: setsLibrary,
  math: mathLibrary,
  encoders: encodersLibrary,
  regex: regexLibrary,
  bindings: bindingsLibrary,
  comprehensions: comprehensionsLibrary,
} satisfies Record<string, Library>;

/** Every extension library. */
export const allExtensionLibraries: readonly Library[] = Object.values(extensionLibraries);
