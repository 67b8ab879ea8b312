/** One item open at a time; activating the open item closes it. */
export function toggleItem(open: number | null, index: number): number | null {
  return open === index ? null : index;
}
