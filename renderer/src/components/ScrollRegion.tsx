import Box from '@mui/material/Box';
import type { ReactNode } from 'react';

/**
 * A wide table's own box, scrolling sideways inside the page instead of pushing the whole page
 * (WCAG 1.4.10, reflow at 320 CSS pixels). It is a named region that takes focus, so a person
 * using the keyboard alone can scroll it with the arrow keys.
 */
export function ScrollRegion({
  label,
  children,
  testId,
}: {
  /** What the region holds, as a screen reader names it ("Files of this upload"). */
  label: string;
  children: ReactNode;
  testId?: string;
}) {
  return (
    <Box
      role="region"
      aria-label={label}
      tabIndex={0}
      data-testid={testId}
      className="scroll-region"
      sx={{
        overflowX: 'auto',
        // What is placed absolutely inside (a visually hidden header) is placed, and clipped, here:
        // otherwise it would stretch the page past the box.
        position: 'relative',
        maxWidth: '100%',
        '&:focus-visible': { outline: '3px solid #f2a900', outlineOffset: '2px' },
      }}
    >
      {children}
    </Box>
  );
}
