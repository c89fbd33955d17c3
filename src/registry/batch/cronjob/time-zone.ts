/**
 * Time zone names as Go's time.LoadLocation finds them in the IANA database, answered from
 * Node's Intl (its ICU copy of the same database): `UTC` and every zone or link name, spelled
 * as the database spells it (Go reads zoneinfo files, whose names are case-sensitive).
 */
const known = new Map<string, boolean>();

export function isTimeZone(name: string): boolean {
  if (name === '' || name === 'UTC' || name === 'Local') return true;
  let ok = known.get(name);
  if (ok === undefined) {
    try {
      const resolved = new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone;
      // ICU matches names case-insensitively: a name it resolves to itself in another case is misspelt.
      ok = resolved === name || resolved.toLowerCase() !== name.toLowerCase() || Intl.supportedValuesOf('timeZone').includes(name);
    } catch {
      ok = false;
    }
    if (known.size < 1000) known.set(name, ok);
  }
  return ok;
}
