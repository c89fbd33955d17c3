/**
 * The progress bar of a long `validate` run: on stderr, only when stderr is a terminal (or
 * CRD_APISERVER_PROGRESS=1 says to draw it anyway, from the first file; =0 never), only with text
 * output (JSON output is for programs), and on a terminal only once the run has taken more than a
 * second, so that short runs and pipes print exactly what they always did. It shows files done of the total, documents judged
 * and documents per second, redrawn at most ten times a second, and is erased before each line
 * the run prints on stdout and at the end.
 */

/**
 * Whether this process draws a progress bar for the given output format, and after how many ms
 * of the run (undefined: none).
 */
export function progressWanted(format: 'text' | 'json'): number | undefined {
  if (format !== 'text') return undefined;
  const forced = process.env.CRD_APISERVER_PROGRESS;
  if (forced === '1') return 0;
  if (forced === '0') return undefined;
  return process.stderr.isTTY === true ? showAfterMs : undefined;
}

const showAfterMs = 1000;
const redrawEveryMs = 100;
const width = 24;

export class Progress {
  private readonly started = performance.now();
  private lastDraw = 0;
  private files = 0;
  private shown = false;

  constructor(
    private readonly totalFiles: number,
    /** Draws the bar once the run is this many ms old; undefined: never. */
    private readonly showAfter: number | undefined,
    private readonly err: (s: string) => void,
  ) {}

  /** A file is judged; `documents` judged so far. */
  fileDone(documents: number): void {
    this.files++;
    if (this.showAfter === undefined) return;
    const now = performance.now();
    if (now - this.started < this.showAfter || now - this.lastDraw < redrawEveryMs) return;
    this.lastDraw = now;
    const done = this.totalFiles === 0 ? 1 : Math.min(1, this.files / this.totalFiles);
    const filled = Math.round(done * width);
    const rate = Math.round(documents / ((now - this.started) / 1000));
    this.err(`\rvalidating [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${this.files}/${this.totalFiles} files, ${documents} documents, ${rate} documents/s\x1b[K`);
    this.shown = true;
  }

  /** `out`, erasing the bar first when it is on the screen (the next file redraws it). */
  clearing(out: (s: string) => void): (s: string) => void {
    return (s) => {
      this.erase();
      out(s);
    };
  }

  /** Erases the bar: the run is over. */
  finish(): void {
    this.erase();
  }

  private erase(): void {
    if (!this.shown) return;
    this.err('\r\x1b[K');
    this.shown = false;
    this.lastDraw = 0;
  }
}
