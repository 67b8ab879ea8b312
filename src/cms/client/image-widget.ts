// Decap's image widget, checked against the path the build reads. Decap tests a file field's
// `pattern` against the file's name alone (its getValidateValue hands over the basename), so
// `/images/hero.png` failed `^/images/…`: every existing entry with an image was refused. The
// widget is registered again under its own name with the whole value validated.
import type CMS from 'decap-cms-app';

type Api = typeof CMS;
type ControlClass = new (...args: never[]) => { props: { value?: unknown } };

export function registerPathCheckedImage(cms: Api): void {
  const image = cms.getWidget('image') as unknown as { control: ControlClass; preview: unknown; schema?: unknown } | undefined;
  if (!image) throw new Error('Decap CMS has no image widget');
  class PathCheckedImage extends image.control {
    getValidateValue = () => this.props.value;
  }
  (cms.registerWidget as (...args: unknown[]) => void)('image', PathCheckedImage, image.preview, image.schema);
}
