const longDate = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'Europe/London' });

/** '2025-09-24' → '24 September 2025', read as a UK calendar date whatever the machine's zone. */
export function formatDate(iso: string): string {
  const when = new Date(/^\d{4}-\d{2}-\d{2}$/.test(iso) ? `${iso}T12:00:00Z` : iso);
  if (Number.isNaN(when.getTime())) throw new RangeError(`not an ISO date: '${iso}'`);
  return longDate.format(when);
}
