const longDate = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'Europe/London' });

/** '2025-09-24' → '24 September 2025', read as a UK calendar date whatever the machine's zone. */
const labels = new Map<string, string>();

export function formatDate(iso: string): string {
  const known = labels.get(iso);
  if (known !== undefined) return known;
  const when = new Date(/^\d{4}-\d{2}-\d{2}$/.test(iso) ? `${iso}T12:00:00Z` : iso);
  if (Number.isNaN(when.getTime())) throw new RangeError(`not an ISO date: '${iso}'`);
  const label = longDate.format(when);
  // A blog has a few thousand distinct dates at most; each is formatted once.
  if (labels.size < 100_000) labels.set(iso, label);
  return label;
}
