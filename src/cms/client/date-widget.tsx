// A date as a UK author types it: day/month/year (20/11/2026, 20.11.2026, 20-11-2026) or ISO
// (2026-11-20), the year in full, saved as ISO. The date read is spelt out beside the box
// (Friday 20 November 2026), and a save is refused while the box holds anything that is not a
// whole date: no other year is ever saved silently (Decap's datetime widget re-parsed each value
// while the year was being typed, and saved 1906 for 2026; the browser's own date input follows
// the browser's language, month first in most). `time: true` adds an optional time of day, UK
// time, saved with its offset. An optional date has a Clear button; a cleared date is left out
// of the file (empty-fields.ts).
import { Component, type ChangeEvent } from 'react';

interface Props {
  value?: unknown;
  onChange(value: string): void;
  forID: string;
  classNameWrapper: string;
  field: { get(key: string, fallback?: unknown): unknown };
  setActiveStyle(): void;
  setInactiveStyle(): void;
}

/** The date and time of day a stored value holds ('2026-11-20', '09:00'). */
export function partsOf(value: unknown): { day: string; time: string } {
  const text = value instanceof Date ? value.toISOString() : typeof value === 'string' ? value : '';
  const m = /^(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}:\d{2}))?/.exec(text);
  return { day: m?.[1] ?? '', time: m?.[2] ?? '' };
}

/** An ISO day as the box shows it: 20/11/2026. */
export const ukOf = (day: string) => (/^\d{4}-\d{2}-\d{2}$/.test(day) ? `${day.slice(8)}/${day.slice(5, 7)}/${day.slice(0, 4)}` : day);

const pad = (n: number) => String(n).padStart(2, '0');

/** What the author typed, read as a day: the ISO date, or why it is not one. */
export function readDay(typed: string): { day: string } | { problem: string } {
  const text = typed.trim();
  if (!text) return { day: '' };
  const iso = /^(\d{4})-(\d{1,2})-(\d{1,2})$/.exec(text);
  const uk = /^(\d{1,2})[/.\- ](\d{1,2})[/.\- ](\d+)$/.exec(text);
  const [y, m, d] = iso ? [iso[1]!, iso[2]!, iso[3]!] : uk ? [uk[3]!, uk[2]!, uk[1]!] : [];
  if (y === undefined) return { problem: 'expected a date as day/month/year, such as 20/11/2026' };
  if (y.length !== 4) return { problem: `type the year in full (${y} is not a four-digit year)` };
  const date = new Date(Date.UTC(Number(y), Number(m) - 1, Number(d)));
  if (date.getUTCFullYear() !== Number(y) || date.getUTCMonth() !== Number(m) - 1 || date.getUTCDate() !== Number(d)) return { problem: `${text} is not a real calendar date` };
  return { day: `${y}-${pad(Number(m))}-${pad(Number(d))}` };
}

/** Europe/London's offset at that wall-clock time, as ISO writes it ('+01:00'). */
export function londonOffset(day: string, time: string): string {
  const at = new Date(`${day}T${time}:00Z`);
  const name = new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/London', timeZoneName: 'longOffset' }).formatToParts(at).find((p) => p.type === 'timeZoneName')?.value ?? 'GMT';
  return /GMT([+-]\d{2}:\d{2})/.exec(name)?.[1] ?? '+00:00';
}

/** What is saved: the day alone, or the day and time with London's offset. */
export function valueOf(day: string, time: string): string {
  if (!day) return '';
  return time ? `${day}T${time}:00${londonOffset(day, time)}` : day;
}

const spelt = (day: string) => new Intl.DateTimeFormat('en-GB', { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' }).format(new Date(`${day}T00:00:00Z`));

export class DateControl extends Component<Props, { typed: string }> {
  override state = { typed: ukOf(partsOf(this.props.value).day) };

  /** Decap asks each widget before a save: anything but a whole date is refused, in the field's words. */
  isValid = () => {
    const read = readDay(this.state.typed);
    return 'problem' in read ? { error: { type: 'CUSTOM', message: `${String(this.props.field.get('label'))}: ${read.problem}` } } : true;
  };

  override componentDidUpdate(previous: Props) {
    // A value set from elsewhere (an entry loaded, Clear) is shown; the author's own typing is left as typed.
    const day = partsOf(this.props.value).day;
    const read = readDay(this.state.typed);
    const shown = 'day' in read ? read.day : undefined;
    if (partsOf(previous.value).day !== day && shown !== day) this.setState({ typed: ukOf(day) });
  }

  private type = (e: ChangeEvent<HTMLInputElement>) => {
    const typed = e.target.value;
    this.setState({ typed });
    const read = readDay(typed);
    if ('day' in read) this.props.onChange(valueOf(read.day, read.day ? partsOf(this.props.value).time : ''));
  };

  override render() {
    const { value, forID, classNameWrapper, field, setActiveStyle, setInactiveStyle } = this.props;
    const { time } = partsOf(value);
    const label = String(field.get('label'));
    const read = readDay(this.state.typed);
    const day = 'day' in read ? read.day : '';
    const note = 'problem' in read ? read.problem : day ? spelt(day) : 'day/month/year, such as 20/11/2026';
    return (
      <div className={classNameWrapper} style={{ display: 'flex', gap: '1rem', alignItems: 'center', flexWrap: 'wrap' }}>
        <input
          id={forID} type="text" inputMode="numeric" autoComplete="off" value={this.state.typed} aria-describedby={`${forID}-read`}
          placeholder="dd/mm/yyyy" style={{ maxWidth: '12rem' }} onChange={this.type} onFocus={setActiveStyle} onBlur={setInactiveStyle}
        />
        <span id={`${forID}-read`} aria-live="polite">{note}</span>
        {field.get('time') ? (
          <label>
            Time (UK, optional){' '}
            <input type="time" value={time} disabled={!day} onChange={(e) => this.props.onChange(valueOf(day, e.target.value))} onFocus={setActiveStyle} onBlur={setInactiveStyle} />
          </label>
        ) : null}
        {field.get('required', true) === false ? (
          <button type="button" aria-label={`Clear ${label}`} disabled={!this.state.typed} onClick={() => { this.setState({ typed: '' }); this.props.onChange(''); }}>Clear</button>
        ) : null}
      </div>
    );
  }
}

export function DatePreview({ value }: { value?: unknown }) {
  const { day, time } = partsOf(value);
  return <span>{time ? `${day} ${time}` : day}</span>;
}
