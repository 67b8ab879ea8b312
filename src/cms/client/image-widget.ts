// Decap's image widget, checked against the path the build reads and shown from the file itself.
// Decap tests a file field's `pattern` against the file's name alone (its getValidateValue hands over
// the basename), so `/images/hero.png` failed `^/images/…`: every existing entry with an image was
// refused. And Decap takes a value starting with '/' for a public address to show as it is, so the
// field's thumbnail asked the page's own server for /images/hero.png, which the site does not serve
// (its images are served in their built variants): the thumbnail is asked for by its name in the
// media folder instead, which Decap reads through the backend. The widget is registered again under
// its own name.
import { createElement, forwardRef } from 'react';
import type CMS from 'decap-cms-app';

type Api = typeof CMS;
type GetAsset = (path: string, field?: unknown) => unknown;
type ControlClass = new (...args: never[]) => { props: { value?: unknown } };

/** '/images/hero.png' → 'hero.png': a name in the media folder, which Decap loads from the backend. */
export const mediaName = (value: unknown): unknown => (typeof value === 'string' && /^\/images\/[^/]+$/.test(value) ? value.slice('/images/'.length) : value);

const byMedia = new WeakMap<GetAsset, GetAsset>();
const fromMedia = (getAsset: GetAsset): GetAsset => {
  let made = byMedia.get(getAsset);
  if (!made) byMedia.set(getAsset, (made = (path, field) => getAsset(mediaName(path) as string, field)));
  return made;
};

export function registerPathCheckedImage(cms: Api): void {
  const image = cms.getWidget('image') as unknown as { control: ControlClass; preview: unknown; schema?: unknown } | undefined;
  if (!image) throw new Error('Decap CMS has no image widget');
  class PathCheckedImage extends image.control {
    getValidateValue = () => this.props.value;
  }
  // Decap reaches the control's methods (its validation) through the ref: forwarded to the instance.
  const Control = forwardRef<unknown, { getAsset: GetAsset }>((props, ref) => createElement(PathCheckedImage as never, { ...props, getAsset: fromMedia(props.getAsset), ref }));
  (cms.registerWidget as (...args: unknown[]) => void)('image', Control, image.preview, image.schema);
}
