/**
 * Proleptic Gregorian calendar arithmetic on Modified Julian Day numbers (day 0 = 1858-11-17),
 * with the exact behaviour of the pact-time library (derived from thyme): out-of-range months,
 * days and week numbers are clamped, not rejected. All values are plain integers.
 */

/** Haskell `div` on numbers. */
export function floorDivN(a: number, b: number): number {
  return Math.floor(a / b);
}

/** Haskell `mod` on numbers (result has the divisor's sign). */
export function floorModN(a: number, b: number): number {
  return a - b * Math.floor(a / b);
}

function clamp(lo: number, hi: number, x: number): number {
  return Math.max(lo, Math.min(hi, x));
}

export function isLeapYear(y: number): boolean {
  const q100 = Math.trunc(y / 100);
  const r100 = y - q100 * 100;
  return (y & 3) === 0 && (r100 !== 0 || (q100 & 3) === 0);
}

export interface OrdinalDate {
  readonly year: number;
  /** 1-based day of the year. */
  readonly yearDay: number;
}

// Days since 0001-01-01 (≥ 0) → ordinal date.
function ordinalFromDaysSinceYearOne(days: number): OrdinalDate {
  const y0 = Math.trunc((400 * days) / 146097);
  const r = 400 * days - y0 * 146097;
  const d0 = dayInYear(y0, days);
  const d1 = dayInYear(y0 + 1, days);
  if (r > 146097 - 600 && d1 > 0) return { year: y0 + 2, yearDay: d1 };
  return { year: y0 + 1, yearDay: d0 };
}

// y0 = year − 1 (≥ 0)
function dayInYear(y0: number, days: number): number {
  const centuries = Math.trunc(y0 / 100);
  const leaps = Math.floor(y0 / 4) - centuries + Math.floor(centuries / 4);
  return days - 365 * y0 - leaps + 1;
}

export function toOrdinalDate(mjd: number): OrdinalDate {
  const daysSinceYearOne = mjd + 678575;
  if (daysSinceYearOne > 0) return ordinalFromDaysSinceYearOne(daysSinceYearOne);
  const quadCenturies = floorDivN(daysSinceYearOne, 146097);
  const o = ordinalFromDaysSinceYearOne(daysSinceYearOne - quadCenturies * 146097);
  return { year: o.year + quadCenturies * 400, yearDay: o.yearDay };
}

/** MJD of a year's `yearDay` (clamped to the days the year has). */
export function fromOrdinalDate(year: number, yearDay: number): number {
  const years = year - 1;
  const centuries = floorDivN(years, 100);
  const leaps = floorDivN(years, 4) - centuries + floorDivN(centuries, 4);
  return 365 * years + leaps - 678576 + clamp(1, isLeapYear(year) ? 366 : 365, yearDay);
}

const MONTH_LENGTHS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
const MONTH_LENGTHS_LEAP = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

export interface MonthDay {
  readonly month: number;
  readonly day: number;
}

export function monthDayFromYearDay(leap: boolean, yearDay: number): MonthDay {
  const lengths = leap ? MONTH_LENGTHS_LEAP : MONTH_LENGTHS;
  let rest = clamp(0, leap ? 365 : 364, yearDay - 1);
  let month = 0;
  while (rest >= (lengths[month] as number)) rest -= lengths[month++] as number;
  return { month: month + 1, day: rest + 1 };
}

export function yearDayFromMonthDay(leap: boolean, month: number, day: number): number {
  const m = clamp(1, 12, month);
  const d = clamp(1, (leap ? MONTH_LENGTHS_LEAP : MONTH_LENGTHS)[m - 1] as number, day);
  const k = m <= 2 ? 0 : leap ? -1 : -2;
  return floorDivN(367 * m - 362, 12) + k + d;
}

/** MJD of a Gregorian date (month and day clamped into range). */
export function fromGregorian(year: number, month: number, day: number): number {
  return fromOrdinalDate(year, yearDayFromMonthDay(isLeapYear(year), month, day));
}

/** ISO 8601 week date: week-based year, week 1..53, day 1 (Monday) .. 7 (Sunday). */
export interface WeekDate {
  readonly year: number;
  readonly week: number;
  readonly weekDay: number;
}

export function toWeekDate(mjd: number, ordinal: OrdinalDate = toOrdinalDate(mjd)): WeekDate {
  const d = mjd + 2;
  const d7div = floorDivN(d, 7);
  const d7mod = d - 7 * d7div;
  const weekIndexOf = (k: number) => d7div - floorDivN(k, 7);
  const firstWeekOf = (y: number) => weekIndexOf(fromOrdinalDate(y, 6));
  const w0 = weekIndexOf(d - ordinal.yearDay + 4);
  let year = ordinal.year;
  let w = w0;
  if (w0 === -1) {
    year = ordinal.year - 1;
    w = firstWeekOf(year);
  } else if (w0 === 52 && firstWeekOf(ordinal.year + 1) === 0) {
    year = ordinal.year + 1;
    w = 0;
  }
  return { year, week: w + 1, weekDay: d7mod + 1 };
}

export function fromWeekDate(year: number, week: number, weekDay: number): number {
  const lastWeek = toWeekDate(fromOrdinalDate(year, 365)).week === 53 ? 53 : 52;
  const k = fromOrdinalDate(year, 6);
  return k - floorModN(k, 7) - 10 + clamp(1, 7, weekDay) + clamp(1, lastWeek, week) * 7;
}

/** Week number (0..53) counting weeks that start on Sunday, and the day 0 (Sunday)..6. */
export function toSundayWeek(mjd: number, ordinal: OrdinalDate): { week: number; weekDay: number } {
  const d = mjd + 3;
  const d7div = floorDivN(d, 7);
  return { week: d7div - floorDivN(d - ordinal.yearDay, 7), weekDay: d - 7 * d7div };
}

/** Week number (0..53) counting weeks that start on Monday, and the day 1 (Monday)..7. */
export function toMondayWeek(mjd: number, ordinal: OrdinalDate): { week: number; weekDay: number } {
  const d = mjd + 2;
  const d7div = floorDivN(d, 7);
  return { week: d7div - floorDivN(d - ordinal.yearDay, 7), weekDay: d - 7 * d7div + 1 };
}

export function fromSundayWeek(year: number, week: number, weekDay: number): number {
  const firstDay = fromOrdinalDate(year, 1);
  const firstSunday = floorModN(4 - firstDay, 7);
  return firstDay + firstSunday + 7 * (week - 1) + weekDay;
}

export function fromMondayWeek(year: number, week: number, weekDay: number): number {
  const firstDay = fromOrdinalDate(year, 1);
  const firstMonday = floorModN(5 - firstDay, 7);
  return firstDay + firstMonday + 7 * (week - 1) + weekDay - 1;
}
