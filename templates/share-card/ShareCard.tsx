/**
 * The picture a page shows when its link is shared (og:image), 1200 × 630. Drawn by takumi, not a
 * browser: inline styles (flexbox, absolute positions), every box with its `boxSizing` said
 * (renderers size a padded box differently), images named by a key the drawing code hands the
 * renderer their bytes under. The title arrives already laid out in lines (see src/cards/fit.ts),
 * into the box `cardTitleBox` gives, so it can never run outside it.
 */
export const CARD_WIDTH = 1200;
export const CARD_HEIGHT = 630;
/** Kept clear on every side: social sites round corners and crop a little. */
export const CARD_MARGIN = 64;
const LABEL_HEIGHT = 40;
const FOOTER_HEIGHT = 64;
const GAP = 28;
const ART_WIDTH = 380;
const ART_GAP = 48;

/** The site's palette (templates/styles/base.css). */
const NAVY_800 = '#0b2545';
const NAVY_700 = '#13315c';
const TEAL_300 = '#5eead4';
const TEAL_500 = '#14b8a6';
const SLATE_300 = '#cbd5e1';
const WHITE = '#ffffff';

/** The art's own size: the card scales it to fit its panel. */
export interface ShareCardArt { width: number; height: number }
/** An image on the card: `src`, the key its bytes are handed to the renderer under. */
export interface ShareCardImage { src: string }
/** A place on the card, in pixels. */
export interface CardSlot { left: number; top: number; width: number; height: number }

export interface ShareCardProps {
  title: { lines: string[]; fontSize: number; lineHeight: number };
  /** 'Article · Data governance', 'Case study', 'Service'. */
  label: string;
  siteName: string;
  /** The site's address as people read it: www.example.com. */
  siteHost: string;
  /** The logo mark, left of the site's name. */
  logo?: ShareCardImage;
  art?: ShareCardArt & ShareCardImage;
}

/** Where the title may be drawn: the safe area less the label, the footer and the art. */
export function cardTitleBox(hasArt: boolean): { left: number; top: number; width: number; height: number } {
  const top = CARD_MARGIN + LABEL_HEIGHT + GAP;
  return {
    left: CARD_MARGIN,
    top,
    width: CARD_WIDTH - 2 * CARD_MARGIN - (hasArt ? ART_WIDTH + ART_GAP : 0),
    height: CARD_HEIGHT - CARD_MARGIN - FOOTER_HEIGHT - GAP - top,
  };
}

const LOGO_SIZE = 52;
const FOOTER_TOP = CARD_HEIGHT - CARD_MARGIN - FOOTER_HEIGHT;
const LOGO_GAP = 20;

/** Where the logo mark and the art go: the art scaled to fit its panel, whole, and centred in it. */
export function cardImageSlots(art: ShareCardArt | undefined): { logo: CardSlot; art?: CardSlot } {
  const box = cardTitleBox(!!art);
  const logo = { left: CARD_MARGIN, top: FOOTER_TOP + (FOOTER_HEIGHT - LOGO_SIZE) / 2, width: LOGO_SIZE, height: LOGO_SIZE };
  if (!art) return { logo };
  const scale = Math.min(ART_WIDTH / art.width, box.height / art.height);
  const width = Math.round(art.width * scale), height = Math.round(art.height * scale);
  return { logo, art: { left: CARD_WIDTH - CARD_MARGIN - ART_WIDTH + Math.round((ART_WIDTH - width) / 2), top: box.top + Math.round((box.height - height) / 2), width, height } };
}

/** Every box sized by its border edge, said outright: renderers differ on a padded box's default. */
const BOX = { boxSizing: 'border-box' } as const;

const placed = (slot: CardSlot) => ({ ...BOX, position: 'absolute', left: slot.left, top: slot.top, width: slot.width, height: slot.height }) as const;

export function ShareCard({ title, label, siteName, siteHost, logo, art }: ShareCardProps) {
  const box = cardTitleBox(!!art);
  const slots = cardImageSlots(art);
  return (
    <div style={{ ...BOX, width: CARD_WIDTH, height: CARD_HEIGHT, display: 'flex', flexDirection: 'column', position: 'relative', background: NAVY_800, fontFamily: 'Inter', color: WHITE }}>
      <div style={{ ...BOX, position: 'absolute', left: 0, top: 0, width: CARD_WIDTH, height: 10, background: TEAL_500 }} />
      <div style={{ ...BOX, position: 'absolute', left: CARD_MARGIN, top: CARD_MARGIN, height: LABEL_HEIGHT, display: 'flex', alignItems: 'center', fontSize: 28, fontWeight: 700, color: TEAL_300 }}>
        {label}
      </div>
      <div style={{ ...BOX, position: 'absolute', left: box.left, top: box.top, width: box.width, height: box.height, display: 'flex', flexDirection: 'column', justifyContent: 'center' }}>
        {title.lines.map((line, i) => (
          <div key={i} style={{ ...BOX, display: 'flex', fontSize: title.fontSize, lineHeight: title.lineHeight, fontWeight: 700, whiteSpace: 'nowrap' }}>{line}</div>
        ))}
      </div>
      <div style={{ ...BOX, position: 'absolute', left: CARD_MARGIN, width: CARD_WIDTH - 2 * CARD_MARGIN, top: FOOTER_TOP - GAP / 2, height: 2, background: NAVY_700 }} />
      <div style={{ ...BOX, position: 'absolute', left: CARD_MARGIN, width: CARD_WIDTH - 2 * CARD_MARGIN, top: FOOTER_TOP, height: FOOTER_HEIGHT, display: 'flex', alignItems: 'center' }}>
        {logo && <div style={{ ...BOX, width: LOGO_SIZE, height: LOGO_SIZE, marginRight: LOGO_GAP, flexShrink: 0 }} />}
        <div style={{ ...BOX, display: 'flex', fontSize: 30, fontWeight: 700 }}>{siteName}</div>
        <div style={{ ...BOX, display: 'flex', marginLeft: 'auto', fontSize: 26, fontWeight: 400, color: SLATE_300 }}>{siteHost}</div>
      </div>
      {logo && <img src={logo.src} alt="" style={placed(slots.logo)} />}
      {art && slots.art && <img src={art.src} alt="" style={placed(slots.art)} />}
    </div>
  );
}
