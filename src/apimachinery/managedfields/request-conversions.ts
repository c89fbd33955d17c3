/**
 * The field manager's conversions when its kind converts asynchronously (a CRD's conversion
 * webhook, the converter upstream's NewCRDVersionConverter is built with). The merge algorithm is
 * synchronous, so a write runs the field manager inside `run`: a conversion not made yet throws
 * (whatever wraps or swallows that error), is noted, and once the field manager has returned or
 * thrown, the noted conversions are awaited and it runs again from the start — now finding them.
 * A run converges in as many rounds as its conversions depend on each other (the live and new
 * objects first, then what is merged from them). Results and failures live for one `run`, so
 * every write asks the webhook as upstream's does; a failure is thrown where the conversion is
 * asked for, as upstream's converter returns it.
 */
import { apiVersionOf, deepCopy, type Obj } from './manager.ts';

/** More rounds than this is a conversion that never settles (its results keep changing). */
const maxRounds = 16;

/** A conversion that `run` has not made yet (the field manager's error while it is pending). */
export class PendingConversionError extends Error {
  constructor(groupVersion: string) {
    super(`conversion to ${groupVersion} pending`);
  }
}

type Outcome = { object: Obj } | { error: Error };

interface Round {
  results: Map<string, Outcome>;
  pending: Map<string, { obj: Obj; groupVersion: string }>;
}

export class RequestConversions {
  /** The round whose synchronous part is running, if any. */
  private round: Round | undefined;

  /** `convert` rejects with the conversion's error (the API's 500 StatusError for a webhook's). */
  constructor(private readonly convert: (obj: Obj, groupVersion: string) => Promise<Obj>) {}

  /**
   * The field manager's convertToVersion: `obj` at `groupVersion` (itself when it is there
   * already). Throws the conversion's error, or PendingConversionError outside a round's
   * results.
   */
  readonly convertToVersion = (obj: Obj, groupVersion: string): Obj => {
    if (apiVersionOf(obj) === groupVersion) return obj;
    const round = this.round;
    if (round === undefined) throw new Error(`converting to ${groupVersion} is only possible during a write`);
    const key = `${groupVersion}\u0000${JSON.stringify(obj)}`;
    const done = round.results.get(key);
    if (done !== undefined) {
      if ('error' in done) throw done.error;
      return deepCopy(done.object);
    }
    round.pending.set(key, { obj: deepCopy(obj), groupVersion });
    throw new PendingConversionError(groupVersion);
  };

  /**
   * `fn` (a field manager call, or a function making one synchronously) run until every
   * conversion it asks for is made; its last outcome. `fn` must be safe to run again.
   */
  async run<T>(fn: () => T | Promise<T>): Promise<T> {
    const results = new Map<string, Outcome>();
    for (let i = 0; ; i++) {
      const round: Round = { results, pending: new Map() };
      let outcome: { value: T | Promise<T> } | { error: unknown };
      this.round = round;
      try {
        outcome = { value: fn() };
      } catch (error) {
        outcome = { error };
      } finally {
        this.round = undefined;
      }
      if (round.pending.size === 0) {
        if ('error' in outcome) throw outcome.error;
        return outcome.value;
      }
      if (i + 1 >= maxRounds) throw new Error(`conversions for the field manager did not settle after ${maxRounds} rounds`);
      // A promise fn returned is abandoned: its result is computed again in the next round.
      if ('value' in outcome && outcome.value instanceof Promise) outcome.value.catch(() => {});
      await Promise.all(
        [...round.pending].map(async ([key, { obj, groupVersion }]) => {
          try {
            results.set(key, { object: await this.convert(obj, groupVersion) });
          } catch (e) {
            results.set(key, { error: e instanceof Error ? e : new Error(String(e)) });
          }
        }),
      );
    }
  }
}
