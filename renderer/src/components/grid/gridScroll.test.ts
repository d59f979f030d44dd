import { describe, expect, it } from 'vitest';
import { scrollLeftToShow, scrollTopToShow } from './gridScroll';

const view = { scrollTop: 0, clientHeight: 314, headerHeight: 48, rowHeight: 32 };

describe('scrollTopToShow', () => {
  it('leaves a row that shows whole below the header where it is', () => {
    expect(scrollTopToShow({ ...view, rowIndex: 0 })).toBeNull();
    expect(scrollTopToShow({ ...view, rowIndex: 7 })).toBeNull(); // 48 + 224 + 32 = 304 ≤ 314
  });

  it('scrolls just enough for a row below the box, counting the header above the rows', () => {
    // Row 8 ends at 48 + 288 = 336: 22 px past the box.
    expect(scrollTopToShow({ ...view, rowIndex: 8 })).toBe(22);
  });

  it('scrolls back so a row above shows right under the header', () => {
    expect(scrollTopToShow({ ...view, scrollTop: 500, rowIndex: 3 })).toBe(96);
    expect(scrollTopToShow({ ...view, scrollTop: 96, rowIndex: 3 })).toBeNull();
  });
});

describe('scrollLeftToShow', () => {
  const widths = [64, 160, 160, 160];
  it('leaves a column in view where it is', () => {
    expect(scrollLeftToShow({ scrollLeft: 0, clientWidth: 300, widths, index: 1 })).toBeNull();
  });
  it('scrolls right just enough for a column past the box, and back for one before it', () => {
    expect(scrollLeftToShow({ scrollLeft: 0, clientWidth: 300, widths, index: 3 })).toBe(544 - 300);
    expect(scrollLeftToShow({ scrollLeft: 300, clientWidth: 300, widths, index: 1 })).toBe(64);
  });
  it('shows the start of a column wider than the box', () => {
    expect(scrollLeftToShow({ scrollLeft: 0, clientWidth: 120, widths, index: 2 })).toBe(224);
    expect(scrollLeftToShow({ scrollLeft: 224, clientWidth: 120, widths, index: 2 })).toBeNull();
  });
});
