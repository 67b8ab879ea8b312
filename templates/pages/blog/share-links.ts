import { absoluteUrl } from '../../../src/url-resolution/absolute-url.ts';

/** Addresses that share the article by e-mail, LinkedIn and X. */
export interface ShareLinks { email: string; linkedin: string; x: string }

/** Share addresses that really share the article at `path` of the site at `siteUrl`: e-mail, LinkedIn and X, each encoded. */
export function shareLinks(siteUrl: string, path: string, title: string): ShareLinks {
  const url = absoluteUrl(siteUrl, path);
  const u = encodeURIComponent(url);
  return {
    email: `mailto:?subject=${encodeURIComponent(title)}&body=${encodeURIComponent(`${title}\n\n${url}`)}`,
    linkedin: `https://www.linkedin.com/sharing/share-offsite/?url=${u}`,
    x: `https://twitter.com/intent/tweet?url=${u}&text=${encodeURIComponent(title)}`,
  };
}
