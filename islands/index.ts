import MobileMenu from './mobile-menu.tsx';

/**
 * Every island, by the name its chunk and marker carry. The name is the file's name in islands/,
 * which is how the bundler finds the code to hydrate.
 */
export const islands = {
  'mobile-menu': MobileMenu,
};

export type IslandName = keyof typeof islands;
