import { describe, expect, it } from 'vitest';
import { londonOffset, readDay, valueOf } from '../../src/cms/client/date-widget.tsx';

describe("the content manager's date box", () => {
  it('reads day/month/year as a UK author types it, and ISO, as the ISO date saved', () => {
    expect(['20/11/2026', '20.11.2026', '20-11-2026', '1/2/2027', '2026-11-20'].map(readDay)).toEqual([
      { day: '2026-11-20' }, { day: '2026-11-20' }, { day: '2026-11-20' }, { day: '2027-02-01' }, { day: '2026-11-20' },
    ]);
    expect(readDay('  ')).toEqual({ day: '' });
  });

  it('refuses what is not a whole date rather than saving another year', () => {
    expect(readDay('20/11/26')).toEqual({ problem: 'type the year in full (26 is not a four-digit year)' });
    expect(readDay('31/02/2026')).toEqual({ problem: '31/02/2026 is not a real calendar date' });
    expect(readDay('11/20/2026')).toEqual({ problem: '11/20/2026 is not a real calendar date' });
    expect(readDay('next Friday')).toEqual({ problem: 'expected a date as day/month/year, such as 20/11/2026' });
  });

  it("saves a time of day with London's offset for that date", () => {
    expect(valueOf('2026-12-01', '09:00')).toBe('2026-12-01T09:00:00+00:00');
    expect(valueOf('2026-07-01', '09:00')).toBe('2026-07-01T09:00:00+01:00');
    expect(valueOf('2026-07-01', '')).toBe('2026-07-01');
    expect(valueOf('', '09:00')).toBe('');
    expect(londonOffset('2026-03-29', '12:00')).toBe('+01:00');
  });
});
