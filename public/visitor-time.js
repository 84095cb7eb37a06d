/* global document */
// Adds an interview's time in the visitor's own time zone. The page is complete without it:
// the server already shows the event's time zone and UTC.
for (const row of document.querySelectorAll('[data-visitor-time]')) {
  const start = new Date(row.dataset.start);
  const end = new Date(row.dataset.end);
  if (Number.isNaN(start.getTime()) || Number.isNaN(end.getTime())) continue;
  const zone = new Intl.DateTimeFormat().resolvedOptions().timeZone;
  const day = new Intl.DateTimeFormat(undefined, { dateStyle: 'full', timeStyle: 'short' });
  const hour = new Intl.DateTimeFormat(undefined, { timeStyle: 'short' });
  row.querySelector('dd').textContent = `${day.format(start)} to ${hour.format(end)}, ${zone}`;
  row.hidden = false;
}
