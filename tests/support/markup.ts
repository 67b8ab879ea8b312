/**
 * A page's markup without the text of the site's stylesheet, which every page carries in its head
 * (src/render/document.ts): its selectors name every class the templates use, so a test asking
 * whether a page has an element of a class asks the markup, not the styles.
 */
export const withoutStylesheet = (html: string): string => html.replace(/<style>[\s\S]*?<\/style>/, '<style></style>');
