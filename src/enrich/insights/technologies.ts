/**
 * Technology hints of a website from its HTML: the `generator` meta tag, and markers that the
 * platforms put in every page they serve (asset hosts, paths, globals). A name appears only when
 * its marker is in the page.
 *
 * @example siteTechnologies(['<link href="/wp-content/themes/x.css">']) // ['WordPress']
 */
const MARKERS: [string, RegExp][] = [
  ['WordPress', /\/wp-(?:content|includes)\//i], ['WooCommerce', /woocommerce/i], ['Shopify', /cdn\.shopify\.com|Shopify\.theme/],
  ['Wix', /static\.wixstatic\.com|wix-bolt|_wixCssImports/i], ['Squarespace', /static1?\.squarespace\.com|Static\.SQUARESPACE_CONTEXT/],
  ['Webflow', /data-wf-site|assets\.website-files\.com|webflow\.js/i], ['Joomla', /\/media\/jui\/|\/components\/com_[a-z]+/i],
  ['Drupal', /drupal-settings-json|\/sites\/(?:default|all)\/files\//i], ['Magento', /Mage\.Cookies|\/static\/version\d+\/frontend\//],
  ['PrestaShop', /prestashop/i], ['Next.js', /__NEXT_DATA__|\/_next\/static\//], ['Nuxt', /__NUXT__|\/_nuxt\//], ['Gatsby', /___gatsby/],
  ['React', /data-reactroot|react(?:\.production)?\.min\.js/], ['Vue.js', /data-v-[0-9a-f]{8}|vue(?:\.runtime)?(?:\.global)?\.prod\.js/],
  ['jQuery', /jquery(?:[.-]\d[\d.]*)?(?:\.min)?\.js/i], ['Bootstrap', /bootstrap(?:\.bundle)?(?:\.min)?\.(?:css|js)/i],
  ['Google Tag Manager', /googletagmanager\.com\/gtm\.js|GTM-[A-Z0-9]{4,}/], ['Google Analytics', /google-analytics\.com\/(?:analytics|ga)\.js|gtag\/js\?id=(?:G|UA)-/],
  ['Facebook Pixel', /connect\.facebook\.net\/[^"']*\/fbevents\.js/], ['HubSpot', /js\.hs-scripts\.com|js\.hsforms\.net/],
  ['Cloudflare', /\/cdn-cgi\//], ['reCAPTCHA', /google\.com\/recaptcha\//], ['Hotjar', /static\.hotjar\.com/],
];

const GENERATOR = /<meta\s[^>]*name\s*=\s*["']generator["'][^>]*>/gi;
const CONTENT = /content\s*=\s*["']([^"']{1,120})["']/i;

export function siteTechnologies(pages: string[]): string[] {
  const found = new Set<string>();
  for (const html of pages) {
    for (const m of html.matchAll(GENERATOR)) {
      const c = CONTENT.exec(m[0])?.[1]?.trim();
      if (c) found.add(c);
    }
    for (const [name, re] of MARKERS) if (re.test(html)) found.add(name);
  }
  // A generator like "WordPress 6.4.2" already names WordPress.
  return [...found].filter((n) => ![...found].some((g) => g !== n && g.startsWith(`${n} `))).sort();
}
