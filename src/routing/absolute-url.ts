/** A site path as an absolute address under the site's URL, without the trailing slash our URLs never carry. */
export function absoluteUrl(siteUrl: string, path: string): string {
  const url = new URL(path, siteUrl).href;
  return path === '/' ? url : url.replace(/\/$/, '');
}
