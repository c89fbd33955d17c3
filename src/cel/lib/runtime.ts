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
import { stringsLibrary, stringsLibraryV2 } from './strings.ts';

/** Implementations installed in every Env (their declarations are in std/decls.ts or always present). */
export const extensionOverloads: readonly RtOverload[] = [...optionalOverloads, ...libraryOverloads(comprehensionsLibrary)];

/**
 * The extension libraries by short name. `strings` is the latest cel-go strings library (what the
 * conformance suite expects); `stringsV2` is version 2, the one Kubernetes installs (its format()
 * differs).
 */
export const extensionLibraries = {
  strings: stringsLibrary,
  stringsV2: stringsLibraryV2,
  lists: listsLibrary,
  sets: setsLibrary,
  math: mathLibrary,
  encoders: encodersLibrary,
  regex: regexLibrary,
  bindings: bindingsLibrary,
  comprehensions: comprehensionsLibrary,
} satisfies Record<string, Library>;

/** Every extension library (with the latest strings library). */
export const allExtensionLibraries: readonly Library[] = Object.values(extensionLibraries).filter((l) => l !== stringsLibraryV2);
