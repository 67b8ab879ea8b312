import { describe, expect, it } from 'vitest';
import { toggleItem } from '../../islands/shared/accordion-state.ts';

describe('accordion', () => {
  it('opens one item at a time', () => {
    expect(toggleItem(null, 2)).toBe(2);
    expect(toggleItem(2, 4)).toBe(4);
  });
  it('closes the open item when it is activated again', () => {
    expect(toggleItem(3, 3)).toBeNull();
  });
});
