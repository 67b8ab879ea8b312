/** How `site serve` marks an article that production leaves out, and the words it shows. */
export interface PreviewMark { status: 'draft' | 'scheduled'; label: string }

/**
 * The notice `site serve` puts on a draft or scheduled article, on its page and on its cards. Production
 * builds carry no PreviewMark, so none of this markup reaches dist/.
 */
export function PreviewNotice({ mark, variant }: { mark: PreviewMark; variant: 'banner' | 'card' }) {
  if (variant === 'card') return <p className="preview-marker" data-preview={mark.status}>{mark.label}</p>;
  return (
    <div className="preview-banner" role="note" aria-label="Publication status" data-preview={mark.status}>
      <div className="container">
        <p><strong>{mark.label}</strong> Only <code>site serve</code> shows this article; a production build leaves it out.</p>
      </div>
    </div>
  );
}
