/* global document, setInterval */
// Keeps an interview's countdown current ("Starts in 2 hours 5 minutes"). The page is complete
// without it: the server wrote the countdown as it stood when the page was made, in the same
// words (src/lobby/countdown.ts). After the start it says when the event started; after the
// end it disappears.
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

const count = (amount, unit) => (amount ? `${amount} ${unit}${amount === 1 ? '' : 's'}` : '');

function startsIn(milliseconds) {
  if (milliseconds < MINUTE) return 'Starts in less than a minute';
  const days = Math.floor(milliseconds / DAY);
  const hours = Math.floor((milliseconds % DAY) / HOUR);
  const minutes = Math.floor((milliseconds % HOUR) / MINUTE);
  const parts = days
    ? [count(days, 'day'), count(hours, 'hour')]
    : [count(hours, 'hour'), count(minutes, 'minute')];
  return `Starts in ${parts.filter(Boolean).join(' ')}`;
}

for (const countdown of document.querySelectorAll('[data-countdown]')) {
  const start = Date.parse(countdown.dataset.start);
  const end = Date.parse(countdown.dataset.end);
  if (Number.isNaN(start) || Number.isNaN(end)) continue;
  const update = () => {
    const now = Date.now();
    countdown.hidden = now >= end;
    const text = now < start ? startsIn(start - now) : countdown.dataset.started;
    if (countdown.textContent !== text) countdown.textContent = text;
  };
  update();
  setInterval(update, 1000);
}
