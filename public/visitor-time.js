/* global document */
// Adds an interview's time in the visitor's own time zone. The page is complete without it:
// the server already shows the event's time zone and UTC. The zone is named as the server names
// the event's: its long name, then its IANA name ("Japan Standard Time (Asia/Tokyo)").
for (const row of document.querySelectorAll('[data-visitor-time]')) {
  const start = new Date(row.dataset.start);
  const end = new Date(row.dataset.end);
  if (Number.isNaN(start.getTime()) || Number.isNaN(end.getTime())) continue;
  const zone = new Intl.DateTimeFormat().resolvedOptions().timeZone;
  const day = new Intl.DateTimeFormat(undefined, { dateStyle: 'full', timeStyle: 'short' });
  const hour = new Intl.DateTimeFormat(undefined, { timeStyle: 'short' });
  const zoneName = new Intl.DateTimeFormat(undefined, { timeZoneName: 'long' })
    .formatToParts(start)
    .find((part) => part.type === 'timeZoneName')?.value;
  const named = zoneName && zoneName !== zone ? `${zoneName} (${zone})` : zone;
  row.querySelector('dd').textContent = `${day.format(start)} to ${hour.format(end)}, ${named}`;
  row.hidden = false;
}
