// src/cache/build-cache.ts
import path5 from "node:path";
import { readFile as readFile2 } from "node:fs/promises";

// src/content/markdown-file.ts
import { hash } from "node:crypto";

// src/content/markdown.ts
import { unified as unified2 } from "unified";
import remarkHtml from "remark-html";
import { VFile } from "vfile";

// src/content/schemas.ts
import { z as z2 } from "zod";

// src/content/field-rules.ts
import { z } from "zod";
var text = z.string().trim().min(1);
var SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
var slug = z.string().regex(SLUG_PATTERN, "expected a slug of lower-case letters, digits and single hyphens");
var metaDescription = text.min(120, "is too short for a meta description: write 120 to 160 characters").max(160, "is too long for a meta description: write 120 to 160 characters");

// forms/names.ts
var DEFAULT_FORM_ENDPOINT = "/api/send-contact-form";

// src/content/publication.ts
var DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
var DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,3})?)?(?:Z|[+-]\d{2}:\d{2})$/;
var ZONE = "Europe/London";
var londonParts;
function partsOf(at) {
  const out = {};
  londonParts ??= new Intl.DateTimeFormat("en-GB", {
    timeZone: ZONE,
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23"
  });
  for (const p of londonParts.formatToParts(at)) out[p.type] = p.value;
  return out;
}
function instantOf(iso) {
  const date = iso.slice(0, 10);
  if (!(DATE_ONLY.test(iso) || DATE_TIME.test(iso)) || !isCalendarDate(date)) return void 0;
  if (iso.length > 10) {
    const at = new Date(iso);
    return Number.isNaN(at.getTime()) || iso.slice(11, 13) === "24" ? void 0 : at;
  }
  const utcMidnight = /* @__PURE__ */ new Date(`${date}T00:00:00Z`);
  const { hour, minute } = partsOf(utcMidnight);
  return new Date(utcMidnight.getTime() - (Number(hour) * 60 + Number(minute)) * 6e4);
}
function isCalendarDate(date) {
  const at = /* @__PURE__ */ new Date(`${date}T00:00:00Z`);
  return !Number.isNaN(at.getTime()) && at.toISOString().startsWith(date);
}
function londonDateTime(at) {
  const p = partsOf(at);
  return `${p.year}-${p.month}-${p.day} ${p.hour}:${p.minute} ${ZONE}`;
}
function londonTimeOf(iso) {
  if (!DATE_TIME.test(iso)) return void 0;
  const at = instantOf(iso);
  if (!at) return void 0;
  const p = partsOf(at);
  return `${p.hour}:${p.minute}`;
}
function publicationStatus(post, now) {
  if (post.draft) return "draft";
  const expiry = post.expiryDate ? instantOf(post.expiryDate) : void 0;
  if (expiry && expiry.getTime() <= now.getTime()) return "expired";
  const publish = post.publishDate ? instantOf(post.publishDate) : void 0;
  if (publish && publish.getTime() > now.getTime()) return "scheduled";
  return "live";
}
function nextChange(posts, now) {
  let next;
  const consider = (iso, slug3, kind) => {
    const at = iso ? instantOf(iso) : void 0;
    if (!at || at.getTime() <= now.getTime()) return;
    if (!next || at.getTime() < next.at.getTime()) next = { at, publishes: [], expires: [] };
    if (at.getTime() === next.at.getTime()) next[kind].push(slug3);
  };
  for (const post of posts) {
    if (post.draft) continue;
    consider(post.publishDate, post.slug, "publishes");
    consider(post.expiryDate, post.slug, "expires");
  }
  return next;
}

// src/content/schemas.ts
var isoDate = z2.string({ error: "expected an ISO date like 2025-09-24" }).regex(/^\d{4}-\d{2}-\d{2}$/, "expected an ISO date like 2025-09-24").refine((s) => !/^\d{4}-\d{2}-\d{2}$/.test(s) || !Number.isNaN(Date.parse(`${s}T00:00:00Z`)) && (/* @__PURE__ */ new Date(`${s}T00:00:00Z`)).toISOString().startsWith(s), "is not a real calendar date");
var PUBLICATION_DATE = "expected an ISO date like 2026-12-01, or a date and time with its offset like 2026-12-01T09:00:00+00:00";
var publicationDate = z2.string({ error: PUBLICATION_DATE }).refine((s) => instantOf(s) !== void 0, PUBLICATION_DATE);
var sitePath = z2.string().regex(/^\/(?!\/)[^\s]*$/, "expected a root-relative path such as /contact");
var href = z2.union([sitePath, z2.url({ protocol: /^https?$/ }), z2.string().regex(/^mailto:[^\s@]+@[^\s@]+$/)], { error: "expected a root-relative path, an http(s) address or a mailto: link" });
var imagePath = z2.string().regex(/^\/images\/[\w.-]+\.(svg|png|jpe?g|webp|avif)$/, "expected an image path such as /images/hero.svg");
var link = z2.strictObject({ label: text, href });
var image = z2.strictObject({ src: imagePath, alt: z2.string() });
var faq = z2.strictObject({ question: text, answer: text });
var card = z2.strictObject({ title: text, text });
var formUrlError = "expected an https:// address, or empty to use /dialog-assessment";
var formUrl = z2.union([z2.literal(""), z2.url({ protocol: /^https$/, error: formUrlError })], { error: formUrlError }).default("");
var assessmentForms = z2.strictObject({ organisation: formUrl, leaders: formUrl, teams: formUrl, readiness: formUrl });
var ASSESSMENT_FORMS = Object.keys(assessmentForms.shape);
var siteSchema = z2.strictObject({
  name: text,
  description: text,
  url: z2.url({ protocol: /^https?$/ }),
  email: z2.email(),
  location: text,
  officeHours: text,
  logo: imagePath.optional(),
  /** The external DIAlog surveys, opened in a new tab; an empty address sends its links to /dialog-assessment. */
  assessmentForms: assessmentForms.prefault({}),
  reviewsWidgetScript: z2.union([z2.literal(""), z2.url({ protocol: /^https$/ })]).default(""),
  tagManagerId: z2.union([z2.literal(""), z2.string().regex(/^GTM-[A-Z0-9]+$/, "expected a container id like GTM-ABC1234")]).default(""),
  formEndpoint: z2.union([sitePath, z2.url({ protocol: /^https$/ })]).default(DEFAULT_FORM_ENDPOINT),
  cookiePolicyVersion: z2.number().int().positive().default(1),
  /** Months a form submission is kept in the leads table (its TTL); the privacy policy states it. */
  leadRetentionMonths: z2.number().int().min(1).max(120).default(24),
  /** Site search: the index, the /search page, the form on /blog. false builds none of them. */
  search: z2.boolean({ error: "expected true or false" }).default(true),
  author: z2.strictObject({ name: text, role: text, bio: text })
});
var homeSchema = z2.strictObject({
  title: text,
  description: text,
  hero: z2.strictObject({ headline: text, text, image }),
  testimonials: z2.strictObject({
    heading: text,
    items: z2.array(z2.strictObject({ quote: text, role: text, company: text })).length(4)
  }),
  cta: z2.strictObject({ heading: text, text, assessment: card, talk: card })
});
var postSchema = z2.strictObject({
  title: text,
  excerpt: text,
  date: isoDate,
  readingTime: z2.string().regex(/^\d+ min read$/, "expected a reading time like '7 min read'").optional(),
  categories: z2.array(text).optional(),
  image: image.optional(),
  faq: z2.array(faq).length(3, "needs exactly three questions (they feed the FAQPage structured data)"),
  /** Kept out of every production build; `site serve` shows it with a banner. */
  draft: z2.boolean().optional(),
  /** Not built before this moment (a bare date: midnight, UK time). */
  publishDate: publicationDate.optional(),
  /** Not built from this moment on. */
  expiryDate: publicationDate.optional(),
  /** false keeps the article out of the site search (it is still published). */
  search: z2.boolean({ error: "expected true or false" }).optional()
}).superRefine((post, ctx) => {
  const publish = post.publishDate ? instantOf(post.publishDate) : void 0;
  const expiry = post.expiryDate ? instantOf(post.expiryDate) : void 0;
  if (publish && expiry && expiry.getTime() <= publish.getTime()) {
    ctx.addIssue({ code: "custom", path: ["expiryDate"], message: `is not after publishDate (${post.publishDate}), so the article would never be live` });
  }
});
var caseStudySchema = z2.strictObject({
  client: text,
  title: text,
  subtitle: text,
  metaTitle: text.optional(),
  metaDescription: text.optional(),
  aboutClient: text,
  challenge: text,
  solution: z2.array(text).min(1),
  results: z2.array(text).min(1),
  feedback: z2.strictObject({ quote: text, author: text, role: text }).optional(),
  whyUs: z2.array(text).optional(),
  headerImage: imagePath.optional(),
  headerImageAlt: z2.string().optional(),
  order: z2.number().int().default(100),
  /** false keeps the case study out of the site search. */
  search: z2.boolean({ error: "expected true or false" }).optional()
});
var legalSchema = z2.strictObject({
  title: text,
  description: text,
  updated: text
});

// src/content/markdown-site.ts
function remarkSiteSteps(steps) {
  return (tree, vfile) => {
    const state = vfile.data.site;
    const running = steps.map((step) => step(state));
    walk(tree, void 0, void 0, (node, index, parent) => {
      for (const step of running) step.enter(node, index, parent);
    });
    for (const step of running) step.done?.();
  };
}
function walk(node, index, parent, visit) {
  visit(node, index, parent);
  if (!("children" in node)) return;
  const self = node;
  for (let i = 0; i < self.children.length; i++) walk(self.children[i], i, self, visit);
}
var lineOf = (state, node) => node.position ? node.position.start.line + state.lineOffset : void 0;
function slugify(text2) {
  return text2.toLowerCase().normalize("NFKD").replace(/[\u0300-\u036f]/g, "").replace(/['’]/g, "").replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "");
}
function plainText(node) {
  if (node.type === "html") return "";
  if (node.type === "textDirective") return `:${node.name}${node.children.length ? `[${node.children.map(plainText).join("")}]` : ""}`;
  if ("value" in node) return node.value;
  if ("children" in node) return node.children.map(plainText).join("");
  return "";
}
var CONTAINERS = {
  fix: { tag: "div", className: "fix-box", heading: "How to Fix It", role: "note" },
  note: { tag: "div", className: "note-box" },
  sign: { tag: "section", className: "warning-sign" }
};
var plainChecks = (state) => {
  const fail = (node, message, hint) => state.errors.push({ file: state.file, line: lineOf(state, node), path: "body", message, hint });
  return {
    enter(node) {
      if (node.type === "html") fail(node, "contains raw HTML, which the site does not allow in markdown", "use a directive such as :::fix \u2026 ::: for boxes");
      else if (node.type === "containerDirective" && !CONTAINERS[node.name]) fail(node, `uses the unknown directive :::${node.name}`, `known directives: ${Object.keys(CONTAINERS).map((k) => `:::${k}`).join(", ")}`);
      else if (node.type === "leafDirective") fail(node, `uses the unknown directive ::${node.name}`, "start the line with something other than two colons, or escape them as \\:\\:");
    }
  };
};
var textDirectivesAsText = () => ({
  enter(node, index, parent) {
    if (node.type === "textDirective") parent.children[index] = { type: "text", value: plainText(node) };
  }
});
var boxes = () => ({
  enter(node) {
    if (node.type !== "containerDirective") return;
    const spec = CONTAINERS[node.name];
    if (!spec) return;
    node.data = { hName: spec.tag, hProperties: { className: [spec.className], ...spec.role ? { role: spec.role } : {} } };
    if (spec.heading) {
      const title = { type: "paragraph", data: { hProperties: { className: ["box-title"] } }, children: [{ type: "strong", children: [{ type: "text", value: spec.heading }] }] };
      node.children.unshift(title);
    }
  }
});
var headingIds = (state) => {
  const used = /* @__PURE__ */ new Map();
  return {
    enter(node) {
      if (node.type !== "heading") return;
      const text2 = plainText(node);
      const base = slugify(text2) || "section";
      const n = used.get(base) ?? 0;
      used.set(base, n + 1);
      const id = n ? `${base}-${n + 1}` : base;
      node.data = { ...node.data, hProperties: { ...node.data?.hProperties, id } };
      if (node.depth === 2 || node.depth === 3) state.toc.push({ id, text: text2, depth: node.depth });
    }
  };
};

// src/content/assessment-forms.ts
var NEW_TAB_HINT = " (opens in a new tab)";
var EXTERNAL_ICON_PATHS = ["M14 4h6v6M20 4l-9 9", "M18 14v5a1 1 0 01-1 1H5a1 1 0 01-1-1V7a1 1 0 011-1h5"];
var ASSESSMENT_FORM_SCHEME = "assessment-form:";
function assessmentHref(settings, form = "organisation") {
  const href2 = settings.assessmentForms[form];
  return href2 ? { href: href2, external: true } : { href: "/dialog-assessment", external: false };
}

// src/content/markdown-links.ts
var isForm = (name) => ASSESSMENT_FORMS.includes(name);
var formOf = (url) => url.startsWith(ASSESSMENT_FORM_SCHEME) ? url.slice(ASSESSMENT_FORM_SCHEME.length) : void 0;
var collectLinks = (state) => ({
  enter(node) {
    if (node.type === "definition") {
      state.links.push({ href: node.url, line: lineOf(state, node) });
      return;
    }
    if (node.type !== "link") return;
    const line = lineOf(state, node);
    const form = formOf(node.url);
    if (form === void 0) state.links.push({ href: node.url, line });
    else if (!isForm(form)) {
      state.linkErrors.push({
        file: state.file,
        line,
        path: "body",
        message: `links to ${node.url}, which names no assessment form`,
        hint: `use one of ${ASSESSMENT_FORMS.map((n) => ASSESSMENT_FORM_SCHEME + n).join(", ")} (assessmentForms in content/site.yaml)`
      });
    }
  }
});
var encode = (s) => s.replace(/&/g, "&#x26;").replace(/"/g, "&#x22;").replace(/</g, "&#x3C;");
var NEW_TAB_MARKS = `<svg class="icon icon--external" viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round" aria-hidden="true" focusable="false">${EXTERNAL_ICON_PATHS.map((d) => `<path d="${d}"></path>`).join("")}</svg><span class="visually-hidden">${encode(NEW_TAB_HINT)}</span>`;
var surveyLinks = (state) => {
  const definitions = /* @__PURE__ */ new Map();
  const links = [];
  return {
    enter(node) {
      if (node.type === "definition" && !definitions.has(node.identifier)) definitions.set(node.identifier, node);
      else if (node.type === "link" || node.type === "linkReference") links.push(node);
    },
    done() {
      for (const node of links) {
        const url = node.type === "link" ? node.url : definitions.get(node.identifier)?.url;
        const form = url === void 0 ? void 0 : formOf(url);
        if (form === void 0 || !isForm(form)) continue;
        const { href: href2, external } = assessmentHref({ assessmentForms: state.forms }, form);
        node.data = { ...node.data, hProperties: { href: href2, ...external ? { target: "_blank", rel: ["noopener", "noreferrer"] } : {} } };
        if (external) node.children.push({ type: "html", value: NEW_TAB_MARKS });
      }
    }
  };
};

// src/images/formats.ts
var FORMAT_NAMES = {
  jpeg: "JPEG",
  png: "PNG",
  webp: "WebP",
  avif: "AVIF",
  svg: "SVG",
  gif: "GIF",
  heic: "HEIC",
  tiff: "TIFF"
};
var EXTENSIONS = {
  ".jpg": "jpeg",
  ".jpeg": "jpeg",
  ".png": "png",
  ".webp": "webp",
  ".avif": "avif",
  ".svg": "svg"
};
var SOURCE_EXTENSION = { jpeg: ".jpg", png: ".png", webp: ".webp", avif: ".avif", svg: ".svg" };
var MIME = {
  avif: "image/avif",
  webp: "image/webp",
  jpeg: "image/jpeg",
  png: "image/png",
  svg: "image/svg+xml"
};
var EXTENSION_OF = { avif: ".avif", webp: ".webp", jpeg: ".jpg", png: ".png" };
var ascii = (buf, from, to) => Buffer.from(buf.subarray(from, to)).toString("latin1");
function sniff(buf) {
  if (buf[0] === 255 && buf[1] === 216 && buf[2] === 255) return "jpeg";
  if (ascii(buf, 0, 8) === "\x89PNG\r\n\n") return "png";
  if (ascii(buf, 0, 4) === "RIFF" && ascii(buf, 8, 12) === "WEBP") return "webp";
  if (ascii(buf, 4, 8) === "ftyp") {
    const size = Math.min(Buffer.from(buf).readUInt32BE(0), buf.length, 64);
    const brands = [ascii(buf, 8, 12), ...Array.from({ length: Math.max(0, (size - 16) / 4) }, (_, i) => ascii(buf, 16 + i * 4, 20 + i * 4))];
    if (brands.some((b) => b === "avif" || b === "avis")) return "avif";
    if (brands.some((b) => /^(heic|heix|mif1|msf1)$/.test(b))) return "heic";
    return void 0;
  }
  if (ascii(buf, 0, 6) === "GIF87a" || ascii(buf, 0, 6) === "GIF89a") return "gif";
  if (ascii(buf, 0, 4) === "II*\0" || ascii(buf, 0, 4) === "MM\0*") return "tiff";
  const head = Buffer.from(buf.subarray(0, 4096)).toString("utf8").replace(/^\uFEFF/, "");
  if (/^\s*(<\?xml[^>]*\?>\s*)?(<!--[\s\S]*?-->\s*|<!DOCTYPE[^>]*>\s*)*<svg[\s>]/i.test(head)) return "svg";
  return void 0;
}

// src/images/plan.ts
import { createHash } from "node:crypto";
import path from "node:path";

// src/images/slots.ts
var CONTAINER = 1152;
var GUTTER = 40;
var full = { vw: 100, px: -GUTTER };
var slots = {
  /** Full-bleed background of the home hero. */
  hero: { sizes: [{ width: { vw: 100 } }], widths: [480, 750, 1080, 1440, 1920] },
  /** The picture heading an article or a case study (at most 52rem). */
  article: { sizes: [{ minWidth: 832 + GUTTER, width: { px: 832 } }, { width: full }], widths: [480, 750, 832, 1080, 1664] },
  /** An image in a markdown body: the prose column, 68ch (754 px measured in Chromium). */
  body: { sizes: [{ minWidth: 754 + GUTTER, width: { px: 754 } }, { width: full }], widths: [480, 754, 1080, 1508] },
  /** Beside text in a two-column split (page heroes, the case-study teaser). */
  figure: { sizes: [{ minWidth: CONTAINER + GUTTER, width: { px: (CONTAINER - 48) / 2 } }, { minWidth: 900, width: { vw: 50, px: -(GUTTER + 48) / 2 } }, { width: full }], widths: [400, 552, 750, 1104] },
  /** A card in the three-column grid. */
  card: { sizes: [{ minWidth: CONTAINER + GUTTER, width: { px: (CONTAINER - 48) / 3 } }, { minWidth: 1024, width: { vw: 100 / 3, px: -(GUTTER + 48) / 3 } }, { minWidth: 640, width: { vw: 50, px: -(GUTTER + 24) / 2 } }, { width: full }], widths: [400, 560, 720, 1080] },
  /** The logo in the header and footer (2.25rem). */
  icon: { sizes: [{ width: { px: 36 } }], widths: [36, 72, 108] }
};
var SLOTS = slots;
var SLOT_NAMES = Object.keys(SLOTS);
var round = (n) => Math.round(n * 100) / 100;
function lengthText({ vw = 0, px: px2 = 0 }) {
  if (!vw) return `${round(px2)}px`;
  if (!px2) return `${round(vw)}vw`;
  return `calc(${round(vw)}vw ${px2 < 0 ? "-" : "+"} ${round(Math.abs(px2))}px)`;
}
function sizesAttribute(slot) {
  return SLOTS[slot].sizes.map((s) => s.minWidth ? `(min-width: ${s.minWidth}px) ${lengthText(s.width)}` : lengthText(s.width)).join(", ");
}

// src/images/encoder-settings.ts
var ENCODER_SETTINGS = {
  version: 1,
  avif: { quality: 50, effort: 2, chromaSubsampling: "4:2:0" },
  webp: { quality: 75, effort: 4 },
  jpeg: { quality: 75, mozjpeg: true },
  png: { compressionLevel: 9, adaptiveFiltering: true }
};

// src/images/plan.ts
var SHARE_WIDTH = 1200;
function fallbackFormat(image2) {
  return image2.source.alpha ? "png" : "jpeg";
}
function formatsFor(image2) {
  return ["avif", "webp", fallbackFormat(image2)];
}
function baseName(image2) {
  return path.basename(image2.file, path.extname(image2.file)).replace(/[^\w-]+/g, "-");
}
function variant(image2, format, width) {
  const height = Math.max(1, Math.round(width * image2.source.height / image2.source.width));
  const key = createHash("sha256").update(JSON.stringify([image2.source.hash, format, width, height, ENCODER_SETTINGS[format], ENCODER_SETTINGS.version])).digest("hex");
  return { url: `/assets/images/${baseName(image2)}-${width}-${key.slice(0, 10)}${EXTENSION_OF[format]}`, key, format, width, height };
}
function widthsFor(image2, slot) {
  const ladder = SLOTS[slot].widths;
  const within = ladder.filter((w) => w <= image2.source.width);
  return within.length < ladder.length ? [...within, image2.source.width] : within;
}
function slotVariants(image2, slot) {
  const widths = widthsFor(image2, slot);
  return formatsFor(image2).map((format) => ({ format, variants: widths.map((w) => variant(image2, format, w)) }));
}
function shareFile(image2) {
  return variant(image2, fallbackFormat(image2), Math.min(SHARE_WIDTH, image2.source.width));
}
function shareVariant(key, image2) {
  if (image2.source.format === "svg") {
    const ext = path.extname(key);
    return { src: `/assets/images/${path.basename(key, ext)}-${image2.source.hash.slice(0, 10)}${ext}`, width: image2.source.width, height: image2.source.height };
  }
  const v = shareFile(image2);
  return { src: v.url, width: v.width, height: v.height };
}

// src/images/picture.ts
var srcset = (variants) => variants.map((v) => `${v.url} ${v.width}w`).join(", ");
function pictureMarkup(image2, slot, opts) {
  const loading = opts.priority ? { fetchPriority: "high" } : { loading: "lazy" };
  const common = { alt: opts.alt, ...opts.className ? { className: opts.className } : {}, decoding: "async", ...loading };
  if (image2.source.format === "svg") {
    return {
      sources: [],
      img: { src: image2.src, width: image2.width, height: image2.height, ...common },
      ...opts.priority ? { preload: { type: MIME.svg, href: image2.src } } : {}
    };
  }
  const sizes = sizesAttribute(slot);
  const sets = slotVariants(image2, slot);
  const fallback = sets.at(-1).variants;
  const largest = fallback.at(-1);
  const best = sets[0];
  return {
    sources: sets.slice(0, -1).map((s) => ({ type: MIME[s.format], srcSet: srcset(s.variants), sizes })),
    img: { src: largest.url, srcSet: srcset(fallback), sizes, width: largest.width, height: largest.height, ...common },
    ...opts.priority ? { preload: { type: MIME[best.format], imageSrcSet: srcset(best.variants), imageSizes: sizes } } : {}
  };
}

// src/content/markdown-images.ts
function imagesNamedIn(source, images) {
  const at = [];
  for (let i = source.indexOf(IMAGES); i !== -1; i = source.indexOf(IMAGES, i + 1)) at.push(i);
  const bytes = typeof source === "string" ? void 0 : keyBytes(images);
  const startsAt = (key, i) => {
    if (typeof source === "string") return source.startsWith(key, i);
    const wanted = bytes.get(key);
    return i + wanted.length <= source.length && source.compare(wanted, 0, wanted.length, i, i + wanted.length) === 0;
  };
  const named2 = (key) => key.startsWith(IMAGES) ? at.some((i) => startsAt(key, i)) : source.includes(key);
  return Object.fromEntries(Object.entries(images).filter(([key]) => named2(key)));
}
var IMAGES = "/images/";
var encoded = /* @__PURE__ */ new WeakMap();
function keyBytes(images) {
  let found = encoded.get(images);
  if (!found) encoded.set(images, found = new Map(Object.keys(images).map((key) => [key, Buffer.from(key)])));
  return found;
}
var ATTRIBUTE = { "&": "&#x26;", '"': "&#x22;", "'": "&#x27;", "`": "&#x60;" };
var encode2 = (s) => String(s).replace(/[&"'`]/g, (c) => ATTRIBUTE[c]);
function pictureHtml(m, title) {
  const attrs = (pairs) => pairs.filter(([, v]) => v !== void 0 && v !== null).map(([k, v]) => ` ${k}="${encode2(v)}"`).join("");
  const { img } = m;
  return `<picture>${m.sources.map((s) => `<source${attrs([["type", s.type], ["srcset", s.srcSet], ["sizes", s.sizes]])}>`).join("")}<img${attrs([["src", img.src], ["srcset", img.srcSet], ["sizes", img.sizes], ["width", img.width], ["height", img.height], ["alt", img.alt], ["title", title], ["class", img.className], ["decoding", img.decoding], ["loading", img.loading], ["fetchpriority", img.fetchPriority]])}></picture>`;
}
var pictures = (state) => {
  const definitions = /* @__PURE__ */ new Map();
  const found = [];
  return {
    enter(node, index, parent) {
      if (node.type === "definition" && !definitions.has(node.identifier)) definitions.set(node.identifier, node);
      else if (node.type === "image" || node.type === "imageReference") found.push({ node, index, parent });
    },
    done() {
      for (const { node, index, parent } of found) {
        const target = node.type === "image" ? node : definitions.get(node.identifier);
        if (!target) continue;
        const src = target.url;
        const alt = node.alt ?? "";
        const line = lineOf(state, node);
        const image2 = state.images[src];
        const fail = (message, hint) => state.imageErrors.push({ file: state.file, line, path: "body", message, hint });
        if (!alt.trim()) fail(`has an image without alt text: ![](${src})`, "describe what the picture shows between the brackets, as in ![The team at a workshop](/images/team.jpg)");
        if (!image2) fail(`names the image ${src}, which is not in content/images`, "put the file in content/images and write its path as /images/name.jpg");
        if (!alt.trim() || !image2) continue;
        state.shown.push({ src, slot: "body", priority: false });
        parent.children[index] = { type: "html", value: pictureHtml(pictureMarkup(image2, "body", { alt }), target.title) };
      }
    }
  };
};

// src/content/markdown-parser.ts
import { createRequire } from "node:module";
import { isMainThread } from "node:worker_threads";
import { unified } from "unified";
var PARSER_ENV = "SITE_MARKDOWN_PARSER";
var SATTERI_OPTIONS = { features: { gfm: true, directive: true, frontmatter: false } };
function remarkParser() {
  const load2 = (name) => require2(name).default;
  const processor = unified().use(load2("remark-parse")).use(load2("remark-gfm")).use(load2("remark-directive")).freeze();
  return { name: "remark-parse", parse: (source) => processor.parse(source) };
}
function satteriParser(satteri) {
  return { name: "satteri", parse: (source) => satteri.markdownToMdast(source, SATTERI_OPTIONS) };
}
var require2 = createRequire(import.meta.url);
var requireSatteri = () => require2("satteri");
var WARNED = /* @__PURE__ */ Symbol.for("site.markdownParser.warned");
function chooseParser(load2 = requireSatteri, env = process.env, warn = console.warn) {
  try {
    if (env[PARSER_ENV] === "remark-parse") throw new Error(`${PARSER_ENV}=remark-parse`);
    return satteriParser(load2());
  } catch (error) {
    const g = globalThis;
    if (isMainThread && !g[WARNED]) {
      g[WARNED] = true;
      const reason2 = (error instanceof Error ? error.message : String(error)).split("\n")[0];
      warn(`site: markdown falls back to remark-parse (same output, slower): satteri's native parser did not load (${reason2})`);
    }
    return remarkParser();
  }
}
var chosen;
function markdownParser() {
  return chosen ??= chooseParser();
}

// src/content/markdown.ts
var NO_ADDRESSES = Object.fromEntries(ASSESSMENT_FORMS.map((name) => [name, ""]));
function siteProcessor(parser) {
  return unified2().use(function parse() {
    this.parser = (document) => parser.parse(document);
  }).use(remarkSiteSteps, [plainChecks, collectLinks, textDirectivesAsText, boxes, headingIds, surveyLinks, pictures]).use(remarkHtml, { sanitize: false }).freeze();
}
var processors = /* @__PURE__ */ new Map();
function renderMarkdown(source, file, lineOffset = 0, forms = NO_ADDRESSES, images = {}, parser = markdownParser()) {
  let processor = processors.get(parser);
  if (!processor) processors.set(parser, processor = siteProcessor(parser));
  const state = { file, lineOffset, forms, images, toc: [], links: [], errors: [], linkErrors: [], imageErrors: [], shown: [] };
  const vfile = new VFile({ value: source, data: { site: state } });
  const html = String(processor.processSync(vfile));
  const errors = [...state.errors, ...state.linkErrors, ...state.imageErrors].sort((a, b) => (a.line ?? 0) - (b.line ?? 0));
  return { html: html && !/[\r\n]$/.test(html) ? `${html}
` : html, toc: state.toc, links: state.links, errors, images: state.shown };
}

// src/content/front-matter.ts
import matter from "gray-matter";

// src/content/yaml.ts
import { LineCounter, parseDocument, isNode } from "yaml";
import { load } from "js-yaml";
var recent = /* @__PURE__ */ new Map();
var RECENT_MAX = 1e3;
function parseYaml(text2, file, lineOffset = 0) {
  const key = `${file}\0${lineOffset}`;
  const hit = recent.get(key);
  if (hit?.text === text2) return hit.parsed;
  const parsed2 = parseYamlAfresh(text2, file, lineOffset);
  recent.delete(key);
  recent.set(key, { text: text2, parsed: parsed2 });
  if (recent.size > RECENT_MAX) recent.delete(recent.keys().next().value);
  return parsed2;
}
function readYaml(text2, file, lineOffset = 0) {
  const quick = quickRead(text2);
  if (quick !== void 0) return { data: quick, errors: [] };
  const { data, errors } = parseYamlAfresh(text2, file, lineOffset);
  return { data, errors };
}
var LEFT_TO_YAML = /(?:^|[\s,[{])![^\s,[\]{}]|^%/m;
function quickRead(text2) {
  if (LEFT_TO_YAML.test(text2)) return void 0;
  let value;
  try {
    value = load(text2, { maxAliases: 0 });
  } catch {
    return void 0;
  }
  return value !== null && typeof value === "object" && !Array.isArray(value) ? value : void 0;
}
function parseYamlAfresh(text2, file, lineOffset) {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text2, { lineCounter, prettyErrors: false, uniqueKeys: true });
  const errors = doc.errors.map((err) => ({
    file,
    line: err.linePos?.[0]?.line !== void 0 ? err.linePos[0].line + lineOffset : void 0,
    path: "",
    message: `is not valid YAML: ${err.message.split("\n")[0]}`
  }));
  for (const err of doc.errors) {
    const at = errors.find((e) => e.line === void 0);
    if (at && typeof err.pos?.[0] === "number") at.line = lineCounter.linePos(err.pos[0]).line + lineOffset;
  }
  let data;
  if (!errors.length) {
    try {
      data = doc.toJS();
    } catch (error) {
      errors.push({ file, line: lineOffset + 1, path: "", message: `is not valid YAML: ${error instanceof Error ? error.message : String(error)}`, hint: "use each &anchor a few times at most, or write the values out" });
    }
  }
  return {
    data,
    errors,
    lineOf(path9) {
      for (let n = path9.length; n >= 0; n--) {
        const node = n === 0 ? doc.contents : doc.getIn(path9.slice(0, n), true);
        if (isNode(node) && node.range) return lineCounter.linePos(node.range[0]).line + lineOffset;
      }
      return void 0;
    }
  };
}

// src/content/front-matter.ts
var linesBefore = (source, at) => {
  let n = 0;
  for (let i = source.indexOf("\n"); i !== -1 && i < at; i = source.indexOf("\n", i + 1)) n++;
  return n;
};
function readFrontMatter(source, file) {
  let read;
  let frontLine = 0;
  const yaml = (text2) => {
    frontLine = linesBefore(source, source.indexOf(text2));
    read = readYaml(text2, file, frontLine);
    return {};
  };
  let parsed2;
  try {
    parsed2 = matter(source, { engines: { yaml } });
  } catch (error) {
    const message = `has front matter that is not YAML (${error instanceof Error ? error.message : String(error)})`;
    return { front: "", frontLine: 0, data: void 0, errors: [{ file, line: 1, path: "", message, hint: "open the file with a line of three dashes, ---, and write YAML" }], body: "", bodyLine: 0 };
  }
  const front = parsed2.matter ?? "";
  if (!read) {
    frontLine = front ? linesBefore(source, source.indexOf(front)) : 0;
    read = readYaml(front, file, frontLine);
  }
  const body = parsed2.content;
  return { front, frontLine, data: read.data, errors: read.errors, body, bodyLine: linesBefore(source, source.length - body.length) };
}

// src/body-marker.ts
var MARKER = "\0body:";
var bodyMarker = (key) => `${MARKER}${key}`;
var markedKey = (html) => typeof html === "string" && html.startsWith(MARKER) ? html.slice(MARKER.length) : void 0;

// src/pack-value.ts
function packValue(value) {
  const text2 = JSON.stringify(value);
  const bytes = Buffer.allocUnsafeSlow(Buffer.byteLength(text2));
  bytes.write(text2);
  return bytes;
}

// src/content/markdown-file.ts
function parseJob({ read, digest, ...job }) {
  if (job.source !== void 0) return { ...job, source: job.source };
  const source = read();
  if (digestOf(source) !== digest) throw new Error(`${job.rel} changed while the build was reading it: build again`);
  return { ...job, source };
}
var digestOf = (source) => hash("sha256", source);
var sourceText = (source) => typeof source === "string" ? source : Buffer.from(source.buffer, source.byteOffset, source.byteLength).toString("utf8");
async function parseMarkdownFile({ source, rel, forms, images, apart }) {
  const { front, frontLine, data, errors, body: content, bodyLine } = readFrontMatter(sourceText(source), rel);
  const body = renderMarkdown(content, rel, bodyLine, forms, images);
  const parsed2 = { front, frontLine, frontData: data, frontErrors: errors };
  if (apart !== void 0) return { ...parsed2, body: { ...body, html: bodyMarker(apart) }, bodyEntry: packValue(body.html) };
  return { ...parsed2, body };
}

// src/cache/source-index.ts
import path4 from "node:path";
import { readFileSync as readFileSync2 } from "node:fs";
import { mkdir as mkdir2, rename as rename2, rm as rm2, writeFile as writeFile2 } from "node:fs/promises";

// src/cache/store.ts
import path2 from "node:path";
import { readSync } from "node:fs";
import { mkdir, open, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
var CACHE_DIR = ".site-cache";
var CACHE_FORMAT = 5;
var KEY = /^[0-9a-f]{64}$/;
var TAB = 9;
var NEWLINE = 10;
var NEWLINE_BYTES = Buffer.from("\n");
var FLUSH_BYTES = 4 << 20;
var COMPACT_SLACK = 256;
var CacheStore = class _CacheStore {
  /** `memory`, when given, keeps entries in memory too (serve's session): a rebuild then reads no cache file. */
  constructor(root, kind, valid, memory) {
    this.kind = kind;
    this.valid = valid;
    this.memory = memory;
    this.file = path2.join(root, CACHE_DIR, `${kind}.pack`);
    this.indexFile = `${this.file}.index`;
  }
  kind;
  valid;
  memory;
  file;
  indexFile;
  discarded = 0;
  index = /* @__PURE__ */ new Map();
  lines = 0;
  size = 0;
  used = /* @__PURE__ */ new Set();
  /** A line as its parts (the key and tab, the value, the newline): written together, never copied into one. */
  pending = [];
  /** Lines appended but not yet on disk (queued, or being written): read from here until they are. */
  unwritten = /* @__PURE__ */ new Map();
  pendingBytes = 0;
  rewrite = false;
  /** No header of this format: the file is started afresh before anything is appended. */
  foreign = false;
  handle;
  appending = Promise.resolve();
  get header() {
    return `site-cache ${this.kind} ${CACHE_FORMAT}
`;
  }
  static async open(root, kind, valid, memory) {
    const store = new _CacheStore(root, kind, valid, memory);
    await store.readIndex();
    return store;
  }
  /** Reads the pack once, a megabyte at a time, noting each line's key and place. */
  async readIndex() {
    const handle = await open(this.file, "r").catch(() => void 0);
    if (!handle) return;
    this.handle = handle;
    if (await this.readSavedIndex(handle)) return;
    const chunk = Buffer.allocUnsafe(1 << 20);
    let carry = Buffer.alloc(0);
    let offset = 0;
    let first = true;
    for (; ; ) {
      const { bytesRead } = await handle.read(chunk, 0, chunk.length, offset);
      const data = carry.length ? Buffer.concat([carry, chunk.subarray(0, bytesRead)]) : chunk.subarray(0, bytesRead);
      const base = offset - carry.length;
      let at = 0;
      for (let nl = data.indexOf(NEWLINE, at); nl !== -1; nl = data.indexOf(NEWLINE, at)) {
        if (first) {
          first = false;
          if (data.toString("latin1", 0, nl + 1) !== this.header) {
            this.foreign = true;
            return;
          }
        } else {
          const tab = data.indexOf(TAB, at);
          const key = tab !== -1 && tab < nl ? data.toString("latin1", at, tab) : "";
          if (KEY.test(key)) this.index.set(key, { start: base + at, end: base + nl });
          else {
            this.discarded++;
            this.rewrite = true;
          }
          this.lines++;
        }
        at = nl + 1;
      }
      carry = Buffer.from(data.subarray(at));
      offset += bytesRead;
      if (bytesRead === 0) break;
    }
    this.size = offset;
    if (carry.length) {
      this.discarded++;
      this.rewrite = true;
    }
    if (first) this.foreign = true;
  }
  async get(key) {
    const remembered = this.memory?.get(`${this.kind}:${key}`);
    if (remembered !== void 0) {
      this.used.add(key);
      return remembered;
    }
    const bytes = await this.readValue(key);
    if (bytes) {
      try {
        const value = JSON.parse(bytes.toString("utf8"));
        if (this.valid(value)) {
          this.memory?.set(`${this.kind}:${key}`, value);
          this.used.add(key);
          return value;
        }
      } catch {
      }
    }
    if (this.index.has(key)) this.discard(key);
    return void 0;
  }
  /**
   * The value's bytes as stored, not parsed: for an entry that another thread decodes (a page, which
   * its worker reads); if they turn out not to be a value, that thread says so and `discard` drops it.
   */
  async getRaw(key) {
    const remembered = this.memory?.get(`${this.kind}:${key}`);
    if (remembered instanceof Uint8Array) {
      this.used.add(key);
      return remembered;
    }
    const bytes = await this.readValue(key);
    if (!bytes) {
      if (this.index.has(key)) this.discard(key);
      return void 0;
    }
    this.memory?.set(`${this.kind}:${key}`, bytes);
    this.used.add(key);
    return bytes;
  }
  /** The line of `key`, less the key: undefined if there is none, or it is cut short or another key's. */
  async readValue(key) {
    const queued = this.unwritten.get(key);
    if (queued) {
      const line2 = Buffer.concat(queued.parts);
      return line2.subarray(key.length + 1, line2.length - 1);
    }
    const place = this.index.get(key);
    if (!place || !this.handle) return void 0;
    const line = Buffer.allocUnsafe(place.end - place.start);
    const bytesRead = readSync(this.handle.fd, line, 0, line.length, place.start);
    if (bytesRead !== line.length || line[key.length] !== TAB || line.toString("latin1", 0, key.length) !== key) return void 0;
    return line.subarray(key.length + 1);
  }
  /** An entry found unreadable: counted, forgotten, and dropped from the pack at its next rewrite. */
  discard(key) {
    this.discarded++;
    this.index.delete(key);
    this.unwritten.delete(key);
    this.used.delete(key);
    this.memory?.delete(`${this.kind}:${key}`);
    this.rewrite = true;
  }
  /** Whether any entry could be found (a first build's store holds none: no key need be worked out to ask). */
  get mayHold() {
    return this.index.size > 0 || (this.memory?.size ?? 0) > 0;
  }
  /** Whether an entry of `key` is there to be read (it may yet turn out unreadable): the index alone is asked, nothing is read. */
  has(key) {
    return this.unwritten.has(key) || this.index.has(key) || !!this.memory?.has(`${this.kind}:${key}`);
  }
  /** How many entries the pack holds (some may belong to files since changed). */
  get entries() {
    return this.index.size;
  }
  /** Marks the entry of `key` as still in use without reading it, so that a rewrite keeps it. */
  touch(key) {
    if (this.index.has(key) || this.memory?.has(`${this.kind}:${key}`)) this.used.add(key);
  }
  /** Queued, and appended with others once a few megabytes are waiting (or at `save`). */
  async set(key, value) {
    this.memory?.set(`${this.kind}:${key}`, value);
    const line = Buffer.from(`${key}	${JSON.stringify(value)}
`);
    await this.append(key, { parts: [line], bytes: line.length });
  }
  /** `set` with the value's bytes made elsewhere (see `getRaw`); they must hold no newline. */
  async setRaw(key, bytes) {
    this.memory?.set(`${this.kind}:${key}`, bytes);
    await this.append(key, { parts: [Buffer.from(`${key}	`), bytes, NEWLINE_BYTES], bytes: key.length + 2 + bytes.byteLength });
  }
  async append(key, line) {
    this.used.add(key);
    this.pending.push({ key, line });
    this.unwritten.set(key, line);
    this.pendingBytes += line.bytes;
    if (this.pendingBytes >= FLUSH_BYTES) await this.flush();
  }
  /** Appends what is queued, one write after another; each line's place is noted for a later rewrite. */
  flush() {
    const lines = this.pending;
    this.pending = [];
    this.pendingBytes = 0;
    this.appending = this.appending.then(async () => {
      if (!lines.length) return;
      await mkdir(path2.dirname(this.file), { recursive: true });
      const fresh = this.size === 0 || this.foreign;
      if (fresh) {
        await this.handle?.close();
        this.handle = void 0;
        this.index.clear();
        this.lines = 0;
        this.foreign = false;
      }
      const handle = await open(this.file, fresh ? "w" : "a");
      try {
        let at = fresh ? Buffer.byteLength(this.header) : this.size;
        for (const { key, line } of lines) {
          const { bytes } = line;
          this.index.set(key, { start: at, end: at + bytes - 1 });
          this.lines++;
          at += bytes;
        }
        await handle.writev([...fresh ? [Buffer.from(this.header)] : [], ...lines.flatMap((l) => l.line.parts)]);
        this.size = at;
      } finally {
        await handle.close();
      }
      await this.handle?.close();
      this.handle = await open(this.file, "r");
      for (const { key, line } of lines) if (this.unwritten.get(key) === line) this.unwritten.delete(key);
    });
    return this.appending;
  }
  /** Writes what this build added; rewrites the file with this build's entries alone when it has grown stale or holds bad lines. */
  async save() {
    await this.flush();
    const stale = this.rewrite || this.foreign || this.lines > 2 * this.used.size + COMPACT_SLACK;
    if (stale) await this.compact();
    await this.handle?.close();
    this.handle = void 0;
    await this.writeIndex();
  }
  /** The file anew, written whole beside it and renamed over it, holding the lines of the entries this build used. */
  async compact() {
    await mkdir(path2.dirname(this.file), { recursive: true });
    const tmp = `${this.file}.${process.pid}.tmp`;
    const out = await open(tmp, "w");
    const index = /* @__PURE__ */ new Map();
    try {
      await out.write(this.header);
      let at = Buffer.byteLength(this.header);
      for (const key of this.used) {
        const place = this.index.get(key);
        if (!place || !this.handle) continue;
        const line = Buffer.allocUnsafe(place.end - place.start + 1);
        const { bytesRead } = await this.handle.read(line, 0, line.length, place.start);
        if (bytesRead === line.length && line.toString("latin1", 0, 65) === `${key}	` && line[line.length - 1] === NEWLINE) {
          await out.write(line);
          index.set(key, { start: at, end: at + line.length - 1 });
          at += line.length;
        }
      }
    } finally {
      await out.close();
    }
    const renamed = await rename(tmp, this.file).then(() => true, () => rm(tmp, { force: true }).then(() => false));
    if (renamed) {
      this.index = index;
      this.lines = index.size;
      this.size = Buffer.byteLength(this.header) + [...index.values()].reduce((n, p) => n + p.end - p.start + 1, 0);
    }
  }
  /**
   * Beside the pack, where each of its lines lies, with the pack's size and time: the next build reads
   * this (a megabyte or so) instead of scanning a pack of hundreds. Used only while the pack is exactly
   * as it was then; each line is still checked against its key when read.
   */
  async writeIndex() {
    const now = await stat(this.file).catch(() => void 0);
    if (!now) return;
    const places = [];
    for (const [key, { start, end }] of this.index) places.push([key, start, end]);
    const tmp = `${this.indexFile}.${process.pid}.tmp`;
    await writeFile(tmp, JSON.stringify({ header: this.header, size: now.size, mtimeMs: now.mtimeMs, lines: this.lines, places }));
    await rename(tmp, this.indexFile).catch(() => rm(tmp, { force: true }));
  }
  /** The index `writeIndex` left, if the pack is still exactly as it was then. */
  async readSavedIndex(handle) {
    const text2 = await readFile(this.indexFile, "utf8").catch(() => void 0);
    if (!text2) return false;
    try {
      const saved = JSON.parse(text2);
      const now = await handle.stat();
      if (saved.header !== this.header || saved.size !== now.size || saved.mtimeMs !== now.mtimeMs || !Array.isArray(saved.places)) return false;
      const head = Buffer.alloc(Buffer.byteLength(this.header));
      await handle.read(head, 0, head.length, 0);
      if (head.toString("latin1") !== this.header) return false;
      for (const [key, start, end] of saved.places) if (KEY.test(key) && end > start) this.index.set(key, { start, end });
      this.lines = saved.lines;
      this.size = now.size;
      return true;
    } catch {
      this.index.clear();
      return false;
    }
  }
};

// src/generator-code.ts
import { readdirSync, readFileSync } from "node:fs";
import path3 from "node:path";
import { fileURLToPath } from "node:url";

// src/hash.ts
import { hash as hash2 } from "node:crypto";
var hashOf = (...parts) => {
  if (parts.every((part) => typeof part === "string")) return hash2("sha256", parts.length ? `${parts.join("\0")}\0` : "");
  const nul = Buffer.from([0]);
  return hash2("sha256", Buffer.concat(parts.flatMap((part) => [typeof part === "string" ? Buffer.from(part) : part, nul])));
};

// src/generator-code.ts
var known;
function generatorCode() {
  return known ??= fromStamp() ?? codeTreeHash(path3.dirname(fileURLToPath(import.meta.url)));
}
function fromStamp() {
  try {
    const stamp = JSON.parse(readFileSync(new URL("./stamp.json", import.meta.url), "utf8"));
    return typeof stamp.code === "string" ? stamp.code : void 0;
  } catch {
    return void 0;
  }
}
function codeTreeHash(dir2) {
  const files = readdirSync(dir2, { recursive: true, encoding: "utf8" }).filter((f) => /\.(?:tsx?|m?js)$/.test(f)).sort();
  return hashOf(...files.flatMap((f) => [f, readFileSync(path3.join(dir2, f))]));
}

// src/cache/source-index.ts
var SETTLED_MS = 2e3;
var FILE = "sources.json";
var SourceIndex = class _SourceIndex {
  file;
  last = /* @__PURE__ */ new Map();
  now = /* @__PURE__ */ new Map();
  /** YAML files found valid, by key, as the generator that checked them (`generatorCode`) left them. */
  lastYaml = /* @__PURE__ */ new Map();
  nowYaml = /* @__PURE__ */ new Map();
  constructor(root) {
    this.file = path4.join(root, CACHE_DIR, FILE);
  }
  static open(root) {
    const index = new _SourceIndex(root);
    try {
      const saved = JSON.parse(readFileSync2(index.file, "utf8"));
      if (saved.format !== CACHE_FORMAT) return index;
      if (saved.files && typeof saved.files === "object") index.last = new Map(Object.entries(saved.files));
      if (saved.yaml?.by === generatorCode() && saved.yaml.checked && typeof saved.yaml.checked === "object") index.lastYaml = new Map(Object.entries(saved.yaml.checked));
    } catch {
    }
    return index;
  }
  /** What the last build read of `file`, if its stat is still what it was then. */
  known(file, stat3) {
    const entry = this.last.get(file);
    if (!Array.isArray(entry) || entry.length !== 7) return void 0;
    const [ino, size, mtimeMs, ctimeMs, digest, imagesSet, images] = entry;
    if (ino !== stat3.ino || size !== stat3.size || mtimeMs !== stat3.mtimeMs || ctimeMs !== stat3.ctimeMs) return void 0;
    if (typeof digest !== "string" || typeof imagesSet !== "string" || !Array.isArray(images)) return void 0;
    this.now.set(file, entry);
    return { digest, imagesSet, images };
  }
  /** A file as this build read it, under its stat taken before the read; not noted if it had been modified within the last two seconds. */
  note(file, stat3, known2, readAt = Date.now()) {
    if (stat3.mtimeMs > readAt - SETTLED_MS) return;
    this.now.set(file, [stat3.ino, stat3.size, stat3.mtimeMs, stat3.ctimeMs, known2.digest, known2.imagesSet, known2.images]);
  }
  /** A YAML file's data and addresses, as a load of this generator found it valid from the same key. */
  checkedYaml(key) {
    const checked = this.lastYaml.get(key);
    if (!checked || typeof checked.data !== "object" || checked.data === null || !Array.isArray(checked.links)) return void 0;
    this.nowYaml.set(key, checked);
    return checked;
  }
  keepYaml(key, checked) {
    this.nowYaml.set(key, checked);
  }
  /** Written whole, beside and renamed over, with the files this build read or knew; not when nothing changed. */
  async save() {
    const same = (now, last) => now.size === last.size && [...now].every(([key, entry]) => last.get(key) === entry);
    if (same(this.now, this.last) && same(this.nowYaml, this.lastYaml)) return;
    await mkdir2(path4.dirname(this.file), { recursive: true });
    const tmp = `${this.file}.${process.pid}.tmp`;
    await writeFile2(tmp, JSON.stringify({ format: CACHE_FORMAT, files: Object.fromEntries(this.now), yaml: { by: generatorCode(), checked: Object.fromEntries(this.nowYaml) } }));
    await rename2(tmp, this.file).catch(() => rm2(tmp, { force: true }));
  }
};

// src/concurrency.ts
var IO_CONCURRENCY = 48;
async function mapLimit(items, limit, fn) {
  const results = new Array(items.length);
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i], i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
  return results;
}
function turnTaker(every = 32) {
  let calls = 0;
  let turn;
  return () => {
    if (turn || ++calls % every) return turn;
    return turn = new Promise((resolve) => setImmediate(() => {
      turn = void 0;
      resolve();
    }));
  };
}

// src/render/article-body.ts
var postOf = (route) => route.props?.post;
var routeBodyKey = (route) => markedKey(postOf(route)?.html);

// src/cache/build-cache.ts
var LostBodiesError = class extends Error {
  name = "LostBodiesError";
};
var isBody = (v) => typeof v === "string";
var isChecked = (c) => c === void 0 || typeof c === "object" && c !== null && typeof c.by === "string" && typeof c.data === "object" && c.data !== null && Array.isArray(c.links);
var isParsed = (v) => {
  const p = v;
  return !!p && (typeof p.front === "string" || p.front === void 0 && p.checked !== void 0) && typeof p.frontLine === "number" && Array.isArray(p.frontErrors) && !!p.body && typeof p.body.html === "string" && Array.isArray(p.body.toc) && Array.isArray(p.body.errors) && Array.isArray(p.body.images) && isChecked(p.checked);
};
var filedChecked = (parsed2, checked) => {
  const { frontData: _parsed, front: _text, ...rest } = parsed2;
  return { ...rest, frontData: void 0, checked };
};
var BuildCache = class _BuildCache {
  constructor(lockHash, stores, sources) {
    this.lockHash = lockHash;
    this.sources = sources;
    [this.markdown, this.bodies] = stores;
  }
  lockHash;
  markdown;
  bodies;
  /** What the last build did: files parsed and pages rendered afresh (the rest came from the cache). */
  counts = { parsed: 0, rendered: 0, keyed: 0 };
  /** Articles whose body could not be read back when their page needed it (see LostBodiesError). */
  lost = 0;
  /** What the last load read of the content: the markdown files by their stat, the YAML files as found valid (see source-index.ts). */
  sources;
  /** `memory`: entries kept in memory from one build to the next as well (serve's session). */
  static async open(root, memory) {
    const [lock, markdown, bodies] = await Promise.all([
      readFile2(path5.join(root, "package-lock.json")).catch(() => Buffer.from("")),
      CacheStore.open(root, "markdown", isParsed, memory),
      // Not in serve's memory: a save re-renders one page, whose body is one read of the pack away.
      CacheStore.open(root, "bodies", isBody)
    ]);
    return new _BuildCache(hashOf(lock), [markdown, bodies], SourceIndex.open(root));
  }
  /**
   * Parsed markdown to store, put off until the pages are rendering: encoding a thousand files costs
   * the main thread a tenth of a second, which the workers would spend waiting for their first pages.
   */
  unstored = [];
  async storeDeferred() {
    for (const put of this.unstored.splice(0)) await put();
  }
  /** What this build added, written; a pack grown stale rewritten. */
  async save() {
    await this.storeDeferred();
    await Promise.all([this.markdown.save(), this.bodies.save(), this.sources.save()]);
  }
  /** An article's body HTML by its markdown key (the search index reads those it indexes), or undefined if it is not there. */
  async body(key) {
    const bytes = await this.bodies.getRaw(key);
    if (!bytes) return void 0;
    try {
      const value = JSON.parse(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("utf8"));
      return typeof value === "string" ? value : void 0;
    } catch {
      return void 0;
    }
  }
  /** Parsed markdown files the cache holds: a guess, before reading any content, at how many a build can reuse. */
  get markdownEntries() {
    return this.markdown.entries;
  }
  /** Entries found unreadable and deleted during this build. */
  get discarded() {
    return this.markdown.discarded + this.bodies.discarded;
  }
  /**
   * Each job's parsed file, from the cache or from `compute` (all the misses in one batch). The body
   * of a file that `apart` says only its page reads (an article: not a legal page, whose HTML the
   * load fills in) is parsed under its key: the thread that parses it makes the body's entry, which
   * goes into the bodies pack at once (appended a few megabytes at a time), and the result holds the
   * marker instead. A cached entry whose body is not in that pack is a miss.
   */
  async parse(jobs, codeHash, compute, apart = () => false) {
    const shared = /* @__PURE__ */ new Map();
    const sharedOf = (forms) => shared.get(forms) ?? shared.set(forms, hashOf(this.lockHash, codeHash, JSON.stringify(forms ?? null))).get(forms);
    const keys = jobs.map((job) => hashOf(sharedOf(job.forms), job.rel, JSON.stringify(job.images ?? null), job.digest));
    const results = await mapLimit(keys, IO_CONCURRENCY, async (key) => {
      const hit = await this.markdown.get(key);
      const marked = markedKey(hit?.body.html);
      if (!hit || marked === void 0) return hit && this.checking(key, hit);
      if (marked === key && this.bodies.has(key)) {
        this.bodies.touch(key);
        return this.checking(key, hit);
      }
      this.markdown.discard(key);
      return void 0;
    });
    const missing = results.flatMap((r, i) => r === void 0 ? [i] : []);
    if (!missing.length) return results;
    const fresh = await compute(missing.map((i) => ({ ...parseJob(jobs[i]), ...apart(jobs[i]) ? { apart: keys[i] } : {} })));
    const made = [];
    const checkedNow = /* @__PURE__ */ new Map();
    let stored = false;
    for (const [k, index] of missing.entries()) {
      const { bodyEntry, ...result } = fresh[k];
      if (bodyEntry) await this.bodies.setRaw(keys[index], bodyEntry);
      made.push(result);
      results[index] = { ...result, remember: (checked) => {
        if (!stored) checkedNow.set(k, { ...checked, by: this.checker });
        else this.rememberLater(keys[index], result, checked);
      } };
    }
    this.counts.parsed += missing.length;
    this.unstored.push(async () => {
      stored = true;
      const turn = turnTaker();
      await mapLimit(missing, IO_CONCURRENCY, async (index, k) => {
        await turn();
        const checked = checkedNow.get(k);
        await this.markdown.set(keys[index], checked ? filedChecked(made[k], checked) : made[k]);
      });
    });
    return results;
  }
  /** The generator whose checks of front matter the cache holds (see `checking`). */
  checker = generatorCode();
  /**
   * A cached entry as the load gets it: with its front matter as a load of this generator found it
   * valid (the load then checks nothing), or else as parsed, with a way to hand back what the load
   * checks, filed with the entry for the next build. An entry checked by another generator is a miss:
   * it no longer holds the parsed front matter to check again. Checking ten thousand articles'
   * front matter against the schema cost a rebuild a third of a second.
   */
  checking(key, hit) {
    if (hit.checked) return hit.checked.by === this.checker && !hit.frontErrors.length && !hit.body.errors.length ? hit : void 0;
    return { ...hit, remember: (front) => this.rememberLater(key, hit, front) };
  }
  /** The entry filed again, with what the load checked, once the pages are rendering. */
  rememberLater(key, parsed2, checked) {
    this.unstored.push(() => this.markdown.set(key, filedChecked(parsed2, { ...checked, by: this.checker })));
  }
  /**
   * Every route's page: left standing where `stand` says its file still holds what this key makes;
   * else handed to `make`, as a job under its key, with a way to read its article's body (raw bytes,
   * decoded by whoever makes the page) and a way to settle the cache with what was made. Nothing is
   * kept, so a large site never holds every page's markup at once (a page whose route is unchanged
   * is cut out of the document the last build wrote: see render/page-output.ts).
   * Throws LostBodiesError, once every page is made, if a body turned out unreadable.
   */
  async render(routes2, ctx, codeHash, sources, stand, make) {
    const shared = hashOf(this.lockHash, codeHash, JSON.stringify(ctx));
    const jobs = new Array(routes2.length);
    const site2 = hashOf(shared, sources.site);
    const keyOf = (route, source) => {
      const last = sources.last(route, source);
      if (last !== void 0) return last;
      this.counts.keyed++;
      return hashOf(shared, JSON.stringify(route));
    };
    await mapLimit(routes2, IO_CONCURRENCY, async (route, i) => {
      let key;
      const source = hashOf(site2, route.url, routeBodyKey(route) ?? "");
      const job = { route, source, key: () => key ??= keyOf(route, source) };
      if (!await stand(route, job.key, source)) jobs[i] = job;
    });
    const todo = jobs.filter((j) => j !== void 0);
    if (!todo.length) return;
    const made = make(todo, async (job) => {
      const marked = routeBodyKey(job.route);
      const body = marked === void 0 ? void 0 : await this.bodies.getRaw(marked);
      return body ? { body } : {};
    }, async (job, output) => {
      if ("lostBody" in output) {
        const marked = routeBodyKey(job.route);
        this.markdown.discard(marked);
        if (this.bodies.has(marked)) this.bodies.discard(marked);
        this.lost++;
      } else if (output.rendered) this.counts.rendered++;
    });
    await new Promise((resolve) => setImmediate(resolve));
    await Promise.all([made, this.storeDeferred()]);
    if (this.lost) throw new LostBodiesError(`${this.lost} article bod${this.lost === 1 ? "y" : "ies"} unreadable in the build cache`);
  }
};

// src/content/load.ts
import { readFileSync as readFileSync3, statSync } from "node:fs";
import { readdir as readdir2 } from "node:fs/promises";
import path7 from "node:path";

// src/content/errors.ts
var ContentErrors = class extends Error {
  constructor(errors) {
    super(`${errors.length} content error${errors.length === 1 ? "" : "s"}:
${errors.map(formatContentError).join("\n")}`);
    this.errors = errors;
    this.name = "ContentErrors";
  }
  errors;
};
function formatContentError(e) {
  const where = e.line ? `${e.file}:${e.line}` : e.file;
  const field = e.path ? ` ${e.path}:` : "";
  return `${where}${field} ${e.message}${e.hint ? ` (hint: ${e.hint})` : ""}`;
}
function pathToString(path9) {
  return path9.reduce((out, key) => typeof key === "number" ? `${out}[${key}]` : out ? `${out}.${String(key)}` : String(key), "");
}
function describe(value) {
  if (value === null) return "null";
  if (Array.isArray(value)) return "a list";
  if (typeof value === "object") return "a mapping";
  if (typeof value === "string") return `"${value.length > 40 ? `${value.slice(0, 40)}\u2026` : value}"`;
  return `${typeof value} ${String(value)}`;
}
function valueAt(root, path9) {
  let v = root;
  for (const key of path9) v = v != null && typeof v === "object" ? v[key] : void 0;
  return v;
}
var TYPE_WORDS = {
  string: "text",
  number: "a number",
  boolean: "true or false",
  array: "a list",
  object: "a mapping"
};
function issueToWords(issue, input) {
  const value = valueAt(input, issue.path);
  switch (issue.code) {
    case "invalid_type":
      if (value === void 0) return { message: "is required but missing" };
      return { message: `expected ${TYPE_WORDS[issue.expected] ?? issue.expected}, got ${describe(value)}` };
    case "too_small":
      if (issue.origin === "string") return { message: issue.minimum === 1 ? "must not be empty" : `must be at least ${issue.minimum} characters` };
      if (issue.origin === "array") return { message: `needs at least ${issue.minimum} item${issue.minimum === 1 ? "" : "s"}` };
      return { message: issue.message };
    case "too_big":
      if (issue.origin === "string") return { message: `must be at most ${issue.maximum} characters` };
      if (issue.origin === "array") return { message: `allows at most ${issue.maximum} items` };
      return { message: issue.message };
    case "unrecognized_keys":
      return { message: `unknown field${issue.keys.length > 1 ? "s" : ""} ${issue.keys.join(", ")}`, hint: "check the spelling against the README content reference" };
    case "invalid_value":
      return { message: `expected one of ${issue.values.map((v) => JSON.stringify(v)).join(", ")}, got ${describe(value)}` };
    default:
      return { message: issue.message };
  }
}

// src/content/settings-text.ts
var LEAD_RETENTION_PLACEHOLDER = "{{leadRetention}}";
function retentionPeriod(months) {
  return `${months} month${months === 1 ? "" : "s"}`;
}
function fillSettings(html, settings, file, required, errors) {
  for (const placeholder of required) {
    if (!html.includes(placeholder)) {
      errors.push({ file, path: "body", message: `must state the leads retention period with ${placeholder}`, hint: "it is filled in from leadRetentionMonths in content/site.yaml" });
    }
  }
  return html.replaceAll(LEAD_RETENTION_PLACEHOLDER, retentionPeriod(settings.leadRetentionMonths));
}

// src/content/images.ts
import { createHash as createHash2 } from "node:crypto";
import { readFile as readFile3, readdir, stat as stat2 } from "node:fs/promises";
import path6 from "node:path";
var MAX_IMAGE_BYTES = 20 * 1024 * 1024;
var MAX_IMAGE_SIDE = 8e3;
var mb = (n) => `${(n / 1024 / 1024).toFixed(1)} MB`;
var px = (n) => n.toLocaleString("en-GB");
function svgSize(svg) {
  const tag = /<svg\b[^>]*>/i.exec(svg)?.[0] ?? "";
  const attr = (name) => Number(new RegExp(`\\s${name}="([\\d.]+)(px)?"`).exec(tag)?.[1]);
  const [w, h] = [attr("width"), attr("height")];
  if (w > 0 && h > 0) return { width: w, height: h };
  const box = /viewBox="[\d.\s-]*?([\d.]+)[\s,]+([\d.]+)"/.exec(tag);
  return box ? { width: Number(box[1]), height: Number(box[2]) } : void 0;
}
async function measure(buf, format) {
  if (format === "svg") {
    const size = svgSize(buf.toString("utf8"));
    return size ? { ...size, alpha: true } : { error: { message: "has no readable width and height", hint: "give the <svg> a viewBox or width and height" } };
  }
  const { default: sharp } = await import("sharp");
  try {
    const meta3 = await sharp(buf).metadata();
    return { width: meta3.autoOrient.width, height: meta3.autoOrient.height, alpha: meta3.hasAlpha };
  } catch (error) {
    return { error: { message: `cannot be decoded (${reason(error)})`, hint: "the file may be damaged or cut short; export it again" } };
  }
}
async function check(dir2, name, file) {
  const full2 = path6.join(dir2, name);
  const { size } = await stat2(full2);
  if (size > MAX_IMAGE_BYTES) return { error: { message: `is ${mb(size)}, over the ${MAX_IMAGE_BYTES / 1024 / 1024} MB limit for images`, hint: `export it smaller; ${px(MAX_IMAGE_SIDE)} px a side is the most the site takes` } };
  const ext = path6.extname(name);
  const expected = EXTENSIONS[ext.toLowerCase()];
  if (!expected) return { error: { message: `has a type the site does not take (${ext || "no extension"})`, hint: "use JPEG, PNG, WebP, AVIF or SVG" } };
  const buf = await readFile3(full2);
  const actual = sniff(buf);
  if (!actual) return { error: { message: `is not a ${FORMAT_NAMES[expected]} image: its content is not any image format the site takes`, hint: "the file may be damaged or mis-named; export it again" } };
  if (actual !== expected) {
    const rename3 = actual in SOURCE_EXTENSION ? `rename it ${path6.basename(name, ext)}${SOURCE_EXTENSION[actual]}` : "use JPEG, PNG, WebP, AVIF or SVG";
    return { error: { message: `is a ${FORMAT_NAMES[actual]} image, but its name ends in ${ext}`, hint: rename3 } };
  }
  const measured = await measure(buf, actual);
  if ("error" in measured) return measured;
  if (measured.width > MAX_IMAGE_SIDE || measured.height > MAX_IMAGE_SIDE) {
    return { error: { message: `is ${px(measured.width)} \xD7 ${px(measured.height)} px, over the limit of ${px(MAX_IMAGE_SIDE)} px a side`, hint: "scale it down; the widest file the site serves is 1,920 px" } };
  }
  const hash3 = createHash2("sha256").update(buf).digest("hex");
  return { image: { file, bytes: size, source: { format: actual, ...measured, hash: hash3 } } };
}
function reason(error) {
  return (error instanceof Error ? error.message : String(error)).trim().split("\n")[0];
}
async function loadImages(root) {
  const dir2 = path6.join(root, "images");
  const images = {};
  const errors = [];
  const names = (await readdir(dir2).catch(() => [])).filter((n) => !n.startsWith(".")).sort();
  const checked = await mapLimit(names, 4, (name) => check(dir2, name, path6.join("content/images", name)));
  names.forEach((name, i) => {
    const result = checked[i];
    const file = path6.join("content/images", name);
    if ("error" in result) {
      errors.push({ file, path: "", ...result.error });
      return;
    }
    const key = `/images/${name}`;
    images[key] = { ...shareVariant(key, result.image), ...result.image };
  });
  return { images, errors };
}

// src/content/article-order.ts
var BLOG_PLACEHOLDER_IMAGE = "/images/blog-placeholder.svg";
function newestFirst(posts) {
  return [...posts].sort((a, b) => a.date === b.date ? a.slug < b.slug ? -1 : a.slug > b.slug ? 1 : 0 : a.date < b.date ? 1 : -1);
}

// src/content/services-schema.ts
import { z as z3 } from "zod";
var STAGES = ["Unearth", "Reveal", "Build", "Achieve"];
var stage = z3.strictObject({ name: z3.enum(STAGES), text });
var stages = z3.array(stage).length(4, "needs the four stages: Unearth, Reveal, Build, Achieve").refine((list) => list.every((s, i) => s.name === STAGES[i]), "must list the stages in order: Unearth, Reveal, Build, Achieve");
var DIMENSIONS = ["Data infrastructure", "Governance", "Skills", "Culture", "Leadership", "Value realisation"];
var serviceSchema = z3.strictObject({
  /** Position on /services and in any list of services. */
  order: z3.number().int(),
  /** Short name for cards and the structured data, e.g. 'Data Governance'. */
  name: text,
  /** One line for the overview card. */
  summary: text,
  metaTitle: text,
  metaDescription,
  hero: z3.strictObject({
    eyebrow: text,
    heading: text,
    text,
    /** The hero's button: 'Book a Free Consultation' (to /contact) or 'Test Your Data Maturity'. */
    action: z3.enum(["consultation", "assessment"]).default("consultation")
  }),
  challenge: z3.strictObject({ heading: text, text, problems: z3.array(text).min(3).max(8) }),
  approach: z3.strictObject({ heading: text, lead: text, stages }),
  /** Typical durations, where the spec gives them. */
  timelines: z3.strictObject({
    heading: text,
    items: z3.array(z3.strictObject({ label: text, duration: text, text })).min(1)
  }).optional(),
  benefits: z3.strictObject({ heading: text, lead: text.optional(), items: z3.array(card).min(3).max(6) }),
  tools: z3.strictObject({
    heading: text,
    lead: text,
    groups: z3.array(z3.strictObject({ name: text, items: z3.array(text).min(2) })).min(2).max(4)
  }),
  caseStudy: z3.strictObject({
    heading: text,
    /** A file in content/case-studies; the routes check it exists. */
    slug,
    text
  }),
  /** The literacy page's call to take the six-dimension assessment. */
  assessment: z3.strictObject({
    heading: text,
    text,
    dimensions: z3.array(card).length(6, "needs the six dimensions").refine((list) => list.every((d, i) => d.title === DIMENSIONS[i]), `must list the six dimensions in order: ${DIMENSIONS.join(", ")}`),
    note: text
  }).optional(),
  faq: z3.strictObject({ heading: text, items: z3.array(faq).length(5, "needs exactly five questions") }),
  /** The embedded form's heading, as the spec words it per page. */
  contactHeading: z3.enum(["Get in Touch", "Or Get in Touch Directly"]).default("Get in Touch"),
  contactLead: text.optional(),
  /** false keeps the service page out of the site search. */
  search: z3.boolean({ error: "expected true or false" }).optional()
});
var servicesOverviewSchema = z3.strictObject({
  title: text,
  description: metaDescription,
  hero: z3.strictObject({ eyebrow: text, heading: text, text }),
  list: z3.strictObject({ heading: text, lead: text }),
  method: z3.strictObject({ heading: text, lead: text, stages }),
  closing: z3.strictObject({ heading: text, text })
});
var servicesPages = {
  services: servicesOverviewSchema
};
var servicesCollections = {
  services: serviceSchema
};

// src/content/company-schema.ts
import { z as z4 } from "zod";
var meta = { title: text, description: text };
var hero = z4.strictObject({ eyebrow: text, heading: text, text });
var block = z4.strictObject({ heading: text, text });
var lead = z4.strictObject({ heading: text, lead: text });
function named(titles, shape) {
  return z4.array(z4.strictObject({ title: text, ...shape })).length(titles.length).superRefine((items, ctx) => {
    titles.forEach((title, i) => {
      const item = items[i];
      if (item && item.title !== title) ctx.addIssue({ code: "custom", path: [i, "title"], message: `expected the title '${title}' (these items' titles are fixed, in this order), got "${item.title}"` });
    });
  });
}
var VALUES = ["Owning the Outcome", "Staying Open", "Keeping It Clear", "Making Things Better"];
var STAGES2 = ["Unearth", "Reveal", "Build", "Achieve"];
var DIALOG_STEPS = ["Assessment", "Analysis", "Action Plan"];
var DIALOG_ASPECTS = ["Advocate", "Translator", "Monitor", "Enabler", "Interpreter", "Strategist"];
var headingNaming = (word) => text.regex(new RegExp(`\\b${word}\\b`, "i"), `must contain the word '${word}', as the page names the section (e.g. 'Our ${word[0].toUpperCase()}${word.slice(1)}')`);
var aboutSchema = z4.strictObject({
  ...meta,
  hero,
  purpose: z4.strictObject({ heading: headingNaming("purpose"), paragraphs: z4.array(text).min(1), image }),
  vision: z4.strictObject({ heading: headingNaming("vision"), text }),
  mission: z4.strictObject({ heading: headingNaming("mission"), text }),
  values: z4.strictObject({ heading: text, lead: text, items: named(VALUES, { text }) }),
  methodology: z4.strictObject({
    heading: text,
    lead: text,
    stages: named(STAGES2, { summary: text, happens: text, outcome: text })
  }),
  cta: block
});
var dialogSchema = z4.strictObject({
  ...meta,
  hero: z4.strictObject({ eyebrow: text, heading: text, text, image }),
  challenges: z4.strictObject({ heading: text, lead: text, items: z4.array(card).min(3).max(6) }),
  about: z4.strictObject({ heading: text, paragraphs: z4.array(text).min(1), points: z4.array(text).min(1) }),
  steps: z4.strictObject({ heading: text, lead: text, items: named(DIALOG_STEPS, { text }) }),
  aspects: z4.strictObject({ heading: text, lead: text, items: named(DIALOG_ASPECTS, { question: text, text }) }),
  businessCase: z4.strictObject({
    heading: text,
    lead: text,
    figures: z4.array(z4.strictObject({ figure: text, text })).min(2).max(6),
    note: text
  }),
  testimonials: z4.strictObject({
    heading: text,
    items: z4.array(z4.strictObject({ quote: text, role: text })).length(7, "needs exactly seven quotes")
  }),
  cta: z4.strictObject({
    heading: text,
    text,
    /** The surveys offered, one per audience: `form` names an address in content/site.yaml's assessmentForms. */
    surveys: z4.array(z4.strictObject({
      form: z4.enum(ASSESSMENT_FORMS, { error: `expected one of the assessmentForms in content/site.yaml: ${ASSESSMENT_FORMS.join(", ")}` }),
      title: text,
      text,
      label: text
    })).min(1).max(3)
  })
});
var testimonialsSchema = z4.strictObject({
  ...meta,
  title: z4.literal("Client Success Stories", { error: "expected the title 'Client Success Stories'" }),
  hero: z4.strictObject({ eyebrow: text, text }),
  testimonials: z4.strictObject({
    heading: text,
    lead: text,
    items: z4.array(z4.strictObject({ quote: text, role: text, organisation: text })).min(3).max(4)
  }),
  caseStudies: lead,
  cta: block
});
var caseStudiesPageSchema = z4.strictObject({
  ...meta,
  hero,
  list: lead,
  cta: block,
  /** The closing call to action of every case-study page. */
  studyCta: block
});
var companyPages = {
  about: aboutSchema,
  dialog: dialogSchema,
  testimonials: testimonialsSchema,
  "case-studies": caseStudiesPageSchema
};

// src/content/insights-schema.ts
import { z as z5 } from "zod";
var description = metaDescription;
var meta2 = { title: text, description };
var hero2 = z5.strictObject({ eyebrow: text, heading: text, text });
var perCategory = text.refine((s) => s.includes("{category}"), "must contain {category}, which each category's page replaces with its name");
var blogPageSchema = z5.strictObject({
  ...meta2,
  hero: hero2,
  /** The label of the link to the Atom feed under the intro. */
  feedLink: text,
  /** The pages at /blog/category/<slug>: their title, description and intro. */
  category: z5.strictObject({ title: perCategory, description: perCategory, text: perCategory }),
  /** The site search (when content/site.yaml has it on): the form's label on /blog, and the /search page. */
  search: z5.strictObject({
    ...meta2,
    hero: hero2,
    /** The search box's visible label, on /blog and /search. */
    label: text,
    /** What a visitor without JavaScript reads instead of results. */
    noScript: text,
    /** The heading of the list of category pages beneath. */
    browse: text
  })
});
var contactPageSchema = z5.strictObject({
  ...meta2,
  hero: hero2,
  form: z5.strictObject({ heading: text, lead: text }),
  details: z5.strictObject({ heading: text, text })
});
var assessmentPageSchema = z5.strictObject({
  ...meta2,
  eyebrow: text,
  /** States that assessment places are limited. */
  intro: text,
  image,
  questionsLead: text,
  contactLead: text
});
var thankYouPageSchema = z5.strictObject({
  ...meta2,
  hero: hero2,
  next: z5.strictObject({ heading: text, steps: z5.array(card).min(2).max(4) }),
  links: z5.strictObject({ heading: text, text })
});
var insightsPages = {
  blog: blogPageSchema,
  contact: contactPageSchema,
  "dialog-assessment": assessmentPageSchema,
  "thank-you": thankYouPageSchema
};

// src/content/pages.ts
var pageSchemas = {
  home: homeSchema,
  ...servicesPages,
  ...companyPages,
  ...insightsPages
};
var collectionSchemas = {
  ...servicesCollections
};

// src/content/categories.ts
var DEFAULT_CATEGORIES = ["Data"];
function categoriesOf(post) {
  return post.categories?.length ? post.categories : DEFAULT_CATEGORIES;
}
function categorySlug(name) {
  let slug3 = slugs.get(name);
  if (slug3 === void 0) {
    slug3 = slugify(name);
    if (slugs.size < 1e4) slugs.set(name, slug3);
  }
  return slug3;
}
var slugs = /* @__PURE__ */ new Map();
function categoryUrl(name) {
  return `/blog/category/${categorySlug(name)}`;
}
function categoryClashes(uses) {
  const first = /* @__PURE__ */ new Map();
  const errors = [];
  for (const use of uses) {
    const slug3 = categorySlug(use.name);
    if (!slug3) {
      errors.push({ file: use.file, line: use.line, path: use.path, message: `"${use.name}" has no letters or digits to make the category's address from`, hint: "name the category in words" });
      continue;
    }
    const seen = first.get(slug3);
    if (!seen) first.set(slug3, use);
    else if (seen.name !== use.name) {
      errors.push({
        file: use.file,
        line: use.line,
        path: use.path,
        message: `"${use.name}" and "${seen.name}" (${seen.line ? `${seen.file}:${seen.line}` : seen.file}) would share the address /blog/category/${slug3}`,
        hint: `spell the category the same way in every article, e.g. "${seen.name}"`
      });
    }
  }
  return errors;
}

// src/content/load.ts
function postFile(slug3) {
  return `content/blog/${slug3}.md`;
}
var LEGAL = ["privacy-policy", "terms-of-service"];
function closest(value, known2) {
  const name = value.slice("/images/".length);
  const shared = (k) => {
    const n = k.slice("/images/".length);
    let i = 0;
    while (i < n.length && n[i] === name[i]) i++;
    return i;
  };
  const best = [...known2].sort((a, b) => shared(b) - shared(a))[0];
  return best && shared(best) >= 4 ? `did you mean ${best}?` : "add the file to content/images";
}
var Collector = class {
  /**
   * `record`: the build cache's record (see `loadSite`); `imagesSet`: the set of images it is kept
   * against, a hash of their paths.
   */
  constructor(root, record, imagesSet = "") {
    this.root = root;
    this.record = record;
    this.imagesSet = imagesSet;
  }
  root;
  record;
  imagesSet;
  errors = [];
  links = [];
  rels = /* @__PURE__ */ new Map();
  /** A file's path as errors name it (content/…); asked three times or more per article, so worked out once. */
  rel(file) {
    let rel = this.rels.get(file);
    if (rel === void 0) this.rels.set(file, rel = path7.join("content", path7.relative(this.root, file)));
    return rel;
  }
  /**
   * A file's bytes, left undecoded: a markdown file's key hashes them, and only a file the cache
   * does not hold is decoded, by the thread that parses it. Ten thousand articles read as text cost
   * the load a tenth of a second of decoding, and sixty megabytes of strings that every
   * young-generation collection copied. Read synchronously: a content file is small and usually in
   * the kernel's cache, and thousands of them read through promises (open, stat, read, close, each a
   * trip through the thread pool) took several times as long.
   */
  readBytes(file) {
    try {
      return readFileSync3(file);
    } catch (err) {
      const code = err.code;
      this.errors.push({ file: this.rel(file), path: "", message: code === "ENOENT" ? "is missing: this file is required" : `cannot be read (${code})` });
      return void 0;
    }
  }
  validate(schema, parsed2, file, images) {
    if (parsed2.errors.length) {
      this.errors.push(...parsed2.errors);
      return void 0;
    }
    const result = schema.safeParse(parsed2.data ?? {});
    if (!result.success) {
      for (const issue of result.error.issues) {
        this.errors.push({ file, line: parsed2.lineOf(issue.path), path: pathToString(issue.path), ...issueToWords(issue, parsed2.data) });
      }
      return void 0;
    }
    this.scan(result.data, [], file, parsed2, images);
    return result.data;
  }
  /** Every /images/… path a content file names must be a file in content/images; other addresses are kept as links. */
  scan(value, at, file, parsed2, images) {
    if (typeof value === "string" && value.startsWith("/images/")) {
      if (!images[value]) this.errors.push({ file, line: parsed2.lineOf(at), path: pathToString(at), message: `names ${value}, which is not in content/images`, hint: closest(value, Object.keys(images)) });
    } else if (typeof value === "string" && /^(\/(?!\/)|https?:\/\/)\S*$/.test(value)) {
      this.links.push({ file, line: parsed2.lineOf(at), path: pathToString(at), href: value });
    } else if (value && typeof value === "object") {
      for (const [k, v] of Object.entries(value)) this.scan(v, [...at, Array.isArray(value) ? Number(k) : k], file, parsed2, images);
    }
  }
  /** The addresses noted since there were `count`, without their file: as the build cache keeps them. */
  linksSince(count) {
    return this.links.slice(count).map(({ file: _file, ...link2 }) => link2);
  }
  /** A YAML file checked by `schema`, unless the build cache's record holds it checked, from these very bytes and images; a valid one is recorded. */
  async yaml(file, schema, images) {
    const bytes = this.readBytes(file);
    if (bytes === void 0) return void 0;
    const rel = this.rel(file);
    const key = this.record && hashOf(rel, this.imagesSet, bytes);
    const checked = key === void 0 ? void 0 : this.record.checkedYaml(key);
    if (checked) {
      for (const link2 of checked.links) this.links.push({ file: rel, ...link2 });
      return checked.data;
    }
    const [errorsBefore, linksBefore] = [this.errors.length, this.links.length];
    const data = this.validate(schema, parseYaml(bytes.toString("utf8"), rel), rel, images);
    if (key !== void 0 && data !== void 0 && this.errors.length === errorsBefore) this.record.keepYaml(key, { data, links: this.linksSince(linksBefore) });
    return data;
  }
  /**
   * A parsed markdown file: front matter checked by `schema` (unless the build cache says it was,
   * from this very file: `checked`), the body's errors and links collected. A file found valid is
   * handed back to the cache (`remember`), with what its front matter added to the links.
   */
  markdown(file, parsed2, schema, images) {
    const rel = this.rel(file);
    let lines;
    const lineOf2 = (at) => (lines ??= this.frontLines(file, parsed2)).lineOf(at);
    const [errorsBefore, linksBefore] = [this.errors.length, this.links.length];
    let data;
    if (parsed2.checked) {
      data = parsed2.checked.data;
      for (const link2 of parsed2.checked.links) this.links.push({ file: rel, ...link2 });
    } else {
      data = this.validate(schema, { data: parsed2.frontData, errors: parsed2.frontErrors, lineOf: lineOf2 }, rel, images);
      if (data !== void 0 && this.errors.length === errorsBefore && !parsed2.body.errors.length) {
        parsed2.remember?.({ data, links: this.linksSince(linksBefore) });
      }
    }
    this.errors.push(...parsed2.body.errors);
    this.links.push(...parsed2.body.links.map((l) => ({ file: rel, line: l.line, path: "body", href: l.href })));
    return data === void 0 ? void 0 : { data, body: parsed2.body, lineOf: lineOf2 };
  }
  /** A markdown file's front matter with its lines: from its parsed text, or else from the file. */
  frontLines(file, parsed2) {
    const rel = this.rel(file);
    if (parsed2.front !== void 0) return parseYaml(parsed2.front, rel, parsed2.frontLine);
    let text2 = "";
    try {
      text2 = readFileSync3(file, "utf8");
    } catch {
    }
    const { front, frontLine } = readFrontMatter(text2, rel);
    return parseYaml(front, rel, frontLine);
  }
  async list(dir2, ext) {
    const names = await readdir2(path7.join(this.root, dir2)).catch(() => []);
    return names.filter((n) => n.endsWith(ext)).sort().map((n) => path7.join(this.root, dir2, n));
  }
};
var parseInline = (jobs) => Promise.all(jobs.map((job) => parseMarkdownFile(parseJob(job))));
function markdownSource(c, file, forms, images) {
  const { record, imagesSet } = c;
  const rel = c.rel(file);
  const read = () => readFileSync3(file);
  const stat3 = record && statSync(file, { throwIfNoEntry: false });
  const known2 = stat3 && record.known(file, stat3);
  if (known2 && known2.imagesSet === imagesSet) return { rel, forms, digest: known2.digest, images: Object.fromEntries(known2.images.map((name) => [name, images[name]])), read };
  const readAt = Date.now();
  const source = c.readBytes(file);
  if (source === void 0) return void 0;
  const digest = digestOf(source);
  const named2 = imagesNamedIn(source, images);
  if (stat3) record.note(file, stat3, { digest, imagesSet, images: Object.keys(named2) }, readAt);
  return { source, rel, forms, digest, images: named2, read };
}
async function loadSite(root, parse = parseInline, record) {
  const { images, errors: imageErrors } = await loadImages(root);
  const c = new Collector(root, record, record ? hashOf(...Object.keys(images)) : "");
  c.errors.push(...imageErrors);
  const settings = await c.yaml(path7.join(root, "site.yaml"), siteSchema, images);
  const pages = {};
  await Promise.all(Object.entries(pageSchemas).map(async ([name, schema]) => {
    pages[name] = await c.yaml(path7.join(root, "pages", `${name}.yaml`), schema, images);
  }));
  const collections = {};
  for (const [name, schema] of Object.entries(collectionSchemas)) {
    const records = [];
    for (const file of await c.list(name, ".yaml")) {
      const data = await c.yaml(file, schema, images);
      if (data) records.push({ ...data, slug: path7.basename(file, ".yaml") });
    }
    collections[name] = records.sort((a, b) => (a.order ?? 100) - (b.order ?? 100) || a.slug.localeCompare(b.slug));
  }
  const files = [...await c.list("blog", ".md"), ...LEGAL.map((slug3) => path7.join(root, "pages", `${slug3}.md`))];
  const readable = files.flatMap((file) => {
    const job = markdownSource(c, file, settings?.assessmentForms, images);
    return job ? [{ file, job }] : [];
  });
  const parsed2 = new Map((await parse(readable.map((r) => r.job))).map((result, i) => [readable[i].file, result]));
  const unsorted = [];
  const categoryUses = [];
  for (const file of files.slice(0, files.length - LEGAL.length)) {
    const result = parsed2.get(file);
    const doc = result && c.markdown(file, result, postSchema, images);
    if (!doc) continue;
    unsorted.push({ ...doc.data, slug: path7.basename(file, ".md"), html: doc.body.html, toc: doc.body.toc, bodyImages: doc.body.images });
    (doc.data.categories ?? []).forEach((name, i) => categoryUses.push({ name, file: c.rel(file), get line() {
      return doc.lineOf(["categories", i]);
    }, path: `categories[${i}]` }));
  }
  c.errors.push(...categoryClashes(categoryUses));
  const posts = newestFirst(unsorted);
  const caseStudies = [];
  for (const file of await c.list("case-studies", ".yaml")) {
    const data = await c.yaml(file, caseStudySchema, images);
    if (data) caseStudies.push({ ...data, slug: path7.basename(file, ".yaml") });
  }
  caseStudies.sort((a, b) => a.order - b.order || a.slug.localeCompare(b.slug));
  const legal = {};
  for (const slug3 of LEGAL) {
    const file = path7.join(root, "pages", `${slug3}.md`);
    const result = parsed2.get(file);
    const doc = result && c.markdown(file, result, legalSchema, images);
    const html = doc && settings ? fillSettings(doc.body.html, settings, c.rel(file), slug3 === "privacy-policy" ? [LEAD_RETENTION_PLACEHOLDER] : [], c.errors) : doc?.body.html;
    if (doc && html !== void 0) legal[slug3] = { ...doc.data, slug: slug3, html, toc: doc.body.toc, bodyImages: doc.body.images };
  }
  for (const [dir2, slugs2] of [["blog", posts.map((p) => p.slug)], ["case-studies", caseStudies.map((s) => s.slug)]]) {
    for (const s of slugs2) if (!SLUG_PATTERN.test(s)) c.errors.push({ file: `content/${dir2}/${s}`, path: "", message: "has a file name that is not a URL slug", hint: "use lower-case letters, digits and hyphens" });
  }
  if (c.errors.length || !settings) throw new ContentErrors(c.errors);
  return Object.freeze({ settings, pages, collections, posts, caseStudies, legal, images, links: c.links });
}

// src/content/published.ts
function why(post, status) {
  if (status === "draft") return "it is a draft";
  const at = status === "scheduled" ? post.publishDate : post.expiryDate;
  const when = at ? londonDateTime(instantOf(at)) : "";
  return status === "scheduled" ? `it is scheduled for ${when}` : `it expired at ${when}`;
}
function linkedPostSlug(href2, siteUrl) {
  let pathname = href2;
  if (/^https?:\/\//i.test(href2)) {
    try {
      const url = new URL(href2);
      if (url.origin !== new URL(siteUrl).origin) return void 0;
      pathname = url.pathname;
    } catch {
      return void 0;
    }
  }
  return /^\/blog\/([^/?#]+)\/?(?:[?#].*)?$/.exec(pathname)?.[1];
}
function linkErrors(links, left, siteUrl) {
  if (!left.size) return [];
  const leftFiles = new Set([...left.keys()].map(postFile));
  const errors = [];
  for (const link2 of links) {
    if (leftFiles.has(link2.file)) continue;
    const slug3 = linkedPostSlug(link2.href, siteUrl);
    const target = slug3 === void 0 ? void 0 : left.get(slug3);
    if (!target) continue;
    errors.push({
      file: link2.file,
      line: link2.line,
      path: link2.path,
      message: `links to /blog/${slug3}, which this build leaves out because ${why(target.post, target.status)} (${postFile(slug3)})`,
      hint: "remove the link until that article is live, or publish the article first"
    });
  }
  return errors;
}
function publishedSite(site2, now, mode) {
  const articles = { live: 0, draft: 0, scheduled: 0, expired: 0, nextChange: null };
  const kept = [];
  const left = /* @__PURE__ */ new Map();
  for (const post of site2.posts) {
    const status = publicationStatus(post, now);
    articles[status]++;
    if (status === "live") {
      kept.push(post);
      continue;
    }
    left.set(post.slug, { post, status });
    if (mode === "preview" && (status === "draft" || status === "scheduled")) kept.push({ ...post, preview: status });
  }
  const next = nextChange(site2.posts, now);
  if (next) articles.nextChange = { at: next.at.toISOString(), local: londonDateTime(next.at), publishes: next.publishes, expires: next.expires };
  return {
    site: Object.freeze({ ...site2, posts: kept }),
    articles,
    unpublishedLinks: linkErrors(site2.links, left, site2.settings.url)
  };
}

// src/routing/resolve.ts
function pageFile(url) {
  return url === "/" ? "/index.html" : url + ".html";
}

// src/routes/route.ts
function page(url, template, props, meta3) {
  return { url, file: pageFile(url), status: 200, template, props, meta: meta3 };
}
function errorPage(url, file, template, props, meta3) {
  return { url, file, status: 404, template, props, meta: { ...meta3, noindex: true } };
}

// src/routes/company.ts
function caseStudyUrl(slug3) {
  return `/case-studies/${slug3}`;
}
function caseStudyImageAlt(study) {
  return study.headerImageAlt?.trim() || `${study.client} case study`;
}
function caseStudySummary(study) {
  return {
    slug: study.slug,
    href: caseStudyUrl(study.slug),
    client: study.client,
    title: study.title,
    subtitle: study.subtitle,
    ...study.headerImage ? { image: { src: study.headerImage, alt: caseStudyImageAlt(study) } } : {}
  };
}
function clip(text2, max) {
  const clean = text2.replace(/\s+/g, " ").trim();
  if (clean.length <= max) return clean;
  const cut = clean.slice(0, max - 1);
  return `${cut.slice(0, cut.lastIndexOf(" ") > 0 ? cut.lastIndexOf(" ") : cut.length).replace(/[\s,.;:]+$/, "")}\u2026`;
}
function caseStudyMeta(study, settings) {
  const url = new URL(caseStudyUrl(study.slug), settings.url).href;
  return {
    title: study.metaTitle ?? `${study.client} Case Study`,
    description: study.metaDescription ?? clip(`How we worked with ${study.client}: ${study.subtitle}`, 160),
    ...study.headerImage ? { image: study.headerImage } : {},
    type: "article",
    card: { title: study.title, label: `Case study \xB7 ${study.client}`, ...study.headerImage ? { art: study.headerImage } : {} },
    jsonLd: [{
      "@context": "https://schema.org",
      "@type": "Article",
      headline: study.title,
      description: study.subtitle.replace(/\s+/g, " ").trim(),
      about: { "@type": "Organization", name: study.client },
      author: { "@type": "Organization", name: settings.name, url: settings.url },
      publisher: { "@type": "Organization", name: settings.name, url: settings.url },
      mainEntityOfPage: url,
      url
    }]
  };
}
function companyRoutes(site2) {
  const { about, dialog, testimonials } = site2.pages;
  const list = site2.pages["case-studies"];
  const caseStudies = site2.caseStudies.map(caseStudySummary);
  return [
    page("/about", "about", { content: about }, { title: about.title, description: about.description, image: about.purpose.image.src }),
    page("/dialog", "dialog", { content: dialog }, { title: dialog.title, description: dialog.description, image: dialog.hero.image.src }),
    page("/testimonials", "testimonials", { content: testimonials, caseStudies }, { title: testimonials.title, description: testimonials.description }),
    page("/case-studies", "caseStudies", { content: list, caseStudies }, { title: list.title, description: list.description }),
    ...site2.caseStudies.map((study) => page(caseStudyUrl(study.slug), "caseStudy", { study, imageAlt: caseStudyImageAlt(study), cta: list.studyCta }, caseStudyMeta(study, site2.settings))),
    errorPage("/case-studies/404", "/case-studies/404.html", "caseStudyNotFound", {}, {
      title: "Case Study Not Found",
      description: "The case study you're looking for doesn't exist or has been moved."
    })
  ];
}

// src/routes/json-ld.ts
function faqPageJsonLd(items) {
  return {
    "@context": "https://schema.org",
    "@type": "FAQPage",
    mainEntity: items.map((item) => ({
      "@type": "Question",
      name: item.question,
      acceptedAnswer: { "@type": "Answer", text: item.answer }
    }))
  };
}

// src/routes/services.ts
var servicePath = (slug3) => `/services/${slug3}`;
function serviceJsonLd(service, settings) {
  return {
    "@context": "https://schema.org",
    "@type": "Service",
    name: service.hero.heading,
    serviceType: service.name,
    description: service.metaDescription,
    url: new URL(servicePath(service.slug), settings.url).href,
    provider: { "@type": "Organization", name: settings.name, url: settings.url },
    areaServed: "United Kingdom"
  };
}
function caseStudyTeaser(service, site2) {
  const study = site2.caseStudies.find((s) => s.slug === service.caseStudy.slug);
  if (!study) {
    const known2 = site2.caseStudies.map((s) => s.slug).join(", ");
    throw new Error(`content/services/${service.slug}.yaml caseStudy.slug: no case study "${service.caseStudy.slug}" in content/case-studies (known: ${known2})`);
  }
  return caseStudySummary(study);
}
function servicesRoutes(site2) {
  const overview = site2.pages.services;
  const services = site2.collections.services;
  const cards = services.map((s) => ({ slug: s.slug, name: s.name, summary: s.summary }));
  return [
    page("/services", "servicesOverview", { content: overview, services: cards }, { title: overview.title, description: overview.description }),
    ...services.map((service) => page(servicePath(service.slug), "service", { service, caseStudy: caseStudyTeaser(service, site2) }, {
      title: service.metaTitle,
      description: service.metaDescription,
      card: { title: service.metaTitle, label: "Service" },
      jsonLd: [serviceJsonLd(service, site2.settings), faqPageJsonLd(service.faq.items)]
    }))
  ];
}

// src/routes/blog-paging.ts
var POSTS_PER_PAGE = 6;
function listPageUrl(number, base = "/blog") {
  return number === 1 ? base : `${base}/page/${number}`;
}
function paginate(posts, perPage = POSTS_PER_PAGE, base = "/blog") {
  if (!Number.isInteger(perPage) || perPage < 1) throw new RangeError(`perPage must be a positive integer, got ${perPage}`);
  const count = Math.max(1, Math.ceil(posts.length / perPage));
  return Array.from({ length: count }, (_, i) => ({
    number: i + 1,
    url: listPageUrl(i + 1, base),
    items: posts.slice(i * perPage, (i + 1) * perPage)
  }));
}
function continueReading(posts, slug3, n = 2) {
  const out = [];
  for (let i = 0; i < posts.length && out.length < n; i++) {
    const post = posts[i];
    if (post.slug !== slug3) out.push(post);
  }
  return out;
}
function pageLinks(current, count, base = "/blog", around = 2) {
  const numbers = /* @__PURE__ */ new Set([1, count]);
  for (let n = Math.max(1, current - around); n <= Math.min(count, current + around); n++) numbers.add(n);
  return [...numbers].sort((a, b) => a - b).map((number) => ({ number, url: listPageUrl(number, base) }));
}
function metaDescription2(excerpt, max = 140) {
  const text2 = excerpt.replace(/\s+/g, " ").trim();
  if (text2.length <= max) return text2;
  let end = 0;
  for (let n = 0; n < max && end < text2.length; n++) end += text2.codePointAt(end) > 65535 ? 2 : 1;
  return text2.slice(0, end).trim();
}

// src/routes/date-label.ts
var longDate = new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "long", year: "numeric", timeZone: "Europe/London" });
var labels = /* @__PURE__ */ new Map();
function formatDate(iso) {
  const known2 = labels.get(iso);
  if (known2 !== void 0) return known2;
  const when = new Date(/^\d{4}-\d{2}-\d{2}$/.test(iso) ? `${iso}T12:00:00Z` : iso);
  if (Number.isNaN(when.getTime())) throw new RangeError(`not an ISO date: '${iso}'`);
  const label = longDate.format(when);
  if (labels.size < 1e5) labels.set(iso, label);
  return label;
}

// src/routing/absolute-url.ts
function parsed(siteUrl, path9) {
  const url = new URL(path9, siteUrl).href;
  return path9 === "/" ? url : url.replace(/\/$/, "");
}
var PLAIN_PATH = /^(?:\/[A-Za-z0-9_~-][A-Za-z0-9._~-]*)*\/?$/;
var origins = /* @__PURE__ */ new Map();
function originOf(siteUrl) {
  let origin = origins.get(siteUrl);
  if (origin === void 0) {
    try {
      const url = new URL(siteUrl);
      origin = url.pathname === "/" && !url.search && !url.hash && !url.username && !url.password && url.origin !== "null" ? url.origin : null;
    } catch {
      origin = null;
    }
    if (origins.size < 100) origins.set(siteUrl, origin);
  }
  return origin;
}
function absoluteUrl(siteUrl, path9) {
  const origin = PLAIN_PATH.test(path9) ? originOf(siteUrl) : null;
  if (origin === null) return parsed(siteUrl, path9);
  return path9 === "/" || !path9.endsWith("/") ? origin + path9 : origin + path9.slice(0, -1);
}

// src/routes/blog.ts
function previewMark(post) {
  if (post.preview === "draft") return { status: "draft", label: "Draft: not published" };
  if (post.preview === "scheduled" && post.publishDate) {
    const time = londonTimeOf(post.publishDate);
    return { status: "scheduled", label: `Scheduled for ${formatDate(post.publishDate)}${time ? ` at ${time}` : ""}` };
  }
  return void 0;
}
var summaries = /* @__PURE__ */ new WeakMap();
function summary(post) {
  const made = summaries.get(post);
  if (made) return made;
  const { slug: slug3, title, excerpt, date, readingTime, image: image2 } = post;
  const preview = previewMark(post);
  const card2 = {
    slug: slug3,
    title,
    excerpt,
    date,
    dateLabel: formatDate(date),
    readingTime,
    image: image2,
    categories: categoriesOf(post).map((name) => ({ name, href: categoryUrl(name) })),
    ...preview ? { preview } : {}
  };
  summaries.set(post, card2);
  return card2;
}
function absolute(site2, pathOrImage) {
  return absoluteUrl(site2.settings.url, site2.images[pathOrImage]?.src ?? pathOrImage);
}
var organisations = /* @__PURE__ */ new WeakMap();
function organisation(site2) {
  const made = organisations.get(site2);
  if (made) return made;
  const { settings } = site2;
  const value = {
    "@type": "Organization",
    name: settings.name,
    url: absolute(site2, "/"),
    ...settings.logo ? { logo: { "@type": "ImageObject", url: absolute(site2, settings.logo) } } : {}
  };
  organisations.set(site2, value);
  return value;
}
function articleJsonLd(site2, post, description2 = metaDescription2(post.excerpt)) {
  const url = absolute(site2, `/blog/${post.slug}`);
  return [
    {
      "@context": "https://schema.org",
      "@type": "Article",
      headline: post.title,
      description: description2,
      datePublished: post.date,
      dateModified: post.date,
      author: organisation(site2),
      publisher: organisation(site2),
      image: [absolute(site2, post.image?.src ?? BLOG_PLACEHOLDER_IMAGE)],
      mainEntityOfPage: { "@type": "WebPage", "@id": url },
      ...post.categories?.length ? { keywords: post.categories.join(", ") } : {}
    },
    faqPageJsonLd(post.faq)
  ];
}
function shareLinks(url, title) {
  const u = encodeURIComponent(url);
  return {
    email: `mailto:?subject=${encodeURIComponent(title)}&body=${encodeURIComponent(`${title}

${url}`)}`,
    linkedin: `https://www.linkedin.com/sharing/share-offsite/?url=${u}`,
    x: `https://twitter.com/intent/tweet?url=${u}&text=${encodeURIComponent(title)}`
  };
}
function listRoutes(posts, base, view) {
  const pages = paginate(posts, void 0, base);
  return pages.map((p) => page(p.url, "blogList", {
    hero: view.hero,
    ...view.feedLink ? { feedLink: view.feedLink } : {},
    ...view.searchLabel ? { searchLabel: view.searchLabel } : {},
    ...view.category ? { category: view.category } : {},
    posts: p.items,
    current: p.number,
    total: pages.length,
    pages: pageLinks(p.number, pages.length, base)
  }, {
    title: p.number === 1 ? view.title : `${view.title}, page ${p.number} of ${pages.length}`,
    description: view.description,
    // A category's pages share one card; /blog has the site's.
    ...view.category ? { card: { title: view.category, label: "Insights" } } : {}
  }));
}
function blogListRoutes(site2, cards) {
  const { title, description: description2, hero: hero3, feedLink, search } = site2.pages.blog;
  return listRoutes(cards, "/blog", { hero: hero3, feedLink, title, description: description2, ...site2.settings.search ? { searchLabel: search.label } : {} });
}
function categoryRoutes(site2, cards) {
  const { hero: hero3, category: words } = site2.pages.blog;
  const byCategory = /* @__PURE__ */ new Map();
  for (const card2 of cards) {
    for (const { name } of card2.categories) {
      const slug3 = categorySlug(name);
      const entry = byCategory.get(slug3) ?? byCategory.set(slug3, { name, cards: [] }).get(slug3);
      entry.cards.push(card2);
    }
  }
  const fill = (text2, name) => text2.replaceAll("{category}", name);
  return [...byCategory.entries()].sort(([a], [b]) => a < b ? -1 : 1).flatMap(([slug3, { name, cards: listed }]) => listRoutes(listed, `/blog/category/${slug3}`, {
    hero: { eyebrow: hero3.eyebrow, heading: name, text: fill(words.text, name) },
    category: name,
    title: fill(words.title, name),
    description: fill(words.description, name)
  }));
}
function postRoutes(site2) {
  return site2.posts.map((post) => {
    const url = `/blog/${post.slug}`;
    const description2 = metaDescription2(post.excerpt);
    return page(url, "blogPost", {
      post: { ...summary(post), html: post.html, toc: post.toc, faq: post.faq, bodyImages: post.bodyImages },
      related: continueReading(site2.posts, post.slug).map(summary),
      share: shareLinks(absolute(site2, url), post.title)
    }, {
      title: post.title,
      description: description2,
      image: post.image?.src ?? BLOG_PLACEHOLDER_IMAGE,
      type: "article",
      published: post.date,
      jsonLd: articleJsonLd(site2, post, description2),
      card: {
        title: post.title,
        label: `Article \xB7 ${categoriesOf(post)[0]}`,
        // The placeholder is nobody's own art: the card goes without.
        ...post.image?.src && post.image.src !== BLOG_PLACEHOLDER_IMAGE ? { art: post.image.src } : {}
      }
    });
  });
}
function blogRoutes(site2) {
  const cards = site2.posts.map(summary);
  return [...blogListRoutes(site2, cards), ...categoryRoutes(site2, cards), ...postRoutes(site2)];
}

// src/routes/forms.ts
function formRoutes(site2) {
  const { contact, "dialog-assessment": assessment, "thank-you": thanks } = site2.pages;
  return [
    page("/contact", "contact", { content: contact }, { title: contact.title, description: contact.description }),
    page("/dialog-assessment", "assessment", { content: assessment }, { title: assessment.title, description: assessment.description, image: assessment.image.src }),
    page("/thank-you", "thankYou", { content: thanks }, { title: thanks.title, description: thanks.description, noindex: true })
  ];
}

// src/routes/legal.ts
function legalRoutes(site2) {
  return ["privacy-policy", "terms-of-service"].map((slug3) => {
    const { title, description: description2, updated, html, toc, bodyImages } = site2.legal[slug3];
    return page(`/${slug3}`, "legal", { title, updated, html, toc: toc.filter((t) => t.depth === 2), bodyImages }, { title, description: description2 });
  });
}

// src/search/search-index.ts
var SEARCH_DIR = "/pagefind";
var queue = Promise.resolve();

// src/routes/search.ts
function searchRoutes(site2) {
  if (!site2.settings.search) return [];
  const words = site2.pages.blog.search;
  const categories = /* @__PURE__ */ new Map();
  for (const post of site2.posts) {
    for (const name of categoriesOf(post)) {
      const entry = categories.get(categorySlug(name)) ?? categories.set(categorySlug(name), { name, href: categoryUrl(name), count: 0 }).get(categorySlug(name));
      entry.count++;
    }
  }
  const browse = [...categories.values()].sort((a, b) => a.name.localeCompare(b.name, "en-GB"));
  if (site2.caseStudies.length) browse.push({ name: "Case studies", href: "/case-studies", count: site2.caseStudies.length });
  if (site2.collections.services.length) browse.push({ name: "Services", href: "/services", count: site2.collections.services.length });
  return [page("/search", "search", { content: words, browse, index: `${SEARCH_DIR}/pagefind.js` }, { title: words.title, description: words.description })];
}

// src/routes/table.ts
function routes(site2) {
  const { home } = site2.pages;
  return [
    page("/", "home", { content: home }, { title: home.title, description: home.description, image: home.hero.image.src, card: { title: home.title, label: site2.settings.location, art: home.hero.image.src } }),
    ...companyRoutes(site2),
    ...servicesRoutes(site2),
    ...blogRoutes(site2),
    ...searchRoutes(site2),
    ...formRoutes(site2),
    ...legalRoutes(site2),
    errorPage("/404", "/404.html", "notFound", {}, { title: "Page not found", description: "The page you're looking for doesn't exist or has been moved." })
  ];
}

// src/cards/plan.ts
import path8 from "node:path";
var CARD_SIZE = { width: 1200, height: 630 };
var CARD_DIR = "/og/";
function siteCard(site2) {
  return { title: site2.settings.description, label: site2.settings.location };
}
var host = (url) => new URL(url).host;
function fileName(url, key) {
  const base = url === "/" ? "home" : url.replace(/^\/|\/$/g, "").replace(/[^\w-]+/g, "-");
  return `${CARD_DIR}${base.slice(0, 80)}-${key.slice(0, 12)}.png`;
}
function planCards(site2, routes2, contentDir, code) {
  const { settings, images } = site2;
  const jobs = /* @__PURE__ */ new Map();
  const imageFile = (key) => path8.join(contentDir, "images", path8.basename(key));
  const logoImage = settings.logo ? images[settings.logo] : void 0;
  const logo = logoImage ? { file: imageFile(settings.logo), hash: logoImage.source.hash } : void 0;
  const common = { siteName: settings.name, siteHost: host(settings.url) };
  const fallback = siteCard(site2);
  const planned = routes2.map((route) => {
    const content = route.meta.card ?? fallback;
    const artImage = content.art ? images[content.art] : void 0;
    const art = artImage ? { file: imageFile(content.art), hash: artImage.source.hash, format: artImage.source.format, width: artImage.source.width, height: artImage.source.height } : void 0;
    const key = hashOf(code, content.title, content.label, common.siteName, common.siteHost, logoImage?.source.hash ?? "", artImage?.source.hash ?? "");
    const job = jobs.get(key) ?? { key, url: fileName(route.meta.card ? route.url : "/site", key), title: content.title, label: content.label, ...common, ...logo ? { logo } : {}, ...art ? { art } : {} };
    jobs.set(key, job);
    const shareImage = { src: job.url, ...CARD_SIZE, alt: `${content.title} (${content.label}), ${settings.name}`, type: "image/png" };
    const jsonLd = route.meta.jsonLd?.map((data) => data["@type"] === "Article" ? { ...data, image: [absoluteUrl(settings.url, job.url)] } : data);
    return { ...route, meta: { ...route.meta, shareImage, ...jsonLd ? { jsonLd } : {} } };
  });
  return { routes: planned, jobs: [...jobs.values()] };
}

// src/routes/sources.ts
function siteSource(site2, ...code) {
  const { settings, pages, collections, posts, caseStudies, legal, images } = site2;
  return hashOf(...code, JSON.stringify({ settings, pages, collections, posts: posts.map(withoutBody), caseStudies, legal, images }));
}
function withoutBody(post) {
  if (markedKey(post.html) === void 0) return post;
  const { html: _html, toc: _toc, bodyImages: _images, ...front } = post;
  return front;
}

// .rb.ts
var dir = process.argv[2];
var cache = await BuildCache.open(dir);
var site0 = await loadSite(dir + "/content", (jobs) => cache.parse(jobs, "bench", async () => {
  throw new Error("miss");
}, () => true).catch(() => {
  throw new Error("cache miss: run a build first");
}), cache.sources).catch((e) => {
  console.error(e.message);
  process.exit(1);
});
var { site } = publishedSite(site0, /* @__PURE__ */ new Date(), "production");
for (let i = 0; i < 8; i++) {
  const t0 = performance.now();
  const r = routes(site);
  const t1 = performance.now();
  const p = planCards(site, r, dir + "/content", "code");
  const t2 = performance.now();
  siteSource(site, "a", "b");
  const t3 = performance.now();
  console.log(`routes ${(t1 - t0).toFixed(1)} planCards ${(t2 - t1).toFixed(1)} siteSource ${(t3 - t2).toFixed(1)} (${p.routes.length} routes)`);
}
