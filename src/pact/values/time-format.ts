/**
 * strftime-like formatting and parsing of Pact times, with the exact behaviour of the pact-time
 * library (`formatTime`, `parseTime`) that Pact's `format-time`, `parse-time` and `time` use.
 *
 * Formatting: unknown specifiers are written back as `%c`; the modifiers `- _ 0 ^ #` are
 * ignored. Parsing works on the UTF-8 bytes of the input like pact-time's attoparsec parser:
 * leading and trailing white space is skipped, a space in the format matches any run of white
 * space, out-of-range fields are clamped or carried rather than rejected, and an unknown
 * specifier makes the parse fail.
 */
import {
  floorDivN,
  floorModN,
  fromGregorian,
  fromMondayWeek,
  fromOrdinalDate,
  fromSundayWeek,
  fromWeekDate,
  isLeapYear,
  monthDayFromYearDay,
  toMondayWeek,
  toOrdinalDate,
  toSundayWeek,
  toWeekDate,
} from "./calendar.ts";
import { MICROS_PER_DAY, PactTime, UNIX_EPOCH_MJD_MICROS } from "./time.ts";

/** Pact's default time format, used by `time`, by display and by JSON `{"time":…}`. */
export const ISO8601_FORMAT = "%Y-%m-%dT%H:%M:%SZ";
/** The JSON `{"timep":…}` format. */
export const HIGH_PRECISION_FORMAT = "%Y-%m-%dT%H:%M:%S.%vZ";
/** pact-time's `Show UTCTime` format, used for default nonces: `2022-03-29 20:17:21.296857 UTC`. */
export const SHOW_FORMAT = "%Y-%m-%d %H:%M:%S%Q %Z";

/**
 * Years beyond this magnitude make `parseTime` fail. pact-time computes in wrapping 64-bit Ints
 * and returns meaningless times there; no valid Pact time is that far away (Int64 microseconds
 * span ±292,000 years).
 */
export const MAX_PARSED_YEAR = 1_000_000_000;

const WEEK_DAYS: readonly (readonly [string, string])[] = [
  ["Sunday", "Sun"],
  ["Monday", "Mon"],
  ["Tuesday", "Tue"],
  ["Wednesday", "Wed"],
  ["Thursday", "Thu"],
  ["Friday", "Fri"],
  ["Saturday", "Sat"],
];
const MONTHS: readonly (readonly [string, string])[] = [
  ["January", "Jan"],
  ["February", "Feb"],
  ["March", "Mar"],
  ["April", "Apr"],
  ["May", "May"],
  ["June", "Jun"],
  ["July", "Jul"],
  ["August", "Aug"],
  ["September", "Sep"],
  ["October", "Oct"],
  ["November", "Nov"],
  ["December", "Dec"],
];
const AGGREGATES: Readonly<Record<string, string>> = {
  c: "%a %b %e %H:%M:%S %Z %Y",
  r: "%I:%M:%S %p",
  X: "%H:%M:%S",
  x: "%m/%d/%y",
};

function pad2(n: number): string {
  return n < 10 ? `0${n}` : `${n}`;
}
function space2(n: number): string {
  return n < 10 ? ` ${n}` : `${n}`;
}
function pad3(n: number): string {
  return n < 10 ? `00${n}` : n < 100 ? `0${n}` : `${n}`;
}
function pad6(n: number): string {
  return n.toString().padStart(6, "0");
}
function showYear(y: number): string {
  const digits = Math.abs(y).toString().padStart(4, "0");
  return y < 0 ? `-${digits}` : digits;
}

/** Everything a format specifier can ask about one time, computed once per call. */
class TimeFields {
  readonly mjd: number;
  readonly hour: number;
  readonly minute: number;
  readonly second: number;
  readonly micro: number;
  private ordinalCache: ReturnType<typeof toOrdinalDate> | undefined;

  constructor(readonly time: PactTime) {
    const mjdMicros = time.mjdMicros;
    let day = mjdMicros / MICROS_PER_DAY;
    let dayTime = mjdMicros - day * MICROS_PER_DAY;
    if (dayTime < 0n) {
      day -= 1n;
      dayTime += MICROS_PER_DAY;
    }
    this.mjd = Number(day);
    const t = Number(dayTime);
    this.hour = Math.trunc(t / 3_600_000_000);
    const inHour = t - this.hour * 3_600_000_000;
    this.minute = Math.trunc(inHour / 60_000_000);
    const inMinute = inHour - this.minute * 60_000_000;
    this.second = Math.trunc(inMinute / 1_000_000);
    this.micro = inMinute - this.second * 1_000_000;
  }

  get ordinal() {
    this.ordinalCache ??= toOrdinalDate(this.mjd);
    return this.ordinalCache;
  }

  get monthDay() {
    const o = this.ordinal;
    return monthDayFromYearDay(isLeapYear(o.year), o.yearDay);
  }

  /** The text for `%c`, or null when the specifier is unknown. */
  field(c: string): string | null {
    switch (c) {
      case "s":
        return (this.time.micros / 1_000_000n).toString();
      case "Y":
        return showYear(this.ordinal.year);
      case "y":
        return pad2(floorModN(this.ordinal.year, 100));
      case "C":
        return pad2(floorDivN(this.ordinal.year, 100));
      case "j":
        return pad3(this.ordinal.yearDay);
      case "D": {
        const md = this.monthDay;
        return `${pad2(md.month)}/${pad2(md.day)}/${pad2(floorModN(this.ordinal.year, 100))}`;
      }
      case "F": {
        const md = this.monthDay;
        return `${showYear(this.ordinal.year)}-${pad2(md.month)}-${pad2(md.day)}`;
      }
      case "B":
        return (MONTHS[this.monthDay.month - 1] as readonly [string, string])[0];
      case "b":
      case "h":
        return (MONTHS[this.monthDay.month - 1] as readonly [string, string])[1];
      case "m":
        return pad2(this.monthDay.month);
      case "d":
        return pad2(this.monthDay.day);
      case "e":
        return space2(this.monthDay.day);
      case "G":
        return showYear(toWeekDate(this.mjd, this.ordinal).year);
      case "g":
        return pad2(floorModN(toWeekDate(this.mjd, this.ordinal).year, 100));
      case "f":
        return pad2(floorDivN(toWeekDate(this.mjd, this.ordinal).year, 100));
      case "V":
        return pad2(toWeekDate(this.mjd, this.ordinal).week);
      case "u":
        return `${toWeekDate(this.mjd, this.ordinal).weekDay}`;
      case "w":
        return `${toWeekDate(this.mjd, this.ordinal).weekDay % 7}`;
      case "A":
        return (
          WEEK_DAYS[toWeekDate(this.mjd, this.ordinal).weekDay % 7] as readonly [string, string]
        )[0];
      case "a":
        return (
          WEEK_DAYS[toWeekDate(this.mjd, this.ordinal).weekDay % 7] as readonly [string, string]
        )[1];
      case "U":
        return pad2(toSundayWeek(this.mjd, this.ordinal).week);
      case "W":
        return pad2(toMondayWeek(this.mjd, this.ordinal).week);
      case "R":
        return `${pad2(this.hour)}:${pad2(this.minute)}`;
      case "T":
        return `${pad2(this.hour)}:${pad2(this.minute)}:${pad2(this.second)}`;
      case "P":
        return this.hour < 12 ? "am" : "pm";
      case "p":
        return this.hour < 12 ? "AM" : "PM";
      case "H":
        return pad2(this.hour);
      case "I":
        return pad2(1 + floorModN(this.hour - 1, 12));
      case "k":
        return space2(this.hour);
      case "l":
        return space2(1 + floorModN(this.hour - 1, 12));
      case "M":
        return pad2(this.minute);
      case "S":
        return pad2(this.second);
      case "q":
        return `${pad6(this.micro)}000000`;
      case "v":
        return pad6(this.micro);
      case "Q":
        return this.micro === 0 ? "" : `.${pad6(this.micro).replace(/0+$/, "")}`;
      case "z":
        return "+0000";
      case "N":
        return "+00:00";
      case "Z":
        return "UTC";
      default:
        return null;
    }
  }
}

/** `format-time`: the time written with a strftime-like format. */
export function formatTime(format: string, time: PactTime): string {
  const fields = new TimeFields(time);
  let spec = format;
  let out = "";
  let i = 0;
  while (i < spec.length) {
    const ch = spec[i] as string;
    if (ch !== "%" || i + 1 >= spec.length) {
      out += ch;
      i++;
      continue;
    }
    const c = spec[i + 1] as string;
    const aggregate = AGGREGATES[c];
    if (aggregate !== undefined) {
      spec = aggregate + spec.slice(i + 2);
      i = 0;
    } else if (c === "-" || c === "_" || c === "0" || c === "^" || c === "#") {
      spec = spec.slice(0, i + 1) + spec.slice(i + 2); // drop the modifier: "%-d" reads as "%d"
    } else if (c === "%") {
      out += "%";
      i += 2;
    } else {
      out += fields.field(c) ?? `%${c}`;
      i += 2;
    }
  }
  return out;
}

/** Pact's default display of a time: `2016-07-22T12:00:00Z` (fractional seconds dropped). */
export function formatIsoTime(time: PactTime): string {
  return formatTime(ISO8601_FORMAT, time);
}

/** pact-time's `show`: `2022-03-29 20:17:21.296857 UTC`. */
export function showTime(time: PactTime): string {
  return formatTime(SHOW_FORMAT, time);
}

// ---------------------------------------------------------------------------------------------
// Parsing

const FLAG_PM = 1;
const FLAG_TWELVE_HOUR = 2;
const FLAG_HAS_CENTURY = 4;
const FLAG_POSIX = 8;
const FLAG_ORDINAL = 16;
const FLAG_GREGORIAN = 32;
const FLAG_WEEK_DATE = 64;
const FLAG_SUNDAY_WEEK = 128;
const FLAG_MONDAY_WEEK = 256;

/** The fields collected while parsing; starts at the Unix epoch like pact-time's. */
interface ParseState {
  century: number;
  centuryYear: number;
  month: number;
  weekOfYear: number;
  dayOfMonth: number;
  dayOfYear: number;
  dayOfWeek: number;
  flags: number;
  hour: number;
  minute: number;
  second: number;
  secondFractionMicros: number;
  posixMicros: bigint;
  zoneMinutes: number;
}

function initialState(): ParseState {
  return {
    century: 19,
    centuryYear: 70,
    month: 1,
    weekOfYear: 1,
    dayOfMonth: 1,
    dayOfYear: 1,
    dayOfWeek: 4,
    flags: 0,
    hour: 0,
    minute: 0,
    second: 0,
    secondFractionMicros: 0,
    posixMicros: 0n,
    zoneMinutes: 0,
  };
}

// Time zone names pact-time accepts for %Z, in its matching order (first prefix match wins),
// with their offsets in minutes.
const ZONES: readonly (readonly [string, number])[] = [
  ["TAI", 0],
  ["UT1", 0],
  ["ZULU", 0],
  ["Z", 0],
  ["YST", -540],
  ["YDT", -480],
  ["WST", 480],
  ["WETDST", 60],
  ["WET", 0],
  ["WDT", 540],
  ["WAT", -60],
  ["WAST", 420],
  ["WADT", 480],
  ["UTC", 0],
  ["UT", 0],
  ["TFT", 300],
  ["SWT", 60],
  ["SST", 120],
  ["SET", 60],
  ["SCT", 240],
  ["SAST", 570],
  ["SADT", 630],
  ["RET", 240],
  ["PST", -480],
  ["PDT", -420],
  ["NZT", 720],
  ["NZST", 720],
  ["NZDT", 780],
  ["NT", -660],
  ["NST", -210],
  ["NOR", 60],
  ["NFT", -210],
  ["NDT", -150],
  ["MVT", 300],
  ["MUT", 240],
  ["MT", 510],
  ["MST", -420],
  ["MMT", 390],
  ["MHT", 540],
  ["MEZ", 60],
  ["MEWT", 60],
  ["METDST", 120],
  ["MET", 60],
  ["MEST", 120],
  ["MDT", -360],
  ["MAWT", 360],
  ["MART", -570],
  ["LIGT", 600],
  ["KST", 540],
  ["JT", 450],
  ["JST", 540],
  ["IT", 210],
  ["IST", 120],
  ["IRT", 210],
  ["IOT", 300],
  ["IDLW", -720],
  ["IDLE", 720],
  ["HST", -600],
  ["HMT", 180],
  ["HDT", -540],
  ["GST", 600],
  ["GMT", 0],
  ["FWT", 120],
  ["FST", 60],
  ["FNT", -120],
  ["FNST", -60],
  ["EST", -300],
  ["EETDST", 180],
  ["EET", 120],
  ["EDT", -240],
  ["EAT", 180],
  ["EAST", 600],
  ["EAST", 240],
  ["DNT", 60],
  ["CXT", 420],
  ["CST", -360],
  ["CETDST", 120],
  ["CET", 60],
  ["CEST", 120],
  ["CDT", -300],
  ["CCT", 480],
  ["CAT", -600],
  ["CAST", 570],
  ["CADT", 630],
  ["BT", 180],
  ["BST", 60],
  ["BRT", -180],
  ["BRST", -120],
  ["BDST", 120],
  ["AWT", -180],
  ["AWST", 480],
  ["AWSST", 540],
  ["AST", -240],
  ["ALMT", 360],
  ["ALMST", 420],
  ["AKST", -540],
  ["AKDT", -480],
  ["AHST", -600],
  ["AFT", 270],
  ["AEST", 600],
  ["AESST", 660],
  ["ADT", -180],
  ["ACT", -300],
  ["ACST", -240],
  ["ACSST", 630],
];

const textEncoder = new TextEncoder();
const encodedNames = new Map<string, Uint8Array>();

/** UTF-8 bytes of format literals and names (a small, fixed set in practice), cached. */
function utf8(text: string): Uint8Array {
  let bytes = encodedNames.get(text);
  if (bytes === undefined) {
    bytes = textEncoder.encode(text);
    if (encodedNames.size < 1024) encodedNames.set(text, bytes);
  }
  return bytes;
}

/** ASCII white space as attoparsec's `isSpace` sees it. */
function isSpaceByte(b: number | undefined): boolean {
  return b === 32 || (b !== undefined && b >= 9 && b <= 13);
}
function isDigitByte(b: number | undefined): boolean {
  return b !== undefined && b >= 48 && b <= 57;
}
function isSpaceChar(c: string): boolean {
  return c === " " || (c >= "\t" && c <= "\r");
}

/** A successful step: the state and the input position after it. */
interface Parsed {
  readonly state: ParseState;
  readonly pos: number;
}

class TimeParser {
  constructor(readonly input: Uint8Array) {}

  /** Leading digits of the n bytes at pos (attoparsec `take n` then `decimal`). */
  private fixedDecimal(pos: number, n: number, skipLeadingSpace: boolean): number | null {
    const end = pos + n;
    if (end > this.input.length) return null;
    let i = pos;
    // Data.Char.isSpace on a byte read as Latin-1 also counts 0xA0.
    if (skipLeadingSpace)
      while (i < end && (isSpaceByte(this.input[i]) || this.input[i] === 0xa0)) i++;
    if (i >= end || !isDigitByte(this.input[i])) return null;
    let v = 0;
    while (i < end && isDigitByte(this.input[i])) v = v * 10 + ((this.input[i++] as number) - 48);
    return v;
  }

  /** Optional '-' then one or more digits; returns the value and the end position. */
  private signedDecimal(pos: number): { value: bigint; end: number } | null {
    let i = pos;
    const negative = this.input[i] === 45;
    if (negative) i++;
    const start = i;
    while (isDigitByte(this.input[i])) i++;
    if (i === start) return null;
    let digits = "";
    for (let k = start; k < i; k++) digits += String.fromCharCode(this.input[k] as number);
    const v = BigInt.asIntN(64, BigInt(digits));
    return { value: negative ? BigInt.asIntN(64, -v) : v, end: i };
  }

  /** Fractional-second digits: rounded half up at the 7th digit, further digits ignored. */
  private micros(pos: number): { value: number; end: number } | null {
    let i = pos;
    while (isDigitByte(this.input[i])) i++;
    if (i === pos) return null;
    let digits = "";
    for (let k = pos; k < i && digits.length < 7; k++)
      digits += String.fromCharCode(this.input[k] as number);
    const tenths = Number(digits.padEnd(7, "0"));
    return { value: Math.floor((tenths + 5) / 10), end: i };
  }

  private matchesText(pos: number, text: string, caseInsensitive: boolean): number | null {
    const bytes = utf8(text);
    if (pos + bytes.length > this.input.length) return null;
    for (let k = 0; k < bytes.length; k++) {
      let b = this.input[pos + k] as number;
      let t = bytes[k] as number;
      if (caseInsensitive) {
        if (b >= 97 && b <= 122) b -= 32;
        if (t >= 97 && t <= 122) t -= 32;
      }
      if (b !== t) return null;
    }
    return pos + bytes.length;
  }

  /** The first name in the list matching at pos, case-insensitively: [index, end]. */
  private choice(pos: number, names: readonly string[]): [number, number] | null {
    for (let k = 0; k < names.length; k++) {
      const end = this.matchesText(pos, names[k] as string, true);
      if (end !== null) return [k, end];
    }
    return null;
  }

  private zoneOffset(pos: number): { minutes: number; end: number } | null {
    const sign = this.input[pos];
    if (sign !== 43 && sign !== 45) return null;
    const h = this.fixedDecimal(pos + 1, 2, false);
    if (h === null) return null;
    let i = pos + 3;
    if (this.input[i] === 58) i++;
    const m = this.fixedDecimal(i, 2, false);
    if (m === null) return null;
    const minutes = h * 60 + m;
    return { minutes: sign === 45 ? -minutes : minutes, end: i + 2 };
  }

  /** Parses `spec` from `pos` on; null when it does not match. */
  run(spec: string, pos: number, state: ParseState): Parsed | null {
    const s = state;
    let i = 0;
    while (i < spec.length) {
      const ch = spec[i] as string;
      if (ch === "%" && i + 1 < spec.length) {
        const c = spec[i + 1] as string;
        const next = i + 2;
        const expansion = PARSE_AGGREGATES[c];
        if (expansion !== undefined) {
          spec = expansion + spec.slice(next);
          i = 0;
          continue;
        }
        if (c === "-" || c === "_" || c === "0") {
          spec = `%${spec.slice(next)}`;
          i = 0;
          continue;
        }
        switch (c) {
          case "P":
          case "p": {
            const m = this.choice(pos, ["AM", "PM"]);
            if (m === null) return null;
            s.flags = (m[0] === 1 ? s.flags | FLAG_PM : s.flags & ~FLAG_PM) | FLAG_TWELVE_HOUR;
            pos = m[1];
            break;
          }
          case "H":
          case "I": {
            const v = this.fixedDecimal(pos, 2, false);
            if (v === null) return null;
            s.hour = v;
            s.flags = c === "I" ? s.flags | FLAG_TWELVE_HOUR : s.flags & ~FLAG_TWELVE_HOUR;
            pos += 2;
            break;
          }
          case "k":
          case "l":
          case "e":
            // Two space-padded digits, or else one; each alternative parses the rest.
            for (const width of [2, 1]) {
              const v = this.fixedDecimal(pos, width, true);
              if (v === null) continue;
              const branch = { ...s };
              if (c === "e") {
                branch.dayOfMonth = v;
                branch.flags |= FLAG_GREGORIAN;
              } else {
                branch.hour = v;
                branch.flags =
                  c === "l" ? branch.flags | FLAG_TWELVE_HOUR : branch.flags & ~FLAG_TWELVE_HOUR;
              }
              const done = this.run(spec.slice(next), pos + width, branch);
              if (done !== null) return done;
            }
            return null;
          case "M":
          case "S":
          case "y":
          case "C":
          case "m":
          case "d":
          case "g":
          case "f":
          case "V":
          case "U":
          case "W": {
            const v = this.fixedDecimal(pos, 2, false);
            if (v === null) return null;
            pos += 2;
            setTwoDigitField(s, c, v);
            break;
          }
          case "q":
          case "v":
          case "Q": {
            if (c === "Q") {
              if (this.input[pos] !== 46) {
                s.secondFractionMicros = 0;
                break;
              }
              const m = this.micros(pos + 1);
              s.secondFractionMicros = m === null ? 0 : m.value;
              if (m !== null) pos = m.end;
              break;
            }
            const m = this.micros(pos);
            if (m === null) return null;
            s.secondFractionMicros = m.value;
            pos = m.end;
            break;
          }
          case "Y":
          case "G": {
            if (c === "G") s.flags |= FLAG_WEEK_DATE;
            // A greedy signed year first; if the rest then fails, exactly four digits.
            const greedy = this.signedDecimal(pos);
            if (greedy !== null) {
              const done = this.afterYear(spec.slice(next), greedy.end, s, greedy.value);
              if (done !== null) return done;
            }
            const four = this.fixedDecimal(pos, 4, false);
            if (four === null) return null;
            return this.afterYear(spec.slice(next), pos + 4, s, BigInt(four));
          }
          case "B":
          case "b":
          case "h": {
            const names = MONTHS.map((m) => (c === "B" ? m[0] : m[1]));
            const m = this.choice(pos, names);
            if (m === null) return null;
            s.month = m[0] + 1;
            s.flags |= FLAG_GREGORIAN;
            pos = m[1];
            break;
          }
          case "j": {
            const v = this.fixedDecimal(pos, 3, false);
            if (v === null) return null;
            s.dayOfYear = v;
            s.flags |= FLAG_ORDINAL;
            pos += 3;
            break;
          }
          case "w":
          case "u": {
            const v = this.fixedDecimal(pos, 1, false);
            if (v === null) return null;
            s.dayOfWeek = v;
            pos += 1;
            break;
          }
          case "A":
          case "a": {
            const m = this.choice(
              pos,
              WEEK_DAYS.map((d) => (c === "A" ? d[0] : d[1])),
            );
            if (m === null) return null;
            s.dayOfWeek = m[0];
            pos = m[1];
            break;
          }
          case "z":
          case "N":
          case "Z": {
            const offset = this.zoneOffset(pos);
            if (offset !== null) {
              s.zoneMinutes = offset.minutes;
              pos = offset.end;
              break;
            }
            if (c !== "Z") return null;
            const zone = ZONES.find(([name]) => this.matchesText(pos, name, false) !== null);
            if (zone === undefined) return null;
            s.zoneMinutes = zone[1];
            pos += zone[0].length;
            break;
          }
          case "s": {
            const v = this.signedDecimal(pos);
            if (v === null) return null;
            s.posixMicros = BigInt.asIntN(64, v.value * 1_000_000n);
            s.flags |= FLAG_POSIX;
            pos = v.end;
            break;
          }
          case "%":
            if (this.input[pos] !== 37) return null;
            pos++;
            break;
          default:
            return null;
        }
        i = next;
        continue;
      }
      if (isSpaceChar(ch)) {
        while (isSpaceByte(this.input[pos])) pos++;
        i++;
        while (i < spec.length && isSpaceChar(spec[i] as string)) i++;
        continue;
      }
      const cp = spec.codePointAt(i) as number;
      if (cp < 0x80) {
        if (this.input[pos] !== cp) return null;
        pos++;
        i++;
        continue;
      }
      const literal = String.fromCodePoint(cp);
      const end = this.matchesText(pos, literal, false);
      if (end === null) return null;
      pos = end;
      i += literal.length;
    }
    return { state: s, pos };
  }

  private afterYear(rest: string, pos: number, state: ParseState, year: bigint): Parsed | null {
    const y = Number(year);
    if (Math.abs(y) > MAX_PARSED_YEAR) return null;
    const next = { ...state };
    next.century = floorDivN(y, 100);
    next.centuryYear = floorModN(y, 100);
    next.flags |= FLAG_HAS_CENTURY;
    return this.run(rest, pos, next);
  }
}

const PARSE_AGGREGATES: Readonly<Record<string, string>> = {
  ...AGGREGATES,
  R: "%H:%M",
  T: "%H:%M:%S",
  D: "%m/%d/%y",
  F: "%Y-%m-%d",
};

function setTwoDigitField(s: ParseState, c: string, v: number): void {
  switch (c) {
    case "M":
      s.minute = v;
      return;
    case "S":
      s.second = v;
      return;
    case "y":
      s.centuryYear = v;
      return;
    case "C":
      s.century = v;
      s.flags |= FLAG_HAS_CENTURY;
      return;
    case "m":
      s.month = v;
      s.flags |= FLAG_GREGORIAN;
      return;
    case "d":
      s.dayOfMonth = v;
      s.flags |= FLAG_GREGORIAN;
      return;
    case "g":
      s.centuryYear = v;
      s.flags |= FLAG_WEEK_DATE;
      return;
    case "f":
      s.century = v;
      s.flags |= FLAG_WEEK_DATE | FLAG_HAS_CENTURY;
      return;
    case "V":
      s.weekOfYear = v;
      s.flags |= FLAG_WEEK_DATE;
      return;
    case "U":
      s.weekOfYear = v;
      s.flags |= FLAG_SUNDAY_WEEK;
      return;
    case "W":
      s.weekOfYear = v;
      s.flags |= FLAG_MONDAY_WEEK;
      return;
  }
}

function yearOf(s: ParseState): number {
  if (s.flags & FLAG_HAS_CENTURY) return s.centuryYear + 100 * s.century;
  return s.centuryYear + 100 * (s.centuryYear < 69 ? 20 : 19);
}

function dayOf(s: ParseState): number {
  const year = yearOf(s);
  if (s.flags & FLAG_ORDINAL) return fromOrdinalDate(year, s.dayOfYear);
  if (s.flags & FLAG_GREGORIAN) return fromGregorian(year, s.month, s.dayOfMonth);
  if (s.flags & FLAG_WEEK_DATE)
    return fromWeekDate(year, s.weekOfYear, s.dayOfWeek === 0 ? 7 : s.dayOfWeek);
  if (s.flags & FLAG_SUNDAY_WEEK)
    return fromSundayWeek(year, s.weekOfYear, s.dayOfWeek === 7 ? 0 : s.dayOfWeek);
  if (s.flags & FLAG_MONDAY_WEEK)
    return fromMondayWeek(year, s.weekOfYear, s.dayOfWeek === 0 ? 7 : s.dayOfWeek);
  return fromOrdinalDate(year, s.dayOfYear);
}

function buildTime(s: ParseState): PactTime {
  if (s.flags & FLAG_POSIX) return PactTime.fromMjdMicros(s.posixMicros + UNIX_EPOCH_MJD_MICROS);
  let hour = s.hour;
  if (s.flags & FLAG_TWELVE_HOUR) {
    if (s.flags & FLAG_PM) hour = hour < 12 ? hour + 12 : hour;
    else hour = floorModN(hour, 12);
  }
  const dayTime =
    BigInt(s.secondFractionMicros) +
    BigInt(s.second) * 1_000_000n +
    BigInt(s.minute) * 60_000_000n +
    BigInt(hour) * 3_600_000_000n;
  const zoneOffset = BigInt(-s.zoneMinutes) * 60_000_000n;
  return PactTime.fromMjdMicros(BigInt(dayOf(s)) * MICROS_PER_DAY + dayTime + zoneOffset);
}

/** `parse-time`: the time the text denotes in the given format, or null if it does not match. */
export function parseTime(format: string, text: string): PactTime | null {
  const input = textEncoder.encode(text);
  let pos = 0;
  while (isSpaceByte(input[pos])) pos++;
  const parsed = new TimeParser(input).run(format, pos, initialState());
  if (parsed === null) return null;
  let end = parsed.pos;
  while (isSpaceByte(input[end])) end++;
  if (end !== input.length) return null;
  return buildTime(parsed.state);
}

/** `time`: parses `%Y-%m-%dT%H:%M:%SZ` only. */
export function parseIsoTime(text: string): PactTime | null {
  return parseTime(ISO8601_FORMAT, text);
}
