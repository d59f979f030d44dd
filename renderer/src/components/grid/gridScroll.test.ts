import { describe, expect, it } from 'vitest';
import { scrollTopToShow } from './gridScroll';

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
