/**
 * The JSON text of a number, as `JSON.stringify` writes it, fast for the trace's timestamps.
 *
 * A record's `t` is milliseconds rounded to the microsecond (common/trace/clock.ts), e.g.
 * `5123.457`: V8 prints such a double through its general shortest-digits algorithm, ≈ 0.5–2.5 µs a
 * number on this project's machines — most of the cost of a trace line's head under a flood. For a
 * value that is exactly the double nearest to a whole number of thousandths (`k / 1000 === value`),
 * below 10^12, that shortest text is the decimal k/1000 itself (any other decimal of at most three
 * places is at least 0.001 away, and doubles there are far closer together than that), written
 * here from two integers. Everything else goes to `String`.
 */

const LIMIT = 1e12;
/** `.001` … `.999` without trailing zeros; '' for whole numbers. */
const FRACTIONS: readonly string[] = Array.from({ length: 1000 }, (_, f) => (f === 0 ? '' : `.${String(f).padStart(3, '0').replace(/0+$/, '')}`));

export function jsonNumber(value: number): string {
  if (value >= 0 && value < LIMIT) {
    const thousandths = Math.round(value * 1000);
    if (thousandths / 1000 === value) {
      const whole = Math.floor(thousandths / 1000);
      return String(whole) + FRACTIONS[thousandths - whole * 1000]!;
    }
  }
  return Number.isFinite(value) ? String(value) : 'null';
}
