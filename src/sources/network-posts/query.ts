/**
 * Query items of `/network-posts`: company page URLs (`/company/<slug>/`, `/company/<slug>/posts/`,
 * any locale host such as `de.linkedin.com`, showcase pages), numeric company ids, organization
 * URNs, or a bare universal name (the slug).
 */
export interface CompanyQuery {
  /** The universal name (`microsoft`) or the numeric id (`1035`) as the page path takes it. */
  key: string;
  numeric: boolean;
  /** `company` or `showcase`: the path the page lives under. */
  section: 'company' | 'showcase';
}

const HOST = /(^|\.)linkedin\.com$/i;
const SLUG = /^[\p{L}\p{N}][\p{L}\p{N}._&'-]{0,99}$/u;

/**
 * @example classifyCompany('https://de.linkedin.com/company/microsoft/posts/?feedView=all') // { key: 'microsoft', numeric: false, section: 'company' }
 */
export function classifyCompany(raw: string): CompanyQuery | string {
  const q = raw.trim();
  const urn = /^urn:li:(?:organization|company|fsd_company):(\d+)$/.exec(q);
  if (urn) return { key: urn[1], numeric: true, section: 'company' };
  if (/^\d{1,12}$/.test(q)) return { key: q, numeric: true, section: 'company' };
  if (q.includes('/') || /linkedin\./i.test(q)) {
    let u: URL;
    try {
      u = new URL(/^https?:\/\//i.test(q) ? q : `https://${q}`);
    } catch {
      return `query "${raw.slice(0, 100)}" is not a company page URL`;
    }
    const m = /^\/(company|showcase)\/([^/?#]+)/.exec(u.pathname);
    if (!HOST.test(u.hostname) || !m) return `query "${raw.slice(0, 100)}" is not a company page URL (https://www.linkedin.com/company/<name>/) or a company id`;
    const key = decodeURIComponent(m[2]);
    return { key, numeric: /^\d+$/.test(key), section: m[1] as 'company' | 'showcase' };
  }
  if (SLUG.test(q)) return { key: q, numeric: false, section: 'company' };
  return `query "${raw.slice(0, 100)}" is not a company page URL or a company id`;
}

/** The company page (always the www host: locale hosts serve the same page). */
export function companyPageUrl(c: Pick<CompanyQuery, 'key' | 'section'>): string {
  return `https://www.linkedin.com/${c.section}/${encodeURIComponent(c.key)}/`;
}

/** The slug a company page URL names (after the site's redirects), or null. */
export function slugOfUrl(url: string): string | null {
  try {
    const u = new URL(url);
    const m = HOST.test(u.hostname) ? /^\/(?:company|showcase)\/([^/?#]+)/.exec(u.pathname) : null;
    return m ? decodeURIComponent(m[1]) : null;
  } catch {
    return null;
  }
}
