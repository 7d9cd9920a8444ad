import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Decimal } from "./decimal.ts";
import {
  addTime,
  daysToSeconds,
  diffTime,
  hoursToSeconds,
  minutesToSeconds,
  PactTime,
  secondsToMicros,
} from "./time.ts";
import { formatIsoTime, formatTime, parseIsoTime, parseTime, showTime } from "./time-format.ts";

const time = (s: string) => {
  const t = parseIsoTime(s);
  assert.ok(t, `bad test time ${s}`);
  return t;
};
/** Date.UTC without its 1900 offset for years 0..99. */
const utc = (y: number, m: number, d: number) => {
  const date = new Date(0);
  date.setUTCFullYear(y, m, d);
  return date.getTime();
};
const T = time("2010-12-21T13:23:45Z");
const T2 = addTime(T, Decimal.parseLiteral("0.001002"));
const dec = (x: Decimal) => [x.mantissa, x.places];

describe("time arithmetic", () => {
  it("parses the default format", () => {
    assert.equal(T.micros, 1292937825000000n);
    assert.equal(time("1970-01-01T00:00:00Z").micros, 0n);
    assert.equal(time("1969-12-31T23:59:59Z").micros, -1000000n);
    assert.equal(time("  2016-07-22T12:00:00Z \n").micros, 1469188800000000n);
    assert.equal(parseIsoTime("2016-07-22 12:00:00Z"), null);
    assert.equal(parseIsoTime("2016-07-22T12:00:00"), null);
  });
  it("add-time takes integer or decimal seconds, rounding to µs with banker's rounding", () => {
    assert.equal(addTime(T, 1n).micros, T.micros + 1000000n);
    assert.equal(addTime(T, Decimal.parseLiteral("1.0")).micros, T.micros + 1000000n);
    assert.equal(addTime(T, Decimal.parseLiteral("0.0000005")).micros, T.micros);
    assert.equal(addTime(T, Decimal.parseLiteral("0.0000015")).micros, T.micros + 2n);
    assert.equal(addTime(T, Decimal.parseLiteral("-0.0000025")).micros, T.micros - 2n);
    assert.equal(
      addTime(time("2016-07-22T00:00:00Z"), daysToSeconds(1n)).micros,
      time("2016-07-23T00:00:00Z").micros,
    );
  });
  it("secondsToMicros wraps to a 64-bit Int like pact-time", () => {
    assert.equal(secondsToMicros(2n ** 63n), 0n);
    assert.equal(secondsToMicros(9223372036855n), -9223372036854775808n + 224192n);
  });
  it("diff-time gives normalized decimal seconds", () => {
    assert.deepEqual(dec(diffTime(time("2016-07-22T11:26:35Z"), time("2016-07-22T10:26:35Z"))), [
      3600n,
      0,
    ]);
    assert.deepEqual(dec(diffTime(T2, T)), [1002n, 6]);
    assert.deepEqual(dec(diffTime(T, T2)), [-1002n, 6]);
    assert.ok(
      diffTime(time("2016-07-22T11:26:35Z"), time("2016-07-22T10:26:35Z")).equals(
        hoursToSeconds(1n),
      ),
    );
  });
  it("minutes, hours and days are decimal seconds", () => {
    assert.deepEqual(dec(minutesToSeconds(1n)), [60n, 0]);
    assert.deepEqual(dec(minutesToSeconds(Decimal.parseLiteral("1.50"))), [90n, 0]);
    assert.deepEqual(dec(hoursToSeconds(1n)), [3600n, 0]);
    assert.deepEqual(dec(hoursToSeconds(Decimal.parseLiteral("0.5"))), [1800n, 0]);
    assert.deepEqual(dec(daysToSeconds(1n)), [86400n, 0]);
    assert.deepEqual(dec(daysToSeconds(Decimal.parseLiteral("0.00001"))), [864n, 3]);
    assert.ok(hoursToSeconds(24n).equals(daysToSeconds(1n)));
  });
  it("compares and orders times", () => {
    assert.equal(T.compare(T2), -1);
    assert.equal(T2.compare(T), 1);
    assert.ok(T.equals(new PactTime(T.micros)));
  });
});

describe("format-time", () => {
  it("writes every specifier as time.repl expects", () => {
    const cases: [string, PactTime, string][] = [
      ["%%", T, "%"],
      ["%k", T, "13"],
      ["%I", T, "01"],
      ["%l", T, " 1"],
      ["%M", T, "23"],
      ["%S", T, "45"],
      ["%q", T2, "001002000000"],
      ["%v", T2, "001002"],
      ["%Q", T2, ".001002"],
      ["%Q", T, ""],
      ["%s", T, "1292937825"],
      ["%D", T, "12/21/10"],
      ["%F", T, "2010-12-21"],
      ["%x", T, "12/21/10"],
      ["%Y", T, "2010"],
      ["%y", T, "10"],
      ["%C", T, "20"],
      ["%B", T, "December"],
      ["%b", T, "Dec"],
      ["%h", T, "Dec"],
      ["%m", T, "12"],
      ["%d", T, "21"],
      ["%e", T, "21"],
      ["%j", T, "355"],
      ["%G", T, "2010"],
      ["%g", T, "10"],
      ["%f", T, "20"],
      ["%V", T, "51"],
      ["%u", T, "2"],
      ["%a", T, "Tue"],
      ["%A", T, "Tuesday"],
      ["%U", T, "51"],
      ["%w", T, "2"],
      ["%W", T, "51"],
    ];
    for (const [fmt, t, expected] of cases) assert.equal(formatTime(fmt, t), expected, fmt);
  });
  it("expands aggregates and ignores modifiers", () => {
    assert.equal(formatTime("%c", T), "Tue Dec 21 13:23:45 UTC 2010");
    assert.equal(formatTime("%r", T), "01:23:45 PM");
    assert.equal(formatTime("%X", T), "13:23:45");
    assert.equal(formatTime("%R|%T", T), "13:23|13:23:45");
    assert.equal(formatTime("%-d|%_H|%0M|%^a|%#b|%--d", T), "21|13|23|Tue|Dec|21");
    assert.equal(formatTime("%p %P", time("2010-12-21T00:00:00Z")), "AM am");
    assert.equal(formatTime("%I %l", time("2010-12-21T00:05:00Z")), "12 12");
    assert.equal(formatTime("%z %N %Z", T), "+0000 +00:00 UTC");
  });
  it("writes unknown specifiers back and keeps a trailing %", () => {
    assert.equal(formatTime("%E %O %t %i%", T), "%E %O %t %i%");
    assert.equal(formatTime("héllo %Y ✓", T), "héllo 2010 ✓");
  });
  it("pads years and handles times before the epoch", () => {
    const early = time("0099-01-05T00:00:00Z");
    assert.equal(formatTime("%Y %y %C %G %V", early), "0099 99 00 0099 02");
    const beforeEpoch = new PactTime(-900000n);
    assert.equal(formatTime("%s%Q", beforeEpoch), "0.1");
    assert.equal(formatTime("%Y-%m-%dT%H:%M:%S%Q", beforeEpoch), "1969-12-31T23:59:59.1");
    assert.equal(formatTime("%s", new PactTime(-1100000n)), "-1");
  });
  it("default display drops fractional seconds; show keeps them", () => {
    assert.equal(formatIsoTime(T2), "2010-12-21T13:23:45Z");
    assert.equal(showTime(new PactTime(1648585041296857n)), "2022-03-29 20:17:21.296857 UTC");
    assert.equal(showTime(T), "2010-12-21 13:23:45 UTC");
  });
  it("agrees with an independent calendar on random dates", () => {
    let seed = 12345;
    const next = () => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed / 2147483648;
    };
    for (let k = 0; k < 3000; k++) {
      // years 0001..9999
      const ms = 1000 * Math.floor(-62135596800 + next() * (253402300799 + 62135596800));
      const t = new PactTime(BigInt(ms) * 1000n);
      const date = new Date(ms);
      assert.equal(formatTime("%Y-%m-%dT%H:%M:%S", t), date.toISOString().slice(0, 19), `${ms}`);
      const wday = date.getUTCDay();
      const start = utc(date.getUTCFullYear(), 0, 1);
      const yday = Math.floor(
        (utc(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate()) - start) / 86400000,
      );
      assert.equal(formatTime("%w %j", t), `${wday} ${String(yday + 1).padStart(3, "0")}`);
      const sundayWeek = Math.floor((yday + 7 - wday) / 7);
      const mondayWeek = Math.floor((yday + 7 - ((wday + 6) % 7)) / 7);
      assert.equal(
        formatTime("%U %W", t),
        `${String(sundayWeek).padStart(2, "0")} ${String(mondayWeek).padStart(2, "0")}`,
      );
      // ISO week: the week containing this week's Thursday
      const thursday = new Date(
        utc(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate() + 3 - ((wday + 6) % 7)),
      );
      const isoYear = thursday.getUTCFullYear();
      const isoWeek = Math.floor((thursday.getTime() - utc(isoYear, 0, 1)) / 86400000 / 7) + 1;
      assert.equal(
        formatTime("%G %V %u", t),
        `${String(isoYear).padStart(4, "0")} ${String(isoWeek).padStart(2, "0")} ${wday === 0 ? 7 : wday}`,
      );
      // and back
      assert.equal(
        parseTime("%Y-%m-%dT%H:%M:%S", date.toISOString().slice(0, 19))?.micros,
        t.micros,
      );
      assert.equal(parseTime("%G-%V-%u %T", formatTime("%G-%V-%u %T", t))?.micros, t.micros);
      assert.equal(parseTime("%Y %j %T", formatTime("%Y %j %T", t))?.micros, t.micros);
      assert.equal(parseTime("%Y %U %w %T", formatTime("%Y %U %w %T", t))?.micros, t.micros);
      assert.equal(parseTime("%Y %W %u %T", formatTime("%Y %W %u %T", t))?.micros, t.micros);
    }
  });
});

describe("parse-time", () => {
  it("parses dates and round-trips the time.repl formats", () => {
    assert.equal(parseTime("%Y-%m-%d", "2016-07-22")?.micros, time("2016-07-22T00:00:00Z").micros);
    for (const [fmt, t] of [
      ["%Y-%m-%dT%H:%M:%S%N", T],
      ["%a, %_d %b %Y %H:%M:%S %Z", T],
      ["%Y-%m-%d %H:%M:%S.%v", T2],
      ["%Y-%m-%d %H:%M:%S%Q %Z", T2],
      ["%c", T],
      ["%s", T],
      ["%D %r", T],
    ] as const) {
      assert.equal(parseTime(fmt, formatTime(fmt, t))?.micros, t.micros, fmt);
    }
  });
  it("backtracks from a greedy year to four digits", () => {
    assert.equal(parseTime("%Y%m%d", "20160722")?.micros, time("2016-07-22T00:00:00Z").micros);
    assert.equal(parseTime("%Y", "12345")?.micros, parseTime("%Y-%m-%d", "12345-01-01")?.micros);
    assert.equal(parseTime("%Y", "-0044")?.micros, -63555753600000000n);
  });
  it("handles space-padded fields with one or two digits", () => {
    assert.equal(parseTime("%e %b %Y", " 5 Jan 2020")?.micros, time("2020-01-05T00:00:00Z").micros);
    // two digits "50" succeed (day clamped to 31), and the greedy year takes "020"
    assert.equal(parseTime("%e%m%Y", "5012020")?.micros, time("0020-12-31T00:00:00Z").micros);
    // two digits "5-" give 5 but then "-" is missing, so one digit is tried
    assert.equal(parseTime("%e-%m", "5-01")?.micros, time("1970-01-05T00:00:00Z").micros);
    assert.equal(
      parseTime("%Y-%m-%d %k", "2020-01-05  7")?.micros,
      time("2020-01-05T07:00:00Z").micros,
    );
  });
  it("applies 12-hour clocks and AM/PM case-insensitively", () => {
    assert.equal(
      parseTime("%F %I:%M %p", "2020-01-05 12:30 am")?.micros,
      time("2020-01-05T00:30:00Z").micros,
    );
    assert.equal(
      parseTime("%F %I:%M %p", "2020-01-05 12:30 PM")?.micros,
      time("2020-01-05T12:30:00Z").micros,
    );
    assert.equal(
      parseTime("%F %l %P", "2020-01-05 3 pm")?.micros,
      time("2020-01-05T15:00:00Z").micros,
    );
    assert.equal(
      parseTime("%F %p %H", "2020-01-05 PM 03")?.micros,
      time("2020-01-05T03:00:00Z").micros,
    );
  });
  it("reads month and day names case-insensitively, first match wins", () => {
    assert.equal(
      parseTime("%B %d %Y", "MARCH 01 2020")?.micros,
      time("2020-03-01T00:00:00Z").micros,
    );
    assert.equal(
      parseTime("%A %F", "friday 2020-03-01")?.micros,
      time("2020-03-01T00:00:00Z").micros,
    );
    assert.equal(parseTime("%b%d %Y", "June05 2020"), null); // "Jun" matches, then "e0" is not a day
  });
  it("applies zone offsets and zone names", () => {
    assert.equal(
      parseTime("%F %T %z", "2020-01-05 12:00:00 +0130")?.micros,
      time("2020-01-05T10:30:00Z").micros,
    );
    assert.equal(
      parseTime("%F %T %N", "2020-01-05 12:00:00 -01:00")?.micros,
      time("2020-01-05T13:00:00Z").micros,
    );
    assert.equal(
      parseTime("%F %T %Z", "2020-01-05 12:00:00 PST")?.micros,
      time("2020-01-05T20:00:00Z").micros,
    );
    assert.equal(
      parseTime("%F %T %Z", "2020-01-05 12:00:00 METDST")?.micros,
      time("2020-01-05T10:00:00Z").micros,
    );
    assert.equal(
      parseTime("%F %T %Z", "2020-01-05 12:00:00 EAST")?.micros,
      time("2020-01-05T02:00:00Z").micros,
    );
    assert.equal(parseTime("%F %T %Z", "2020-01-05 12:00:00 pst"), null);
    assert.equal(parseTime("%F %T %z", "2020-01-05 12:00:00 PST"), null);
  });
  it("reads fractions rounded half up at the 7th digit", () => {
    assert.equal(parseTime("%s%Q", "0.1234565")?.micros, 0n); // %s wins: only the POSIX seconds count
    assert.equal(parseTime("%T%Q", "00:00:00.1234565")?.micros, 123457n);
    assert.equal(parseTime("%T%Q", "00:00:00.12345649999")?.micros, 123456n);
    assert.equal(parseTime("%T%Q", "00:00:00.9999995")?.micros, 1000000n);
    assert.equal(parseTime("%T%Q", "00:00:00")?.micros, 0n);
    assert.equal(parseTime("%T.%v", "00:00:00.5")?.micros, 500000n);
    assert.equal(parseTime("%T%Q.", "00:00:00.")?.micros, 0n);
    assert.equal(parseTime("%T.%q", "00:00:00.000001000000")?.micros, 1n);
  });
  it("clamps out-of-range dates and carries out-of-range times", () => {
    assert.equal(parseTime("%F", "2016-02-30")?.micros, time("2016-02-29T00:00:00Z").micros);
    assert.equal(parseTime("%F", "2015-13-40")?.micros, time("2015-12-31T00:00:00Z").micros);
    assert.equal(
      parseTime("%F %T", "2015-12-31 24:60:61")?.micros,
      time("2016-01-01T01:01:01Z").micros,
    );
    assert.equal(parseTime("%Y %j", "2015 400")?.micros, time("2015-12-31T00:00:00Z").micros);
  });
  it("takes fixed widths byte by byte, ignoring trailing non-digits in the field", () => {
    assert.equal(
      parseTime("%F %H%M", "2020-01-05 1:30")?.micros,
      time("2020-01-05T01:30:00Z").micros,
    );
    assert.equal(parseTime("%F %H", "2020-01-05 1"), null);
  });
  it("uses two-digit years from 1969 to 2068", () => {
    assert.equal(formatTime("%Y", parseTime("%y", "68") as PactTime), "2068");
    assert.equal(formatTime("%Y", parseTime("%y", "69") as PactTime), "1969");
    assert.equal(formatTime("%Y", parseTime("%C%y", "1705") as PactTime), "1705");
  });
  it("matches white space runs and literal characters", () => {
    assert.equal(parseTime("%Y  -%m", "2020\t\t-03")?.micros, time("2020-03-01T00:00:00Z").micros);
    assert.equal(parseTime("%Y -%m", "2020-03")?.micros, time("2020-03-01T00:00:00Z").micros);
    assert.equal(parseTime("é%Y✓", "é2020✓")?.micros, time("2020-01-01T00:00:00Z").micros);
    assert.equal(parseTime("100%% %Y", "100% 2020")?.micros, time("2020-01-01T00:00:00Z").micros);
    assert.equal(parseTime("%Y%", "2020%")?.micros, time("2020-01-01T00:00:00Z").micros);
  });
  it("fails on unknown specifiers, leftovers and missing input", () => {
    assert.equal(parseTime("%Y %i", "2020 1"), null);
    assert.equal(parseTime("%Y", "2020x"), null);
    assert.equal(parseTime("%Y-%m", "2020-"), null);
    assert.equal(parseTime("%^Y", "2020"), null);
    assert.equal(parseTime("", "")?.micros, 0n);
    assert.equal(parseTime("", "   ")?.micros, 0n);
  });
  it("parses %s as POSIX seconds, negative included", () => {
    assert.equal(parseTime("%s", "-86400")?.micros, -86400000000n);
    assert.equal(parseTime("%s", "1292937825")?.micros, T.micros);
  });
});
