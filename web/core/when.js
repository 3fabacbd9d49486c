// Times as the pages say them: a day ("26 Nov 2026"), a day and time ("26 Nov 2026, 19:43",
// and a time of day alone, "19:43"
// the phone's own time zone) and how long ago ("5 minutes ago"), in the page's English
// whatever the phone's language.

const DAY = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric' });
const DAY_AND_TIME = new Intl.DateTimeFormat('en-GB', {
  day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit', hourCycle: 'h23',
});
const TIME = new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
const AGO = new Intl.RelativeTimeFormat('en', { numeric: 'auto' });

/** The day of `ms`: "26 Nov 2026". @param {number} ms */
export function day(ms) {
  return DAY.format(new Date(ms));
}

/** The day and time of `ms`: "26 Nov 2026, 19:43". @param {number} ms */
export function dayAndTime(ms) {
  return DAY_AND_TIME.format(new Date(ms));
}

/** The time of day of `ms`, for what happens within the hour (a code's expiry): "19:43". @param {number} ms */
export function timeOfDay(ms) {
  return TIME.format(new Date(ms));
}

/**
 * How long before `now` `ms` was, in the largest whole unit: "just now" under a minute
 * (a device's last use is known to within a few minutes), "5 minutes ago", "yesterday".
 * @param {number} ms @param {number} [now]
 */
export function ago(ms, now = Date.now()) {
  const seconds = Math.round((now - ms) / 1000);
  if (seconds < 60) return 'just now';
  /** @type {[Intl.RelativeTimeFormatUnit, number][]} */
  const units = [['year', 31536000], ['month', 2592000], ['week', 604800], ['day', 86400], ['hour', 3600], ['minute', 60]];
  for (const [unit, size] of units) {
    if (seconds >= size) return AGO.format(-Math.floor(seconds / size), unit);
  }
  return 'just now';
}
