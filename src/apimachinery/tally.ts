/** The passed/failed/skipped tally every vector suite prints once at its end, with each skip's reason. */
export class Tally {
  passed = 0;
  failed = 0;
  readonly skipped: { name: string; why: string }[] = [];
  constructor(readonly suite: string) {}
  skip(name: string, why: string): void {
    this.skipped.push({ name, why });
  }
  summary(): string {
    const reasons = new Map<string, number>();
    for (const s of this.skipped) reasons.set(s.why, (reasons.get(s.why) ?? 0) + 1);
    let out = `${this.suite}: ${this.passed} passed, ${this.failed} failed, ${this.skipped.length} skipped`;
    for (const [why, n] of reasons) out += `\n  skipped ${n}: ${why}`;
    return out;
  }
}
